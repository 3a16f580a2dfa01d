/**
 * `cargo test`: what libtest prints on stdout, for the pretty (`test x ... ok`) and quiet
 * (`-q`: dots, `x --- FAILED`) formats. A passing run becomes one line with the totals of
 * every suite (`cargo test: 41 passed, 2 ignored in 3 suites (0.52s)`). A failing run keeps
 * each failing test's output section (its panic location, assertion message and `left`/`right`
 * values), the names of failures without a section, each failing suite's `test result:` line and
 * the totals, which say `FAILED`. A suite that stopped before its result line (a crashed test
 * binary) is reported as such.
 *
 * Cut: `test x ... ok`/`ignored` lines and progress dots (counted in the totals), blank lines,
 * the `RUST_BACKTRACE` hints, backtrace frames in the standard library and dependencies, the `failures:` name list when every name has its section, the
 * result lines of passing suites, and beyond the caps below: long sections, sections past the
 * first {@link CARGO_DETAILS_SHOWN} (their names are still listed) and unrecognised lines
 * (output of `--nocapture`).
 *
 * Stage 1 adds `-q` when the caller chose no verbosity or format: cargo then prints no
 * `Compiling`/`Running` progress on stderr (which rtok does not filter), and libtest prints the
 * quiet format; errors, warnings and every failure are still printed.
 *
 * cargo's own stderr (compile progress, warnings, `error: test failed, to rerun pass --lib`)
 * passes through as it is.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { capLines, Cuts, joinLines, sayFailed } from "./_test_report.ts";
import { plural, splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import {
  anyLine,
  FAILED,
  hasLineStarting,
  type Sample,
  type ShapeMatch,
  shapeMatch,
} from "../src/core/shape.ts";

/** Failing tests whose output section is shown; the rest are named only. */
export const CARGO_DETAILS_SHOWN = 20;
/** Lines kept of one test's output section. */
export const CARGO_SECTION_LINES = 20;
/** Backtrace frames kept per section (`RUST_BACKTRACE=1`), the project's own only. */
export const CARGO_FRAMES_SHOWN = 5;
/** Unrecognised lines kept (test output printed with `--nocapture`, for instance). */
export const CARGO_OTHER_LINES = 20;

/** `args` split at the first `--`: cargo's own, and those for the test binaries. */
function splitDashes(args: readonly string[]): { cargo: string[]; libtest: string[] } {
  const i = args.indexOf("--");
  return i < 0
    ? { cargo: [...args], libtest: [] }
    : { cargo: args.slice(0, i), libtest: args.slice(i + 1) };
}

/** The value of `--name value` or `--name=value` in `args`, if given. */
function optionValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1] ?? "";
    if (args[i].startsWith(`${name}=`)) return args[i].slice(name.length + 1);
  }
  return undefined;
}

/** Why `cargo test` arguments ask for an output rtok must not rewrite, or `null`. */
export function cargoTestPassthrough(args: readonly string[]): string | null {
  const { cargo, libtest } = splitDashes(args);
  const message = optionValue(cargo, "--message-format");
  if (message?.startsWith("json")) return `the caller chose --message-format ${message}`;
  const format = optionValue(libtest, "--format");
  if (format === "json" || format === "junit") return `the caller chose --format ${format}`;
  for (const arg of libtest) {
    if (arg === "--list") return "the caller asked for the test list";
  }
  for (const arg of [...cargo, ...libtest]) {
    if (arg === "--help" || arg === "-h") return `the caller asked for ${arg}`;
  }
  return null;
}

// cargo's or libtest's own choice of verbosity or format.
const VERBOSITY = /^-(q|v+|-quiet|-verbose)$|^--format(=|$)/;

/** Stage 1: `-q` first, unless the caller chose a verbosity or a libtest format. */
export function cargoTestShape(args: readonly string[]): string[] | null {
  if (args.some((arg) => VERBOSITY.test(arg))) return null;
  return ["-q", ...args];
}

const RUNNING = /^running (\d+) tests?$/;
const RESULT =
  /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out(?:; finished in ([\d.]+)s)?/;
