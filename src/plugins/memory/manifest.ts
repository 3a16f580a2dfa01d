/**
 * What the `memory` plugin is: read by the plugin catalogue without loading the plugin.
 *
 * @module
 */

import type { Manifest } from "../../core/plugin.ts";

/** The `memory` plugin's manifest. */
export const manifest: Manifest = {
  id: "memory",
  surfaces: ["hook"],
  defaultOn: true,
  description:
    "Keeps a digest of the session at PreCompact and injects it when the session goes on.",
};
