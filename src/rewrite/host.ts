/**
 * The verdict on a command line as Claude Code's host sees it: the user's rules from the
 * settings files its environment points to, and the words that reach rtok from its PATH.
 * One place for the hook and `rtok rewrite`, so both answer alike.
 *
 * @module
 */

import { NO_RULES, readBashRules, settingsFiles } from "../claude/permissions.ts";
import type { RtokEnv } from "../core/env.ts";
import { joinPath } from "../core/paths.ts";
import { rtokInvocation } from "../core/self.ts";
import { decide, type Decision } from "./decide.ts";
import { DISABLE_VAR, disables } from "../core/env.ts";

/**
 * The verdict on `line`, with `env` and `cwd` as the host's, in permission mode `mode`. Only
 * for Claude Code (`host`) are its settings' rules read; another host's rewrite carries no
 * rule of the user's, so it is allowed unasked only where Claude Code would not ask either,
 * and each host's adapter decides how much of that its own model lets it say.
 */
export function rewriteLine(
  line: string,
  env: RtokEnv,
  cwd: string,
  mode?: string,
  host: string = "claude",
): Decision {
  // Off is off: no settings read, so a broken settings file cannot matter.
  if (disables(env[DISABLE_VAR])) return decide(line, { disabled: true });
  const userDir = env.CLAUDE_CONFIG_DIR ?? (env.HOME ? joinPath(env.HOME, ".claude") : null);
  const rules = host === "claude"
    ? readBashRules(settingsFiles({ userDir, projectDir: env.CLAUDE_PROJECT_DIR ?? cwd }))
    : NO_RULES;
  return decide(line, {
    rules,
    rtok: rtokInvocation({
      path: env.PATH ?? "",
      home: env.HOME,
      denoInstallRoot: env.DENO_INSTALL_ROOT,
    }),
    mode,
  });
}