const PRETTY = /^test (.+?)(?: - should panic)? \.\.\. (ok|FAILED|ignored\b.*)$/;
const BENCH = /^test (.+) \.\.\. +bench: /;
const TERSE_FAILED = /^(.+) --- FAILED$/;
const TERSE_PROGRESS = /^[.Fi]+(?: \d+\/\d+)?$/;
const SECTION = /^---- (.+) (stdout|stderr) ----$/;
const BACKTRACE_HINT = /^note: (run with `RUST_BACKTRACE=1`|Some details are omitted)/;
const FRAME = /^ +\d+: \S/;
const FRAME_AT = /^ +at (.+)$/;
// Frames in the standard library or in dependencies' sources.
const LIBRARY_PATH = /^\/rustc\/|\/\.cargo\/registry\/|\/\.rustup\/toolchains\//;
const PANICKED = /^thread '(.+?)'(?: \(\d+\))? panicked at (.+)$/;

/** One test's output section (`---- tests::x stdout ----`). */
interface Section {
  readonly name: string;
  readonly lines: string[];
}

/** One test binary's run: from `running N tests` to its `test result:` line. */
interface Suite {
  readonly tests: number;
  result: string | null;
  counts: number[];
  time: number;
  reported: number;
  readonly failed: string[];
  readonly sections: Section[];
  readonly kept: string[];
}

/** Filters libtest's report; see the module doc. */
export function filterCargoTest(raw: string, input: FilterInput): Filtered {
  const cuts = new Cuts();
  const other: string[] = [];
  const suites = readSuites(splitLines(stripAnsi(raw)), other, cuts);
  const out = render(suites, capLines(other, CARGO_OTHER_LINES, cuts, "other line"), cuts);
  return { text: joinLines(sayFailed(out, "cargo test", input.exitCode)), cut: cuts.phrases() };
}

function readSuites(lines: readonly string[], other: string[], cuts: Cuts): Suite[] {
  const suites: Suite[] = [];
  let suite: Suite | null = null;
  // Where lines go inside a suite: test lines, output sections, or the final name list.
  let mode: "tests" | "sections" | "names" | "successes" = "tests";
  for (const line of lines) {
    const running = RUNNING.exec(line);
    if (running) {
      suite = {
        tests: Number(running[1]),
        result: null,
        counts: [0, 0, 0, 0, 0],
        time: 0,
        reported: 0,
        failed: [],
        sections: [],
        kept: [],
      };
      suites.push(suite);
      mode = "tests";
      continue;
    }
    if (!suite) {
      if (line.trim() !== "") other.push(line);
      continue;
    }
    const result = RESULT.exec(line);
    if (result) {
      suite.result = result[0];
      suite.counts = result.slice(2, 7).map(Number);
      suite.time = Number(result[7] ?? 0);
      suite = null;
      continue;
    }
    if (line === "failures:") {
      mode = mode === "tests" ? "sections" : "names";
      continue;
    }
    if (line === "successes:") {
      mode = "successes";
      continue;
    }
    const section = SECTION.exec(line);
    if (section && mode !== "names") {
      suite.sections.push({ name: section[1], lines: [] });
      if (mode === "successes") cuts.add("passing test section");
      continue;
    }
    if (mode === "names" || mode === "successes") {
      const name = line.trim();
      if (mode === "names" && name !== "" && !suite.failed.includes(name)) suite.failed.push(name);
      continue;
    }
    if (mode === "sections" && suite.sections.length) {
      suite.sections[suite.sections.length - 1].lines.push(line);
      continue;
    }
    readTestLine(line, suite, other, cuts);
  }
  return suites;
}

function readTestLine(line: string, suite: Suite, other: string[], cuts: Cuts): void {
  const pretty = PRETTY.exec(line);
  const terse = TERSE_FAILED.exec(line);
  if (BENCH.test(line)) {
    suite.kept.push(line);
  } else if (pretty) {
    suite.reported++;
    if (pretty[2] === "FAILED") suite.failed.push(pretty[1]);
    else cuts.add("passing or ignored test line");
  } else if (terse) {
    suite.failed.push(terse[1]);
  } else if (TERSE_PROGRESS.test(line)) {
    suite.reported += line.split(" ")[0].length;
    cuts.add("progress line");
  } else if (line.trim() !== "") {
    other.push(line);
  }
}

