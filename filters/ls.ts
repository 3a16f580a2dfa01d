/**
 * `ls`: long listings become a header with the totals, one line of directories and one short
 * line per file (name, size, and only the modes and owners that stand out); plain listings
 * keep their names, and past 100 names the rest is summarised by extension.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { plural, splitLines, stripAnsi } from "../src/core/text.ts";
import { lastFlag, type OptionSpec, type ScannedArgs, scanOptions } from "./_args.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";
import { type Sample, type ShapeMatch, shapeMatch, shareOf } from "../src/core/shape.ts";
import { pathLike } from "./_text.ts";

/** Names a plain listing shows before the rest is summarised by extension. */
export const LS_NAMES_SHOWN: number = 100;
/** Entries a long listing shows before the rest is summarised by kind and extension. */
export const LS_ENTRIES_SHOWN: number = 200;
/** Extensions named in a summary; the rest count as `other`. */
export const LS_EXTENSIONS_NAMED: number = 6;

const LS_SPEC: OptionSpec = {
  shortValued: "ITw",
  longValued: new Set([
    "block-size",
    "format",
    "hide",
    "ignore",
    "indicator-style",
    "quoting-style",
    "sort",
    "tabsize",
    "time",
    "time-style",
    "width",
  ]),
};

type Layout = "long" | "lines" | "columns";

const LONG_FLAGS = ["-l", "-g", "-o", "-n", "--numeric-uid-gid", "--full-time"];
const FORMATS: Readonly<Record<string, Layout>> = {
  long: "long",
  verbose: "long",
  "single-column": "lines",
  commas: "columns",
  across: "columns",
  horizontal: "columns",
  vertical: "columns",
};

// The last layout option wins, except that `-1` never turns a long listing short (as in ls).
function layoutOf(scanned: ScannedArgs): Layout {
  let layout: Layout = "lines";
  for (const { flag, value } of scanned.options) {
    if (LONG_FLAGS.includes(flag)) layout = "long";
    else if (["-C", "-x", "-m"].includes(flag)) layout = "columns";
    else if (flag === "-1" && layout !== "long") layout = "lines";
    else if (flag === "--format") layout = FORMATS[value ?? ""] ?? layout;
  }
  return layout;
}

function lsPassthrough(args: readonly string[]): string | null {
  const scanned = scanOptions(args, LS_SPEC);
  const chosen = lastFlag(scanned, ["--zero", "--help", "--version", "-D", "--dired"]);
  if (chosen) return `the caller chose a machine format (${chosen.flag})`;
  const layout = layoutOf(scanned);
  if (layout === "columns") return "the caller chose a column layout";
  if (layout === "lines" && lastFlag(scanned, ["-i", "--inode", "-s", "--size"])) {
    return "the caller asked for inode or block columns in the short format";
  }
  return null;
}

/** Which columns a long line holds, from the arguments. */
interface Columns {
  readonly inode: boolean;
  readonly blocks: boolean;
  readonly owner: boolean;
  readonly group: boolean;
  readonly author: boolean;
  readonly context: boolean;
  /** Words the date takes, or `"iso"` for the style whose old dates have one word and a pad. */
  readonly date: number | "iso";
  /** The caller asked about times (`-t`, `--full-time`…), so dates are kept. */
  readonly keepDates: boolean;
}

const TIME_FLAGS = ["-t", "-c", "-u", "--time", "--time-style", "--full-time"];

function dateWords(scanned: ScannedArgs): number | "iso" {
  const style = lastFlag(scanned, ["--time-style", "--full-time"]);
  if (!style || style.flag === "--full-time") return 3;
  const name = (style.value ?? "").replace(/^posix-/, "");
  if (name.startsWith("+")) return name.slice(1).split("\n")[0].trim().split(/\s+/).length;
  return name === "iso" ? "iso" : name === "long-iso" ? 2 : 3;
}

