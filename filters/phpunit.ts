/**
 * `phpunit`, default and `--testdox` output: a passing run becomes its result line
 * (`phpunit: OK (120 tests, 180 assertions)`). A failing run keeps every error, failure,
 * warning, risky and deprecation entry (the test's name, its message, the diff, the first trace
 * locations), in testdox form each `✘` test with its class and details, and the verdict with
 * its counts (`phpunit: FAILURES! Tests: 9, Assertions: 5, Failures: 3.`). Trace locations are
 * written relative to the project's directory (the `Configuration:` file's, else the one they
 * all share), named once on a first line, when that is shorter.
 *
 * Cut: the version header, `Runtime:`/`Configuration:` lines, progress rows
 * (`..F.E  63 / 120 ( 52%)`), `Time:`/`Memory:`, `--` separators, blank lines, `--debug`
 * started/ended lines, passing testdox lines (`✔`), the skipped and incomplete entries (their
 * number is in the counts), and beyond the caps below: trace locations, long entries, entries
 * past the first {@link PHPUNIT_DETAILS_SHOWN} (their names stay) and unrecognised lines.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { capLines, Cuts, joinLines, sayFailed } from "./_test_report.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import { anyLine, FAILED, type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

/** Entries (or testdox `✘` tests) shown in full; the rest keep their name. */
export const PHPUNIT_DETAILS_SHOWN = 20;
/** Lines kept of one entry, its name excluded. */
export const PHPUNIT_ENTRY_LINES = 25;
/** Trace locations (`/path/FooTest.php:12`) kept per entry. */
export const PHPUNIT_TRACE_SHOWN = 5;
/** Unrecognised lines kept. */
export const PHPUNIT_OTHER_LINES = 20;

const PASSTHROUGH =
  /^--(list-[\w-]+|teamcity|help|version|check-version|generate-configuration|migrate-configuration)$|^-h$/;

/** Why `phpunit` arguments ask for an output rtok must not rewrite, or `null`. */
export function phpunitPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    if (PASSTHROUGH.test(arg)) return `the caller asked for ${arg}`;
    // A log written to stdout (`--log-junit php://stdout`) is a machine format.
    const log = /^--log-[\w-]+(?:=(.*))?$/.exec(arg);
    const target = log ? log[1] ?? args[i + 1] : undefined;
    if (target === "php://stdout" || target === "php://output") {
      return `the caller chose ${arg.replace(/=.*$/, "")} on stdout`;
    }
  }
  return null;
}

const HEADER = /^PHPUnit \d[\w.-]* by Sebastian Bergmann and contributors\.$/;
const SETTING = /^(Runtime|Configuration|PHP|Test Runner|Extension):\s/;
const PROGRESS = /^[.FEWRSIDN]+ +\d+ \/ \d+ \( *\d+%\)$/;
const TIME = /^Time: .+, Memory: .+$/;
const DEBUG = /^Test '.+' (started|ended)$/;
const SECTION = /^(?:There (?:was|were) \d+ (.+)|\d+ tests? triggered \d+ (.+)):$/;
const ENTRY = /^\d+\) \S/;
const VERDICT =
  /^(OK \(\d+ tests?, \d+ assertions?\)|OK, but .*|ERRORS!|FAILURES!|WARNINGS!|No tests executed!|OK, but incomplete, skipped, or risky tests!)$/;
const COUNTS = /^Tests: \d+, Assertions: \d+.*\.$/;
const LOCATION = /^\S+\.php:\d+$/;
const DOX_RESULT = /^ ([✔✘↩∅☢]) (.+)$/u;
const DOX_DETAIL = /^ {3}│ ?(.*)$/u;
// Sections whose entries are only counted: their number is in the counts line.
const COUNTED = /^(skipped|incomplete) tests?$/;

/** One entry of a section, or one failing testdox test. */
interface Entry {
  readonly name: string;
  readonly lines: string[];
}

/** A `There were N failures:` section. */
interface Section {
  readonly title: string;
  readonly counted: boolean;
  readonly entries: Entry[];
}

