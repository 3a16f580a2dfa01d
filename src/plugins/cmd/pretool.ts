/**
 * The `cmd` plugin's PreToolUse answer: the agent's shell command in its rtok form, with the
 * verdict the user's own Claude Code rules give it.
 *
 * @module
 */

import type { PreToolDecision, PreToolEvent } from "../../core/plugin.ts";
import { rewriteLine } from "../../rewrite/host.ts";
import { SHELL_TOOL } from "./pretool_tool.ts";

/** The rewrite of a `Bash` call, or `null` when there is none (or it is denied). */
export function rewriteShellCall(ev: PreToolEvent): PreToolDecision | null {
  if (ev.tool !== SHELL_TOOL) return null;
  const command = ev.input.command;
  if (typeof command !== "string") return null;
  const d = rewriteLine(command, ev.env ?? {}, ev.cwd, ev.mode);
  if (d.verdict !== "allow" && d.verdict !== "ask") return null;
  return {
    kind: "rewrite",
    input: { ...ev.input, command: d.command },
    reason: `rtok: ${d.reason}`,
    allow: d.verdict === "allow",
  };
}