function columnsOf(scanned: ScannedArgs): Columns {
  const has = (...flags: string[]) => lastFlag(scanned, flags) !== undefined;
  return {
    inode: has("-i", "--inode"),
    blocks: has("-s", "--size"),
    owner: !has("-g"),
    group: !has("-o", "-G", "--no-group"),
    author: has("--author"),
    context: has("-Z", "--context"),
    date: dateWords(scanned),
    keepDates: has(...TIME_FLAGS) || lastFlag(scanned, ["--sort"])?.value === "time",
  };
}

/** One parsed line of a long listing. */
interface LongEntry {
  readonly mode: string;
  readonly owner: string;
  readonly extras: readonly string[];
  readonly size: string;
  readonly date: string;
  readonly name: string;
  readonly target: string | null;
}

const MODE = /^[-bcdlpsDC?][-rwxsStTlL]{9}[.+@]?$/;
const ISO_DATE = /^\s*(\d{2}-\d{2} \d{2}:\d{2}|\d{4}-\d{2}-\d{2} )/;

/** Reads whitespace-separated words off the front of a line. */
class Words {
  constructor(public rest: string) {}
  take(): string | null {
    const m = /^\s*(\S+)/.exec(this.rest);
    if (!m) return null;
    this.rest = this.rest.slice(m[0].length);
    return m[1];
  }
}

function takeDate(words: Words, style: number | "iso"): string | null {
  if (style === "iso") {
    const m = ISO_DATE.exec(words.rest);
    if (!m) return null;
    words.rest = words.rest.slice(m[0].length);
    return m[1].trim();
  }
  const parts: string[] = [];
  for (let i = 0; i < style; i++) parts.push(words.take() ?? "");
  return parts.every((part) => part !== "") ? parts.join(" ") : null;
}

function takeSize(words: Words): string | null {
  const size = words.take();
  // A device prints `major, minor` where a file prints its size.
  return size?.endsWith(",") ? `${size} ${words.take() ?? ""}` : size;
}

function parseLong(line: string, columns: Columns): LongEntry | null {
  const words = new Words(line);
  const optional = (present: boolean) => present ? words.take() : undefined;
  const inode = optional(columns.inode);
  const blocks = optional(columns.blocks);
  const mode = words.take();
  const links = words.take();
  const owner = optional(columns.owner);
  const group = optional(columns.group);
  const author = optional(columns.author);
  const context = optional(columns.context);
  const size = takeSize(words);
  const date = takeDate(words, columns.date);
  if ([inode, blocks, owner, group, author, context].includes(null)) return null;
  if (!mode || !MODE.test(mode) || !links || !/^\d+$/.test(links)) return null;
  if (!size || !/^\d/.test(size) || !date || !/\d/.test(date)) return null;
  // Exactly one space separates the date from the name, which may itself start with spaces.
  if (!words.rest.startsWith(" ") || words.rest.length < 2) return null;
  const shown = words.rest.slice(1);
  const arrow = mode.startsWith("l") ? shown.indexOf(" -> ") : -1;
  const extras: string[] = [];
  if (inode) extras.push(`inode ${inode}`);
  if (author && author !== owner) extras.push(`author ${author}`);
  if (context && context !== "?") extras.push(`context ${context}`);
  return {
    mode,
    owner: [owner, group].filter((part) => part !== undefined).join(":"),
    extras,
    size,
    date,
    name: arrow < 0 ? shown : shown.slice(0, arrow),
    target: arrow < 0 ? null : shown.slice(arrow + 4),
  };
}

const USUAL_FILE = new Set([
  "rw-r--r--",
  "rw-rw-r--",
  "rw-r-----",
  "rw-rw----",
  "rw-------",
  "rwxr-xr-x",
  "rwxrwxr-x",
  "rwxr-x---",
  "rwxrwx---",
  "rwx------",
]);

// Setuid, setgid, sticky, world-writable, read-only, ACLs (`+`), devices: all worth a look.
function usualMode(mode: string): boolean {
  const bits = mode.slice(1, 10);
  if (mode.length > 10 && mode[10] === "+") return false;
  if (mode[0] === "l") return bits === "rwxrwxrwx";
  if (mode[0] === "d") return USUAL_FILE.has(bits) && bits[2] === "x";
  return mode[0] === "-" && USUAL_FILE.has(bits);
}

