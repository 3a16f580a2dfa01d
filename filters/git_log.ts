/**
 * `git log`: one line per commit with its full subject, at most three body lines, no ceremony
 * trailers, and authors and dates written once per run of commits that share them. With
 * `--stat` or `--shortstat`, each shown commit's diffstat follows it, compacted by
 * `filters/_stat.ts`: every file with its true counts, renames as two whole paths, the
 * summary's numbers; stage 1 adds `--numstat` (the counts, never scaled) and a stat width no
 * path is shortened in.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { plural, splitLines, stripAnsi } from "../src/core/text.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";
import { GIT_READS } from "./_git.ts";
import { GIT_DIFF_FORMAT_PREFIXES, GIT_DIFF_FORMATS } from "../src/core/grammar/git.ts";
import { anyLine, type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";
import { isStatLine, parseStat, renderStat, type StatBlock } from "./_stat.ts";

/** How many commits `git log` shows when the caller set no limit. */
export const LOG_SHOWN = 10;
/** How many commits stage 1 asks git for when the caller set no limit (the archive keeps them). */
export const LOG_FETCHED = 50;
/** Body lines kept for the newest commit by `git log`. */
export const LOG_BODY_LINES = 3;
/** Body lines kept for every other commit: the first line usually says why. */
export const LOG_OLDER_BODY_LINES = 1;

/** One commit as git's default (medium) format prints it. */
export interface LogEntry {
  /** The full hash as printed. */
  hash: string;
  /** Anything after the hash on the `commit` line: decorations, `--source` names. */
  refs: string;
  /** Parents from a `Merge:` line; empty for an ordinary commit. */
  merge: string;
  /** `Name <email>`. */
  author: string;
  /** The `Date:` value as printed. */
  date: string;
  /** The subject line. */
  subject: string;
  /** The body, unindented, without the subject and the blank line after it. */
  body: string[];
  /** Header lines rtok does not know (`--show-signature` output, for one), kept as printed. */
  extra: string[];
  /**
   * The diffstat printed under the commit (`--stat`, `--shortstat`), when parsed with
   * `{ stat: true }`; `null` when it holds a line rtok cannot read.
   */
  stat?: StatBlock | null;
}

// Trailers that record process, not content; `Fixes:` or `BREAKING CHANGE:` stay.
const CEREMONY =
  /^(signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|suggested-by|helped-by|cc|change-id|reviewed-on):\s/i;

// `--stat` and `--shortstat` are read (a diffstat is for people); `--numstat` alone is a
// format scripts read, and passes unless a `--stat` is printed beside it.
const FORMAT_FLAGS = new Set([
  ...GIT_DIFF_FORMATS,
  "-p",
  "-u",
  "--patch",
  "--stat-count",
  "--cc",
  "--graph",
  "--oneline",
  "--pretty",
  "--format",
]);
const FORMAT_PREFIXES = [
  ...GIT_DIFF_FORMAT_PREFIXES,
  "--format=",
  "--pretty=",
  "--stat-count=",
];

// Flags that print git's `--stat` (`--stat-width=80` and its kin imply it), widths only.
const DIFFSTAT = /^--stat(?:-width|-name-width|-graph-width)?(?:=|$)/;

/** True when the arguments ask for `--stat` (or a flag that implies it) before any `--`. */
export function asksDiffstat(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === "--") return false;
    if (DIFFSTAT.test(arg)) return true;
  }
  return false;
}

/**
 * Why `git log` arguments ask for a format rtok must not rewrite, or `null`. Arguments after
 * `--` are paths and never count. `git show` adds `git diff`'s formats to these, which keep
 * every stat flag passing there.
 */
export function logPassthrough(args: readonly string[]): string | null {
  const diffstat = asksDiffstat(args);
  for (const arg of args) {
    if (arg === "--") break;
    if (FORMAT_FLAGS.has(arg) || FORMAT_PREFIXES.some((p) => arg.startsWith(p))) {
      return `the caller chose the output format (${arg})`;
    }
    if (arg === "--numstat" && !diffstat) return `the caller chose the output format (${arg})`;
    // `--stat=<width>,<name-width>,<count>` lists only the first files.
    if (/^--stat=[^,]*,[^,]*,/.test(arg)) return `the caller limited the stat's files (${arg})`;
    if (/^-L./.test(arg)) return `line history (${arg}) prints patches`;
  }
  return null;
}

/** The commit limit the caller gave (`-5`, `-n 5`, `-n5`, `--max-count=5`), or `null`. */
export function userLimit(args: readonly string[]): number | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    let m = /^-(\d+)$/.exec(arg) ?? /^-n(\d+)$/.exec(arg) ?? /^--max-count=(\d+)$/.exec(arg);
    if (!m && (arg === "-n" || arg === "--max-count") && i + 1 < args.length) {
      m = /^(\d+)$/.exec(args[i + 1]);
    }
    if (m) return Number(m[1]);
  }
  return null;
}

