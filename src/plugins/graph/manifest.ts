/**
 * What the `graph` plugin is: read by the plugin catalogue without loading the plugin.
 *
 * @module
 */

import type { Manifest } from "../../core/plugin.ts";

/** The `graph` plugin's manifest. */
export const manifest: Manifest = {
  id: "graph",
  // It serves no event: its commands (`rtok where`, `rtok_symbols`) ask it directly.
  surfaces: [],
  defaultOn: true,
  description: "A symbol index per project: where a name is defined and used, without grepping.",
};
