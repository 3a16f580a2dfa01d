/**
 * The plugins the Claude Code hook dispatches to: the ledger, the `cmd` plugin's rewrite, the
 * archive (which notes the agent reading an archived output) and `posttool` (the host's own
 * tool results). Kept apart from `BUILTIN_PLUGINS` so the hook loads no filter module until a
 * long tool result needs one.
 *
 * @module
 */

import type { Plugin } from "../core/plugin.ts";
import { cmdRewritePlugin } from "./cmd/rewrite_plugin.ts";
import { guardPlugin } from "./guard/mod.ts";
import { memoryPlugin } from "./memory/mod.ts";
import { archivePlugin } from "./archive/mod.ts";
import { measurePlugin } from "./measure/mod.ts";
import { posttoolPlugin } from "./posttool/mod.ts";

/** The built-in plugins the hook serves, in catalogue order. */
export const HOOK_PLUGINS: readonly Plugin[] = [
  measurePlugin,
  cmdRewritePlugin,
  guardPlugin,
  archivePlugin,
  posttoolPlugin,
  memoryPlugin,
];
