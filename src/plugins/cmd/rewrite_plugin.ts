/**
 * The `cmd` plugin as the Claude Code hook loads it: only its PreToolUse answer (and, in a
 * resident server, the PostToolUse of the calls it watched), so the hook's module graph holds
 * none of the filters, nor the declarative filters' TOML parser.
 *
 * @module
 */

import type {
  Ctx,
  Plugin,
  PostToolAnswer,
  PostToolEvent,
  PreToolDecision,
  PreToolEvent,
} from "../../core/plugin.ts";
import { SHELL_TOOL } from "./pretool_tool.ts";
import { lazyImport } from "../../core/lazy.ts";

type _Pretool = typeof import("./pretool.ts");
let _pretool: Promise<_Pretool> | null = null;

/** Rewrites the agent's shell call to its rtok form; the rules load on the first Bash call. */
export async function cmdPreTool(ev: PreToolEvent): Promise<PreToolDecision | null> {
  if (ev.tool !== SHELL_TOOL) return null;
  return (await (_pretool ??= lazyImport<_Pretool>(new URL("./pretool.ts", import.meta.url))))
    .rewriteShellCall(ev);
}

/** The output of a call this process watched, filtered; `null` for any other call. */
export async function cmdPostTool(ev: PostToolEvent, ctx: Ctx): Promise<PostToolAnswer | null> {
  // Only a process that watched a call loaded the watch module: any other answers at once.
  if (ev.tool !== SHELL_TOOL || !ev.callId || !_pretool) return null;
  const pretool = await _pretool;
  if (!pretool.watching()) return null;
  return await (await pretool.watchModule()).filterWatched(ev, ctx);
}

/** The `cmd` plugin's hook side (same id, so `[plugins.cmd] enabled` governs both). */
export const cmdRewritePlugin: Plugin = {
  manifest: {
    id: "cmd",
    surfaces: ["hook"],
    defaultOn: true,
    description: "Rewrites the agent's shell commands to their rtok form.",
  },
  preTool: cmdPreTool,
  postTool: cmdPostTool,
};