function executable(mode: string): boolean {
  return mode[0] === "-" && /[xst]/.test(mode[3] + mode[6] + mode[9]);
}

const UNITS = ["K", "M", "G", "T", "P", "E"];

/** Bytes as `ls -h` writes them: rounded up, one decimal below 10 (`1.3K`, `48K`, `4.8M`). */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return String(bytes);
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  if (value < 10) {
    const tenths = Math.ceil(value * 10) / 10;
    if (tenths < 10) return `${tenths.toFixed(1)}${UNITS[unit]}`;
  }
  const whole = Math.ceil(value);
  if (whole >= 1024 && unit < UNITS.length - 1) return `1.0${UNITS[unit + 1]}`;
  return `${whole}${UNITS[unit]}`;
}

// Bytes from a size column, and whether the column was exact (not already rounded by `-h`).
function sizeBytes(size: string): { bytes: number; exact: boolean } {
  if (/^\d+$/.test(size)) return { bytes: Number(size), exact: true };
  const m = /^(\d+(?:\.\d+)?)([kKMGTPE])/.exec(size);
  if (!m) return { bytes: 0, exact: false };
  const base = m[2] === "k" ? 1000 : 1024;
  // Whole bytes, rounded down: `4.8M` is at most 4.8 MiB, and 4.8 × 2^20 is not exact in binary.
  const bytes = Math.floor(Number(m[1]) * base ** (UNITS.indexOf(m[2].toUpperCase()) + 1));
  return { bytes, exact: false };
}

/**
 * The last extension of a name that holds a letter (`libc.so.6` → `.so`), `""` for none;
 * a leading dot does not count and a trailing `ls -F` indicator is ignored.
 */
function extensionOf(name: string): string {
  const m = /.(\.[^.\s]*[A-Za-z][^.\s]*)(?:\.\d+)*$/.exec(name.replace(/[*@|=>]$/, ""));
  return m ? m[1] : "";
}

/** `180 .js, 40 .json, 10 other` for a list of names; empty when no name has an extension. */
export function extensionSummary(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) {
    const ext = extensionOf(name);
    counts.set(ext, (counts.get(ext) ?? 0) + 1);
  }
  const other = counts.get("") ?? 0;
  counts.delete("");
  if (counts.size === 0) return "";
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const named = ranked.slice(0, LS_EXTENSIONS_NAMED);
  const rest = ranked.slice(LS_EXTENSIONS_NAMED).reduce((sum, [, count]) => sum + count, other);
  const parts = named.map(([ext, count]) => `${count} ${ext}`);
  if (rest > 0) parts.push(`${rest} other`);
  return parts.join(", ");
}

// `+230 more: 12 dirs, 180 .js, 38 other`, with dirs told apart when the listing marks them.
function moreLine(names: readonly string[], dirs: number): string {
  const kinds = [dirs > 0 ? plural(dirs, "dir") : "", extensionSummary(names)]
    .filter((part) => part !== "").join(", ");
  return `+${names.length + dirs} more${kinds ? `: ${kinds}` : ""}`;
}

// Quoted JSON style where a space would split the name from its neighbours.
function quoteWord(name: string): string {
  return /\s|^"/.test(name) ? JSON.stringify(name) : name;
}

function wrapWords(words: readonly string[], width = 100): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** What a section's rendering dropped, for `cut`. */
interface LsTally {
  readonly cut: Set<string>;
  hidden: number;
}

function filterPlain(lines: readonly string[], tally: LsTally): string[] {
  const names = lines.filter((line) => line !== "");
  if (names.length === 0) return ["(empty)"];
  const shown = wrapWords(names.slice(0, LS_NAMES_SHOWN).map((name) => quoteWord(name)));
  if (names.length <= LS_NAMES_SHOWN) return shown;
  const rest = names.slice(LS_NAMES_SHOWN);
  tally.hidden += rest.length;
  const dirs = rest.filter((name) => name.endsWith("/")).length;
  const files = rest.filter((name) => !name.endsWith("/"));
  return [plural(names.length, "entry", "entries"), ...shown, moreLine(files, dirs)];
}

type LongItem = { readonly entry: LongEntry } | { readonly line: string };

