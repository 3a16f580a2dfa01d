/**
 * `deno test`: a passing run is one line of counts (`deno test: ok | 16 passed (53 steps) | 0
 * failed (49ms)`). A failing run keeps each entry of the `ERRORS` section: the test's name and
 * location, the error and its message, the source line deno points at and the first frames in
 * the project, then the counts. The `running N tests` lines, the listing of tests and steps
 * (`... ok`, `... FAILED`, `... ignored`), the rest of each code frame, `ext:` and `node:`
 * frames, the `FAILURES` list that repeats the `ERRORS` names and deno's advice on uncaught
 * errors are cut. A test's captured output (`------- output -------`) is kept.
 *
 * deno prints `Check` lines, type errors and `error: Test failed` on stderr (`filterStderr`):
 * there the `Check`/`Download` lines, deno's hints and the `Stack backtrace` noise are cut and
 * every diagnostic is kept. A stream in which nothing is deno's own passes through unchanged.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { Cuts } from "./_test_report.ts";
import { renderReport, shapeErrorText, type TestFailure } from "./_test_failures.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import { anyLine, FAILED, type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

// Reporters whose output this filter reads; JUnit and TAP pass through.
const OWN_REPORTERS = new Set(["pretty", "dot"]);

/** Why `deno test` arguments ask for output rtok must not rewrite, or `null`. */
export function denoTestPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    const flag = arg.split("=")[0];
    if (flag === "--reporter") {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[i + 1] ?? "";
      if (!OWN_REPORTERS.has(value)) return `the caller chose a reporter (${value})`;
    }
    if (flag === "--watch") return "the caller chose watch mode";
    if (flag === "--help" || flag === "-h") return "the caller asked for help";
  }
  return null;
}

const RUNNING = /^running \d+ tests? from /;
const LISTED = /^\s*.+ \.\.\.( (ok|FAILED|ignored)( \(due to .+?\))?( \(\d[^)]*\))?)?$/;
const UNCAUGHT_LISTED = /^Uncaught error from \S+ FAILED$/;
const HEADER = /^(.+) => (\S+:\d+:\d+)$|^(\S+) \(uncaught error\)$/;
const SUMMARY = /^(ok|FAILED) \| (.+)$/;
const CARET = /^\s*[\^~]+\s*$/;
const FRAME = /^\s*at /;
const CHECK = /^(Check|Download|Warning Implicitly using latest version) /;
const HINT = /^\s*(info|hint): /;
const OUTPUT_START = /^-+ (post-test )?output -+$/;
const OUTPUT_END = /^-+ (post-test )?output end -+$/;
// deno's explanation under an uncaught error.
const ADVICE = [
  /^This error was not caught from a test and caused the test runner to fail/,
  /^It most likely originated from a dangling promise/,
];

/** One `ERRORS` entry (its lines after the header) as a failure. */
function readError(title: string, location: string | undefined, body: string[], cuts: Cuts) {
  const message: string[] = [];
  const frames: string[] = [];
  let source: string | undefined;
  for (let k = 0; k < body.length; k++) {
    const line = body[k];
    if (FRAME.test(line)) frames.push(line.trim());
    else if (CARET.test(line)) {
      cuts.add("code-frame line");
      if (source === undefined && message.length > 0) source = message.pop();
    } else if (ADVICE.some((advice) => advice.test(line))) {
      cuts.add("line of deno's advice", 1, "lines of deno's advice");
    } else if (frames.length === 0) message.push(line);
    else message.push(line);
  }
  const failure: TestFailure = { title, location, message, source, frames };
  return failure;
}

