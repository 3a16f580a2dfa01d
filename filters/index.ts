/**
 * The filter catalogue as the rest of rtok reads it: the family table generated from the
 * modules' own declarations, and loaders for a module or a declarative file by its name. A run
 * loads only the one file its family needs.
 *
 * @module
 */

import type { FilterModule } from "../src/core/family.ts";

export { FAMILY_TABLE } from "./families.ts";

// A computed specifier keeps Deno from walking every filter module (and theirs) when any rtok
// process starts: measured 6 ms per run on `rtok git status`. Only the one a run needs loads.
const _at = (p: string): string => new URL(p, import.meta.url).href;

/** The hand-written filter module `file` (`git_log.ts`), loaded on first use. */
export async function loadFilterModule(file: string): Promise<FilterModule> {
  if (!/^[a-z0-9_]+\.ts$/.test(file) || file.startsWith("_")) {
    throw new RangeError(`"${file}" is not a filter module's file name`);
  }
  return await import(_at(`./${file}`)) as FilterModule;
}

/** The text of the declarative filter file `file` (`docker.toml`), embedded in the program. */
export async function loadTomlText(file: string): Promise<string> {
  if (!/^[a-z0-9_]+\.toml$/.test(file)) {
    throw new RangeError(`"${file}" is not a declarative filter file's name`);
  }
  return (await import(_at(`./${file}`), { with: { type: "text" } })).default as string;
}
