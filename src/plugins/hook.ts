/**
 * The plugins the Claude Code hook dispatches to: the ledger, the `cmd` plugin's rewrite, and
 * the archive (which notes the agent reading an archived output). Kept apart from
 * `BUILTIN_PLUGINS` so the hook loads no filter module.
 *
 * @module
 */

import type { Plugin } from "../core/plugin.ts";
import { cmdRewritePlugin } from "./cmd/rewrite_plugin.ts";
import { archivePlugin } from "./archive/mod.ts";
import { measurePlugin } from "./measure/mod.ts";

/** The built-in plugins the hook serves, in catalogue order. */
export const HOOK_PLUGINS: readonly Plugin[] = [measurePlugin, cmdRewritePlugin, archivePlugin];
