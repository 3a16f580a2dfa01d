/**
 * `cargo build`, `cargo check` and `cargo clippy` (rustc's and clippy's diagnostics, printed on
 * stderr): diagnostics grouped by file, one line each with location, level, code or lint and
 * message (`7:18 error[E0308]: mismatched types`). What the source excerpt says stays as
 * indented notes: its labels (`expected `i32`, found `&str``, another line's label prefixed by
 * that line), `= note:` / `= help:` lines, `help:`/`note:` sub-diagnostics with their
 * location, and the lines a suggestion adds (`+ use std::fmt;`); the excerpt's source lines,
 * the removed lines of suggestions, the `Compiling`/`Checking` progress lines and clippy's
 * documentation links go. The lint's name (`unused_mut`, `clippy::needless_return`) becomes
 * the diagnostic's code. The same diagnostic repeated is one line with its count and every
 * location (see `_diagnostics.ts`). Cargo's closing lines (`warning: `demo` (bin "demo")
 * generated 6 warnings`, `error: could not compile…`, `Finished …`) stay, so a clean build is
 * its `Finished` line. `--message-format json` passes through; `short` is read as well; with the
 * caller's `-v` the `Running `rustc …`` lines stay.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { type DiagnosticReport, drop, newReport, renderReport } from "./_diagnostics.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import {
  anyLine,
  FAILED,
  hasLineStarting,
  type Sample,
  type ShapeMatch,
  shapeMatch,
} from "../src/core/shape.ts";

/** Why cargo arguments ask for an output rtok must not rewrite, or `null`. */
export function cargoPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    const m = /^--message-format(?:=(.*))?$/.exec(arg);
    const format = m ? m[1] ?? args[i + 1] ?? "" : null;
    if (format !== null && format.split(",").some((part) => part.startsWith("json"))) {
      return `the caller chose the message format (--message-format ${format})`;
    }
    if (arg === "--build-plan" || arg === "--unit-graph" || arg === "--timings=json") {
      return `the caller asked for a machine format (${arg})`;
    }
  }
  return null;
}

const HEADER = /^(error|warning)(?:\[([^\]]+)\])?: (.*)$/;
const SHORT = /^(.+?):(\d+):(\d+): (error|warning)(?:\[([^\]]+)\])?: (.*)$/;
const ARROW = /^\s*--> (.+?):(\d+):(\d+)\s*$/;
const OTHER_FILE = /^\s*::: (.+?):(\d+):(\d+)\s*$/;
// `12 |     let x = 1;` (a source line) or `   |         ^^^ label` (under it).
const GUTTER = /^\s*(\d+)?\s*\|(.*)$/;
// A suggestion's lines: `3 -     return v.len();`, `3 +     v.len()`, `  ~ x`.
const SUGGESTION = /^\s*(\d+)?\s*([+~-]) ?(.*)$/;
const SUB = /^(help|note|warning|error)(?:\[[^\]]+\])?: (.*)$/;
const EQ = /^\s*= (note|help|warning): (.*)$/;
const LEVEL_NOTE =
  /^`#\[(?:warn|deny|forbid)\(([\w:]+)\)\]`.*on by default$|^`#\[(?:warn|deny|forbid)\(([\w:]+)\)\]` implied by/;
// `-D warnings` made a lint an error: `= note: `-D clippy::ptr-arg` implied by `-D warnings``
// and `= help: to override `-D warnings` add `#[allow(clippy::ptr_arg)]``.
const IMPLIED =
  /^`-D ([\w:-]+)` implied by `-D warnings`$|^to override `-D warnings` add `#\[allow\(([\w:]+)\)\]`$/;
const CLIPPY_LINK =
  /^for further information visit https:\/\/rust-lang\.github\.io\/rust-clippy\/\S*#(\w+)$/;
const PROGRESS =
  /^\s+(Compiling|Checking|Downloading|Downloaded|Updating|Locking|Adding|Removing|Blocking|Fresh|Dirty|Running|Documenting|Packaging|Verifying|Archiving|Unpacking|Migrating|Fixing|Building|Installing|Replacing|Installed|Scraping|Vendoring|Packaged)\b/;
const FINISHED = /^\s+Finished\b/;
// `For more information about this error, try `rustc --explain E0308`.` and `Some errors have
// detailed explanations: E0308, E0425.`: standing hints, their codes already on the errors.
const EXPLAIN_HINT =
  /^For more information about (this|an) error, try `rustc --explain|^Some errors have detailed explanations:/;
const CLOSING = [
  /^warning: `[^`]+` \(.+\) generated \d+ warnings?/,
  /^error: could not compile\b/,
  /^warning: build failed, waiting for other jobs/,
  /^error: aborting due to/,
  /^warning: \d+ warnings? emitted/,
];

