/**
 * `vitest`: a passing run is one line of counts (`vitest: Test Files 4 passed (4); Tests 36
 * passed | 1 skipped | 1 todo (38); Duration 1.32s`). vitest prints its listing and counts on
 * stdout and the failures' details on stderr (`filterStderr`); each stream is filtered on its
 * own, and both together (`2>&1`) read right too.
 *
 * - stdout: each failing test under its file's line, with the one-line message vitest gives
 *   it, then the counts; passing files and tests, skipped tests, the `RUN` banner and the
 *   start time are cut.
 * - stderr: each failure (`Failed Tests 5`, `Failed Suites 1`, `Unhandled Errors`) with its
 *   message and diff, the source line vitest points at and the first frames in the project;
 *   the rest of the code frame, `node_modules` frames and the `⎯⎯[1/6]⎯` rules are cut. When
 *   both streams come together, a failure detailed on stderr is not repeated from stdout.
 *
 * A coverage table (`--coverage`) is kept whole. A stream in which nothing is vitest's own
 * report passes through unchanged.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { Cuts } from "./_test_report.ts";
import { dedent, type FailureGroup, renderReport, type TestFailure } from "./_test_failures.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import { anyLine, FAILED, type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

// Reporters that print vitest's own report; any other is a format rtok does not know.
const OWN_REPORTERS = new Set(["default", "basic", "verbose", "dot", "tree", "github-actions"]);
const OWN_FORMAT = new Set(["--help", "-h", "--version", "-v", "--watch", "-w", "--ui"]);
// Subcommands that print something other than a test report.
const OTHER_COMMANDS = new Set(["list", "init", "dev", "watch"]);

/** Why vitest's arguments ask for output rtok must not rewrite, or `null`. */
export function vitestPassthrough(args: readonly string[]): string | null {
  if (OTHER_COMMANDS.has(args[0])) return `vitest ${args[0]} is not a test run`;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    const flag = arg.split("=")[0];
    if (OWN_FORMAT.has(flag)) return `the caller chose vitest's ${flag} output`;
    if (flag === "--reporter") {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[i + 1] ?? "";
      if (!OWN_REPORTERS.has(value)) return `the caller chose a reporter (${value})`;
    }
  }
  return null;
}

const BANNER = /^ (RUN|DEV|WATCH)\s+v\d/;
const FILE_LINE = /^ ([✓❯×↓]) (.+?) \((\d+ tests?[^)]*)\)(?: \d[\d.]*m?s)?$/;
const TEST_LINE = /^ {3,}([✓×↓]) (.+?)(?: \d[\d.]*m?s)?$/;
const ARROW = /^ {4,}→ (.*)$/;
const SUMMARY = /^\s*(Test Files|Tests|Errors|Snapshots|Type Errors)\s{2,}(.+)$/;
const DURATION = /^\s*Duration\s{2,}(\S+)/;
const START = /^\s*Start at\s{2,}/;
const SECTION = /^⎯+ (.+?) ⎯+$/;
const RULE = /^⎯+(\[\d+\/\d+\])?⎯*$/;
const FAIL = /^ FAIL {2}(.+)$/;
const FRAME = /^ ❯ /;
const CODE_LINE = /^\s+\d+\s*\|/;
const CARET_LINE = /^\s+\|\s*[\^~]/;
const DOTS = /^[·×↓x*-]+$/;
const COVERAGE = /^ % Coverage report from /;

/**
 * Drops the diff of two one-line values that the message's first line already gives whole
 * (`expected 2 to be 2.5` over `- Expected`, `+ Received`, `- 2.5`, `+ 2`); a diff of longer
 * values, or of values the message shortens (`…(1)`), stays.
 */
function dropEchoedDiff(message: readonly string[], cuts: Cuts): string[] {
  const lines = message.filter((line) => line.trim() !== "");
  if (lines.length !== 5 || lines[1] !== "- Expected" || lines[2] !== "+ Received") {
    return [...message];
  }
  const expected = /^- (.+)$/.exec(lines[3])?.[1];
  const received = /^\+ (.+)$/.exec(lines[4])?.[1];
  const plain = (value: string) => value.replace(/^"(.*)"$/, "'$1'");
  const first = lines[0];
  if (
    !expected || !received || !first.includes(plain(expected)) || !first.includes(plain(received))
  ) {
    return [...message];
  }
  cuts.add("diff line", 4);
  return [first];
}

/** Reads one failure's lines (after its ` FAIL  title` line) from stderr. */
function readDetail(title: string, body: readonly string[], cuts: Cuts): TestFailure {
  const message: string[] = [];
  const frames: string[] = [];
  let source: string | undefined;
  let lastCode: string | undefined;
  let codeFrame = 0;
  for (const line of body) {
    if (FRAME.test(line)) frames.push(line.trim());
    else if (CODE_LINE.test(line)) {
      codeFrame++;
      lastCode = line;
    } else if (CARET_LINE.test(line)) {
      codeFrame++;
      source ??= lastCode?.trim();
    } else message.push(line);
  }
  cuts.add("code-frame line", codeFrame - (source === undefined ? 0 : 1));
  // A parse error names its file twice: `At file: x.js:1:2`, then `  File: x.js:1:2`.
  const places = new Set(message.map((line) => /^At file: (.+)$/.exec(line)?.[1] ?? ""));
  const shown = message.filter((line) => !places.has(/^\s*File: (.+)$/.exec(line)?.[1] ?? "-"));
  return { title, message: dropEchoedDiff(dedent(shown), cuts), source, frames };
}

