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
import { manifest } from "./manifest.ts";
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

/** Shell output shorter than this is not worth loading a filter for, unless it was watched. */
export const CMD_POST_MIN_CHARS = 500;

/**
 * The output of a shell call this process watched, filtered; else that of a plain command of
 * a family that only reads, filtered by its command line; `null` for any other call.
 */
export async function cmdPostTool(ev: PostToolEvent, ctx: Ctx): Promise<PostToolAnswer | null> {
  if (ev.tool !== SHELL_TOOL || ev.result?.kind !== "shell") return null;
  // Only a process that watched a call loaded the watch module before its PostToolUse.
  const pretool = _pretool ? await _pretool : null;
  if (ev.callId && pretool?.watching()) {
    const watched = await (await pretool.watchModule()).filterWatched(ev, ctx);
    if (watched) return watched;
  }
  if (ev.result.text.length < CMD_POST_MIN_CHARS) return null;
  // An rtok command's output is rtok's already (the planner skips it too): nothing to load.
  if (/(?:^|[\s;&|(/'"])(?:rtok|cli\.ts)['"]?(?:\s|$)/.test(ev.result.command ?? "")) return null;
  const load = _pretool ??= lazyImport<_Pretool>(new URL("./pretool.ts", import.meta.url));
  return await (await (await load).watchModule()).filterByCommand(ev, ctx);
}

/** The `cmd` plugin's hook side (same id, so `[plugins.cmd] enabled` governs both). */
export const cmdRewritePlugin: Plugin = {
  manifest: { ...manifest, surfaces: ["hook"] },
  preTool: cmdPreTool,
  postTool: cmdPostTool,
};
