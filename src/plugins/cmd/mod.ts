/**
 * The `cmd` plugin: command filters for `rtok <tool> [args…]`.
 *
 * @module
 */

import type { CommandMatch, Plugin, PreToolDecision, PreToolEvent } from "../../core/plugin.ts";
import { FILTER_LOADERS } from "../../../filters/index.ts";
import { familyOf, splitArgv } from "./match.ts";
import { SHELL_TOOL } from "./pretool_tool.ts";

/** The `cmd` plugin. */
export const cmdPlugin: Plugin = {
  manifest: {
    id: "cmd",
    surfaces: ["cli", "hook"],
    defaultOn: true,
    description:
      "Filters the output of git, grep, rg, ls, find, tree and diff run through rtok, and " +
      "rewrites the agent's shell commands to their rtok form.",
  },
  // The rewrite rules load only when the hook sees a shell call, off every run's path.
  async preTool(ev: PreToolEvent): Promise<PreToolDecision | null> {
    if (ev.tool !== SHELL_TOOL) return null;
    return (await import("./pretool.ts")).rewriteShellCall(ev);
  },
  async commandFilter(argv: readonly string[]): Promise<CommandMatch | null> {
    const load = argv.length ? FILTER_LOADERS[familyOf(argv)] : undefined;
    return load ? { filter: await load(), ...splitArgv(argv) } : null;
  },
};
