/**
 * The verdict on a command line as its host sees it: the user's rules where the host keeps
 * them in files rtok reads (Claude Code's settings), and the words that reach rtok from PATH.
 * One place for the hook and `rtok rewrite`, so both answer alike.
 *
 * @module
 */

import { type BashRules, NO_RULES, readBashRules, settingsFiles } from "../claude/permissions.ts";
import { HOSTS, isHostId, NATIVE_HOST } from "../hosts/hosts.ts";

/** The host an event that names none came from (re-exported for the plugins). */
export { NATIVE_HOST };
import type { RtokEnv } from "../core/env.ts";
import { joinPath } from "../core/paths.ts";
import { rtokInvocation } from "../core/self.ts";
import { decide, type Decision } from "./decide.ts";
import { DISABLE_VAR, disables } from "../core/env.ts";

/**
 * The user's own Bash permission rules as `host` keeps them, where rtok can read them (a host
 * whose `HOSTS` entry `readsRules`: Claude Code's settings files, the user's and the
 * project's); `null` for a host whose rules rtok does not read.
 */
export function hostRules(
  host: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): BashRules | null {
  if (!isHostId(host) || !HOSTS[host].readsRules) return null;
  const userDir = env.CLAUDE_CONFIG_DIR ?? (env.HOME ? joinPath(env.HOME, ".claude") : null);
  return readBashRules(settingsFiles({ userDir, projectDir: env.CLAUDE_PROJECT_DIR ?? cwd }));
}

/**
 * The verdict on `line`, with `env` and `cwd` as the host's, in permission mode `mode`. The
 * user's rules are read where `host` keeps them in files rtok reads ({@linkcode hostRules});
 * another host's rewrite carries no rule of the user's, so it is allowed unasked only where
 * those rules would not ask either, and each host's adapter decides how much of that its own
 * model lets it say.
 */
export function rewriteLine(
  line: string,
  env: RtokEnv,
  cwd: string,
  mode?: string,
  host: string = NATIVE_HOST,
): Decision {
  // Off is off: no settings read, so a broken settings file cannot matter.
  if (disables(env[DISABLE_VAR])) return decide(line, { disabled: true });
  return decide(line, {
    rules: hostRules(host, env, cwd) ?? NO_RULES,
    rtok: rtokInvocation({
      path: env.PATH ?? "",
      home: env.HOME,
      denoInstallRoot: env.DENO_INSTALL_ROOT,
    }),
    mode,
  });
}