/** Parses deno's stdout report; see the module doc. */
function filterReport(lines: readonly string[], cuts: Cuts) {
  const failures: TestFailure[] = [];
  const summary: string[] = [];
  const notes: string[] = [];
  const named = new Set<string>();
  let section: "listing" | "errors" | "failures" = "listing";
  let recognised = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "") continue;
    if (line.trim() === "ERRORS" || line.trim() === "FAILURES") {
      recognised = true;
      section = line.trim() === "ERRORS" ? "errors" : "failures";
      continue;
    }
    const counts = SUMMARY.exec(line);
    if (counts) {
      recognised = true;
      summary.push(line.trim());
      continue;
    }
    if (OUTPUT_START.test(line)) {
      while (i + 1 < lines.length && !OUTPUT_END.test(lines[i + 1])) notes.push(lines[++i]);
      i++;
      continue;
    }
    const header = section !== "listing" ? HEADER.exec(line) : null;
    if (header && section === "errors") {
      const body: string[] = [];
      while (
        i + 1 < lines.length && !HEADER.test(lines[i + 1]) && lines[i + 1].trim() !== "FAILURES" &&
        !SUMMARY.test(lines[i + 1])
      ) body.push(lines[++i]);
      const title = header[1] ?? `${header[3]} (uncaught error)`;
      named.add(line);
      while (body.length > 0 && body[body.length - 1].trim() === "") body.pop();
      failures.push(readError(title, header[2], body, cuts));
      continue;
    }
    if (header && section === "failures") {
      if (named.has(line)) cuts.add("repeated failure");
      else {failures.push({
          title: header[1] ?? line,
          location: header[2],
          message: [],
          frames: [],
        });}
      continue;
    }
    if (section === "listing") {
      if (RUNNING.test(line)) {
        recognised = true;
        cuts.add("running line");
        continue;
      }
      const listed = LISTED.exec(line);
      if (listed || UNCAUGHT_LISTED.test(line)) {
        recognised = true;
        cuts.add(listed?.[2] === "ok" ? "passing test line" : "listed test line");
        continue;
      }
      if (/^[.!,]+$/.test(line.trim())) {
        cuts.add("progress line");
        continue;
      }
    }
    // With stderr on the same stream (`2>&1`).
    if (CHECK.test(line)) {
      cuts.add(`${line.split(" ")[0]} line`);
      continue;
    }
    notes.push(line);
  }
  return { recognised, failures, summary, notes };
}

/** Parses deno's stderr (type-check diagnostics and its last word); see the module doc. */
function filterDiagnostics(lines: readonly string[], cuts: Cuts) {
  const notes: string[] = [];
  let recognised = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (CHECK.test(line)) {
      recognised = true;
      cuts.add(`${line.split(" ")[0]} line`);
    } else if (HINT.test(line)) {
      cuts.add("line of deno's advice", 1, "lines of deno's advice");
    } else if (line === "Stack backtrace:") {
      let end = i;
      while (end + 1 < lines.length && /^\s+\d+: /.test(lines[end + 1])) end++;
      cuts.add("backtrace line", end - i + 1);
      i = end;
    } else if (CARET.test(line)) cuts.add("code-frame line");
    else {
      if (/^error: |^TS\d+ \[ERROR\]/.test(line)) recognised = true;
      notes.push(line);
    }
  }
  return { recognised, notes: shapeErrorText(notes, cuts) };
}

/** Filters `deno test` output, either stream; see the module doc. */
export function filterDenoTest(raw: string, input: FilterInput): Filtered {
  const text = stripAnsi(raw);
  const lines = splitLines(text);
  const cuts = new Cuts();
  const report = filterReport(lines, cuts);
  if (report.recognised) {
    const { failures, summary, notes } = report;
    const groups = [{ heading: null, failures }];
    const shaped = shapeErrorText(notes, cuts);
    return renderReport(
      { runner: "deno test", groups, summary, notes: shaped, cuts },
      input.exitCode,
    );
  }
  const stderrCuts = new Cuts();
  const diagnostics = filterDiagnostics(lines, stderrCuts);
  if (!diagnostics.recognised) return { text, cut: [] };
  const notes = diagnostics.notes;
  return renderReport(
    { runner: "deno test", groups: [], summary: [], notes, cuts: stderrCuts },
    input.exitCode,
  );
}

/** The `deno test` filter. */
export const denoTestFilter: CommandFilter = {
  name: "deno test",
  textClass: "log",
  filterStderr: true,
  passthrough: denoTestPassthrough,
  filter: filterDenoTest,
};

// `running N tests from …`, the `ok | N passed` summary, or a type check that failed.
function _detect(s: Sample): ShapeMatch | null {
  const started = anyLine(s.head, /^running \d+ tests? from /);
  const summary = s.tail.find((l) => /^(ok|FAILED) \| \d+ passed/.test(l));
  const checked = /^Check \S/.test(s.filled[0] ?? "") && anyLine(s.tail, /^error: /);
  if (!started && summary === undefined && !checked) return null;
  const failed = checked || (summary !== undefined && summary.startsWith("FAILED"));
  return shapeMatch(failed ? FAILED : 0);
}

/** The families this module serves. Test runners run the project's code: never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "deno test": {
    filter: denoTestFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 130, detect: _detect }],
    saving: 80,
  },
};