/** One heading (a file on stdout, a section on stderr) and the failures under it. */
interface Group {
  heading: string | null;
  failures: TestFailure[];
  /** stdout's one-line failures, keyed `file > title` to match stderr's details. */
  keys: string[];
}

/** Parses vitest's default, `verbose` and `dot` report, either stream; see the module doc. */
export function filterVitest(raw: string, input: FilterInput): Filtered {
  const text = stripAnsi(raw);
  const lines = splitLines(text);
  const cuts = new Cuts();
  const listed: Group[] = [];
  const detailed: Group[] = [];
  const summary: string[] = [];
  const notes: string[] = [];
  let recognised = false;
  let file: Group | null = null;
  let section: Group | null = null;
  let coverage: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (COVERAGE.test(line)) {
      // The coverage table the caller asked for (`--coverage`) is kept whole.
      coverage = lines.slice(i).filter((l) => l.trim() !== "");
      break;
    }
    if (line.trim() === "") continue;
    if (BANNER.test(line) || START.test(line)) {
      recognised = true;
      cuts.add("banner line");
      continue;
    }
    const fileLine = FILE_LINE.exec(line);
    if (fileLine) {
      recognised = true;
      if (fileLine[1] === "✓" || fileLine[1] === "↓") {
        cuts.add("passing file line");
        file = null;
      } else {
        file = { heading: `❯ ${fileLine[2]} (${fileLine[3]})`, failures: [], keys: [] };
        listed.push(file);
      }
      continue;
    }
    const test = TEST_LINE.exec(line);
    if (test) {
      recognised = true;
      if (test[1] === "✓") cuts.add("passing test line");
      else if (test[1] === "↓") cuts.add("skipped test line");
      else {
        const message: string[] = [];
        while (i + 1 < lines.length && ARROW.test(lines[i + 1])) {
          message.push(ARROW.exec(lines[++i])![1]);
        }
        const failure = { title: test[2], message, frames: [] };
        if (!file) {
          file = { heading: null, failures: [], keys: [] };
          listed.push(file);
        }
        file.failures.push(failure);
        const name = file.heading ? FILE_LINE.exec(` ${file.heading}`)?.[2] : undefined;
        file.keys.push(name ? `${name} > ${test[2]}` : test[2]);
      }
      continue;
    }
    const counts = SUMMARY.exec(line);
    if (counts) {
      recognised = true;
      summary.push(`${counts[1]} ${counts[2].trim().replace(/\s+/g, " ")}`);
      continue;
    }
    const duration = DURATION.exec(line);
    if (duration) {
      recognised = true;
      summary.push(`Duration ${duration[1]}`);
      continue;
    }
    const heading = SECTION.exec(line);
    if (heading) {
      recognised = true;
      section = { heading: heading[1], failures: [], keys: [] };
      detailed.push(section);
      continue;
    }
    // A rule line is decoration, like a blank line.
    if (RULE.test(line)) continue;
    const fail = FAIL.exec(line);
    if (fail) {
      recognised = true;
      const body: string[] = [];
      while (
        i + 1 < lines.length && !FAIL.test(lines[i + 1]) && !RULE.test(lines[i + 1]) &&
        !SECTION.test(lines[i + 1])
      ) body.push(lines[++i]);
      if (!section) {
        section = { heading: null, failures: [], keys: [] };
        detailed.push(section);
      }
      section.failures.push(readDetail(fail[1], body, cuts));
      continue;
    }
    if (DOTS.test(line.trim())) {
      cuts.add("progress line");
      continue;
    }
    if (section) {
      // An unhandled error's own lines, between the section's rule lines.
      notes.push(line);
      continue;
    }
    notes.push(line);
  }
  if (!recognised) return { text, cut: [] };
  // With both streams together, stderr's details stand for stdout's one-liners.
  const details = new Set(detailed.flatMap((group) => group.failures.map((f) => f.title)));
  const groups: FailureGroup[] = [];
  for (const group of listed) {
    const failures = group.failures.filter((_, k) => !details.has(group.keys[k]));
    cuts.add("repeated failure", group.failures.length - failures.length);
    if (failures.length > 0) groups.push({ heading: group.heading, failures });
  }
  groups.push(...detailed.filter((group) => group.failures.length > 0));
  const report = { runner: "vitest", groups, summary, notes, cuts, asked: coverage };
  return renderReport(report, input.exitCode);
}

/** The `vitest` filter. */
export const vitestFilter: CommandFilter = {
  name: "vitest",
  textClass: "log",
  filterStderr: true,
  passthrough: vitestPassthrough,
  filter: filterVitest,
};

// The `RUN v…` banner, a failure banner, or the `Test Files` summary.
function _detect(s: Sample, text: string): ShapeMatch | null {
  const started = anyLine(s.head, /^\s*RUN\s+v\d+\.\d+/);
  const failedBanner = anyLine(s.head, /^⎯{3,} Failed (Suites|Tests) \d+ ⎯/);
  const files = s.tail.find((l) => /^\s*Test Files\s+\d/.test(l));
  if (!started && !failedBanner && files === undefined) return null;
  const failed = failedBanner || (files !== undefined && /\d+ failed/.test(files)) ||
    text.includes(" FAIL ") || anyLine(s.tail, /^\s*Tests\s+.*\d+ failed/);
  return shapeMatch(failed ? FAILED : 0);
}

/** The families this module serves. Test runners run the project's code: never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "vitest": {
    filter: vitestFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 110, detect: _detect }],
    saving: 58,
  },
};
