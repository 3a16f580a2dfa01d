/**
 * Loaders for the built-in filters, one per family of the family table: a hand-written one
 * from its module, a declarative one compiled from its embedded file. Each loads only when its
 * family runs.
 *
 * @module
 */

import type { CommandFilter } from "../../core/filter.ts";
import { FAMILY_TABLE, loadFilterModule } from "../../../filters/index.ts";
import { lazyImport } from "../../core/lazy.ts";
import { rtokHome } from "../../core/config.ts";
import { pathExists } from "../../core/paths.ts";

async function _load(family: string, file: string): Promise<CommandFilter> {
  if (file.endsWith(".toml")) {
    const { builtinTomlFilter } = await lazyImport<typeof import("./toml/builtin.ts")>(
      new URL("./toml/builtin.ts", import.meta.url),
    );
    return await builtinTomlFilter(file, family);
  }
  const declared = (await loadFilterModule(file)).FAMILIES;
  if (!Object.hasOwn(declared, family)) {
    throw new RangeError(`filters/${file} does not declare the family "${family}"`);
  }
  return declared[family].filter;
}

/** Family name → a loader for its built-in filter. */
export const FILTER_LOADERS: Readonly<Record<string, () => Promise<CommandFilter>>> = Object
  .fromEntries(
    Object.entries(FAMILY_TABLE).map(([family, e]) => [family, () => _load(family, e.file)]),
  );

/** Every built-in filter, loaded (for programs built on rtok's library, and for tests). */
export async function loadBuiltinFilters(): Promise<CommandFilter[]> {
  return await Promise.all(Object.values(FILTER_LOADERS).map((load) => load()));
}

/**
 * True when a filter file may choose a command's filter before the built-ins: the project's
 * (`<cwd>/.rtok/filters.toml`) or the user's (`$RTOK_HOME/filters.toml`). A file that cannot
 * be looked at counts, so its reader says what is wrong with it.
 */
export function hasOwnFilterFiles(cwd: string): boolean {
  let home: string | null = null;
  try {
    home = rtokHome();
  } catch { /* no home, no user file */ }
  return pathExists(`${cwd}/.rtok/filters.toml`, true) ||
    (home !== null && pathExists(`${home}/filters.toml`, true));
}
