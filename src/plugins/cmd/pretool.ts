/**
 * The `cmd` plugin's PreToolUse answer: the agent's shell command in its rtok form, with the
 * verdict the user's own Claude Code rules give it. In a resident server, a command that only
 * reads is watched instead (`watch.ts`): it runs as the tool, and its output is filtered when
 * the call returns.
 *
 * @module
 */

import type { PreToolDecision, PreToolEvent } from "../../core/plugin.ts";
import { NATIVE_HOST, rewriteLine } from "../../rewrite/host.ts";
import { lazyImport } from "../../core/lazy.ts";
import { SHELL_TOOL } from "./pretool_tool.ts";

/** What watches a call in a resident server, loaded there on its first shell call. */
export type WatchModule = typeof import("./watch.ts");

/** The watch module, loaded once per process (only a resident server loads it). */
export function watchModule(): Promise<WatchModule> {
  return _watch ??= lazyImport<WatchModule>(new URL("./watch.ts", import.meta.url));
}
let _watch: Promise<WatchModule> | null = null;

/** True once this process has loaded the watch module (so it may be watching calls). */
export function watching(): boolean {
  return _watch !== null;
}

/** The rewrite of a `Bash` call, or `null` when there is none (or it is denied). */
export async function rewriteShellCall(ev: PreToolEvent): Promise<PreToolDecision | null> {
  if (ev.tool !== SHELL_TOOL) return null;
  const command = ev.input.command;
  if (typeof command !== "string") return null;
  const d = rewriteLine(command, ev.env ?? {}, ev.cwd, ev.mode, ev.host ?? NATIVE_HOST);
  if (d.verdict !== "allow" && d.verdict !== "ask") return null;
  if (ev.resident && ev.callId) {
    const watched = await (await watchModule()).watchShellCall(ev, d);
    if (watched !== undefined) return watched;
  }
  return {
    kind: "rewrite",
    input: { ...ev.input, command: d.command },
    reason: `rtok: ${d.reason}`,
    allow: d.verdict === "allow",
  };
}
