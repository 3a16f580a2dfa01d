/**
 * The `cmd` plugin: command filters for `rtok <tool> [args…]`.
 *
 * @module
 */

import type { CommandMatch, Plugin } from "../../core/plugin.ts";
import { COMMAND_FILTERS } from "../../../filters/mod.ts";
import { matchCommand } from "./match.ts";

/** The `cmd` plugin. */
export const cmdPlugin: Plugin = {
  manifest: {
    id: "cmd",
    surfaces: ["cli"],
    defaultOn: true,
    description: "Filters the output of git, grep, rg, ls, find, tree and diff run through rtok.",
  },
  commandFilter(argv: readonly string[]): CommandMatch | null {
    return matchCommand(argv, COMMAND_FILTERS);
  },
};
