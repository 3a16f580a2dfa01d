/**
 * What the `cmd` plugin is: read by the plugin catalogue without loading the plugin.
 *
 * @module
 */

import type { Manifest } from "../../core/plugin.ts";

/** The `cmd` plugin's manifest. */
export const manifest: Manifest = {
  id: "cmd",
  surfaces: ["cli", "hook"],
  defaultOn: true,
  description:
    "Filters the output of git, grep, rg, ls, find, tree and diff run through rtok, and " +
    "rewrites the agent's shell commands to their rtok form.",
};
