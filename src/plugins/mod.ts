/**
 * The built-in plugins, loaded from the catalogue (`./catalogue.ts`).
 *
 * @module
 */

import type { Plugin } from "../core/plugin.ts";
import { loadBuiltins } from "./catalogue.ts";

/** Every built-in plugin, in catalogue order. */
export const BUILTIN_PLUGINS: readonly Plugin[] = await loadBuiltins();
