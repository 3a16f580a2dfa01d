/**
 * Keeping a project's symbol index in the store current: each source file's mtime and size
 * are compared with the ones it was read at; a new or changed file is parsed again and its
 * rows replaced, a file gone is dropped with its rows, and nothing else is touched. A query
 * runs this first, so an answer is never older than the files.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { joinPath } from "../../core/paths.ts";
import type { Store } from "../../core/store.ts";
import { markIndexed } from "./marker.ts";
import { type Extraction, extractSymbols } from "./extract.ts";
import { listProjectFiles, type ProjectFiles } from "./files.ts";

/** Files larger than this are not parsed (their row says so). */
export const MAX_INDEXED_BYTES = 1024 * 1024;

/** Files parsed before their rows are written, in one transaction each batch. */
const _BATCH = 200;

/** A file the index holds nothing for, and why. */
export interface Unindexed {
  /** Relative to the root. */
  readonly path: string;
  /** Why. */
  readonly problem: string;
}

/** What one update did. */
export interface IndexUpdate {
  /** The project's canonical root. */
  readonly root: string;
  /** Its id in `graph_projects`. */
  readonly projectId: number;
  /** Source files the index covers now. */
  readonly files: number;
  /** Files read and parsed by this update (new or changed since the last). */
  readonly parsed: number;
  /** Files gone since the last update, dropped with their rows. */
  readonly dropped: number;
  /** Files this update parsed that a grammar could not read: indexed by nothing. */
  readonly failed: readonly Unindexed[];
  /** Files this update found too large to parse. */
  readonly skipped: readonly Unindexed[];
  /** How the files were listed. */
  readonly lister: ProjectFiles["lister"];
  /** Wall time of the update, in milliseconds. */
  readonly ms: number;
}

/** How {@linkcode updateIndex} finds and reads files (tests replace them). */
export interface IndexOptions {
  /** `$RTOK_HOME`, where the marker the hook looks for is written; none when absent. */
  readonly home?: string | null;
  /** Lists the project's source files. */
  readonly list?: (root: string) => Promise<ProjectFiles>;
  /** Reads a file's symbols. */
  readonly extract?: (path: string, text: string) => Promise<Extraction>;
}

interface _Known {
  readonly id: number;
  readonly mtime: number;
  readonly size: number;
}

interface _Seen {
  readonly path: string;
  readonly mtime: number;
  readonly size: number;
}

interface _Read extends _Seen {
  readonly extraction: Extraction;
}

/** The project id of `root`, made when it has none. */
function _projectId(store: Store, root: string): number {
  const row = store.db.prepare("SELECT id FROM graph_projects WHERE root = ?").get(root) as
    | { id: number }
    | undefined;
  if (row) return Number(row.id);
  return store.write((db) => {
    const again = db.prepare("SELECT id FROM graph_projects WHERE root = ?").get(root) as
      | { id: number }
      | undefined;
    if (again) return Number(again.id);
    const made = db.prepare("INSERT INTO graph_projects (root, updated) VALUES (?, ?) RETURNING id")
      .get(root, Date.now()) as { id: number };
    return Number(made.id);
  });
}

/** The files the index holds for a project, by path. */
function _known(db: DatabaseSync, projectId: number): Map<string, _Known> {
  const rows = db.prepare("SELECT id, path, mtime, size FROM graph_files WHERE project_id = ?")
    .all(projectId) as { id: number; path: string; mtime: number; size: number }[];
  return new Map(
    rows.map((r) => [r.path, { id: Number(r.id), mtime: Number(r.mtime), size: Number(r.size) }]),
  );
}

function _stat(root: string, path: string): _Seen | null {
  try {
    const s = Deno.statSync(joinPath(root, path));
    if (!s.isFile) return null;
    return { path, mtime: s.mtime?.getTime() ?? 0, size: s.size };
  } catch {
    return null; // listed but gone (deleted, not yet staged), or unreadable
  }
}

async function _readText(path: string): Promise<string | Error> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

