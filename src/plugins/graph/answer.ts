/**
 * The answers of `rtok where`, `rtok refs` and `rtok symbols` (and the MCP tool
 * `rtok_symbols`): the index brought up to date, then asked; as text for an agent and as
 * data. Paths are written whole, relative to the directory asked from; lines are the files'
 * own.
 *
 * @module
 */

import { joinPath, parentDir } from "../../core/paths.ts";
import { projectRoot } from "../../core/project.ts";
import type { Store } from "../../core/store.ts";
import { type IndexUpdate, updateIndex } from "./indexer.ts";
import {
  closestNames,
  type DefinitionRow,
  definitionsUnder,
  filesUnder,
  findDefinitions,
  findReferences,
  type ReferenceRow,
} from "./query.ts";

/** What is asked. */
export type GraphQuestion =
  | { readonly kind: "where"; readonly name: string }
  | { readonly kind: "refs"; readonly name: string }
  | { readonly kind: "symbols"; readonly path: string };

/** An answer. */
export interface GraphAnswer {
  /** For the agent: one line per definition or file, or one line saying nothing was found. */
  readonly text: string;
  /** The same facts as data. */
  readonly data: Record<string, unknown>;
  /** False when nothing was found. */
  readonly found: boolean;
  /** What bringing the index up to date did. */
  readonly update: IndexUpdate;
}

/** Where the question is asked from. */
export interface AskOptions {
  /** The directory (canonical or not) names and relative paths are read from. */
  readonly cwd: string;
  /** `$RTOK_HOME`, for the marker the hook looks for. */
  readonly home?: string | null;
}

/** `path` (absolute) written relative to `from` (absolute), `../` where it has to. */
export function relativePath(from: string, path: string): string {
  if (path === from) return ".";
  const a = from === "/" ? [] : from.split("/").slice(1);
  const b = path.split("/").slice(1);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => ".."), ...b.slice(i)].join("/");
}

function _canonical(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/** One definition's line: `<kind> <qualified name> <file>:<start>-<end>`. */
export function definitionLine(d: DefinitionRow, file: string): string {
  const sep = d.scope.includes("::") || file.endsWith(".rs") ? "::" : ".";
  const name = d.scope ? `${d.scope}${sep}${d.name}` : d.name;
  const range = d.start === d.end ? `${d.start}` : `${d.start}-${d.end}`;
  return `${d.kind} ${name} ${file}:${range}`;
}

/** One file's uses: `<file>: <line>, <line>, …`. */
export function referenceLine(r: ReferenceRow): string {
  return `${r.file}: ${r.lines.join(", ")}`;
}

function _suggest(names: readonly string[]): string {
  return names.length ? `closest: ${names.join(", ")}` : "no defined name is close";
}

/** Brings the index up to date and answers `q`. Throws a one-line error for a bad path. */
export async function askGraph(
  store: Store,
  q: GraphQuestion,
  opts: AskOptions,
): Promise<GraphAnswer> {
  const cwd = _canonical(opts.cwd);
  let target = "";
  let root: string;
  if (q.kind === "symbols") {
    const abs = _canonical(q.path.startsWith("/") ? q.path : joinPath(cwd, q.path));
    let stat: Deno.FileInfo;
    try {
      stat = Deno.statSync(abs);
    } catch {
      throw new Error(`"${q.path}" does not exist: give a file or directory of the project`);
    }
    root = projectRoot(stat.isDirectory ? abs : parentDir(abs));
    target = abs === root ? "" : relativePath(root, abs);
    if (target.startsWith("../")) target = "";
  } else {
    root = projectRoot(cwd);
  }
  const update = await updateIndex(store, root, { home: opts.home });
  const show = (file: string) => relativePath(cwd, joinPath(root, file));
  const base = { root, indexed: update.files };
  if (q.kind === "where") {
    const defs = findDefinitions(store, update.projectId, q.name);
    if (defs.length === 0) {
      const close = closestNames(store, update.projectId, q.name);
      return {
        text: `no definition of "${q.name}" in ${root} (${update.files} files indexed); ` +
          `${_suggest(close)}\n`,
        data: { ...base, name: q.name, definitions: [], closest: close },
        found: false,
        update,
      };
    }
    const rows = defs.map((d) => ({ ...d, file: show(d.file) }));
    return {
      text: rows.map((d) => definitionLine(d, d.file)).join("\n") + "\n",
      data: { ...base, name: q.name, definitions: rows },
      found: true,
      update,
    };
  }
  if (q.kind === "refs") {
    const refs = findReferences(store, update.projectId, q.name);
    if (refs.length === 0) {
      const close = closestNames(store, update.projectId, q.name);
      return {
        text: `no use of "${q.name}" in ${root} (${update.files} files indexed); ` +
          `${_suggest(close)}\n`,
        data: { ...base, name: q.name, references: [], closest: close },
        found: false,
        update,
      };
    }
    const rows = refs.map((r) => ({ file: show(r.file), lines: r.lines }));
    const uses = rows.reduce((n, r) => n + r.lines.length, 0);
    return {
      text: rows.map(referenceLine).join("\n") + "\n",
      data: { ...base, name: q.name, uses, references: rows },
      found: true,
      update,
    };
  }
  const files = filesUnder(store, update.projectId, target);
  const shown = q.path;
  if (files.length === 0) {
    return {
      text: `no source file under "${shown}" that rtok indexes ` +
        "(TypeScript, JavaScript, Python, Go, Rust, Java)\n",
      data: { ...base, path: shown, files: [] },
      found: false,
      update,
    };
  }
  const defs = definitionsUnder(store, update.projectId, target);
  const byFile = new Map<string, DefinitionRow[]>(files.map((f) => [f, []]));
  for (const d of defs) byFile.get(d.file)?.push(d);
  const out: string[] = [];
  const data: { file: string; symbols: Omit<DefinitionRow, "file">[] }[] = [];
  for (const [file, list] of byFile) {
    if (list.length === 0) continue;
    const f = show(file);
    out.push(f);
    for (const d of list) {
      const range = d.start === d.end ? `L${d.start}` : `L${d.start}-${d.end}`;
      const sep = d.scope.includes("::") || file.endsWith(".rs") ? "::" : ".";
      out.push(`  ${d.kind} ${d.scope ? `${d.scope}${sep}` : ""}${d.name} ${range}`);
    }
    data.push({ file: f, symbols: list.map(({ file: _f, ...rest }) => rest) });
  }
  if (out.length === 0) {
    return {
      text: `no definitions in the ${files.length} indexed files under "${shown}"\n`,
      data: { ...base, path: shown, files: [] },
      found: false,
      update,
    };
  }
  return {
    text: out.join("\n") + "\n",
    data: { ...base, path: shown, files: data },
    found: true,
    update,
  };
}
