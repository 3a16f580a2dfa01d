/**
 * `grep` and `rg`: hits grouped by file under the true totals, at most 10 shown per file (25
 * when only one file matches) and 50 in all, long lines trimmed; context lines stay with their
 * matches. Both tools share one parser; they differ only in how their flags shape the output.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { plural, splitLines, stripAnsi } from "../src/core/text.ts";
import { lastFlag, type ScannedArgs, scanOptions } from "./_args.ts";
import {
  GREP,
  readSearch,
  RG,
  type SearchArgs,
  type SearchGrammar,
} from "../src/core/grammar/grep.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";
import { type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

/** Matches shown per file when several files match. */
export const GREP_PER_FILE: number = 10;
/** Matches shown when a single file matches (or none is named): it asks about that file. */
export const GREP_ONE_FILE: number = 25;
/** Matches shown in all. */
export const GREP_SHOWN: number = 50;
/** Files listed with their count once the shown matches run out. */
export const GREP_FILES_LISTED: number = 100;
/** Longest match text shown whole; longer text is cut to this width, `…` included. */
export const GREP_TEXT_WIDTH: number = 160;

/** How one run prints its hits, decided from its arguments. */
interface HitLayout {
  /** Lines start with the file name. */
  readonly filenames: boolean;
  /** Lines carry a line number. */
  readonly numbered: boolean;
  /** Context lines and group separators may appear. */
  readonly context: boolean;
  /** The line between context groups, `null` when there is none. */
  readonly separator: string | null;
  /** The one file searched when no name is printed, for the header. */
  readonly soleFile: string | null;
}

/** What tells grep and rg apart: their grammar and how it decides the layout of the hits. */
interface Dialect {
  readonly grammar: SearchGrammar;
  /** The layout of the hits; `lines` only settles whether a lone operand is a directory. */
  layoutOf(search: SearchArgs, lines: readonly string[]): HitLayout;
}

// A single operand can be a file (no names printed) or a directory (names printed); a pure
// filter cannot stat it, but names under a directory always start with `dir/`.
function printsNamesUnder(operand: string, lines: readonly string[]): boolean {
  const prefix = operand.endsWith("/") ? operand : `${operand}/`;
  return lines.some((line) => line.startsWith(prefix));
}

function contextSeparator(grammar: SearchGrammar, scanned: ScannedArgs): string | null {
  const { set, off } = grammar.separator;
  const last = lastFlag(scanned, [set, off]);
  if (!last) return "--";
  return last.flag === off ? null : last.value ?? "--";
}

// The caller's last word on file names, when there is one: true for names.
function namesChosen(grammar: SearchGrammar, scanned: ScannedArgs): boolean | undefined {
  const { on, off } = grammar.filenames;
  const last = lastFlag(scanned, [...on, ...off]);
  return last ? on.includes(last.flag) : undefined;
}

function grepLayout(search: SearchArgs, lines: readonly string[]): HitLayout {
  const { scanned, paths: files } = search;
  const named = namesChosen(GREP, scanned);
  let filenames: boolean;
  if (named !== undefined) filenames = named;
  else if (files.length > 1) filenames = true;
  else if (search.recursive) filenames = files.length === 0 || printsNamesUnder(files[0], lines);
  else filenames = false;
  return {
    filenames,
    numbered: lastFlag(scanned, GREP.lineNumbers.on) !== undefined,
    context: lastFlag(scanned, GREP.context) !== undefined,
    separator: contextSeparator(GREP, scanned),
    soleFile: files.length === 1 ? files[0] : null,
  };
}

function rgLayout(search: SearchArgs, lines: readonly string[]): HitLayout {
  const { scanned, paths: files } = search;
  const named = namesChosen(RG, scanned);
  let filenames: boolean;
  if (named !== undefined) filenames = named;
  // With no path rg searches the working directory; reading stdin instead is not knowable here.
  else if (files.length !== 1) filenames = true;
  else filenames = printsNamesUnder(files[0], lines);
  const { on, off } = RG.lineNumbers;
  const numbering = lastFlag(scanned, [...on, ...off]);
  const column = lastFlag(scanned, ["--column"]) !== undefined;
  return {
    filenames,
    numbered: numbering ? on.includes(numbering.flag) : column,
    context: lastFlag(scanned, RG.context) !== undefined,
    separator: contextSeparator(RG, scanned),
    soleFile: files.length === 1 ? files[0] : null,
  };
}

