/**
 * The `graph` plugin: a symbol index per project, kept in the store and brought up to date by
 * file mtime and size before each question, answering where a name is defined (`rtok where`),
 * where it is used (`rtok refs`) and what a file or directory defines (`rtok symbols`), on the
 * CLI and as the MCP tool `rtok_symbols`. See README.md.
 *
 * @module
 */

import type { Plugin } from "../../core/plugin.ts";
import { manifest } from "./manifest.ts";

/** The `graph` plugin. Its work is done by the commands that ask it; it serves no event. */
export const graphPlugin: Plugin = {
  manifest,
};
