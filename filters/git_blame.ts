/**
 * `git blame`: each run of consecutive lines from one commit under one header, then each line
 * as its final line number and its content.
 *
 * git prints the hash, the author, the full timestamp with its time zone and the padding that
 * aligns them on every line, so most of a blame is the same few words repeated:
 *
 * ```
 * ^ee5bb9a (Ada Lovelace 2026-01-05 10:12:00 +0000  1) const { redact } = require('@npmcli/redact')
 * ^ee5bb9a (Ada Lovelace 2026-01-05 10:12:00 +0000  2) const { log, output } = require('proc-log')
 * 3ed70068 (Ada Lovelace 2026-01-12 11:47:00 +0000  3) const pingUtil = require('../utils/registry-ping.js')
 * ^ee5bb9a (Ada Lovelace 2026-01-05 10:12:00 +0000  4) const BaseCommand = require('../base-cmd.js')
 * ```
 *
 * The compact form writes them once per run (`tests/fixtures/git_blame`):
 *
 * ```
 * ^ee5bb9a (Ada Lovelace 2026-01-05 10:12)
 *   1: const { redact } = require('@npmcli/redact')
 *   2: const { log, output } = require('proc-log')
 * 3ed70068 (Ada Lovelace 2026-01-12 11:47)
 *   3: const pingUtil = require('../utils/registry-ping.js')
 * ^ee5bb9a
 *   4: const BaseCommand = require('../base-cmd.js')
 * ```
 *
 * - The hash is kept exactly as git printed it: the `^` of a boundary commit, the `?` and `*`
 *   that mark ignored and unblamable lines, the length `-l` or `--abbrev` asked for, and the
 *   zeros of lines not committed yet.
 * - A commit's author (or `-e` email) and date follow its hash the first time it heads a run;
 *   a later run of the same commit names only the hash, whose header is above it. The date is
 *   the day and the minute in the author's own zone, as the `git log` filter writes it; the
 *   seconds and the zone go. Dates in another form (`-t`, `--date=…`) are kept as printed.
 * - When git prints file names (`-f`, or on its own when lines come from a rename or, with
 *   `-C`/`-M`, from another file), each run's header names its file whole, between the hash
 *   and the author; a run is then one commit from one file.
 * - Each line is two spaces, its final line number as git printed it, `: `, and its content
 *   byte for byte (tabs, trailing spaces and a carriage return kept).
 * - `-s` output (no author, no date) is grouped the same way, headers naming only hash and file.
 *
 * Nothing is dropped: the output is a compaction and `cut` is always empty. There is no cap on
 * long blames: the lines are what was asked for, and `-L` is git's own cap. Output that does
 * not read as blame lines throughout (a blank boundary hash, a name holding parentheses, lines
 * out of order, `git blame -h`) is returned unchanged. Formats that print more than the hash,
 * author, date and final line number go out untouched ({@linkcode blamePassthrough}).
 *
 * @module
 */

