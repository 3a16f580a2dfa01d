/**
 * The plugins a command run (`rtok <tool>`) calls: the catalogue's plugins whose manifest
 * names the `cli` surface (its filter, `cmd`; the archive of what was cut; the ledger row,
 * `measure`). Only these load, so a run loads none of the others' modules; the spool, when a
 * run drains it, is applied by every built-in plugin.
 *
 * @module
 */

import type { Plugin } from "../core/plugin.ts";
import { loadBuiltins } from "./catalogue.ts";

/** The built-in plugins a command run calls, in catalogue order. */
export const RUN_PLUGINS: readonly Plugin[] = await loadBuiltins("cli");
