/**
 * git's diffstat as `git log --stat`, `--shortstat` and `--numstat` print it under each commit,
 * read into files and counts and written compactly: one line per file with its true counts
 * (`src/a.ts +12 −3`), a rename as two whole paths (`src/a.ts → src/b.ts`, never git's
 * `src/{a.ts => b.ts}`), a binary file as git says it (`Bin 200 -> 300 bytes`), and the
 * summary's numbers (`3 files, +20 −5`). The stat graph bars and the padding are what goes.
 *
 * @module
 */

/** One file of a commit's diffstat. */
export interface StatFile {
  /** The path as git wrote it, rename notation and quotes included. */
  readonly path: string;
  /** Lines added, when known. */
  readonly added: number | null;
  /** Lines deleted, when known. */
  readonly deleted: number | null;
  /** Lines changed in all: git's stat number, when its bars were scaled (no split known). */
  readonly changed: number | null;
  /** For a binary file, what git's stat wrote after `|` (`Bin 200 -> 300 bytes`, `Bin`). */
  readonly binary: string | null;
}

/** The summary line: `3 files changed, 20 insertions(+), 5 deletions(-)`. */
export interface StatSummary {
  /** Files changed. */
  readonly files: number;
  /** Insertions (0 when git left the part out). */
  readonly insertions: number;
  /** Deletions (0 when git left the part out). */
  readonly deletions: number;
}

/** A commit's diffstat, read. */
export interface StatBlock {
  /** Every file, in git's order; empty for `--shortstat`. */
  readonly files: readonly StatFile[];
  /** The summary line, when git printed one. */
  readonly summary: StatSummary | null;
}

