/**
 * The plugins a command run (`rtok <tool>`) calls: its filter (`cmd`), the archive of what was
 * cut and the ledger row (`measure`). Kept apart from `BUILTIN_PLUGINS` so a run loads none of
 * the others' modules; the spool, when a run drains it, is applied by every built-in plugin.
 *
 * @module
 */

import type { Plugin } from "../core/plugin.ts";
import { archivePlugin } from "./archive/mod.ts";
import { cmdPlugin } from "./cmd/mod.ts";
import { measurePlugin } from "./measure/mod.ts";

/** The built-in plugins a command run calls, in catalogue order. */
export const RUN_PLUGINS: readonly Plugin[] = [measurePlugin, cmdPlugin, archivePlugin];