const GREP_DIALECT: Dialect = { grammar: GREP, layoutOf: grepLayout };
const RG_DIALECT: Dialect = { grammar: RG, layoutOf: rgLayout };

function machineFormat(dialect: Dialect, args: readonly string[]): string | null {
  const { spec, machine } = dialect.grammar;
  const chosen = scanOptions(args, spec).options.find((option) => machine.has(option.flag));
  return chosen ? `the caller chose a machine format (${chosen.flag})` : null;
}

function shapeArgs(dialect: Dialect, args: readonly string[]): string[] | null {
  if (machineFormat(dialect, args)) return null;
  const { spec, lineNumbers } = dialect.grammar;
  if (lastFlag(scanOptions(args, spec), [...lineNumbers.on, ...lineNumbers.off])) return null;
  // In front, so it can never land after `--` or be read as another flag's value.
  return ["-n", ...args];
}

/** One printed line of a file's hits: a match or a context line. */
interface Hit {
  readonly lineNo: string;
  readonly text: string;
  readonly isMatch: boolean;
  /** A group separator came right before it. */
  readonly afterSeparator: boolean;
}

/** The hits of one file, `path` null when the tool printed no names. */
interface FileHits {
  readonly path: string | null;
  readonly hits: Hit[];
  matches: number;
}

type Item = { readonly file: FileHits } | { readonly note: string };

interface ParsedLine {
  readonly path: string | null;
  readonly lineNo: string;
  readonly text: string;
  readonly isMatch: boolean;
}

const BINARY_NOTE = /^Binary file .+ matches$|binary file matches \(found .*\)$/;

// Groups are the runs of lines between separators; in context mode each comes from one file.
function splitGroups(lines: readonly string[], separator: string | null): string[][] {
  const groups: string[][] = [[]];
  for (const line of lines) {
    if (separator !== null && line === separator) groups.push([]);
    else groups[groups.length - 1].push(line);
  }
  return groups;
}

/** Reads one line given the paths its group is known to print, or `null` when it cannot. */
type LineReader = (line: string) => ParsedLine | null;

const NUMBERED_MATCH = /^(.+?):(\d+):(.*)$/s;

// In context mode a group holds one file: its path, known from the group's match lines, splits
// `path-12-text` even when the path itself holds `-12-`.
function numberedReader(group: readonly string[], context: boolean): LineReader {
  const matchLine: LineReader = (line) => {
    const m = NUMBERED_MATCH.exec(line);
    return m ? { path: m[1], lineNo: m[2], text: m[3], isMatch: true } : null;
  };
  if (!context) return matchLine;
  const known = new Set<string>();
  for (const line of group) {
    const m = NUMBERED_MATCH.exec(line);
    if (m) known.add(m[1]);
  }
  // Shortest first: a context line whose text holds `:12:` adds a longer, bogus path.
  const paths = [...known].sort((a, b) => a.length - b.length);
  return (line) => {
    for (const path of paths) {
      if (!line.startsWith(path)) continue;
      const m = /^([:-])(\d+)\1(.*)$/s.exec(line.slice(path.length));
      if (m) return { path, lineNo: m[2], text: m[3], isMatch: m[1] === ":" };
    }
    const m = /^(.*?)([:-])(\d+)\2(.*)$/s.exec(line);
    if (!m || m[1] === "") return null;
    return { path: m[1], lineNo: m[3], text: m[4], isMatch: m[2] === ":" };
  };
}

