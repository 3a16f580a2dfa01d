/**
 * Full-text search over archived outputs (SQLite FTS5, `archive_text`): which earlier output
 * mentioned a name, with its id, command, age and the lines that mention it.
 *
 * The index is filled lazily, by the search itself: archive rows not yet indexed have their
 * files read then, so a `rtok <tool>` run that archives an output pays nothing for search.
 * Rows retention removed leave the index in the same pass.
 *
 * @module
 */

import type { Store } from "../../core/store.ts";
import { archiveDir } from "./archive.ts";
import { joinPath } from "../../core/paths.ts";
import { decodeText } from "../../core/text.ts";

/** Lines shown per hit unless the caller asks otherwise. */
export const DEFAULT_HIT_LINES = 5;

/** Chars of one shown line; the rest is cut with an ellipsis. */
export const MAX_LINE_CHARS = 200;

/** What to search and how much to return. */
export interface SearchOptions {
  /** Only outputs whose command ran in this directory or below; `null` for every project. */
  readonly project: string | null;
  /** Most hits returned. */
  readonly limit: number;
  /** Matching lines shown per hit (default {@linkcode DEFAULT_HIT_LINES}). */
  readonly lines?: number;
  /** The clock, epoch ms (tests pass their own). */
  readonly now?: number;
}

/** One line of an archived output. */
export interface SearchLine {
  /** Its line number, 1-based. */
  readonly n: number;
  /** Its text, cut at {@linkcode MAX_LINE_CHARS}. */
  readonly text: string;
}

/** One archived output that matched. */
export interface SearchHit {
  /** The archive id (`rtok expand <id>`). */
  readonly id: string;
  /** The command that printed it. */
  readonly command: string;
  /** Where it ran. */
  readonly cwd: string;
  /** Its exit code. */
  readonly exitCode: number | null;
  /** The filter whose cut archived it. */
  readonly family: string | null;
  /** Size in bytes. */
  readonly size: number;
  /** When it was (last) archived, ISO 8601 UTC. */
  readonly created: string;
  /** Its age in seconds. */
  readonly ageSeconds: number;
  /** Its age for a person: `42 s`, `5 min`, `3 h`, `2 d`. */
  readonly age: string;
  /** How many of its lines mention a query term. */
  readonly matchingLines: number;
  /** The first of them. */
  readonly lines: readonly SearchLine[];
}

/** What a search found. */
export interface SearchResult {
  /** The query as given. */
  readonly query: string;
  /** `fts` when the query was read as FTS5 syntax; `words` when it was not valid and its words were searched as plain text. */
  readonly matchedAs: "fts" | "words";
  /** Archived outputs this search added to the index. */
  readonly indexed: number;
  /** The matching outputs, newest first. */
  readonly hits: readonly SearchHit[];
}

/**
 * Indexes every archived output not yet in the index and drops index rows whose output
 * retention removed; returns how many outputs were added. Binary outputs are marked and
 * skipped; a missing file is left for a later search.
 */
export async function indexArchive(store: Store, home: string): Promise<number> {
  const pending = store.db.prepare(
    `SELECT a.sha256 AS sha256 FROM archive a LEFT JOIN archive_indexed i ON i.sha256 = a.sha256
     WHERE i.sha256 IS NULL`,
  ).all().map((r) => String((r as { sha256: string }).sha256));
  const read: { sha256: string; body: string | null }[] = [];
  // Files are read before the write lock is taken: other processes never wait on the disk.
  for (const sha256 of pending) {
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(joinPath(archiveDir(home), sha256));
    } catch {
      continue;
    }
    read.push({ sha256, body: decodeText(bytes) });
  }
  return store.write((db) => {
    const stale = db.prepare(
      "SELECT sha256, fts_rowid FROM archive_indexed WHERE sha256 NOT IN (SELECT sha256 FROM archive)",
    ).all() as { sha256: string; fts_rowid: number | null }[];
    const dropText = db.prepare("DELETE FROM archive_text WHERE rowid = ?");
    const dropMark = db.prepare("DELETE FROM archive_indexed WHERE sha256 = ?");
    for (const s of stale) {
      if (s.fts_rowid !== null) dropText.run(s.fts_rowid);
      dropMark.run(s.sha256);
    }
    // Another search may have indexed some of these since they were read.
    const known = db.prepare("SELECT 1 AS x FROM archive_indexed WHERE sha256 = ?");
    const addText = db.prepare("INSERT INTO archive_text (body) VALUES (?)");
    const mark = db.prepare(
      "INSERT INTO archive_indexed (sha256, fts_rowid, indexed) VALUES (?, ?, ?)",
    );
    let added = 0;
    for (const r of read) {
      if (known.get(r.sha256)) continue;
      const rowid = r.body === null ? null : Number(addText.run(r.body).lastInsertRowid);
      mark.run(r.sha256, rowid, Date.now());
      added++;
    }
    return added;
  });
}

