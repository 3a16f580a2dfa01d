/**
 * What the `measure` plugin is: read by the plugin catalogue without loading the plugin.
 *
 * @module
 */

import type { Manifest } from "../../core/plugin.ts";

/** The `measure` plugin's manifest. */
export const manifest: Manifest = {
  id: "measure",
  surfaces: ["cli", "hook", "mcp", "proxy"],
  defaultOn: true,
  description: "Records one ledger row per run and the filter failures, for `rtok gain`.",
};
