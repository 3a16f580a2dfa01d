/**
 * `deno task families`: builds the family table (`filters/families.ts`) from what each filter
 * module declares (`FAMILIES` in `filters/*.ts`, the `[[filter]]` tables of `filters/*.toml`),
 * and writes each family's saving, measured on its golden fixtures, back into the module that
 * declares it. `--check` changes nothing and exits 1 when a file would change.
 *
 * The collection is strict: a module that declares no family, a family two files claim, a
 * declaration whose key is not its filter's name, or two detectors with one rank is an error
 * that names the files.
 *
 * @module
 */

import type { FamilyEntry, FilterModule } from "../src/core/family.ts";
import { type FilterDef, parseFilterFile } from "../src/plugins/cmd/toml/spec.ts";

const FILTERS = new URL("../filters/", import.meta.url);
const TABLE = new URL("families.ts", FILTERS);

/** One file of `filters/` and what it declares. */
export interface DeclaringFile {
  /** Its name in `filters/`. */
  readonly file: string;
  /** A module's exports (for `.ts`), or a declarative file's filters (for `.toml`). */
  readonly module?: Partial<FilterModule>;
  /** The filters of a declarative file. */
  readonly defs?: readonly FilterDef[];
}

/** The family table, and each detector's owner by rank. */
export interface Collected {
  /** Family → its row, in file order then declaration order. */
  readonly table: Record<string, FamilyEntry>;
  /** Family → the file that declares it. */
  readonly owners: ReadonlyMap<string, string>;
}

/** True for the files of `filters/` that are filter modules or declarative filter files. */
export function isDeclaringFile(name: string): boolean {
  if (name.endsWith(".toml")) return true;
  return name.endsWith(".ts") && !name.startsWith("_") && !name.endsWith("_test.ts") &&
    name !== "index.ts" && name !== "families.ts";
}

/**
 * The family table of `files`. Throws a `TypeError` listing every problem, each naming its
 * file (and the other file, for a family or a rank claimed twice).
 */
export function collectFamilies(files: readonly DeclaringFile[]): Collected {
  const problems: string[] = [];
  const table: Record<string, FamilyEntry> = {};
  const owners = new Map<string, string>();
  const ranks = new Map<number, string>();
  const claim = (family: string, file: string): boolean => {
    const other = owners.get(family);
    if (other !== undefined) {
      problems.push(`filters/${file} and filters/${other} both declare the family "${family}"`);
      return false;
    }
    owners.set(family, file);
    return true;
  };
  for (const { file, module, defs } of files) {
    if (file.endsWith(".toml")) {
      if (!defs || defs.length === 0) problems.push(`filters/${file} declares no family`);
      for (const d of defs ?? []) {
        if (!claim(d.name, file)) continue;
        table[d.name] = {
          file,
          pipeSafe: d.pipeSafe,
          readOnly: false,
          saving: null,
          detects: false,
        };
      }
      continue;
    }
    const declared = module?.FAMILIES;
    if (!declared || typeof declared !== "object" || Object.keys(declared).length === 0) {
      problems.push(`filters/${file} declares no family (it exports no FAMILIES, or an empty one)`);
      continue;
    }
    for (const [family, d] of Object.entries(declared)) {
      if (d?.filter?.name !== family) {
        problems.push(
          `filters/${file}: FAMILIES["${family}"] holds the filter "${d?.filter?.name}"; ` +
            "the key must be its filter's name",
        );
        continue;
      }
      if (d.saving !== null && !(Number.isInteger(d.saving) && d.saving >= -100)) {
        problems.push(`filters/${file}: "${family}" has saving ${d.saving}; expected a whole %`);
      }
      for (const s of d.shapes ?? []) {
        const other = ranks.get(s.rank);
        if (other !== undefined) {
          problems.push(
            `filters/${file} ("${family}") and ${other} both have a detector of rank ${s.rank}`,
          );
        } else ranks.set(s.rank, `filters/${file} ("${family}")`);
      }
      if (!claim(family, file)) continue;
      table[family] = {
        file,
        pipeSafe: d.rewrite.pipeSafe,
        readOnly: d.rewrite.readOnly,
        saving: d.saving,
        ...(d.rewrite.failsWithOutput ? { failsWithOutput: true } : {}),
        detects: (d.shapes?.length ?? 0) > 0,
      };
    }
  }
  if (problems.length) {
    throw new TypeError(`The family table cannot be built:\n${problems.join("\n")}`);
  }
  return { table, owners };
}

/** Every declaring file of `filters/`, read (modules imported, TOML files parsed). */
export async function readDeclaringFiles(): Promise<DeclaringFile[]> {
  const names = [...Deno.readDirSync(FILTERS)].filter((e) => e.isFile && isDeclaringFile(e.name))
    .map((e) => e.name).sort();
  const files: DeclaringFile[] = [];
  for (const file of names) {
    const url = new URL(file, FILTERS);
    if (file.endsWith(".toml")) {
      files.push({ file, defs: parseFilterFile(await Deno.readTextFile(url), `filters/${file}`) });
    } else {
      files.push({ file, module: await import(url.href) as Partial<FilterModule> });
    }
  }
  return files;
}