/**
 * Searches the archived outputs of `opts.project` (or all) for `query`, indexing what is new
 * first. `query` is FTS5 syntax (`name`, `"a phrase"`, `pre*`, `a OR b`); a query that is not
 * valid FTS5 is searched as its plain words, never thrown. Throws a `TypeError` for a query
 * with nothing in it.
 */
export async function searchArchive(
  store: Store,
  home: string,
  query: string,
  opts: SearchOptions,
): Promise<SearchResult> {
  if (query.trim() === "") {
    throw new TypeError('expected a search query: a name, a "phrase", or words');
  }
  const indexed = await indexArchive(store, home);
  let matchedAs: "fts" | "words" = "fts";
  let rows: _Row[];
  try {
    rows = _match(store, query, opts);
  } catch {
    matchedAs = "words";
    const plain = plainWords(query);
    rows = plain === "" ? [] : _match(store, plain, opts);
  }
  const now = opts.now ?? Date.now();
  const terms = queryTerms(query);
  const hits: SearchHit[] = [];
  for (const r of rows) {
    const body = _body(store, r.rowid);
    const found = matchingLines(body, terms);
    const ageMs = Math.max(0, now - Number(r.created));
    hits.push({
      id: String(r.id),
      command: String(r.command),
      cwd: String(r.cwd),
      exitCode: r.exit_code === null ? null : Number(r.exit_code),
      family: r.family === null ? null : String(r.family),
      size: Number(r.size),
      created: new Date(Number(r.created)).toISOString(),
      ageSeconds: Math.round(ageMs / 1000),
      age: humanAge(ageMs),
      matchingLines: found.length,
      // The best lines, shown in the order they stand in the output.
      lines: found.slice(0, opts.lines ?? DEFAULT_HIT_LINES).sort((a, b) => a.n - b.n),
    });
  }
  return { query, matchedAs, indexed, hits };
}

/** `query`'s words, each a quoted FTS5 string: what an invalid query is searched as. */
export function plainWords(query: string): string {
  return query.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w))
    .map((w) => `"${w.replaceAll('"', '""')}"`).join(" ");
}

/**
 * The terms a line must mention to be shown: the query's words without FTS5 operators, each
 * with whether it is a prefix (`pre*`).
 */
export function queryTerms(query: string): { word: string; prefix: boolean }[] {
  const terms: { word: string; prefix: boolean }[] = [];
  for (const m of query.matchAll(/([\p{L}\p{N}_]+)(\*?)/gu)) {
    if (/^(AND|OR|NOT|NEAR)$/.test(m[1])) continue;
    // The index splits words at `_` as it does at any punctuation.
    const parts = m[1].split("_").filter(Boolean);
    parts.forEach((word, i) =>
      terms.push({ word: word.toLowerCase(), prefix: m[2] === "*" && i === parts.length - 1 })
    );
  }
  return terms;
}

/**
 * The lines of `body` that mention any of `terms` as a whole word (or word start, for a
 * prefix), those that mention the most distinct terms first, then in line order: a query's
 * line ranks above lines that share one common word with it.
 */
