/**
 * What the `archive` plugin is: read by the plugin catalogue without loading the plugin.
 *
 * @module
 */

import type { Manifest } from "../../core/plugin.ts";

/** The `archive` plugin's manifest. */
export const manifest: Manifest = {
  id: "archive",
  surfaces: ["cli", "hook", "mcp", "proxy"],
  defaultOn: true,
  description: "Keeps every cut output's raw bytes for `rtok expand`, bounded in age and size.",
};