/** The text of `filters/families.ts` for `table`. */
export function renderTable(table: Readonly<Record<string, FamilyEntry>>): string {
  const rows = Object.entries(table).map(([family, e]) =>
    `  ${JSON.stringify(family)}: ${JSON.stringify(e).replace(/"(\w+)":/g, "$1: ")},`
  );
  return `/**
 * The family table: every filtered command family, with the file that declares it, its rewrite
 * rule, its measured saving and whether it recognises its output from text alone.
 *
 * Generated by \`deno task families\` from the declarations in \`filters/*.ts\` (\`FAMILIES\`) and
 * \`filters/*.toml\`; do not edit. Change the module, then run the task: tests/families_test.ts
 * fails while this file and the declarations disagree.
 *
 * @module
 */

import type { FamilyEntry } from "../src/core/family.ts";

/** Every built-in family, by name. */
export const FAMILY_TABLE: Readonly<Record<string, FamilyEntry>> = {
${rows.join("\n")}
};
`;
}

/**
 * `source` (a filter module's text) with each family's `saving` set to `savings[family]`
 * (`null` when absent). Throws when a family's declaration has no `saving` to set.
 */
export function withSavings(
  source: string,
  file: string,
  families: readonly string[],
  savings: Readonly<Record<string, number>>,
): string {
  let out = source;
  for (const family of families) {
    const key = new RegExp(
      `(\\n\\s*${_quoted(family)}:\\s*\\{[\\s\\S]*?\\bsaving:\\s*)(-?\\d+|null)`,
    );
    if (!key.test(out)) {
      throw new TypeError(`filters/${file}: cannot find the saving of "${family}" to write`);
    }
    const value = Object.hasOwn(savings, family) ? String(savings[family]) : "null";
    out = out.replace(key, (_m, head: string) => head + value);
  }
  return out;
}

function _quoted(family: string): string {
  return JSON.stringify(family).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// `text` as `deno fmt` leaves it under the project's own settings.
async function _format(text: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "fmt",
      "--config",
      new URL("../deno.json", import.meta.url).pathname,
      "--ext",
      "ts",
      "-",
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(text));
  await w.close();
  const out = await child.output();
  if (!out.success) throw new Error(`deno fmt failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

// The table's text for `files`, formatted as `deno fmt` leaves it.
async function _rendered(files: readonly DeclaringFile[]): Promise<string> {
  return await _format(renderTable(collectFamilies(files).table));
}

async function _current(): Promise<string> {
  try {
    return await Deno.readTextFile(TABLE);
  } catch {
    return "";
  }
}

async function _main(check: boolean): Promise<number> {
  const stale: string[] = [];
  let files = await readDeclaringFiles();
  // The loaders read the table, and measuring runs the filters: the table comes first.
  let table = await _rendered(files);
  if (table !== await _current()) {
    stale.push("filters/families.ts");
    if (check) {
      console.log(`out of date: ${stale.join(", ")}`);
      return 1;
    }
    await Deno.writeTextFile(TABLE, table);
  }
  const { measuredSavings } = await import("../tests/_savings.ts");
  const savings = await measuredSavings();
  const { owners } = collectFamilies(files);
  const unknown = Object.keys(savings).filter((f) => !owners.has(f));
  if (unknown.length) throw new TypeError(`fixtures name families no module declares: ${unknown}`);
  let rewritten = false;
  for (const { file, module } of files) {
    if (!module?.FAMILIES) continue;
    const url = new URL(file, FILTERS);
    const before = await Deno.readTextFile(url);
    const after = withSavings(before, file, Object.keys(module.FAMILIES), savings);
    if (after === before) continue;
    stale.push(`filters/${file}`);
    if (!check) {
      await Deno.writeTextFile(url, after);
      rewritten = true;
    }
  }
  if (rewritten) {
    files = await _readFresh(files);
    table = await _rendered(files);
    if (table !== await _current()) await Deno.writeTextFile(TABLE, table);
  }
  const n = Object.keys(collectFamilies(files).table).length;
  if (check) {
    console.log(stale.length ? `out of date: ${stale.join(", ")}` : `${n} families, up to date`);
    return stale.length ? 1 : 0;
  }
  console.log(
    `${n} families; written: ${stale.length ? [...new Set(stale)].join(", ") : "nothing"}`,
  );
  return 0;
}

// Modules whose saving was just rewritten are read again, so the table shows the new figures.
async function _readFresh(files: readonly DeclaringFile[]): Promise<DeclaringFile[]> {
  const out: DeclaringFile[] = [];
  for (const f of files) {
    if (!f.module) {
      out.push(f);
      continue;
    }
    const url = new URL(f.file, FILTERS);
    url.searchParams.set("fresh", String(Date.now()));
    out.push({ file: f.file, module: await import(url.href) as Partial<FilterModule> });
  }
  return out;
}

if (import.meta.main) Deno.exit(await _main(Deno.args.includes("--check")));
