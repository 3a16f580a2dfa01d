/**
 * `jest`: a passing run is one line of counts (`jest: Test Suites: 4 passed, 4 total; Tests: 36
 * passed, 38 total; Time: 0.7 s`). A failing run keeps each failing file's `FAIL` line and,
 * under it, each failure: its title, message and diff, the source line jest points at, and the
 * first stack frames in the project; the `PASS` lines, the `--verbose` listing, the rest of each
 * code frame, runner and `node_modules` frames, jest's advice on parse errors and the failures
 * its end-of-run summary repeats are cut. A test's console output is kept, without jest's frame.
 *
 * jest prints its report on stderr (`filterStderr`). A stream in which nothing is jest's own
 * report (a coverage table on stdout) passes through unchanged.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { Cuts } from "./_test_report.ts";
import { dedent, type FailureGroup, renderReport, type TestFailure } from "./_test_failures.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import { anyLine, FAILED, type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

// Flags after which jest prints something other than its test report, or waits for keys.
const OWN_FORMAT = new Set([
  "--json",
  "--listTests",
  "--showConfig",
  "--help",
  "-h",
  "--version",
  "-v",
  "--watch",
  "--watchAll",
  "--init",
  "--clearCache",
]);
// Reporters that print jest's own report; any other prints a format rtok does not know.
const OWN_REPORTERS = new Set(["default", "summary", "github-actions"]);

/** Why jest's arguments ask for output rtok must not rewrite, or `null`. */
export function jestPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    const flag = arg.split("=")[0];
    if (OWN_FORMAT.has(flag)) return `the caller chose jest's ${flag} output`;
    if (flag === "--reporters") {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[i + 1] ?? "";
      if (!OWN_REPORTERS.has(value)) return `the caller chose a reporter (${value})`;
    }
  }
  return null;
}

const FILE_RESULT = /^ ?(PASS|FAIL) +(.+?)(?: \(\d[\d.]* m?s\))?$/;
const FAILURE = /^ {2}● (.+)$/;
const CONSOLE = /^ {2}console\.(log|info|warn|error|debug|trace)$/;
const SUMMARY = /^(Test Suites|Tests|Snapshots|Time):\s+(.*)$/;
const LISTED_TEST = /^\s+([✓√✕×○✎]) /;
const CODE_LINE = /^\s*(>?)\s*\d+ \|/;
const CARET_LINE = /^\s*\|\s*\^/;
const FRAME = /^\s*at /;

/** jest's advice on a file it could not parse, printed before the error's `Details:`. */
const DETAILS = "Details:";

/** Reads one `●` block's lines (without their four-space indent) into a failure. */
function readFailure(title: string, body: readonly string[], cuts: Cuts): TestFailure {
  let lines = [...body];
  const details = lines.indexOf(DETAILS);
  if (details > 0) {
    const first = lines.findIndex((line) => line.trim() !== "");
    const advice = lines.slice(first + 1, details).filter((line) => line.trim() !== "");
    cuts.add("line of jest's advice", advice.length, "lines of jest's advice");
    lines = [lines[first], ...lines.slice(details + 1)];
  }
  const message: string[] = [];
  const frames: string[] = [];
  let source: string | undefined;
  for (const line of lines) {
    const code = CODE_LINE.exec(line);
    if (FRAME.test(line)) frames.push(line.trim());
    else if (code) {
      if (code[1] === ">" && source === undefined) source = line.trim().replace(/^>\s*/, "");
      else cuts.add("code-frame line");
    } else if (CARET_LINE.test(line)) cuts.add("code-frame line");
    else message.push(line);
  }
  return { title, message: dedent(message), source, frames };
}

/** One `FAIL` file and its failures, in the order jest printed them. */
interface FileGroup {
  heading: string;
  failures: TestFailure[];
}

/** Parses jest's default and `--verbose` report; see the module doc. */
export function filterJest(raw: string, input: FilterInput): Filtered {
  const text = stripAnsi(raw);
  const lines = splitLines(text);
  const cuts = new Cuts();
  const groups: FileGroup[] = [];
  const summary: string[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  let recognised = false;
  let file: FileGroup | null = null;
  let listing = false;
  let repeating = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const result = FILE_RESULT.exec(line);
    if (result) {
      recognised = true;
      listing = true;
      if (result[1] === "PASS") {
        cuts.add("PASS line");
        file = null;
        continue;
      }
      const heading = `FAIL ${result[2]}`;
      file = groups.find((group) => group.heading === heading) ?? null;
      if (!file) {
        file = { heading, failures: [] };
        groups.push(file);
      }
      continue;
    }
    if (line.trim() === "") {
      listing = false;
      continue;
    }
    const failure = FAILURE.exec(line);
    const console = CONSOLE.exec(line);
    if (failure || console) {
      listing = false;
      const body: string[] = [];
      while (i + 1 < lines.length && /^( {4}|\s*$)/.test(lines[i + 1])) {
        body.push(lines[++i].slice(4));
      }
      if (console) {
        recognised = true;
        const own = body.filter((l) => !FRAME.test(l));
        cuts.add("stack frame", body.length - own.length);
        notes.push(
          `console.${console[1]}: ${own.map((l) => l.trim()).filter(Boolean).join("\n  ")}`,
        );
        continue;
      }
      const title = failure![1];
      const key = `${file?.heading}\0${title}`;
      if (repeating && seen.has(key)) {
        cuts.add("repeated failure");
        continue;
      }
      seen.add(key);
      recognised = true;
      const parsed = readFailure(title, body, cuts);
      if (file) file.failures.push(parsed);
      else groups.push({ heading: "FAIL", failures: [parsed] });
      continue;
    }
    const counts = SUMMARY.exec(line);
    if (counts) {
      recognised = true;
      if (counts[1] === "Snapshots" && counts[2].trim() === "0 total") continue;
      summary.push(`${counts[1]}: ${counts[2].trim().replace(/\s+/g, " ")}`);
      continue;
    }
    if (listing && line.startsWith("  ")) {
      const test = LISTED_TEST.exec(line);
      if (!test) cuts.add("group name");
      else if (test[1] === "✓" || test[1] === "√") cuts.add("passing test line");
      else cuts.add("listed test line");
      continue;
    }
    if (line === "Summary of all failing tests") {
      repeating = true;
      continue;
    }
    if (/^Ran all test suites/.test(line)) continue;
    notes.push(line);
  }
  if (!recognised) return { text, cut: [] };
  const shown: FailureGroup[] = groups.filter((group) => group.failures.length > 0);
  return renderReport({ runner: "jest", groups: shown, summary, notes, cuts }, input.exitCode);
}

/** The `jest` filter. */
export const jestFilter: CommandFilter = {
  name: "jest",
  textClass: "log",
  filterStderr: true,
  passthrough: jestPassthrough,
  filter: filterJest,
};

// `PASS`/`FAIL` file lines at the top and the `Tests:` summary at the bottom.
function _detect(s: Sample): ShapeMatch | null {
  const tests = s.tail.filter((l) => /^(Tests|Test Suites):\s+\d/.test(l));
  if (tests.length === 0 || !anyLine(s.head, /^\s*(PASS|FAIL)\s+\S/)) return null;
  return shapeMatch(tests.some((l) => /\d+ failed/.test(l)) ? FAILED : 0);
}

/** The families this module serves. Test runners run the project's code: never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "jest": {
    filter: jestFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 105, detect: _detect }],
    saving: 76,
  },
};