function majorityOwner(entries: readonly LongEntry[]): string {
  const counts = new Map<string, number>();
  for (const { owner } of entries) counts.set(owner, (counts.get(owner) ?? 0) + 1);
  let best = "";
  for (const [owner, count] of counts) if (count > (counts.get(best) ?? 0)) best = owner;
  return best;
}

function notes(entry: LongEntry, owner: string, columns: Columns, tally: LsTally): string[] {
  const out: string[] = [];
  if (usualMode(entry.mode)) tally.cut.add("modes");
  else out.push(entry.mode);
  if (entry.owner !== owner) out.push(entry.owner);
  out.push(...entry.extras);
  if (columns.keepDates) out.push(entry.date);
  else tally.cut.add("dates");
  return out;
}

function dirWord(entry: LongEntry, owner: string, columns: Columns, tally: LsTally): string {
  tally.cut.add("sizes");
  const name = quoteWord(entry.name);
  const word = name.endsWith("/") ? name : `${name}/`;
  const extra = notes(entry, owner, columns, tally);
  return extra.length ? `${word} (${extra.join(" ")})` : word;
}

function fileLine(entry: LongEntry, owner: string, columns: Columns, tally: LsTally): string {
  const name = quoteWord(entry.name);
  const extra = notes(entry, owner, columns, tally);
  if (entry.target !== null) return [`${name} -> ${entry.target}`, ...extra].join(" ");
  const mark = executable(entry.mode) && !name.endsWith("*") ? "*" : "";
  const { bytes, exact } = sizeBytes(entry.size);
  const rounded = exact && entry.mode[0] === "-" && bytes >= 1024;
  if (rounded) tally.cut.add("sizes");
  return [`${name}${mark}`, rounded ? humanSize(bytes) : entry.size, ...extra].join(" ");
}

function headerLine(entries: readonly LongEntry[], owner: string): string {
  const count = (type: string) => entries.filter((entry) => entry.mode[0] === type).length;
  const files = entries.filter((entry) => entry.mode[0] === "-");
  const sizes = files.map((entry) => sizeBytes(entry.size));
  const total = sizes.reduce((sum, size) => sum + size.bytes, 0);
  const approx = sizes.some((size) => !size.exact) ? "~" : "";
  const other = entries.length - count("d") - files.length - count("l");
  const parts = [
    count("d") ? plural(count("d"), "dir") : "",
    files.length ? plural(files.length, "file") : "",
    count("l") ? plural(count("l"), "link") : "",
    other ? `${other} other` : "",
    files.length ? `${approx}${humanSize(total)}${total < 1024 ? " bytes" : ""}` : "",
    owner ? `owner ${owner}` : "",
  ];
  const kinds = parts.filter((part) => part !== "").join(", ");
  return `${plural(entries.length, "entry", "entries")}${kinds ? `: ${kinds}` : ""}`;
}

function filterLong(lines: readonly string[], columns: Columns, tally: LsTally): string[] {
  const items: LongItem[] = [];
  for (const line of lines) {
    if (line === "") continue;
    if (/^total \S+$/.test(line)) {
      tally.cut.add("total");
      continue;
    }
    const entry = parseLong(line, columns);
    // `.` and `..` are in every directory: dropping them drops no fact.
    if (entry && (entry.name === "." || entry.name === "..")) continue;
    items.push(entry ? { entry } : { line });
  }
  const entries = items.flatMap((item) => "entry" in item ? [item.entry] : []);
  if (items.length === 0) return ["(empty)"];
  if (entries.length === 0) return items.map((item) => "line" in item ? item.line : "");
  tally.cut.add("links");
  if (columns.blocks) tally.cut.add("blocks");
  const owner = majorityOwner(entries);
  const shown = items.slice(0, LS_ENTRIES_SHOWN);
  const dirs: string[] = [];
  const rest: string[] = [];
  for (const item of shown) {
    if ("line" in item) rest.push(item.line);
    else if (item.entry.mode[0] === "d") dirs.push(dirWord(item.entry, owner, columns, tally));
    else rest.push(fileLine(item.entry, owner, columns, tally));
  }
  const out = [headerLine(entries, owner)];
  // Continuation lines are indented so they never read as file lines.
  if (dirs.length) out.push(...wrapWords(["dirs:", ...dirs]).map((l, i) => i ? `  ${l}` : l));
  out.push(...rest);
  const hidden = items.slice(LS_ENTRIES_SHOWN);
  if (hidden.length > 0) out.push(moreHidden(hidden, tally));
  return out;
}

