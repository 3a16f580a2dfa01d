/**
 * The `memory` plugin: not built yet (an engineer is building it).
 *
 * @module
 */

import type { Plugin } from "../../core/plugin.ts";

/** The `memory` plugin. */
export const memoryPlugin: Plugin = {
  manifest: {
    id: "memory",
    surfaces: ["hook"],
    defaultOn: true,
    description: "Not built yet.",
  },
};
