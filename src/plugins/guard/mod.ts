/**
 * The `guard` plugin: not built yet (an engineer is building it).
 *
 * @module
 */

import type { Plugin } from "../../core/plugin.ts";

/** The `guard` plugin. */
export const guardPlugin: Plugin = {
  manifest: {
    id: "guard",
    surfaces: ["hook"],
    defaultOn: true,
    description: "Not built yet.",
  },
};
