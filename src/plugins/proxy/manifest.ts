/**
 * What the `proxy` plugin is: read by the plugin catalogue without loading the plugin.
 *
 * @module
 */

import type { Manifest } from "../../core/plugin.ts";

/** The `proxy` plugin's manifest. */
export const manifest: Manifest = {
  id: "proxy",
  surfaces: ["proxy"],
  defaultOn: true,
  description:
    "Compresses tool results inside model requests the proxy forwards; the raw text is archived.",
};