export function matchingLines(
  body: string,
  terms: readonly { word: string; prefix: boolean }[],
): SearchLine[] {
  if (terms.length === 0) return [];
  const patterns = terms.map((t) =>
    new RegExp(
      "(?<![\\p{L}\\p{N}])" + t.word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") +
        (t.prefix ? "" : "(?![\\p{L}\\p{N}])"),
      "iu",
    )
  );
  const scored: { line: SearchLine; score: number }[] = [];
  const lines = body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const score = patterns.reduce((n, re) => n + (re.test(lines[i]) ? 1 : 0), 0);
    if (score === 0) continue;
    const line = lines[i].replace(/\r$/, "");
    scored.push({
      score,
      line: {
        n: i + 1,
        text: line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS - 1) + "…" : line,
      },
    });
  }
  scored.sort((a, b) => b.score - a.score || a.line.n - b.line.n);
  return scored.map((x) => x.line);
}

/** An age for a person: `42 s`, `5 min`, `3 h`, `2 d`. */
export function humanAge(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} d`;
}

/** A search result as text: one block per hit (id, age, exit code, command, cwd), then its lines. */
export function searchText(r: SearchResult, project: string | null): string {
  const where = project === null ? "all projects" : project;
  const how = r.matchedAs === "words" ? " (not valid FTS5 syntax: searched as plain words)" : "";
  if (r.hits.length === 0) {
    return `No archived output in ${where} mentions ${JSON.stringify(r.query)}${how}.\n`;
  }
  const out = [
    `${r.hits.length} archived output${r.hits.length === 1 ? "" : "s"} in ${where} ` +
    `mention${r.hits.length === 1 ? "s" : ""} ${JSON.stringify(r.query)}${how}, newest first:`,
  ];
  for (const h of r.hits) {
    const exit = h.exitCode === null ? "signal" : `exit ${h.exitCode}`;
    const cwd = project !== null && h.cwd === project ? "" : `  (in ${h.cwd})`;
    out.push("", `${h.id}  ${h.age} ago  ${exit}  ${h.command}${cwd}`);
    for (const l of h.lines) out.push(`  ${l.n}: ${l.text}`);
    if (h.matchingLines > h.lines.length) {
      out.push(
        `  … ${h.matchingLines - h.lines.length} more matching lines: rtok expand ${h.id} --grep …`,
      );
    }
  }
  return out.join("\n") + "\n";
}

interface _Row {
  rowid: number;
  id: string;
  command: string;
  cwd: string;
  exit_code: number | null;
  family: string | null;
  size: number;
  created: number;
}

function _match(store: Store, fts: string, opts: SearchOptions): _Row[] {
  const scope = _under("a.cwd", opts.project);
  return store.db.prepare(
    `SELECT i.fts_rowid AS rowid, a.id, a.command, a.cwd, a.exit_code, a.family, a.size,
       a.created
     FROM archive_text JOIN archive_indexed i ON i.fts_rowid = archive_text.rowid
       JOIN archive a ON a.sha256 = i.sha256
     WHERE archive_text MATCH ? ${scope.sql}
     ORDER BY a.created DESC, a.id LIMIT ?`,
  ).all(fts, ...scope.params, opts.limit) as unknown as _Row[];
}

function _body(store: Store, rowid: number): string {
  const r = store.db.prepare("SELECT body FROM archive_text WHERE rowid = ?").get(rowid) as
    | { body: string }
    | undefined;
  return r ? String(r.body) : "";
}

// GLOB, not LIKE: `_` and `%` are ordinary in paths; GLOB's own metacharacters are escaped.
function _under(column: string, root: string | null): { sql: string; params: string[] } {
  if (root === null) return { sql: "", params: [] };
  const dir = root.replace(/\/+$/, "") || "/";
  const escaped = dir.replace(/[*?[]/g, (c) => `[${c}]`);
  return {
    sql: `AND (${column} = ? OR ${column} GLOB ?)`,
    params: [dir, `${escaped === "/" ? "" : escaped}/*`],
  };
}
