/**
 * The `cmd` plugin as the Claude Code hook loads it: only its PreToolUse answer, so the hook's
 * module graph holds none of the filters, nor the declarative filters' TOML parser.
 *
 * @module
 */

import type { Plugin, PreToolDecision, PreToolEvent } from "../../core/plugin.ts";
import { SHELL_TOOL } from "./pretool_tool.ts";
import { lazyImport } from "../../core/lazy.ts";

/** Rewrites the agent's shell call to its rtok form; the rules load on the first Bash call. */
export async function cmdPreTool(ev: PreToolEvent): Promise<PreToolDecision | null> {
  if (ev.tool !== SHELL_TOOL) return null;
  return (await lazyImport<typeof import("./pretool.ts")>(new URL("./pretool.ts", import.meta.url)))
    .rewriteShellCall(ev);
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
};