interface Open {
  file: string;
  at: string;
  line: string;
  readonly severity: string;
  code: string;
  readonly message: string;
  readonly details: string[];
  /** The source line the labels that follow sit under. */
  labelLine: string;
  /** The file the labels that follow are in (`:::` moves them). */
  labelFile: string;
  /** Inside a suggestion: its added lines are kept. */
  suggestion: boolean;
  /** A suggestion's source line, kept when markers under it show it changed. */
  suggested: string;
  /** Where the next `-->` belongs: the diagnostic, or its last sub-diagnostic. */
  locatesSub: boolean;
  excerpt: boolean;
}

/** True when the caller asked cargo for verbose output (`-v`, `-vv`, `--verbose`). */
export function cargoVerbose(args: readonly string[]): boolean {
  const dash = args.indexOf("--");
  return (dash < 0 ? args : args.slice(0, dash)).some((a) =>
    a === "--verbose" || /^-[a-zA-Z]*v/.test(a) && !a.startsWith("--")
  );
}

/**
 * Reads cargo's (rustc's, clippy's) human output as diagnostics. With `verbose` (the caller's
 * `-v`), the `Running `rustc …`` lines they asked for stay.
 */
export function parseCargo(raw: string, verbose = false): DiagnosticReport {
  const report = newReport();
  let open: Open | null = null;
  const close = () => {
    if (!open) return;
    const { file, at, severity, code, message, details } = open;
    report.diagnostics.push({ file, at, severity, code, message, details });
    if (open.excerpt) drop(report, "source excerpt");
    open = null;
  };
  for (const line of splitLines(stripAnsi(raw))) {
    if (PROGRESS.test(line) && !(verbose && /^\s+Running /.test(line))) {
      close();
      drop(report, "progress line");
      continue;
    }
    if (EXPLAIN_HINT.test(line)) {
      close();
      drop(report, "rustc --explain hint");
      continue;
    }
    if (FINISHED.test(line) || CLOSING.some((re) => re.test(line))) {
      close();
      report.summary.push(line.trim());
      continue;
    }
    const short = SHORT.exec(line);
    if (short) {
      close();
      report.diagnostics.push({
        file: short[1],
        at: `${short[2]}:${short[3]}`,
        severity: short[4],
        code: short[5] ?? "",
        message: short[6],
        details: [],
      });
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      close();
      open = {
        file: "",
        at: "",
        line: "",
        severity: header[1],
        code: header[2] ?? "",
        message: header[3],
        details: [],
        labelLine: "",
        labelFile: "",
        suggestion: false,
        suggested: "",
        locatesSub: false,
        excerpt: false,
      };
      continue;
    }
    if (open && readInside(open, line, report)) continue;
    close();
    report.general.push(line);
  }
  close();
  inferLintCodes(report);
  return report;
}

