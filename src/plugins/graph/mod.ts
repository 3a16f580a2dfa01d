/**
 * The `graph` plugin: a symbol index per project, kept in the store and brought up to date by
 * file mtime and size before each question, answering where a name is defined (`rtok where`),
 * where it is used (`rtok refs`) and what a file or directory defines (`rtok symbols`), on the
 * CLI and as the MCP tool `rtok_symbols`. See README.md.
 *
 * What other plugins may ask of it is exported here: whether a project has an index (one stat)
 * and how many definitions of a name it holds (SQLite, loaded only then). Importing this
 * module costs neither.
 *
 * @module
 */

import type { Plugin } from "../../core/plugin.ts";
import { lazyImport } from "../../core/lazy.ts";
import { manifest } from "./manifest.ts";

export { hasSymbolIndex } from "./marker.ts";

type _Lookup = typeof import("./lookup.ts");
let _lookup: Promise<_Lookup> | null = null;

/** Loads what {@linkcode countDefinitions} needs (`node:sqlite`) ahead of the first question. */
export async function warmLookup(): Promise<void> {
  await (_lookup ??= lazyImport<_Lookup>(new URL("./lookup.ts", import.meta.url)));
}

/**
 * How many definitions of `name` the index of `root` holds in the store of `home`, or `null`
 * when that cannot be told now (no store, no index, a busy or damaged store). Ask after
 * `hasSymbolIndex` said there is an index: this loads `node:sqlite`.
 */
export async function countDefinitions(
  home: string,
  root: string,
  name: string,
): Promise<number | null> {
  await warmLookup();
  return (await _lookup!).countDefinitions(home, root, name);
}

/** The `graph` plugin. Its work is done by the commands that ask it; it serves no event. */
export const graphPlugin: Plugin = {
  manifest,
};
