/**
 * The plugins the Claude Code hook dispatches to: the ledger, and the `cmd` plugin's rewrite.
 * Kept apart from `BUILTIN_PLUGINS` so the hook loads no filter module.
 *
 * @module
 */

import type { Plugin } from "../core/plugin.ts";
import { cmdRewritePlugin } from "./cmd/rewrite_plugin.ts";
import { measurePlugin } from "./measure/mod.ts";

/** The built-in plugins the hook serves, in catalogue order. */
export const HOOK_PLUGINS: readonly Plugin[] = [measurePlugin, cmdRewritePlugin];