function moreHidden(hidden: readonly LongItem[], tally: LsTally): string {
  tally.hidden += hidden.length;
  const isDir = (item: LongItem) => "entry" in item && item.entry.mode[0] === "d";
  const others = hidden.filter((item) => !isDir(item))
    .map((item) => "entry" in item ? item.entry.name : item.line);
  return moreLine(others, hidden.length - others.length);
}

// `ls -R` and several operands print `dir:` sections; a header is the first line or follows
// a blank one.
function splitSections(lines: readonly string[]): { header: string | null; body: string[] }[] {
  const sections: { header: string | null; body: string[] }[] = [{ header: null, body: [] }];
  lines.forEach((line, i) => {
    if (line.endsWith(":") && (i === 0 || lines[i - 1] === "")) {
      sections.push({ header: line, body: [] });
    } else sections[sections.length - 1].body.push(line);
  });
  return sections.filter((section) => section.header !== null || section.body.some((l) => l));
}

function filterLs(raw: string, input: FilterInput): Filtered {
  const lines = splitLines(stripAnsi(raw));
  if (lines.length === 0) return { text: "", cut: [] };
  const scanned = scanOptions(input.args, LS_SPEC);
  const long = layoutOf(scanned) === "long";
  const columns = columnsOf(scanned);
  const sectioned = lastFlag(scanned, ["-R", "--recursive"]) !== undefined ||
    scanned.operands.length > 1;
  const tally: LsTally = { cut: new Set(), hidden: 0 };
  const out: string[] = [];
  const sections = sectioned ? splitSections(lines) : [{ header: null, body: [...lines] }];
  for (const { header, body } of sections) {
    if (header !== null) out.push(header);
    out.push(...(long ? filterLong(body, columns, tally) : filterPlain(body, tally)));
  }
  const cut = [...tally.cut];
  if (tally.hidden > 0) cut.push(`${plural(tally.hidden, "entry", "entries")} (summarised)`);
  return { text: out.join("\n"), cut };
}

/** `ls`: long listings summarised per entry, plain listings capped at 100 names. */
export const lsFilter: CommandFilter = {
  name: "ls",
  textClass: "paths",
  quotes: true,
  passthrough: lsPassthrough,
  filter: filterLs,
};

const LONG_MODE = /^[-bcdlpsDC?][-rwxsStTlL]{9}[.+@]?\s/;

// `total N` then mode strings: `ls -l`, and `ls -lR` under a `dir:` header.
function _detectLong(s: Sample): ShapeMatch | null {
  const [a = "", b = "", c = ""] = s.filled;
  const total = (l: string) => /^total \d+(\.\d+)?[KMGTPE]?$/.test(l);
  if (total(a) && LONG_MODE.test(b)) return shapeMatch(0, ["-l"]);
  if (a.endsWith(":") && total(b) && LONG_MODE.test(c)) return shapeMatch(0, ["-l", "-R"]);
  return null;
}

// Bare names, one a line, none with a slash or a space: a plain listing.
function _detectNames(s: Sample): ShapeMatch | null {
  const lines = s.filled;
  if (lines.length < 5 || shareOf(lines, pathLike) < 0.9) return null;
  if (shareOf(lines, (l) => l.includes("/")) > 0) return null;
  return shareOf(lines, (l) => !l.includes(" ")) >= 0.9 ? shapeMatch() : null;
}

/** The families this module serves. ls only reads. */
export const FAMILIES: FamilyDeclarations = {
  "ls": {
    filter: lsFilter,
    rewrite: { pipeSafe: true, readOnly: true },
    shapes: [{ rank: 405, detect: _detectLong }, { rank: 420, detect: _detectNames }],
    saving: 63,
  },
};
