/**
 * `mocha`: a passing run is one line of counts (`mocha: 62 passing (33ms); 2 pending`). A
 * failing run keeps each failure: its title (suites joined by ` › `), the error and its message,
 * mocha's `+ expected - actual` diff unless the message already shows both values (`2 !== 2.5`,
 * or node's own `+ actual - expected` diff), and the first stack frames in the project; the
 * listing of passing and pending tests (spec, list, dot, progress or min reporter) and
 * `node:internal` frames are cut. A test's console output is kept.
 *
 * mocha prints a file that failed to load (`Exception during run`) on stderr
 * (`filterStderr`): that error is kept without its node-internal frames. A stream in which
 * nothing is mocha's own passes through unchanged.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { Cuts } from "./_test_report.ts";
import { renderReport, shapeErrorText, type TestFailure } from "./_test_failures.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import { FAILED, lineAround, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

// Reporters whose output this filter reads; any other (json, xunit, tap…) passes through.
const OWN_REPORTERS = new Set(["spec", "dot", "list", "progress", "min", "nyan", "landing"]);
const OWN_FORMAT = new Set([
  "--help",
  "-h",
  "--version",
  "-V",
  "--list-reporters",
  "--list-interfaces",
  "--watch",
  "-w",
  "--dry-run",
]);

/** Why mocha's arguments ask for output rtok must not rewrite, or `null`. */
export function mochaPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    const flag = arg.split("=")[0];
    if (OWN_FORMAT.has(flag)) return `the caller chose mocha's ${flag} output`;
    if (flag === "--reporter" || flag === "-R") {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[i + 1] ?? "";
      if (!OWN_REPORTERS.has(value)) return `the caller chose a reporter (${value})`;
    }
  }
  return null;
}

const SUMMARY = /^\s+(\d+) (passing|pending|failing)( \(.+\))?$/;
const FAILURE_START = /^\s+(\d+)\) (.*)$/;
const FRAME = /^\s*at /;
const MOCHA_DIFF = /^\s*\+ expected - actual$/;
// A message that already shows both values: node's `2 !== 2.5` or its own diff.
const SHOWS_VALUES = / !== | != |^\+ actual - expected$/;

/** Reads one numbered failure from `lines[start]`; returns it and the index of its last line. */
function readFailure(lines: readonly string[], start: number, cuts: Cuts) {
  const titles: string[] = [];
  let i = start;
  let first = FAILURE_START.exec(lines[i])![2];
  // The title runs over lines, one per suite, until the one ending in `:`.
  while (true) {
    const part = i === start ? first : lines[i].trim();
    if (part.endsWith(":")) {
      titles.push(part.slice(0, -1));
      break;
    }
    titles.push(part);
    if (i + 1 >= lines.length || lines[i + 1].trim() === "") break;
    i++;
  }
  first = "";
  const body: string[] = [];
  while (i + 1 < lines.length && !FAILURE_START.test(lines[i + 1])) body.push(lines[++i]);
  const message: string[] = [];
  const frames: string[] = [];
  for (let k = 0; k < body.length; k++) {
    const line = body[k];
    if (FRAME.test(line)) frames.push(line.trim());
    else if (MOCHA_DIFF.test(line) && message.some((m) => SHOWS_VALUES.test(m.trim()))) {
      let end = k + 1;
      while (end < body.length && !FRAME.test(body[end])) end++;
      cuts.add("diff line", body.slice(k, end).filter((l) => l.trim() !== "").length);
      k = end - 1;
    } else if (frames.length === 0) message.push(line.replace(/^ {5,6}/, ""));
  }
  const failure: TestFailure = { title: titles.join(" › "), message, frames };
  return { failure, end: i };
}

/** Parses mocha's report on either stream; see the module doc. */
export function filterMocha(raw: string, input: FilterInput): Filtered {
  const text = stripAnsi(raw);
  const lines = splitLines(text);
  const cuts = new Cuts();
  const failures: TestFailure[] = [];
  const summary: string[] = [];
  const notes: string[] = [];
  let recognised = false;
  let summarised = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const counts = SUMMARY.exec(line);
    if (counts) {
      recognised = summarised = true;
      summary.push(line.trim());
      continue;
    }
    if (summarised && FAILURE_START.test(line)) {
      const { failure, end } = readFailure(lines, i, cuts);
      failures.push(failure);
      i = end;
      continue;
    }
    if (line.trim() === "") continue;
    if (/^\s*Exception during run: /.test(line) || /^(\w*Error|Warning): /.test(line)) {
      recognised = true;
      const shaped = shapeErrorText(lines.slice(i), cuts);
      notes.push(...shaped);
      break;
    }
    // Before the counts every indented line is the listing: tests, suites, dots, progress.
    if (!summarised && /^\s/.test(line)) {
      cuts.add(/^\s+[✔✓]/.test(line) ? "passing test line" : "listing line");
      continue;
    }
    notes.push(line);
  }
  if (!recognised) return { text, cut: [] };
  const groups = [{ heading: null, failures }];
  return renderReport({ runner: "mocha", groups, summary, notes, cuts }, input.exitCode);
}

/** The `mocha` filter. */
export const mochaFilter: CommandFilter = {
  name: "mocha",
  textClass: "log",
  filterStderr: true,
  passthrough: mochaPassthrough,
  filter: filterMocha,
};

// `  N passing (12ms)`, anywhere (mocha prints failures after it).
function _detect(_s: unknown, text: string): ShapeMatch | null {
  const at = text.indexOf(" passing (");
  if (at < 0 || !/^\s+\d+ passing \(\d+(ms|s|m)\)$/.test(lineAround(text, at))) return null;
  const failing = text.indexOf(" failing\n", at);
  const failed = failing >= 0 && /^\s+\d+ failing$/.test(lineAround(text, failing));
  return shapeMatch(failed ? FAILED : 0);
}

/** The families this module serves. Test runners run the project's code: never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "mocha": {
    filter: mochaFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 140, detect: _detect }],
    saving: 80,
  },
};
