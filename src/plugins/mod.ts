/**
 * The built-in plugins.
 *
 * @module
 */

import type { Plugin } from "../core/plugin.ts";
import { archivePlugin } from "./archive/mod.ts";
import { cmdPlugin } from "./cmd/mod.ts";
import { graphPlugin } from "./graph/mod.ts";
import { guardPlugin } from "./guard/mod.ts";
import { memoryPlugin } from "./memory/mod.ts";
import { injectPlugin } from "./inject/mod.ts";
import { measurePlugin } from "./measure/mod.ts";
import { posttoolPlugin } from "./posttool/mod.ts";
import { proxyPlugin } from "./proxy/mod.ts";

/** Every built-in plugin; their ids and defaults match `CATALOGUE`. */
export const BUILTIN_PLUGINS: readonly Plugin[] = [
  measurePlugin,
  cmdPlugin,
  guardPlugin,
  archivePlugin,
  proxyPlugin,
  posttoolPlugin,
  injectPlugin,
  graphPlugin,
  memoryPlugin,
];
