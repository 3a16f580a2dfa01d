/**
 * `pytest` (also `python -m pytest`, `uv run pytest`): a passing run becomes its summary line
 * (`pytest: 148 passed, 2 skipped in 3.10s`). A failing run keeps, for every failure and error
 * block, its test id, the failing source line (`>`), the assertion message (`E` lines), each
 * traceback location (`file.py:10: AssertionError`) and the captured output, then the short
 * summary lines not already shown, distinct warnings and the summary line.
 *
 * The test files the run went through are named, each with its test count (`test files:
 * tests/unit/test_io.py (12), …`, the first {@link PYTEST_FILES_SHOWN}).
 *
 * Cut: the session header, progress lines (`test_x.py ..F.s  [ 40%]`) and `-v` result lines
 * (counted in the summary and the files line), the source lines around each failing line, blank lines, passing
 * tests' `PASSED`/`SKIPPED` summary lines, and beyond the caps below: long tracebacks (their
 * middle), long messages, captured output, warnings and failure details past the first
 * {@link PYTEST_DETAILS_SHOWN} (those failures still keep their summary line with id and message).
 * A non-zero exit always reads as failed.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { capLines, capMiddle, Cuts, joinLines, sayFailed } from "./_test_report.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import { anyLine, FAILED, type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

/** Failure and error blocks shown with their traceback; the rest keep only their summary line. */
export const PYTEST_DETAILS_SHOWN = 20;
/** Traceback lines kept per block: this many from its start… */
export const PYTEST_TRACE_HEAD = 6;
/** …and this many from its end (where the exception is). */
export const PYTEST_TRACE_TAIL = 14;
/** Lines of one run of `E` lines (an assertion message or diff). */
export const PYTEST_E_LINES = 15;
/** Lines of each captured-output section (`Captured stdout call`). */
export const PYTEST_CAPTURED_LINES = 10;
/** Distinct warning lines kept from the warnings summary. */
export const PYTEST_WARNINGS_SHOWN = 5;
/** Test files named, with their test counts, before the rest are counted. */
export const PYTEST_FILES_SHOWN = 40;
/** Lines kept from any section or output rtok does not know (coverage tables, prints). */
export const PYTEST_OTHER_LINES = 20;

// Options whose output is a listing or a machine format the caller asked for.
const PASSTHROUGH = new Set([
  "--co",
  "--collect-only",
  "--fixtures",
  "--funcargs",
  "--fixtures-per-test",
  "--markers",
  "--help",
  "-h",
  "--version",
  "-V",
  "--setup-plan",
  "--pdb",
  "--trace",
]);

/** Why `pytest` arguments ask for an output rtok must not rewrite, or `null`. */
export function pytestPassthrough(args: readonly string[]): string | null {
  for (const arg of args) {
    if (arg === "--") break;
    if (PASSTHROUGH.has(arg)) return `the caller asked for ${arg}`;
  }
  return null;
}

const SECTION = /^={3,} (.+?) ={3,}$/;
const TEST_HEADING = /^_{3,} (.+?) _{3,}$/;
const SUBSECTION = /^-{3,} (.+?) -{3,}$/;
const BANGS = /^!{3,} (.+?) !{3,}$/;
// `4 failed, 5 passed, 1 skipped in 0.97s`, `no tests ran in 0.01s`, `12 deselected in 0.5s`.
const SUMMARY =
  /^(?:\d+ (?:passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?|rerun)(?:, )?)+ in [\d.]+s\b.*$|^no tests ran in [\d.]+s\b.*$/;