// Without line numbers `path:text` and `path-text` only split at a prefix every line of the
// group shares, at least one line through `:` (a group always holds a match).
function sharedPath(group: readonly string[]): string | null {
  const first = group[0];
  for (let i = 1; i < first.length; i++) {
    if (first[i] !== ":" && first[i] !== "-") continue;
    const path = first.slice(0, i);
    const fits = group.every((line) => line.startsWith(path) && /[:-]/.test(line[i] ?? ""));
    if (fits && group.some((line) => line[i] === ":")) return path;
  }
  return null;
}

function unnumberedReader(group: readonly string[], context: boolean): LineReader {
  if (!context) {
    return (line) => {
      const colon = line.indexOf(":");
      if (colon <= 0) return null;
      return { path: line.slice(0, colon), lineNo: "", text: line.slice(colon + 1), isMatch: true };
    };
  }
  const path = sharedPath(group);
  return (line) => {
    if (path === null || !line.startsWith(path)) return null;
    return {
      path,
      lineNo: "",
      text: line.slice(path.length + 1),
      isMatch: line[path.length] === ":",
    };
  };
}

function namelessReader(numbered: boolean): LineReader {
  if (!numbered) return (line) => ({ path: null, lineNo: "", text: line, isMatch: true });
  return (line) => {
    const m = /^(\d+)([:-])(.*)$/s.exec(line);
    return m ? { path: null, lineNo: m[1], text: m[3], isMatch: m[2] === ":" } : null;
  };
}

function readerFor(group: readonly string[], layout: HitLayout): LineReader {
  if (!layout.filenames) return namelessReader(layout.numbered);
  if (!layout.numbered) return unnumberedReader(group, layout.context);
  return numberedReader(group, layout.context);
}

function parseHits(lines: readonly string[], layout: HitLayout): Item[] {
  const items: Item[] = [];
  const files = new Map<string | null, FileHits>();
  const separator = layout.context ? layout.separator : null;
  let afterSeparator = false;
  for (const group of splitGroups(lines, separator)) {
    const read = readerFor(group, layout);
    for (const line of group) {
      const parsed = BINARY_NOTE.test(line) ? null : read(line);
      if (!parsed) {
        // A line read as it is still keeps the separator that set its group apart.
        if (afterSeparator && items.length > 0) items.push({ note: separator ?? "--" });
        items.push({ note: line });
        afterSeparator = false;
        continue;
      }
      let file = files.get(parsed.path);
      if (!file) {
        file = { path: parsed.path, hits: [], matches: 0 };
        files.set(parsed.path, file);
        items.push({ file });
      }
      file.hits.push({
        lineNo: parsed.lineNo,
        text: parsed.text,
        isMatch: parsed.isMatch,
        afterSeparator,
      });
      if (parsed.isMatch) file.matches++;
      afterSeparator = false;
    }
    afterSeparator = true;
  }
  return items;
}

/** What rendering dropped, counted for `cut`. */
interface Tally {
  hiddenMatches: number;
  hiddenContext: number;
  trimmed: number;
  unlistedFiles: number;
}

function trimText(text: string, tally: Tally): string {
  if (text.length <= GREP_TEXT_WIDTH) return text;
  tally.trimmed++;
  let end = GREP_TEXT_WIDTH - 1;
  // Never split a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(text[end - 1])) end--;
  return `${text.slice(0, end)}…`;
}

function hitLine(hit: Hit, indent: string, context: boolean, tally: Tally): string {
  const text = trimText(hit.text, tally);
  const mark = hit.isMatch ? ":" : "-";
  const body = text === "" ? "" : ` ${text}`;
  if (hit.lineNo) return `${indent}${hit.lineNo}${mark}${body}`;
  return context ? `${indent}${mark}${body}` : `${indent}${text}`;
}