function render(suites: readonly Suite[], other: readonly string[], cuts: Cuts): string[] {
  const out: string[] = [];
  let shown = 0;
  const totals = [0, 0, 0, 0, 0];
  let time = 0;
  let failedSuites = 0;
  let stopped = 0;
  for (const suite of suites) {
    suite.counts.forEach((count, i) => totals[i] += count);
    time += suite.time;
    const failing = suite.result === null || suite.result.startsWith("test result: FAILED") ||
      suite.failed.length > 0;
    if (failing) failedSuites++;
    const sectioned = new Set<string>();
    for (const section of suite.sections) {
      if (!suite.failed.includes(section.name)) continue;
      if (shown++ >= CARGO_DETAILS_SHOWN) {
        cuts.add("failure section");
        continue;
      }
      sectioned.add(section.name);
      const [first = "", ...rest] = sectionLines(section, cuts);
      out.push(`${section.name}: ${first}`, ...rest.map((line) => `  ${line}`));
    }
    const unsectioned = suite.failed.filter((name) => !sectioned.has(name));
    if (unsectioned.length) out.push(`failed: ${unsectioned.join(", ")}`);
    out.push(...suite.kept);
    if (suite.result === null) {
      stopped++;
      out.push(
        `running ${
          plural(suite.tests, "test")
        }: stopped after ${suite.reported} with no result line`,
      );
    } else if (failing && suites.length > 1) out.push(compactResult(suite.result));
    else if (suites.length > 1) cuts.add("passing suite result line");
  }
  out.push(...other);
  if (suites.length) out.push(totalsLine(totals, time, suites.length, failedSuites, stopped));
  return out;
}

function sectionLines(section: Section, cuts: Cuts): readonly string[] {
  const lines: string[] = [];
  let frames = 0;
  for (let i = 0; i < section.lines.length; i++) {
    const line = section.lines[i];
    if (line.trim() === "") continue;
    if (BACKTRACE_HINT.test(line)) {
      cuts.add("backtrace hint");
      continue;
    }
    const frame = FRAME.exec(line);
    if (frame) {
      // A backtrace frame and its `at` line: kept when it is the project's code.
      const at = FRAME_AT.exec(section.lines[i + 1] ?? "");
      if (at) i++;
      if (at && !LIBRARY_PATH.test(at[1]) && frames++ < CARGO_FRAMES_SHOWN) {
        lines.push(line, section.lines[i]);
      } else cuts.add("backtrace frame");
      continue;
    }
    const panicked = PANICKED.exec(line);
    if (panicked) {
      const who = panicked[1] === section.name ? "" : `thread '${panicked[1]}' `;
      lines.push(`${who}panicked at ${panicked[2]}`);
    } else lines.push(line);
  }
  return capLines(lines, CARGO_SECTION_LINES, cuts, "section line");
}

// `test result: FAILED. 1 passed; 3 failed; 2 ignored` without zero counts and the time.
function compactResult(result: string): string {
  const [verdict, counts] = result.split(". ", 2);
  const parts = counts.split("; ").filter((part) => !/^0 |^finished in /.test(part));
  return `${verdict}. ${parts.join("; ")}`;
}

const COUNT_NAMES = ["passed", "failed", "ignored", "measured", "filtered out"];

function totalsLine(
  totals: readonly number[],
  time: number,
  suites: number,
  failedSuites: number,
  stopped: number,
): string {
  const parts = totals.map((count, i) => `${count} ${COUNT_NAMES[i]}`).filter((part, i) =>
    i === 0 || !part.startsWith("0 ")
  );
  if (failedSuites) {
    const failed = parts.splice(1, totals[1] ? 1 : 0);
    parts.unshift("FAILED", ...failed);
  }
  const line = `cargo test: ${parts.join(", ")} in ${plural(suites, "suite")} (${
    time.toFixed(2)
  }s)`;
  return stopped ? `${line}; ${plural(stopped, "suite")} stopped before its result line` : line;
}

/** The `cargo test` filter. */
export const cargoTestFilter: CommandFilter = {
  name: "cargo test",
  textClass: "log",
  passthrough: cargoTestPassthrough,
  shape: cargoTestShape,
  filter: filterCargoTest,
};

// `running N tests` and a `test result:` line.
function _detect(s: Sample, text: string): ShapeMatch | null {
  if (!anyLine(s.head, /^running \d+ tests?$/) || !hasLineStarting(text, "test result: ")) {
    return null;
  }
  return shapeMatch(text.includes("test result: FAILED") ? FAILED : 0);
}

/**
 * The families this module serves. Test runners run the project's code and write build
 * artifacts: never rewritten as read-only.
 */
export const FAMILIES: FamilyDeclarations = {
  "cargo test": {
    filter: cargoTestFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 115, detect: _detect }],
    saving: 80,
  },
};
