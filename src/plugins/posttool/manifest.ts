/**
 * What the `posttool` plugin is: read by the plugin catalogue without loading the plugin.
 *
 * @module
 */

import type { Manifest } from "../../core/plugin.ts";

/** The `posttool` plugin's manifest. */
export const manifest: Manifest = {
  id: "posttool",
  surfaces: ["hook"],
  defaultOn: true,
  description:
    "Compresses the host's own tool results (whole-file Read, Grep, Glob, shell, MCP) in the hook.",
};
