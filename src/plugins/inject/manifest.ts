/**
 * What the `inject` plugin is: read by the plugin catalogue without loading the plugin.
 *
 * @module
 */

import type { Manifest } from "../../core/plugin.ts";

/** The `inject` plugin's manifest. */
export const manifest: Manifest = {
  id: "inject",
  surfaces: ["proxy"],
  defaultOn: false,
  description:
    "Adds a terse-answer and a lean-code style to the system prompt of proxied requests.",
};