import type { CommandFilter, Filtered } from "../src/core/filter.ts";
import { splitLines } from "../src/core/text.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";
import { type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";
import { GIT_READS } from "./_git.ts";
import { type OptionSpec, scanOptions } from "./_args.ts";

// The options of `git blame` (and the revision options it passes on) that take a value, so a
// value such as `-L 1,5` or `--contents x` is never read as a flag.
const _OPTIONS: OptionSpec = {
  shortValued: "LS",
  longValued: new Set([
    "contents",
    "ignore-rev",
    "ignore-revs-file",
    "date",
    "encoding",
    "since",
    "after",
    "until",
    "before",
    "author",
    "committer",
    "grep",
  ]),
};

// Flags whose output is no default blame, and why it goes out as git printed it.
const _PASS: Readonly<Record<string, string>> = {
  "-p": "the caller chose a machine format",
  "--porcelain": "the caller chose a machine format",
  "--line-porcelain": "the caller chose a machine format",
  "--incremental": "the caller chose a machine format",
  "-c": "git annotate's layout",
  "--score-debug": "debug output",
  "--show-stats": "debug output",
  "-n": "original line numbers are kept in git's own layout",
  "--show-number": "original line numbers are kept in git's own layout",
  "-b": "blank boundary hashes cannot tell commits apart",
};

/**
 * Why `git blame` arguments ask for output rtok must not rewrite (porcelain, incremental,
 * annotate's `-c` layout, `--score-debug`, `--show-stats`, `-n`, `-b`), or `null`.
 */
export function blamePassthrough(args: readonly string[]): string | null {
  for (const { flag } of scanOptions(args, _OPTIONS).options) {
    if (Object.hasOwn(_PASS, flag)) return `${_PASS[flag]} (${flag})`;
  }
  return null;
}

/** One line of `git blame` output, read. */
interface _Line {
  /** The hash as printed, with its marks (`^`, `?`, `*`). */
  readonly hash: string;
  /** The file name git printed, or `""` when it printed none. */
  readonly file: string;
  /** Author and date as printed between the parentheses; `null` in `-s` output. */
  readonly meta: string | null;
  /** The final line number. */
  readonly line: number;
  /** The content, byte for byte. */
  readonly content: string;
}

// A hash with the marks git may put in front of it; all zeros for lines not committed yet.
const _HASH = String.raw`[\^?*]{0,3}[0-9a-f]{3,64}`;
// A file name git padded to the longest one: no parentheses, no space at either end. Every
// field that padding follows ends in a non-space, so no run of spaces can be split two ways
// and a line is read in time linear in its length, whatever it holds.
const _FILE = String.raw`([^\s()](?:[^()]*?[^\s()])?)`;
// `hash [file] (author date  12) `: the first `)` on the line closes the metadata.
const _DATED = new RegExp(
  String.raw`^(${_HASH}) (?:${_FILE} +)?\(([^()]*?[^\s()]) +(\d+)\) `,
);
// `-s`: `hash [file]  12) `.
const _SILENT = new RegExp(String.raw`^(${_HASH}) (?:${_FILE} +| *)(\d+)\) `);
// deno-lint-ignore no-control-regex
const _COLOUR = /^\x1b\[[0-9;]*m/;
const _RESET = "\x1b[m";

// One line read in the layout `dated` says, or `null`. `--color-lines` and `--color-by-age`
// colour the prefix and reset right after it, so only those two codes are taken off.
function _readLine(raw: string, dated: boolean): _Line | null {
  const colour = _COLOUR.exec(raw);
  const line = colour ? raw.slice(colour[0].length) : raw;
  const m = (dated ? _DATED : _SILENT).exec(line);
  if (!m) return null;
  const file = m[2] ?? "";
  // A name that is a number, or ends in one, is `-n`'s original line number.
  if (/(?:^|\s)\d+$/.test(file)) return null;
  let content = line.slice(m[0].length);
  if (colour) {
    if (!content.startsWith(_RESET)) return null;
    content = content.slice(_RESET.length);
  }
  const meta = dated ? m[3] : null;
  return { hash: m[1], file, meta, line: Number(m[dated ? 4 : 3]), content };
}

// Every line in one layout, with or without names throughout, in increasing line order;
// `null` when any line is not so.
function _readAll(lines: readonly string[]): _Line[] | null {
  if (lines.length === 0) return null;
  const dated = _readLine(lines[0], true) !== null;
  const out: _Line[] = [];
  for (const raw of lines) {
    const read = _readLine(raw, dated);
    const last = out[out.length - 1];
    if (!read || (last && (read.line <= last.line || (read.file === "") !== (last.file === "")))) {
      return null;
    }
    out.push(read);
  }
  return out;
}

// Author and date with git's padding between them taken out; a default (ISO) date as its day
// and minute. A date rtok does not know stays as printed, padding and all.
function _compactMeta(meta: string): string {
  const iso = /^(.*?\S) +(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}):\d{2} [+-]\d{4}$/.exec(meta);
  if (iso) return `${iso[1]} ${iso[2]} ${iso[3]}`;
  const known = /^(.*?\S) +(\d+ [+-]\d{4}|\d{4}-\d{2}-\d{2}(?:T[\d:+-]+)?)$/.exec(meta);
  return known ? `${known[1]} ${known[2]}` : meta;
}

/** Filters `git blame` output into runs under one header each; anything else unchanged. */
export function filterBlame(raw: string): Filtered {
  const lines = _readAll(splitLines(raw));
  if (!lines) return { text: raw, cut: [] };
  const out: string[] = [];
  const introduced = new Map<string, string | null>();
  let run: _Line | null = null;
  for (const l of lines) {
    if (!run || l.hash !== run.hash || l.file !== run.file) {
      run = l;
      const name = l.file ? ` ${l.file}` : "";
      // A commit's author and date are the same on each of its runs: written once.
      const known = introduced.get(l.hash) === l.meta;
      const who = l.meta === null || known ? "" : ` (${_compactMeta(l.meta)})`;
      introduced.set(l.hash, l.meta);
      out.push(`${l.hash}${name}${who}`);
    }
    out.push(`  ${l.line}: ${l.content}`);
  }
  return { text: out.join("\n") + (raw.endsWith("\n") ? "\n" : ""), cut: [] };
}

/** The `git blame` filter. */
export const gitBlameFilter: CommandFilter = {
  name: "git blame",
  textClass: "code",
  quotes: true,
  passthrough: blamePassthrough,
  filter: filterBlame,
};

// A date as git blame prints it unasked (ISO), or with `-t` (seconds and zone).
const _GIT_DATE = / (?:\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}|\d+) [+-]\d{4}$/;

// Every sampled line a blame line with a hash of 7 digits or more and a date git prints, in
// increasing line order. `-s` output, with neither parentheses nor dates, is left to be read as
// text: `abc 1) first` could be a numbered list.
function _detect(s: Sample): ShapeMatch | null {
  const lines = s.head.filter((l) => l !== "");
  if (lines.length < 3 || !_readLine(lines[0], true)) return null;
  const read = _readAll(lines);
  const blame = read?.every((l) => /[0-9a-f]{7}/.test(l.hash) && _GIT_DATE.test(l.meta ?? ""));
  return blame ? shapeMatch() : null;
}

/** The families this module serves. */
export const FAMILIES: FamilyDeclarations = {
  "git blame": {
    filter: gitBlameFilter,
    rewrite: GIT_READS,
    shapes: [{ rank: 325, detect: _detect }],
    saving: 60,
  },
};
