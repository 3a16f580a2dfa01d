/**
 * The plugins the agent hook dispatches to: the catalogue's plugins whose manifest names the
 * `hook` surface (the ledger, the `cmd` plugin's rewrite, the guard, the archive, which notes
 * the agent reading an archived output, `posttool` for the host's own tool results, and
 * memory). Only these load, so the hook loads no filter module until a long tool result
 * needs one.
 *
 * @module
 */

import type { Plugin } from "../core/plugin.ts";
import { loadBuiltins } from "./catalogue.ts";

/** The built-in plugins the hook serves, in catalogue order. */
export const HOOK_PLUGINS: readonly Plugin[] = await loadBuiltins("hook");
