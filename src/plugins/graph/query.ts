/**
 * Questions to a project's symbol index: where a name is defined, where it is used, what a
 * file or directory defines, and, for a name the index does not hold, the closest ones.
 *
 * @module
 */

import type { Store } from "../../core/store.ts";

/** One definition, as the index holds it. */
export interface DefinitionRow {
  /** The file, relative to the project root. */
  readonly file: string;
  /** The name. */
  readonly name: string;
  /** What it is (`function`, `class`, `method`, …). */
  readonly kind: string;
  /** What the name is qualified through, or `""`. */
  readonly scope: string;
  /** 1-based first line. */
  readonly start: number;
  /** 1-based last line. */
  readonly end: number;
}

/** The uses of a name in one file. */
export interface ReferenceRow {
  /** The file, relative to the project root. */
  readonly file: string;
  /** The 1-based lines, ascending. */
  readonly lines: readonly number[];
}

function _def(r: Record<string, unknown>): DefinitionRow {
  return {
    file: String(r.path),
    name: String(r.name),
    kind: String(r.kind),
    scope: String(r.scope),
    start: Number(r.start_line),
    end: Number(r.end_line),
  };
}

/**
 * The definitions of `name` in the project, by file and line. A name written with its scope
 * (`Parser.parse`, `Stack::push`) matches the definitions of its last part in that scope.
 */
export function findDefinitions(store: Store, projectId: number, name: string): DefinitionRow[] {
  const rows = store.db.prepare(
    `SELECT f.path, d.name, d.kind, d.scope, d.start_line, d.end_line
     FROM graph_defs d JOIN graph_files f ON f.id = d.file_id
     WHERE d.name = ? AND f.project_id = ? ORDER BY f.path, d.start_line, d.end_line DESC`,
  ).all(name, projectId) as Record<string, unknown>[];
  if (rows.length) return rows.map(_def);
  const split = /^(.+)(\.|::)([^.:]+)$/.exec(name);
  if (!split) return [];
  const [, scope, , last] = split;
  return findDefinitions(store, projectId, last).filter((d) =>
    d.scope === scope || d.scope.endsWith(`.${scope}`) || d.scope.endsWith(`::${scope}`)
  );
}

/** The uses of `name` in the project, per file, files in path order. */
export function findReferences(store: Store, projectId: number, name: string): ReferenceRow[] {
  const rows = store.db.prepare(
    `SELECT f.path, r.lines FROM graph_refs r JOIN graph_files f ON f.id = r.file_id
     WHERE r.name = ? AND f.project_id = ? ORDER BY f.path`,
  ).all(name, projectId) as { path: string; lines: string }[];
  return rows.map((r) => ({ file: String(r.path), lines: String(r.lines).split(",").map(Number) }));
}

/**
 * The definitions in the file `path` (relative to the root), or in every file under it when
 * it is a directory (`""` for the whole project), by file, then line.
 */
export function definitionsUnder(store: Store, projectId: number, path: string): DefinitionRow[] {
  const dir = path === "" ? "" : `${path.replace(/\/+$/, "")}/`;
  const rows = store.db.prepare(
    `SELECT f.path, d.name, d.kind, d.scope, d.start_line, d.end_line
     FROM graph_defs d JOIN graph_files f ON f.id = d.file_id
     WHERE f.project_id = ? AND (f.path = ? OR substr(f.path, 1, ?) = ?)
     ORDER BY f.path, d.start_line, d.end_line DESC`,
  ).all(projectId, path, dir.length, dir) as Record<string, unknown>[];
  return rows.map(_def);
}

/** The files under `path` (as {@linkcode definitionsUnder} reads it) the index holds. */
export function filesUnder(store: Store, projectId: number, path: string): string[] {
  const dir = path === "" ? "" : `${path.replace(/\/+$/, "")}/`;
  const rows = store.db.prepare(
    `SELECT path FROM graph_files WHERE project_id = ? AND (path = ? OR substr(path, 1, ?) = ?)
     ORDER BY path`,
  ).all(projectId, path, dir.length, dir) as { path: string }[];
  return rows.map((r) => String(r.path));
}

/** Edit distance between `a` and `b` (insert, delete, substitute: 1 each). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost));
    }
    prev = row;
  }
  return prev[b.length];
}

/**
 * Up to `limit` defined names of the project closest to `name`: the same name in another
 * case first, then names that start with it (or that it starts with), then those within an
 * edit distance of a third of its length (at least 2), nearest first; ties by name.
 */
export function closestNames(store: Store, projectId: number, name: string, limit = 5): string[] {
  const names = (store.db.prepare(
    `SELECT DISTINCT d.name FROM graph_defs d JOIN graph_files f ON f.id = d.file_id
     WHERE f.project_id = ?`,
  ).all(projectId) as { name: string }[]).map((r) => String(r.name));
  const q = name.toLowerCase();
  const max = Math.max(2, Math.floor(name.length / 3));
  const ranked: { name: string; rank: number }[] = [];
  for (const n of names) {
    if (n === name) continue;
    const l = n.toLowerCase();
    if (l === q) ranked.push({ name: n, rank: 0 });
    else if (Math.min(l.length, q.length) >= 3 && (l.startsWith(q) || q.startsWith(l))) {
      ranked.push({ name: n, rank: 1 + Math.abs(l.length - q.length) / 1000 });
    } else if (Math.abs(l.length - q.length) <= max) {
      const d = editDistance(l, q);
      if (d <= max) ranked.push({ name: n, rank: 2 + d });
    }
  }
  ranked.sort((a, b) => a.rank - b.rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return ranked.slice(0, limit).map((r) => r.name);
}