// Shows the first `quota` matches with their context; the last one keeps its trailing context
// up to the next match or group, and the rest of the file is counted, not shown.
function showHits(
  file: FileHits,
  quota: number,
  indent: string,
  context: boolean,
  tally: Tally,
): string[] {
  const out: string[] = [];
  let shown = 0;
  let stopAt = file.hits.length;
  for (let i = 0; i < file.hits.length; i++) {
    const hit = file.hits[i];
    if (shown === quota && (hit.isMatch || hit.afterSeparator)) {
      stopAt = i;
      break;
    }
    if (hit.afterSeparator && out.length > 0) out.push(`${indent}--`);
    out.push(hitLine(hit, indent, context, tally));
    if (hit.isMatch) shown++;
  }
  const rest = file.hits.slice(stopAt);
  const hiddenMatches = rest.filter((hit) => hit.isMatch).length;
  tally.hiddenMatches += hiddenMatches;
  tally.hiddenContext += rest.length - hiddenMatches;
  if (hiddenMatches > 0) out.push(`${indent}… +${hiddenMatches} more`);
  return out;
}

function header(files: readonly FileHits[], layout: HitLayout): string {
  const total = files.reduce((sum, file) => sum + file.matches, 0);
  const matches = plural(total, "match", "matches");
  if (layout.filenames) return `${matches} in ${plural(files.length, "file")}`;
  return layout.soleFile ? `${matches} in ${layout.soleFile}` : matches;
}

// Gives each file its number of shown matches, in order of appearance, until the budget is
// spent.
function allocate(files: readonly FileHits[]): Map<FileHits, number> {
  const perFile = files.length === 1 ? GREP_ONE_FILE : GREP_PER_FILE;
  const quotas = new Map<FileHits, number>();
  let budget = GREP_SHOWN;
  for (const file of files) {
    const quota = Math.min(file.matches, perFile, budget);
    quotas.set(file, quota);
    budget -= quota;
  }
  return quotas;
}

function renderHits(items: readonly Item[], layout: HitLayout): Filtered {
  const files = items.flatMap((item) => "file" in item ? [item.file] : []);
  const notes = items.flatMap((item) => "note" in item ? [item.note] : []);
  if (files.length === 0) return { text: notes.join("\n"), cut: [] };
  const tally: Tally = { hiddenMatches: 0, hiddenContext: 0, trimmed: 0, unlistedFiles: 0 };
  const quotas = allocate(files);
  const unshown = files.filter((file) => quotas.get(file) === 0).length;
  let listed = 0;
  let unlistedMatches = 0;
  const out = [header(files, layout)];
  for (const item of items) {
    if ("note" in item) {
      out.push(item.note);
      continue;
    }
    const file = item.file;
    const quota = quotas.get(file) ?? 0;
    if (file.path === null) {
      out.push(...showHits(file, quota, "", layout.context, tally));
    } else if (quota > 0) {
      out.push(`${file.path} (${file.matches})`);
      out.push(...showHits(file, quota, "  ", layout.context, tally));
    } else {
      if (listed === 0) out.push(`matches not shown for the ${plural(unshown, "file")} below:`);
      tally.hiddenMatches += file.matches;
      tally.hiddenContext += file.hits.length - file.matches;
      if (listed < GREP_FILES_LISTED) out.push(`${file.path} (${file.matches})`);
      else {
        tally.unlistedFiles++;
        unlistedMatches += file.matches;
      }
      listed++;
    }
  }
  if (tally.unlistedFiles > 0) {
    const matches = plural(unlistedMatches, "match", "matches");
    out.push(`… +${plural(tally.unlistedFiles, "more file")} (${matches})`);
  }
  return { text: out.join("\n"), cut: cutPhrases(tally) };
}

function cutPhrases(tally: Tally): string[] {
  const cut: string[] = [];
  if (tally.hiddenMatches) cut.push(plural(tally.hiddenMatches, "match", "matches"));
  if (tally.hiddenContext) cut.push(plural(tally.hiddenContext, "context line"));
  if (tally.trimmed) cut.push(`${plural(tally.trimmed, "long line")} trimmed`);
  if (tally.unlistedFiles) cut.push(plural(tally.unlistedFiles, "file name"));
  return cut;
}