const PROGRESS = /^(?:\S+ )?([.FEsxX]+) *\[ *\d+%\]$|^\S+\.py ([.FEsxX]+)$/;
const VERBOSE =
  /^(?:\[gw\d+\] \[ *\d+%\] )?(?:\S.*::.* )?(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/;
const SHORT_LINE = /^(FAILED|ERROR) (.+?)(?: - (.*))?$/;
const LOCATION = /^\S+:\d+: /;
const CHAINED = /^(During handling of the above exception|The above exception was the direct)/;
const CARETS = /^\s*[\^~]+\s*$/;
const WARNING = /\w*Warning: /;

/** A failure or error block: its heading, traceback lines and captured-output sections. */
interface Block {
  readonly kind: "FAILED" | "ERROR";
  readonly title: string;
  readonly trace: string[];
  readonly captured: { title: string; lines: string[] }[];
}

/** A short-summary line: `FAILED tests/test_x.py::test_y - assert 1 == 2`. */
interface ShortLine {
  readonly kind: string;
  readonly id: string;
  readonly line: string;
}

/** Everything read from one run. */
interface Report {
  blocks: Block[];
  short: ShortLine[];
  warnings: string[];
  other: string[];
  notes: string[];
  summary: string | null;
  progress: Map<string, number>;
  /** Each test file the run named (progress or `-v` lines), with its tests counted. */
  files: Map<string, number>;
}

const PROGRESS_NAMES: Readonly<Record<string, string>> = {
  ".": "passed",
  F: "failed",
  E: "error",
  s: "skipped",
  x: "xfailed",
  X: "xpassed",
};

/** Filters pytest's terminal report; see the module doc. */
export function filterPytest(raw: string, input: FilterInput): Filtered {
  const cuts = new Cuts();
  const report = readReport(splitLines(stripAnsi(raw)), cuts);
  const out = render(report, cuts);
  return { text: joinLines(sayFailed(out, "pytest", input.exitCode)), cut: cuts.phrases() };
}

function readReport(lines: readonly string[], cuts: Cuts): Report {
  const report: Report = {
    blocks: [],
    short: [],
    warnings: [],
    other: [],
    notes: [],
    summary: null,
    progress: new Map(),
    files: new Map(),
  };
  let section = "";
  let block: Block | null = null;
  let inHeader = false;
  for (const line of lines) {
    const heading = SECTION.exec(line);
    const summary = SUMMARY.exec(heading ? heading[1] : line);
    if (summary) {
      report.summary = summary[0];
      section = "";
      continue;
    }
    if (heading) {
      section = heading[1].toLowerCase();
      block = null;
      inHeader = section === "test session starts";
      if (inHeader) cuts.add("session header");
      continue;
    }
    if (inHeader) {
      if (line === "") inHeader = false;
      if (line === "") section = "";
      continue;
    }
    const bangs = BANGS.exec(line);
    if (bangs) {
      report.notes.push(bangs[1]);
      continue;
    }
    if (section === "failures" || section === "errors") {
      const test = TEST_HEADING.exec(line);
      if (test) {
        block = {
          kind: section === "errors" ? "ERROR" : "FAILED",
          title: test[1],
          trace: [],
          captured: [],
        };
        report.blocks.push(block);
        continue;
      }
      if (block) {
        const sub = SUBSECTION.exec(line);
        if (sub) block.captured.push({ title: sub[1], lines: [] });
        else if (block.captured.length) block.captured[block.captured.length - 1].lines.push(line);
        else block.trace.push(line);
        continue;
      }
    }
    if (section === "short test summary info") {
      const short = SHORT_LINE.exec(line);
      if (short) report.short.push({ kind: short[1], id: short[2], line });
      else if (line !== "") cuts.add("passing summary line");
      continue;
    }
    if (section === "warnings summary") {
      readWarning(line, report.warnings);
      continue;
    }
    const progress = PROGRESS.exec(line);
    if (progress && section === "") {
      const file = /^(\S+\.py) /.exec(line)?.[1];
      const marks = progress[1] ?? progress[2];
      if (file) report.files.set(file, (report.files.get(file) ?? 0) + marks.length);
      for (const c of marks) {
        const name = PROGRESS_NAMES[c];
        report.progress.set(name, (report.progress.get(name) ?? 0) + 1);
      }
      cuts.add("progress line");
      continue;
    }
    if (section === "" && VERBOSE.test(line)) {
      const file = /^(?:\[gw\d+\] \[ *\d+%\] )?([^\s:]+\.py)::/.exec(line)?.[1];
      if (file) report.files.set(file, (report.files.get(file) ?? 0) + 1);
      cuts.add("test result line");
      continue;
    }
    if (line.trim() !== "") report.other.push(line);
  }
  return report;
}

function readWarning(line: string, warnings: string[]): void {
  const text = line.trim();
  if (WARNING.test(text) && !warnings.includes(text)) warnings.push(text);
}

/** `tests/test_x.py::TestA::test_b` as its block heading reads: `TestA.test_b`. */
function headingOf(id: string): string {
  const parts = id.split("::");
  return parts.length > 1 ? parts.slice(1).join(".") : id;
}

/** The short-summary line that names `block`'s test, if any. */
function shortFor(block: Block, short: readonly ShortLine[]): ShortLine | undefined {
  const m = /^ERROR (?:at (?:setup|teardown) of|collecting) (.+)$/.exec(block.title);
  const name = m ? m[1] : block.title;
  return short.find((s) => s.kind === block.kind && (s.id === name || headingOf(s.id) === name));
}

function render(report: Report, cuts: Cuts): string[] {
  const out: string[] = [];
  const shownShort = new Set<ShortLine>();
  report.blocks.forEach((block, i) => {
    const short = shortFor(block, report.short);
    if (i >= PYTEST_DETAILS_SHOWN && short) {
      cuts.add("traceback", 1);
      return;
    }
    if (short) shownShort.add(short);
    out.push(...renderBlock(block, short, cuts));
  });
  for (const short of report.short) if (!shownShort.has(short)) out.push(short.line);
  if (report.warnings.length) {
    out.push("warnings:");
    out.push(...capLines(report.warnings, PYTEST_WARNINGS_SHOWN, cuts, "warning").map(indent));
  }
  out.push(...capLines(report.other, PYTEST_OTHER_LINES, cuts, "other line"));
  out.push(...report.notes);
  if (report.files.size) out.push(filesLine(report.files, cuts));
  if (report.summary) out.push(`pytest: ${report.summary}`);
  else if (report.progress.size) out.push(`pytest: ${progressCounts(report.progress)}`);
  return out;
}

// The test files the run went through, each whole with its tests counted: the agent writes
// to them next as often as to the failing ones.
function filesLine(files: ReadonlyMap<string, number>, cuts: Cuts): string {
  const all = [...files];
  const shown = all.slice(0, PYTEST_FILES_SHOWN).map(([f, n]) => `${f} (${n})`);
  if (all.length > PYTEST_FILES_SHOWN) {
    cuts.add("test file name", all.length - PYTEST_FILES_SHOWN);
    shown.push(`${all.length - PYTEST_FILES_SHOWN} more`);
  }
  return `test files: ${shown.join(", ")}`;
}

function indent(line: string): string {
  return `  ${line}`;
}

function progressCounts(counts: ReadonlyMap<string, number>): string {
  const parts = Object.values(PROGRESS_NAMES).filter((name) => counts.has(name));
  const text = parts.map((name) => `${counts.get(name)} ${name}`).join(", ");
  return `${text} (counted from the progress line)`;
}

function renderBlock(block: Block, short: ShortLine | undefined, cuts: Cuts): string[] {
  const at = /^ERROR (at (?:setup|teardown) of|collecting) /.exec(block.title)?.[1];
  let heading: string;
  if (short) heading = at ? `ERROR ${at} ${short.id}` : `${block.kind} ${short.id}`;
  else if (block.title.startsWith(block.kind)) heading = block.title;
  else heading = `${block.kind} ${block.title}`;
  const out = [heading];
  out.push(...traceLines(block.trace, cuts).map(indent));
  for (const section of block.captured) {
    const lines = section.lines.filter((line) => line.trim() !== "");
    out.push(`  ${section.title}:`);
    const kept = capLines(lines, PYTEST_CAPTURED_LINES, cuts, "captured line");
    out.push(...kept.map((line) => `    ${line}`));
  }
  return out;
}

/**
 * The lines of one traceback worth keeping: `>` lines, `E` lines, locations and chained
 * exception notes (or, in `--tb=short`, the source line under each location). A traceback in
 * a form rtok does not know (`--tb=native`) keeps every non-blank line. Either is then capped.
 */
function traceLines(trace: readonly string[], cuts: Cuts): readonly string[] {
  const nonBlank = trace.filter((line) => line.trim() !== "" && !CARETS.test(line));
  const hasE = nonBlank.some((line) => line.startsWith("E "));
  if (!hasE) {
    const own = withoutPytestFrames(nonBlank, cuts);
    return capMiddle(own, PYTEST_TRACE_HEAD, PYTEST_TRACE_TAIL, cuts, "traceback line");
  }
  const long = nonBlank.some((line) => line.startsWith(">"));
  const eIndent = Math.min(
    ...nonBlank.filter((line) => line.startsWith("E ")).map((line) =>
      /^ */.exec(line.slice(1))?.[0].length ?? 0
    ),
  );
  const kept: string[] = [];
  let eRun: string[] = [];
  const flushE = () => {
    kept.push(...capLines(eRun, PYTEST_E_LINES, cuts, "message line"));
    eRun = [];
  };
  let dropped = 0;
  for (let i = 0; i < nonBlank.length; i++) {
    const line = nonBlank[i];
    if (line.startsWith("E ")) {
      if (line.slice(1).trim() !== "") eRun.push(`E ${line.slice(1 + eIndent)}`);
      continue;
    }
    flushE();
    const prev = nonBlank[i - 1] ?? "";
    if (line.startsWith(">")) kept.push(`> ${line.slice(1).trim()}`);
    else if (LOCATION.test(line) || CHAINED.test(line)) kept.push(line);
    else if (!long && /^\s/.test(line) && LOCATION.test(prev)) kept.push(`  ${line.trim()}`);
    else dropped++;
  }
  flushE();
  cuts.add("traceback source line", dropped);
  return capMiddle(kept, PYTEST_TRACE_HEAD, PYTEST_TRACE_TAIL, cuts, "traceback line");
}

// `File ".../_pytest/runner.py", line 353, in from_call` and its source line: pytest's and
// pluggy's own frames in a `--tb=native` traceback.
const PYTEST_FRAME = /^\s*File ".*\/(?:_pytest|pluggy)\/[^"]*", line \d+/;

