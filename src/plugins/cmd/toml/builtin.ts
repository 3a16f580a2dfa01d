/**
 * The built-in declarative filters (`filters/*.toml`), embedded in the program as text and
 * parsed only when a family they hold runs (or `rtok filters` lists or verifies them).
 *
 * @module
 */

import type { CommandFilter } from "../../../core/filter.ts";
import { FAMILY_TABLE, loadTomlText } from "../../../../filters/index.ts";
import type { FilterDef } from "./spec.ts";

/** How messages name a built-in file. */
export function builtinLabel(file: string): string {
  return `filters/${file}`;
}

/** The built-in files' names, sorted. */
export function builtinTomlFiles(): string[] {
  const files = Object.values(FAMILY_TABLE).map((e) => e.file).filter((f) => f.endsWith(".toml"));
  return [...new Set(files)].sort();
}

/**
 * The filters of the built-in `file`, parsed and validated (throws on an invalid file). The
 * parse is cached in `$RTOK_HOME/cache/` (when there is a home), so a run of a declarative
 * family loads the TOML parser only the first time after an upgrade.
 */
export async function builtinTomlDefs(file: string): Promise<readonly FilterDef[]> {
  if (!builtinTomlFiles().includes(file)) {
    throw new RangeError(`no built-in filter file ${file}`);
  }
  const { homeOrNull, parseCached } = await import("./cache.ts");
  const label = builtinLabel(file);
  const parsed = await parseCached(await loadTomlText(file), label, label, homeOrNull());
  if (parsed.error !== null) throw new SyntaxError(parsed.error);
  return parsed.defs;
}

/** The filter named `name` in the built-in `file`, compiled to run inline. */
export async function builtinTomlFilter(file: string, name: string): Promise<CommandFilter> {
  const def = (await builtinTomlDefs(file)).find((d) => d.name === name);
  if (!def) throw new RangeError(`${builtinLabel(file)} has no filter named "${name}"`);
  const { compileFilter } = await import("./engine.ts");
  return compileFilter(def);
}
