/**
 * What the `guard` plugin is: read by the plugin catalogue without loading the plugin.
 *
 * @module
 */

import type { Manifest } from "../../core/plugin.ts";

/** The `guard` plugin's manifest. */
export const manifest: Manifest = {
  id: "guard",
  surfaces: ["hook"],
  defaultOn: true,
  description:
    "Rewrites shell commands that waste context to a cheaper form, or names one in a reason.",
};