function withoutPytestFrames(lines: readonly string[], cuts: Cuts): string[] {
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!PYTEST_FRAME.test(lines[i])) {
      kept.push(lines[i]);
      continue;
    }
    cuts.add("pytest internal frame");
    const next = lines[i + 1] ?? "";
    if (/^\s/.test(next) && !/^\s*File "/.test(next)) i++;
  }
  return kept;
}

/** The `pytest` filter. */
export const pytestFilter: CommandFilter = {
  name: "pytest",
  textClass: "log",
  passthrough: pytestPassthrough,
  filter: filterPytest,
};

const PYTEST_START = /^=+ test session starts =+$/;
const PYTEST_SUMMARY =
  /^(=+ )?\d+ (passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?)\b[^=]* in \d+(\.\d+)?s\b/;

// A session banner at the top, or the summary line at the bottom.
function _detect(s: Sample): ShapeMatch | null {
  const summary = s.tail.find((l) => PYTEST_SUMMARY.test(l));
  if (!anyLine(s.head, PYTEST_START) && !summary) return null;
  const failed = (summary !== undefined && /\d+ (failed|errors?)\b/.test(summary)) ||
    anyLine(s.tail, /^(=+ )?(FAILED|ERROR) |Interrupted: /);
  return shapeMatch(failed ? FAILED : 0);
}

/**
 * The families this module serves. Test runners run the project's code and write caches:
 * never rewritten as read-only.
 */
export const FAMILIES: FamilyDeclarations = {
  "pytest": {
    filter: pytestFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 100, detect: _detect }],
    saving: 57,
  },
};
