/**
 * Lines that tell the reader what failed or what to do (DESIGN rule 11): an error, a warning,
 * a hint, a request ("Please …", "Try …", "Run `…`"), a tool's own failure marks (`npm ERR!`,
 * `FAILED`, `panicked`), a non-zero exit, and the first stack frame in the project's own code.
 * No filter may cut them, whatever its caps: `keepActionable` puts back any a view left out.
 *
 * @module
 */

import type { Filtered } from "./filter.ts";
import { stripAnsi } from "./text.ts";
import { ShownLines } from "./shown_lines.ts";

// Checked on a line's first 600 chars, so a huge line costs no more than a short one.
const _FAILED =
  /\b(?:errors?|ERRORS?|Errors?|fatal|FATAL|Fatal|panic|panicked|FAIL|FAILED|FAILURE|failed|Failed|failure|Failure|Traceback|exception|Exception|EXCEPTION|[A-Z]\w*(?:Error|Exception))\b|^\s*E\s{2,}\S|npm ERR!|^\s*!\s|^\s*✗|^\s*✘|^\s*×\s/;
const _WARNED = /\b(?:warning|warnings|Warning|WARNING|warn|WARN)\b/;
const _HINTED = /\b(?:hint|Hint|HINT|help|note|Note|NOTE|tip|Tip)\s*:/;
const _ASKED =
  /\b(?:Please|please)\b|(?:^|[.!?:]\s+|^\W*)(?:Try |try |Run [`'"]|run [`'"]|Did you mean|did you mean|To fix|to fix|You (?:may|might|must|should|need)|you (?:may|might|must|should|need)|Consider |Make sure|make sure|Ensure )/;
const _REFUSED =
  /\b(?:cannot|Cannot|can't|Can't|could not|Could not|couldn't|unable to|Unable to|not found|No such file|no such file|not recognized|[Pp]ermission denied|[Cc]onnection refused|timed out|Timed out|TIMEOUT|undefined reference|is not defined|not defined|is not a function|has no attribute|Unexpected token|command not found|CONFLICT \(|\[rejected\])/;
// A line that reports a pass is not a failure, whatever its test's name says.
const _PASSING = /^\s*(?:✓|✔|√|PASS\b|ok\b)|\bPASSED\b|\.\.\. ok$/;
const _EXIT =
  /\b(?:[Ee]xit(?:ed)? (?:code|status|with(?: code| status)?)\s*[1-9]|[Ee]xit status [1-9]|[Ee]rror [1-9]\d*\b|returned non-zero|non-zero exit|killed|Killed|Segmentation fault|core dumped|Aborted \(core)/;

// A source excerpt under a diagnostic (`14 |     print(x)`, ` |   ^^^`, `14 + fixed`): code, not
// a message, whatever words it holds.
const _EXCERPT = /^\s*\d*\s*[|│]|^\s*\d*\s*[-+]\s{2,}/;
// The level words themselves, which alone make a banner (`==== ERRORS ====`), not a message.
const _LEVEL_WORD =
  /^(?:errors?|warnings?|warn|fatal|failed|failures?|fail|hint|help|note|tip|exception|traceback)$/i;

// Notes that come with every such diagnostic or install and ask nothing of the reader: a
// dependency's deprecation (the install still worked), rustc's "`#[warn(x)]` on by default",
// clippy's link to its lint list.
const _BOILERPLATE =
  /\b(?:deprecated|no longer supported)\b(?!.*\b(?:error|ERR!|failed)\b)|\bon by default\b|for further information visit\b/;
// A banner: a title between rules of `=`, `_` or `-` (pytest's `==== warnings summary ====`).
const _BANNER = /[=_-]{5,}/;
// What a build or a log puts before each line: BuildKit's step and time (`#12 0.913 `), a date
// and time, a time of day.
const _STAMP =
  /^(?:#\d+\s+[\d.]+\s+|\[?\d{4}-\d\d-\d\d[T ][\d:.,]+Z?\]?\s+|\[?\d\d:\d\d:\d\d(?:[.,]\d+)?\]?\s+)/;
// npm's block prefix: every line of one message carries it, so it alone says nothing.
const _NPM_ERROR = /^npm (?:error|ERR!|warn|WARN)(?: |$)/;

/**
 * True when `line` says what failed or what to do (see the module doc). `first` says whether it
 * opens a block of lines sharing npm's `npm error` (or `npm warn`) prefix (only a block's first line, and lines
 * that say something of their own, count).
 */
export function isActionable(line: string, first = true): boolean {
  const l0 = line.length > 600 ? line.slice(0, 600) : line;
  if (_NPM_ERROR.test(l0)) {
    const rest = l0.replace(_NPM_ERROR, "");
    return first ? rest.trim() !== "" && !_BOILERPLATE.test(rest) : isActionable(rest);
  }
  // A URL's words (`capture-warnings.html`) are an address, not a message; a count of no
  // failures (`0 failed`, `no errors`) is a pass.
  const l = l0.replace(_STAMP, "").replace(/\b[a-z][a-z+.-]*:\/\/\S+/g, "")
    .replace(/\b(?:0|[Nn]o) (?:failed|failures?|errors?|warnings?|tests? failed)\b/g, "");
  if (l.trim() === "" || _EXCERPT.test(l) || _BANNER.test(l) || _BOILERPLATE.test(l)) return false;
  if (_PASSING.test(l) && !/FAIL|ERROR/.test(l)) return false;
  if (
    !(_FAILED.test(l) || _WARNED.test(l) || _HINTED.test(l) || _EXIT.test(l) ||
      _REFUSED.test(l) || _ASKED.test(l))
  ) return false;
  // A banner of one level word and rules says nothing of its own.
  const words = (l.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => !_LEVEL_WORD.test(w));
  return words.length >= 1;
}

// A stack frame: Python's `File "x.py", line 3`, JavaScript's `at f (x.js:3:5)`, Go's and
// Rust's indented `path:line`, Java's `at pkg.Cls.m(File.java:3)`.
const _FRAME =
  /^\s*(?:File "[^"]+", line \d+|at (?:.+ \()?[^()\s]+:\d+(?::\d+)?\)?$|at [\w$.<>]+\([\w$.]+:\d+\)|\d+: .+ at .+:\d+|[\w./-]+\.\w+:\d+(?::\d+)?(?: \+0x[0-9a-f]+)?$)/;
// Frames in code that is not the project's: dependencies, the runtime, the standard library.
const _FOREIGN =
  /node_modules|site-packages|dist-packages|\(node:|node:[a-z_]+:\d|internal\/|<anonymous>|\/usr\/lib\/|\/usr\/local\/lib\/|\/rustc\/|\/\.cargo\/registry\/|\/go\/pkg\/mod\/|\/libexec\/|java\.base\/|^\s*at (?:java|jdk|sun|kotlin)\./;

/** True when `line` is a stack frame. */
export function isStackFrame(line: string): boolean {
  return _FRAME.test(line);
}

/**
 * The 0-based indexes of the actionable lines of `lines`: every line {@linkcode isActionable}
 * says so of, and in each run of stack frames the first one in the project's own code.
 */
export function actionableLines(lines: readonly string[]): number[] {
  const out: number[] = [];
  let inFrames = false;
  let projectFrameFound = false;
  for (let i = 0; i < lines.length; i++) {
    const line = stripAnsi(lines[i]);
    if (isStackFrame(line)) {
      if (!inFrames) projectFrameFound = false;
      inFrames = true;
      if (!projectFrameFound && !_FOREIGN.test(line)) {
        projectFrameFound = true;
        out.push(i);
      }
      continue;
    }
    // Python prints the source line under its frame: still inside the run.
    if (inFrames && /^\s{4,}\S/.test(line)) continue;
    inFrames = false;
    const first = i === 0 || !_NPM_ERROR.test(stripAnsi(lines[i - 1]));
    if (isActionable(line, first)) out.push(i);
  }
  return out;
}

/** The header of the lines {@linkcode keepActionable} puts back. */
export const KEPT_HEADER = "[rtok: kept from the cut, as they say what failed or what to do:]";

/**
 * `filtered` (a lossy view of `raw`) with every actionable line of `raw` it left out put back,
 * each with the line it introduces (when it ends in `:` or the next line is indented under it),
 * in raw order under {@linkcode KEPT_HEADER}; repeats
 * of one line are written once with their count. `filtered` itself when nothing is missing or
 * nothing was cut.
 */
export function keepActionable(raw: string, filtered: Filtered): Filtered {
  if (filtered.cut.length === 0) return filtered;
  const lines = raw.split("\n");
  const missing = _missing(lines, filtered.text, true);
  if (missing.length === 0) return filtered;
  const counts = new Map<string, number>();
  for (const i of missing) {
    const t = stripAnsi(lines[i]).replace(/\r$/, "");
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  const out: string[] = [];
  for (const [line, n] of counts) out.push(n > 1 ? `${line} (×${n})` : line);
  const sep = filtered.text === "" || filtered.text.endsWith("\n") ? "" : "\n";
  return {
    text: `${filtered.text}${sep}${KEPT_HEADER}\n${out.join("\n")}\n`,
    cut: filtered.cut,
  };
}

/**
 * The actionable lines of `raw` (as text, in order) that `view` does not carry, verbatim or
 * reworded: empty when every one arrived.
 */
export function missingActionable(raw: string, view: string): string[] {
  const lines = raw.split("\n");
  return _missing(lines, view, false).map((i) => lines[i]);
}

// The 0-based indexes of the actionable lines `view` leaves out (with the lines they
// introduce, when `neighbours`), in order.
function _missing(lines: readonly string[], view: string, neighbours: boolean): number[] {
  const wanted = actionableLines(lines);
  if (wanted.length === 0) return [];
  const shown = new ShownLines(view);
  const missing = new Set<number>();
  const checked = new Map<string, boolean>();
  for (const i of wanted) {
    const t = lines[i].trim();
    let present = checked.get(t);
    if (present === undefined) {
      present = shown.has(lines[i]);
      checked.set(t, present);
    }
    if (present) continue;
    missing.add(i);
    const n = neighbours ? _neighbour(lines, i) : null;
    if (n !== null && !shown.has(lines[n])) missing.add(n);
  }
  return [...missing].sort((a, b) => a - b);
}

// The line actionable line `i` introduces (it ends in `:`, or the next line is indented under
// it and holds words), or `null`.
function _neighbour(lines: readonly string[], i: number): number | null {
  const next = lines[i + 1];
  if (next === undefined || !/[A-Za-z]{2,}/.test(next) || _EXCERPT.test(next)) return null;
  if (isStackFrame(next) && _FOREIGN.test(next)) return null;
  const indent = (s: string) => s.length - s.trimStart().length;
  return /:\s*$/.test(lines[i]) || indent(next) > indent(lines[i]) ? i + 1 : null;
}
