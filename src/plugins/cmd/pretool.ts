/**
 * The `cmd` plugin's PreToolUse answer: the agent's shell command in its rtok form, with the
 * verdict the user's own Claude Code rules give it.
 *
 * @module
 */

import { readBashRules, settingsFiles } from "../../claude/permissions.ts";
import { joinPath } from "../../core/paths.ts";
import type { PreToolDecision, PreToolEvent } from "../../core/plugin.ts";
import { rtokInvocation } from "../../core/self.ts";
import { decide } from "../../rewrite/decide.ts";
import { DISABLE_VAR, disables } from "../../rewrite/plan.ts";

import { SHELL_TOOL } from "./pretool_tool.ts";

/** The rewrite of a `Bash` call, or `null` when there is none (or it is denied). */
export function rewriteShellCall(ev: PreToolEvent): PreToolDecision | null {
  if (ev.tool !== SHELL_TOOL) return null;
  const command = ev.input.command;
  if (typeof command !== "string") return null;
  const env = ev.env ?? {};
  if (disables(env[DISABLE_VAR])) return null;
  const userDir = env.CLAUDE_CONFIG_DIR ?? (env.HOME ? joinPath(env.HOME, ".claude") : null);
  const projectDir = env.CLAUDE_PROJECT_DIR ?? ev.cwd;
  const rules = readBashRules(settingsFiles({ userDir, projectDir }));
  const rtok = rtokInvocation({
    path: env.PATH ?? "",
    home: env.HOME,
    denoInstallRoot: env.DENO_INSTALL_ROOT,
  });
  const d = decide(command, { rules, rtok, mode: ev.mode });
  if (d.verdict !== "allow" && d.verdict !== "ask") return null;
  return {
    kind: "rewrite",
    input: { ...ev.input, command: d.command },
    reason: `rtok: ${d.reason}`,
    allow: d.verdict === "allow",
  };
}