/** Options for {@linkcode parseLog}. */
export interface ParseLogOptions {
  /**
   * Read a diffstat under each commit (`--stat`, `--shortstat`, `--numstat` lines, which git
   * writes unindented after the message) into {@linkcode LogEntry.stat}. Off, they are body
   * lines, as for `git show`, whose stats pass.
   */
  stat?: boolean;
}

/** Parses git's default (medium) log format. Unknown lines are kept, never dropped. */
export function parseLog(
  text: string,
  opts: ParseLogOptions = {},
): { entries: LogEntry[]; preamble: string[] } {
  const entries: LogEntry[] = [];
  const preamble: string[] = [];
  const statLines = new Map<LogEntry, string[]>();
  let entry: LogEntry | null = null;
  let inBody = false;
  let sawSubject = false;
  for (const line of splitLines(stripAnsi(text))) {
    // Body lines are indented, so `commit <hex>` at column 0 always starts a commit.
    const head = /^commit ([0-9a-f]{7,64})(.*)$/.exec(line);
    if (head) {
      entry = {
        hash: head[1],
        refs: head[2].trim(),
        merge: "",
        author: "",
        date: "",
        subject: "",
        body: [],
        extra: [],
      };
      entries.push(entry);
      inBody = false;
      sawSubject = false;
      continue;
    }
    if (!entry) {
      preamble.push(line);
      continue;
    }
    if (!inBody) {
      if (line === "") inBody = true;
      else if (line.startsWith("Merge: ")) entry.merge = line.slice(7).trim();
      else if (line.startsWith("Author: ")) entry.author = line.slice(8).trim();
      else if (line.startsWith("Date: ")) entry.date = line.slice(6).trim();
      else entry.extra.push(line);
      continue;
    }
    // The message is indented; a diffstat is not, and runs to the next commit.
    const stat = statLines.get(entry);
    if (stat) {
      stat.push(line);
      continue;
    }
    if (opts.stat && !line.startsWith("    ") && isStatLine(line)) {
      statLines.set(entry, [line]);
      continue;
    }
    const content = line.startsWith("    ") ? line.slice(4) : line;
    if (!sawSubject) {
      if (content.trim() === "") continue;
      entry.subject = content;
      sawSubject = true;
      continue;
    }
    entry.body.push(content);
  }
  for (const e of entries) trimBlankEnds(e.body);
  for (const [e, lines] of statLines) e.stat = parseStat(lines);
  return { entries, preamble };
}

function trimBlankEnds(lines: string[]): void {
  while (lines.length && lines[0].trim() === "") lines.shift();
  while (lines.length && lines[lines.length - 1].trim() === "") lines.pop();
}

const MONTHS: Record<string, string> = {
  Jan: "01",
  Feb: "02",
  Mar: "03",
  Apr: "04",
  May: "05",
  Jun: "06",
  Jul: "07",
  Aug: "08",
  Sep: "09",
  Oct: "10",
  Nov: "11",
  Dec: "12",
};

/**
 * `Thu Dec 3 07:58:46 2026 +0000` → `{ day: "2026-12-03", time: "07:58" }`, in the author's own
 * time zone as git printed it; any other date form (`--date=relative`, say) is kept whole.
 */
export function compactDate(date: string): { day: string; time: string } {
  const m = /^\w{3} (\w{3}) (\d{1,2}) (\d{2}):(\d{2}):\d{2} (\d{4})(?: ([+-]\d{4}))?$/.exec(date);
  if (!m || !MONTHS[m[1]]) return { day: date, time: "" };
  return { day: `${m[5]}-${MONTHS[m[1]]}-${m[2].padStart(2, "0")}`, time: `${m[3]}:${m[4]}` };
}

/** Options for {@linkcode renderLog}. */
export interface RenderLogOptions {
  /** Commits to show; the rest are counted as cut. */
  maxCommits: number;
  /** Body lines kept for the first (newest) commit. */
  bodyLines: number;
  /** Body lines kept for every later commit (default: `bodyLines`). */
  laterBodyLines?: number;
  /** Characters of the hash to show. */
  hashChars: number;
}

/**
 * Renders parsed commits compactly: `Name <email>, day time–time:` heads each run of commits by
 * one author on one day, then `hash subject`, then up to `bodyLines` body lines indented.
 */