// rustc names a lint (`#[warn(unused_variables)]`) under its first warning only. Later warnings
// whose message has the same form (`unused variable: `…``) are the same lint.
function inferLintCodes(report: DiagnosticReport): void {
  const form = (message: string) => message.replace(/`[^`]*`/g, "`…`");
  const codes = new Map<string, string>();
  for (const d of report.diagnostics) {
    if (d.code && !/^E\d+$/.test(d.code)) codes.set(`${d.severity} ${form(d.message)}`, d.code);
  }
  report.diagnostics.forEach((d, i) => {
    const code = d.code ? undefined : codes.get(`${d.severity} ${form(d.message)}`);
    if (code) report.diagnostics[i] = { ...d, code };
  });
}

// One line inside an open diagnostic; false when it belongs to none (a blank line closes it).
function readInside(open: Open, line: string, report: DiagnosticReport): boolean {
  if (line.trim() === "") return false;
  const arrow = ARROW.exec(line);
  if (arrow) {
    const [, file, lineNo, col] = arrow;
    if (open.locatesSub && open.details.length > 0) {
      const where = file === open.file ? `${lineNo}:${col}` : `${file}:${lineNo}:${col}`;
      open.details[open.details.length - 1] += ` (at ${where})`;
    } else if (open.file === "") {
      open.file = file;
      open.line = lineNo;
      open.at = `${lineNo}:${col}`;
    }
    open.labelFile = file;
    open.labelLine = lineNo;
    open.locatesSub = false;
    return true;
  }
  const other = OTHER_FILE.exec(line);
  if (other) {
    open.details.push(`${other[1]}:${other[2]}:${other[3]}:`);
    open.labelFile = other[1];
    open.labelLine = other[2];
    return true;
  }
  const eq = EQ.exec(line);
  if (eq) {
    readNote(open, eq[1], eq[2], report);
    return true;
  }
  const sub = SUB.exec(line);
  if (sub) {
    open.details.push(`${sub[1]}: ${sub[2]}`);
    open.suggestion = sub[1] === "help";
    open.locatesSub = true;
    return true;
  }
  // A suggestion's lines (`3 +     v.len()`) before the gutter: code may hold a `|`.
  const suggestion = open.suggestion ? SUGGESTION.exec(line) : null;
  if (suggestion && !/^\s*\d*\s*\|/.test(line)) {
    if (suggestion[2] !== "-" && suggestion[3].trim() !== "") {
      open.details.push(`+ ${suggestion[3].trim()}`);
    } else drop(report, "removed suggestion line");
    return true;
  }
  const gutter = GUTTER.exec(line);
  if (gutter) {
    open.excerpt = true;
    if (gutter[1]) {
      open.labelLine = gutter[1];
      open.suggested = open.suggestion ? gutter[2].trim() : "";
    } else if (open.suggestion && /^[\s|]*[+~]+\s*$/.test(gutter[2]) && open.suggested) {
      // `11 |     let _ = f();` then `   |     +++++++`: the suggested line, with an insertion.
      open.details.push(`+ ${open.suggested}`);
      open.suggested = "";
    } else readLabel(open, gutter[2]);
    return true;
  }
  if (/^\s*\.\.\.\s*$/.test(line)) return true;
  if (/^\s/.test(line) || open.file === "") {
    // A note that goes on (a linker's output), or text of a diagnostic with no location.
    open.details.push(line.trimEnd());
    return true;
  }
  return false;
}

// `= note: `#[warn(unused_mut)]` on by default` names the lint; clippy's link names it too.
function readNote(open: Open, kind: string, text: string, report: DiagnosticReport): void {
  const level = LEVEL_NOTE.exec(text);
  if (level && !open.code) {
    open.code = level[1] ?? level[2];
    return;
  }
  const link = CLIPPY_LINK.exec(text);
  if (link) {
    if (!open.code) open.code = `clippy::${link[1]}`;
    drop(report, "lint doc link");
    return;
  }
  if (level) return;
  const implied = IMPLIED.exec(text);
  if (implied) {
    if (!open.code) open.code = implied[2] ?? implied[1].replaceAll("-", "_");
    drop(report, "lint-level note");
    return;
  }
  open.details.push(`${kind}: ${text}`);
}

// A label under a source line: `^^^ expected `i32`, found `&str``, or hanging text under a
// `|` connector. Only its words are kept, prefixed by its line when not the diagnostic's own.
function readLabel(open: Open, text: string): void {
  const label = /^\s*(?:[|^~_\/\\+-]+\s+)*(.*\S)?\s*$/.exec(text);
  if (!label?.[1] || /^[|^~_\/\\+-]+$/.test(label[1])) return;
  const sameFile = open.labelFile === "" || open.labelFile === open.file;
  const where = sameFile && open.labelLine === open.line
    ? ""
    : sameFile
    ? `${open.labelLine}: `
    : `${open.labelFile}:${open.labelLine}: `;
  open.details.push(`${where}${label[1]}`);
}

function filterCargo(tool: string) {
  return (raw: string, input: FilterInput): Filtered =>
    renderReport(parseCargo(raw, cargoVerbose(input.args)), {
      tool,
      exitCode: input.exitCode,
      bracketCodes: true,
    });
}

function cargoFilter(name: string): CommandFilter {
  return {
    name,
    textClass: "log",
    filterStderr: true,
    passthrough: cargoPassthrough,
    filter: filterCargo(name),
  };
}

/** The `cargo build` filter. Cargo prints its diagnostics on stderr. */
export const cargoBuildFilter: CommandFilter = cargoFilter(
  "cargo build",
);
/** The `cargo check` filter. */
export const cargoCheckFilter: CommandFilter = cargoFilter(
  "cargo check",
);
/** The `cargo clippy` filter. */
export const cargoClippyFilter: CommandFilter = cargoFilter(
  "cargo clippy",
);

// Cargo's progress lines, or a rustc diagnostic with its `--> path:line:col` pointer. Read as
// `cargo build`: build, check and clippy print alike.
function _detect(s: Sample, text: string): ShapeMatch | null {
  const progress = anyLine(s.head, /^\s+(Compiling|Checking|Finished|Fresh) \S+ v\d/);
  const diagnostic = anyLine(s.head, /^(error|warning)(\[[A-Za-z]*\d*\])?: /) &&
    anyLine(s.head, /^\s*--> \S+:\d+:\d+$/);
  if (!progress && !diagnostic) return null;
  return shapeMatch(hasLineStarting(text, "error") ? FAILED : 0);
}

/**
 * The families this module serves. Builds write artifacts and run build scripts: never
 * read-only.
 */
export const FAMILIES: FamilyDeclarations = {
  "cargo build": {
    filter: cargoBuildFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 215, detect: _detect }],
    saving: 61,
  },
  "cargo check": { filter: cargoCheckFilter, rewrite: NOT_READ_ONLY, saving: 55 },
  "cargo clippy": { filter: cargoClippyFilter, rewrite: NOT_READ_ONLY, saving: 56 },
};