const NUMSTAT = /^(\d+|-)\t(\d+|-)\t(.+)$/;
const STAT_COUNT = /^(\d+)(?: ([+-]+))?$/;
const STAT_BINARY = /^Bin(?: \d+ -> \d+ bytes)?$/;
const SUMMARY = /^ (\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?$/;

/** True when `line` is a line of a diffstat: a `--numstat` row, a `--stat` row or its summary. */
export function isStatLine(line: string): boolean {
  return NUMSTAT.test(line) || statRow(line) !== null || SUMMARY.test(line);
}

interface StatRow {
  readonly path: string;
  readonly count: number | null;
  readonly bar: string;
  readonly binary: string | null;
}

// ` path<padding> | 12 +++---` or ` path | Bin 0 -> 12 bytes`. Split at the last ` | ` (what
// follows it never holds one) rather than by a pattern, which would backtrack on long padding.
function statRow(line: string): StatRow | null {
  if (!line.startsWith(" ") || line.startsWith("  ")) return null;
  const bar = line.lastIndexOf(" | ");
  if (bar < 2) return null;
  const path = line.slice(1, bar).trimEnd();
  const rest = line.slice(bar + 3).trimStart();
  if (path === "") return null;
  if (STAT_BINARY.test(rest)) return { path, count: null, bar: "", binary: rest };
  const m = STAT_COUNT.exec(rest);
  return m ? { path, count: Number(m[1]), bar: m[2] ?? "", binary: null } : null;
}

interface NumRow {
  readonly path: string;
  readonly added: number | null;
  readonly deleted: number | null;
}

/**
 * Reads the diffstat lines printed under one commit (blank lines allowed), or `null` when a
 * line is not one rtok reads, or the `--numstat` and `--stat` rows disagree.
 */
export function parseStat(lines: readonly string[]): StatBlock | null {
  const nums: NumRow[] = [];
  const stats: StatRow[] = [];
  let summary: StatSummary | null = null;
  for (const line of lines) {
    if (line === "") continue;
    let m = NUMSTAT.exec(line);
    if (m) {
      const binary = m[1] === "-" || m[2] === "-";
      if (binary && m[1] !== m[2]) return null;
      nums.push({
        path: m[3],
        added: binary ? null : Number(m[1]),
        deleted: binary ? null : Number(m[2]),
      });
      continue;
    }
    const row = statRow(line);
    if (row) {
      stats.push(row);
      continue;
    }
    m = SUMMARY.exec(line);
    if (m) {
      const read = {
        files: Number(m[1]),
        insertions: Number(m[2] ?? 0),
        deletions: Number(m[3] ?? 0),
      };
      // `--stat --shortstat` prints the summary twice; two that differ are not a stat rtok knows.
      if (summary && JSON.stringify(summary) !== JSON.stringify(read)) return null;
      summary = read;
      continue;
    }
    return null;
  }
  const files = nums.length ? fromNumstat(nums, stats) : stats.map(fromStat);
  // A path git shortened (`.../tail`) may have lost part of its rename notation: it is shown
  // as git printed it. Any other notation must read one way only.
  const unreadable = (f: StatFile) => !f.path.startsWith("...") && renamePaths(f.path) === null;
  if (files === null || files.some(unreadable)) return null;
  return { files, summary };
}

// `--numstat` rows carry the true counts and whole paths; `--stat` rows, printed after them in
// the same order, add a binary file's sizes. Every pair must agree, or nothing is read.
function fromNumstat(nums: readonly NumRow[], stats: readonly StatRow[]): StatFile[] | null {
  if (stats.length && stats.length !== nums.length) return null;
  const files: StatFile[] = [];
  for (let i = 0; i < nums.length; i++) {
    const num = nums[i];
    const stat = stats[i];
    if (stat && !samePath(num.path, stat.path)) return null;
    if (num.added === null) {
      if (stat && stat.binary === null) return null;
      files.push({ ...num, changed: null, binary: stat?.binary ?? "Bin" });
      continue;
    }
    if (stat && (stat.binary !== null || stat.count !== num.added + num.deleted!)) return null;
    files.push({ ...num, changed: null, binary: null });
  }
  return files;
}

// git shortens a long path in `--stat` to `...` and its tail, from a `/` where it can.
function samePath(full: string, shown: string): boolean {
  return full === shown || (shown.startsWith("...") && full.endsWith(shown.slice(3)));
}

// A `--stat` row alone: its bar gives the split while git did not scale it (one mark a line);
// a scaled bar has fewer marks than the count, and only the count is true.
function fromStat(row: StatRow): StatFile {
  if (row.binary !== null) {
    return { path: row.path, added: null, deleted: null, changed: null, binary: row.binary };
  }
  const added = row.bar.replaceAll("-", "").length;
  const deleted = row.bar.length - added;
  if (added + deleted === row.count) {
    return { path: row.path, added, deleted, changed: null, binary: null };
  }
  return { path: row.path, added: null, deleted: null, changed: row.count, binary: null };
}

const BRACED = /^([^{}]*)\{([^{}]*) => ([^{}]*)\}([^{}]*)$/;

/**
 * The two whole paths git's rename notation stands for (`src/{a.ts => b.ts}`,
 * `{src => lib}/x.ts`, `src/{ => sub}/x.ts`, `a.ts => b.ts`, `"é.ts" => "ü.ts"`), `[path]`
 * for a path that is no rename, or `null` for notation that cannot be read one way only. A
 * copy (`-C`) is written the same way by git, and so reads the same here. A path that holds
 * ` => ` itself cannot be told from a rename, as in git's own output.
 */
export function renamePaths(path: string): [string] | [string, string] | null {
  const parts = path.split(" => ");
  if (parts.length === 1) return [path];
  if (parts.length > 2) return null;
  if (!path.includes("{") && !path.includes("}")) return [parts[0], parts[1]];
  const m = BRACED.exec(path);
  if (!m) return null;
  const [, prefix, from, to, suffix] = m;
  return [join(prefix, from, suffix), join(prefix, to, suffix)];
}

// git factors out a prefix that ends in `/` and a suffix that starts with one; an empty middle
// leaves one `/` between them (`src/` + `` + `/x.ts` is `src/x.ts`).
function join(prefix: string, middle: string, suffix: string): string {
  if (middle !== "") return prefix + middle + suffix;
  if (prefix === "") return suffix.replace(/^\//, "");
  return prefix + (prefix.endsWith("/") && suffix.startsWith("/") ? suffix.slice(1) : suffix);
}

/** `3 files, +20 −5`: a summary's numbers, without git's words around them. */
export function summaryText(s: StatSummary): string {
  return `${s.files} ${s.files === 1 ? "file" : "files"}, +${s.insertions} −${s.deletions}`;
}

/** `src/a.ts +12 −3`, `src/a.ts → src/b.ts +1 −1`, `logo.png Bin 0 -> 1234 bytes`. */
export function fileText(f: StatFile): string {
  const paths = renamePaths(f.path) ?? [f.path];
  const name = paths.join(" → ");
  if (f.binary !== null) return `${name} ${f.binary}`;
  if (f.changed !== null) return `${name} ${f.changed} changed`;
  return `${name} +${f.added} −${f.deleted}`;
}

/**
 * A commit's diffstat as lines to put under it, each after `indent`: one line per file, then
 * the summary. A summary that only repeats the one file above it (`1 file, +3 −1`) is left out:
 * its numbers are that line's.
 */
export function renderStat(block: StatBlock, indent: string): string[] {
  const out = block.files.map((f) => `${indent}${fileText(f)}`);
  const s = block.summary;
  const [only] = block.files;
  const repeats = s !== null && block.files.length === 1 && s.files === 1 &&
    only.added === s.insertions && only.deleted === s.deletions;
  if (s && !repeats) out.push(`${indent}${summaryText(s)}`);
  return out;
}