function filterHits(dialect: Dialect, raw: string, input: FilterInput): Filtered {
  const text = stripAnsi(raw);
  const lines = splitLines(text);
  if (lines.length === 0) return { text: "", cut: [] };
  const layout = dialect.layoutOf(readSearch(input.args, dialect.grammar), lines);
  // Without names or numbers a context line looks exactly like a match: nothing to group.
  if (!layout.filenames && !layout.numbered && layout.context) return { text, cut: [] };
  return renderHits(parseHits(lines, layout), layout);
}

/** `grep`: hits grouped by file under the true totals; adds `-n` unless the caller chose. */
export const grepFilter: CommandFilter = {
  name: "grep",
  textClass: "code",
  quotes: true,
  passthrough: (args) => machineFormat(GREP_DIALECT, args),
  shape: (args) => shapeArgs(GREP_DIALECT, args),
  filter: (raw, input) => filterHits(GREP_DIALECT, raw, input),
};

/** `rg`: hits grouped by file under the true totals; adds `-n` unless the caller chose. */
export const rgFilter: CommandFilter = {
  name: "rg",
  textClass: "code",
  quotes: true,
  passthrough: (args) => machineFormat(RG_DIALECT, args),
  shape: (args) => shapeArgs(RG_DIALECT, args),
  filter: (raw, input) => filterHits(RG_DIALECT, raw, input),
};

type _HitKind = "fileNum" | "num" | "file" | "sep" | "none";

// A log line's date and time (`2026-01-05T10:04:10Z`, `10:04:10`) reads like `path:12:` or
// `12:`; it is neither.
const _STAMPED = /^\[?(?:\d{4}-\d\d-\d\d[T ]?)?\d\d:\d\d(?::\d\d)?\b/;

// `path:12:text` and `path-12-text` (context) first: a bare `path:` would also match them.
function _hitKind(l: string): _HitKind {
  if (l === "--") return "sep";
  if (_STAMPED.test(l)) return "none";
  if (/^[^\s:]+:\d+:/.test(l) || /^[^\s:]+-\d+-/.test(l)) return "fileNum";
  if (/^\d+[:-]/.test(l)) return "num";
  const m = /^([^\s:]+):/.exec(l);
  if (m && (m[1].includes("/") || /\.\w{1,10}$/.test(m[1]))) return "file";
  return "none";
}

// Hit lines, most of them alike; the flags say how they were printed.
function _detect(s: Sample): ShapeMatch | null {
  const lines = s.filled;
  if (lines.length < 3) return null;
  const kinds = lines.map(_hitKind);
  const count = (k: _HitKind) => kinds.filter((x) => x === k).length;
  const seps = count("sep");
  const context = seps > 0 || lines.some((l) => /^[^\s:]+-\d+-/.test(l) || /^\d+-/.test(l));
  const flags = (names: boolean, numbers: boolean) => [
    ...(names ? ["-H"] : []),
    ...(numbers ? ["-n"] : []),
    ...(context ? ["-C", "1"] : []),
  ];
  const enough = (k: _HitKind) => count(k) > 0 && (count(k) + seps) / lines.length >= 0.8;
  if (enough("fileNum")) return shapeMatch(0, flags(true, true));
  if (enough("num") && lines.some((l) => /^\d+:/.test(l))) {
    return shapeMatch(0, flags(false, true));
  }
  if (count("file") / lines.length >= 0.8) return shapeMatch(0, ["-H"]);
  return null;
}

/** The families this module serves. */
export const FAMILIES: FamilyDeclarations = {
  // grep with no file reads its input and prints bare lines, which the filter reads right.
  "grep": {
    filter: grepFilter,
    rewrite: { pipeSafe: true, readOnly: true },
    shapes: [{ rank: 410, detect: _detect }],
    saving: 88,
  },
  // rg with no path searches its input or the directory depending on what stdin is, which
  // the filter cannot see: never on a pipe. `--pre` and `-z` run other programs.
  "rg": {
    filter: rgFilter,
    rewrite: {
      pipeSafe: false,
      readOnly: { unless: RG.runs, unlessShort: RG.runsShort },
    },
    saving: 73,
  },
};