/** Filters phpunit's report; see the module doc. */
export function filterPhpunit(raw: string, input: FilterInput): Filtered {
  const cuts = new Cuts();
  const sections: Section[] = [];
  const dox: Entry[] = [];
  const other: string[] = [];
  const verdict: string[] = [];
  let section: Section | null = null;
  let entry: Entry | null = null;
  let doxClass = "";
  // The project's directory, from the `Configuration:` line.
  let root = "";
  // An unindented line outside sections: a testdox class heading when a result line follows.
  let maybeClass: string | null = null;
  let dropped = "testdox line";
  for (const line of splitLines(stripAnsi(raw))) {
    if (line.trim() === "" || line === "--") continue;
    if (maybeClass !== null) {
      if (DOX_RESULT.test(line)) {
        doxClass = maybeClass;
        cuts.add("testdox line");
      } else other.push(maybeClass);
      maybeClass = null;
    }
    const config = /^Configuration:\s+(\/.*\/)[^/]+$/.exec(line);
    if (config) root = config[1];
    if (HEADER.test(line) || SETTING.test(line) || TIME.test(line)) {
      cuts.add("header line");
      continue;
    }
    if (PROGRESS.test(line) || DEBUG.test(line)) {
      cuts.add("progress line");
      continue;
    }
    if (VERDICT.test(line) || COUNTS.test(line)) {
      verdict.push(line);
      section = null;
      entry = null;
      continue;
    }
    const title = SECTION.exec(line);
    if (title) {
      const kind = title[1] ?? title[2];
      section = { title: line, counted: COUNTED.test(kind), entries: [] };
      sections.push(section);
      entry = null;
      continue;
    }
    if (section && ENTRY.test(line)) {
      entry = { name: line, lines: [] };
      section.entries.push(entry);
      continue;
    }
    if (section && entry) {
      entry.lines.push(line);
      continue;
    }
    if (line === "Summary of non-successful tests:") {
      cuts.add("repeated line");
      continue;
    }
    const result = DOX_RESULT.exec(line);
    if (result) {
      entry = null;
      const name = `✘ ${doxClass ? `${doxClass}: ` : ""}${result[2]}`;
      // What the lines of a test not kept count as: the summary repeats failures shown above.
      dropped = result[1] === "✘" ? "repeated line" : "testdox line";
      if (result[1] === "✘" && !dox.some((e) => e.name === name)) {
        entry = { name, lines: [] };
        dox.push(entry);
      } else cuts.add(dropped);
      continue;
    }
    const detail = DOX_DETAIL.exec(line);
    if (detail) {
      if (detail[1].trim() === "") continue;
      if (entry) entry.lines.push(detail[1]);
      else cuts.add(dropped);
      continue;
    }
    if (!/^\s/.test(line) && !section) maybeClass = line;
    else other.push(line);
  }
  if (maybeClass !== null) other.push(maybeClass);
  const entries = [...renderEntries(dox, cuts)];
  for (const s of sections) {
    if (s.counted) {
      cuts.add(`${s.title.replace(/^There (was|were) \d+ |:$/g, "")} entry`, s.entries.length);
      continue;
    }
    entries.push(s.title, ...renderEntries(s.entries, cuts));
  }
  const out = [...relativeLocations(entries, root)];
  out.push(...capLines(other, PHPUNIT_OTHER_LINES, cuts, "other line"));
  if (verdict.length) out.push(`phpunit: ${verdict.join(" ")}`);
  return { text: joinLines(sayFailed(out, "phpunit", input.exitCode)), cut: cuts.phrases() };
}

/**
 * `entries` with the trace locations (`  /home/me/app/tests/FooTest.php:12`) written relative
 * to the project's directory (from the `Configuration:` line, else the directory all of them
 * share), after a line naming it; `entries` itself when that would not be shorter.
 */
function relativeLocations(entries: readonly string[], configRoot: string): readonly string[] {
  const paths = entries.map((line) => line.trim()).filter((line) =>
    line.startsWith("/") && LOCATION.test(line)
  );
  if (paths.length < 2) return entries;
  let root = configRoot && paths.every((path) => path.startsWith(configRoot)) ? configRoot : "";
  if (!root) {
    root = paths[0].slice(0, paths[0].lastIndexOf("/") + 1);
    for (const path of paths) while (!path.startsWith(root)) root = root.replace(/[^/]*\/$/, "");
  }
  const heading = `(paths relative to ${root})`;
  if (root.split("/").length < 4 || paths.length * root.length <= heading.length) return entries;
  return [
    heading,
    ...entries.map((line) =>
      line.trim().startsWith(root) && LOCATION.test(line.trim()) ? line.replace(root, "") : line
    ),
  ];
}

function renderEntries(entries: readonly Entry[], cuts: Cuts): string[] {
  const out: string[] = [];
  entries.forEach((entry, i) => {
    out.push(entry.name);
    if (i >= PHPUNIT_DETAILS_SHOWN) {
      cuts.add("entry detail line", entry.lines.length);
      return;
    }
    const kept: string[] = [];
    let trace = 0;
    for (const line of entry.lines) {
      trace = LOCATION.test(line) ? trace + 1 : 0;
      if (trace > PHPUNIT_TRACE_SHOWN) cuts.add("trace line");
      else kept.push(`  ${line}`);
    }
    out.push(...capLines(kept, PHPUNIT_ENTRY_LINES, cuts, "entry line"));
  });
  return out;
}

/** The `phpunit` filter. */
export const phpunitFilter: CommandFilter = {
  name: "phpunit",
  textClass: "log",
  passthrough: phpunitPassthrough,
  filter: filterPhpunit,
};

// The `PHPUnit X.Y` banner.
function _detect(s: Sample): ShapeMatch | null {
  if (!anyLine(s.head, /^PHPUnit \d+\.\d+/)) return null;
  return shapeMatch(anyLine(s.tail, /^(FAILURES|ERRORS)!$/) ? FAILED : 0);
}

/** The families this module serves. Test runners run the project's code: never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "phpunit": {
    filter: phpunitFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 135, detect: _detect }],
    saving: 78,
  },
};