function _dropFile(db: DatabaseSync, id: number): void {
  db.prepare("DELETE FROM graph_defs WHERE file_id = ?").run(id);
  db.prepare("DELETE FROM graph_refs WHERE file_id = ?").run(id);
}

// Another rtok may be indexing the same project at once: each file's row is found again
// inside the write (an upsert), so whichever writes last leaves one consistent row.
function _write(db: DatabaseSync, projectId: number, batch: _Read[]) {
  const upsertFile = db.prepare(
    `INSERT INTO graph_files (project_id, path, mtime, size, language, problem)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (project_id, path) DO UPDATE SET mtime = excluded.mtime,
       size = excluded.size, language = excluded.language, problem = excluded.problem
     RETURNING id`,
  );
  const insertDef = db.prepare(
    `INSERT INTO graph_defs (file_id, name, kind, scope, start_line, end_line)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const insertRefs = db.prepare("INSERT INTO graph_refs (file_id, name, lines) VALUES (?, ?, ?)");
  for (const f of batch) {
    const e = f.extraction;
    const language = e.ok ? e.symbols.language : "";
    const problem = e.ok ? null : e.problem;
    const row = upsertFile.get(projectId, f.path, f.mtime, f.size, language, problem) as {
      id: number;
    };
    const id = Number(row.id);
    _dropFile(db, id);
    if (!e.ok) continue;
    for (const d of e.symbols.definitions) {
      insertDef.run(id, d.name, d.kind, d.scope, d.start, d.end);
    }
    for (const [name, lines] of e.symbols.references) insertRefs.run(id, name, lines.join(","));
  }
}

/**
 * Brings the index of the project at `root` (canonical) up to date with its files, and says
 * what it did. Files are listed and stat'ed every time; only new and changed ones are read.
 */
export async function updateIndex(
  store: Store,
  root: string,
  options: IndexOptions = {},
): Promise<IndexUpdate> {
  const started = performance.now();
  const list = options.list ?? listProjectFiles;
  const extract = options.extract ?? extractSymbols;
  const projectId = _projectId(store, root);
  const listed = await list(root);
  const known = _known(store.db, projectId);
  const present = new Set<string>();
  const changed: _Seen[] = [];
  for (const path of listed.paths) {
    const seen = _stat(root, path);
    if (!seen) continue;
    present.add(path);
    const k = known.get(path);
    if (!k || k.mtime !== seen.mtime || k.size !== seen.size) changed.push(seen);
  }
  const gone = [...known.entries()].filter(([path]) => !present.has(path));
  const failed: Unindexed[] = [];
  const skipped: Unindexed[] = [];
  if (gone.length) {
    store.write((db) => {
      for (const [, k] of gone) {
        _dropFile(db, k.id);
        db.prepare("DELETE FROM graph_files WHERE id = ?").run(k.id);
      }
    });
  }
  for (let i = 0; i < changed.length; i += _BATCH) {
    const batch: _Read[] = [];
    for (const seen of changed.slice(i, i + _BATCH)) {
      let extraction: Extraction;
      if (seen.size > MAX_INDEXED_BYTES) {
        const problem =
          `too large to index (${seen.size} bytes; the limit is ${MAX_INDEXED_BYTES})`;
        extraction = { ok: false, problem };
        skipped.push({ path: seen.path, problem });
      } else {
        const text = await _readText(joinPath(root, seen.path));
        extraction = typeof text === "string"
          ? await extract(seen.path, text)
          : { ok: false, problem: `cannot read it: ${text.message}` };
        if (!extraction.ok) failed.push({ path: seen.path, problem: extraction.problem });
      }
      batch.push({ ...seen, extraction });
    }
    store.write((db) => {
      _write(db, projectId, batch);
      db.prepare("UPDATE graph_projects SET updated = ? WHERE id = ?").run(Date.now(), projectId);
    });
  }
  if (options.home) await markIndexed(options.home, root);
  return {
    root,
    projectId,
    files: present.size,
    parsed: changed.length - skipped.length,
    dropped: gone.length,
    failed,
    skipped,
    lister: listed.lister,
    ms: performance.now() - started,
  };
}