export function renderLog(entries: readonly LogEntry[], opts: RenderLogOptions): Filtered {
  const shown = entries.slice(0, opts.maxCommits);
  const out: string[] = [];
  let trailers = 0;
  let bodyCut = 0;
  let i = 0;
  while (i < shown.length) {
    const first = shown[i];
    const day = compactDate(first.date).day;
    let j = i;
    const times: string[] = [];
    while (
      j < shown.length && shown[j].author === first.author &&
      compactDate(shown[j].date).day === day
    ) {
      times.push(compactDate(shown[j].date).time);
      j++;
    }
    out.push(`${first.author}, ${day}${timeSpan(times)}:`);
    for (const e of shown.slice(i, j)) {
      const refs = e.refs ? ` ${e.refs}` : "";
      const merge = e.merge ? ` [merge ${e.merge}]` : "";
      out.push(`${e.hash.slice(0, opts.hashChars)}${refs}${merge} ${e.subject}`);
      for (const x of e.extra) out.push(`  ${x.trim()}`);
      const body = e.body.filter((l) => l.trim() !== "");
      const kept = body.filter((l) => !CEREMONY.test(l.trim()));
      trailers += body.length - kept.length;
      const limit = e === shown[0] ? opts.bodyLines : opts.laterBodyLines ?? opts.bodyLines;
      for (const l of kept.slice(0, limit)) out.push(`  ${l.trim()}`);
      bodyCut += Math.max(0, kept.length - limit);
      if (e.stat) out.push(...renderStat(e.stat, "  "));
    }
    i = j;
  }
  const cut: string[] = [];
  const older = entries.length - shown.length;
  if (older > 0) cut.push(plural(older, "older commit"));
  if (bodyCut > 0) cut.push(plural(bodyCut, "body line"));
  if (trailers > 0) cut.push(plural(trailers, "trailer line"));
  return { text: out.length ? out.join("\n") + "\n" : "", cut };
}

// Times run newest first in git's order; show the span oldest–newest.
function timeSpan(times: readonly string[]): string {
  const known = times.filter((t) => t !== "");
  if (known.length === 0) return "";
  const newest = known[0];
  const oldest = known[known.length - 1];
  return oldest === newest ? ` ${newest}` : ` ${oldest}–${newest}`;
}

/** The flags stage 1 adds for `--stat`: true counts, and no path shortened to `...`. */
export const STAT_SHAPE: readonly string[] = [
  "--numstat",
  "--stat-width=4096",
  "--stat-graph-width=10",
];

/**
 * True when the commit limit is stage 1's: it writes `-n 50` first, and its stat flags go
 * before the caller's own arguments, so a caller's `-n 50` never stands first in a shaped run.
 */
export function stageOneLimited(input: FilterInput): boolean {
  return input.shaped && input.args[0] === "-n" && input.args[1] === String(LOG_FETCHED);
}

/** Filters `git log` output, and its `--stat`/`--shortstat` under each commit. */
export function filterLog(raw: string, input: FilterInput): Filtered {
  const { entries, preamble } = parseLog(raw, { stat: true });
  if (entries.length === 0) return { text: raw, cut: [] };
  if (entries.some((e) => e.stat === null)) return { text: raw, cut: [] };
  const explicit = !stageOneLimited(input);
  const rendered = renderLog(entries, {
    maxCommits: explicit ? entries.length : LOG_SHOWN,
    bodyLines: LOG_BODY_LINES,
    laterBodyLines: LOG_OLDER_BODY_LINES,
    hashChars: 10,
  });
  let cut = rendered.cut;
  // Stage 1 fetched LOG_FETCHED; a full fetch means older commits exist beyond it too.
  if (!explicit && entries.length >= LOG_FETCHED) {
    cut = cut.map((c) => c.endsWith("older commits") ? c.replace(" older", "+ older") : c);
  }
  const head = preamble.length ? preamble.join("\n") + "\n" : "";
  return { text: head + rendered.text, cut };
}

/** The `git log` filter. */
export const gitLogFilter: CommandFilter = {
  name: "git log",
  textClass: "log",
  quotes: true,
  passthrough: logPassthrough,
  shape(args: readonly string[]): string[] | null {
    const limit = userLimit(args) === null ? ["-n", String(LOG_FETCHED)] : [];
    const stat = asksDiffstat(args) ? STAT_SHAPE : [];
    if (limit.length === 0 && stat.length === 0) return null;
    return [...limit, ...stat, ...args];
  },
  filter: filterLog,
};

// `commit <40 hex>` first, then an author.
function _detect(s: Sample): ShapeMatch | null {
  if (!/^commit [0-9a-f]{40}( \(.*\))?$/.test(s.filled[0] ?? "")) return null;
  return anyLine(s.head, /^(Author|Merge): /) ? shapeMatch() : null;
}

/** The families this module serves. */
export const FAMILIES: FamilyDeclarations = {
  "git log": {
    filter: gitLogFilter,
    rewrite: GIT_READS,
    shapes: [{ rank: 305, detect: _detect }],
    saving: 64,
  },
};
