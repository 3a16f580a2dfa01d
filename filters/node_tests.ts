/**
 * `node --test`: a passing run is one line of counts (`node --test: tests 69, suites 7, pass 67,
 * fail 0, cancelled 0, skipped 1, todo 1, duration_ms 812`). A failing run keeps each failing
 * test: its title (suites joined by ` › `), location, error and message, `expected`/`actual`
 * unless the message already shows them, and the first stack frames in the project. Node 20
 * prints TAP on a pipe; the `spec` and `dot` reporters read the same way. Passing, skipped and
 * todo tests, suites that failed only through their tests, TAP's `duration_ms` blocks, the
 * spec listing (whose failures its `failing tests:` section repeats), error properties
 * (`code`, `operator`, `generatedMessage`) and node-internal frames are cut. What a test file
 * printed (a file that failed to load prints its error) is kept, without node-internal frames.
 *
 * A stream in which nothing is the runner's own passes through unchanged.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { Cuts } from "./_test_report.ts";
import { renderReport, shapeErrorText, type TestFailure } from "./_test_failures.ts";
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

// Reporters whose output this filter reads; TAP, JUnit, lcov or a module of the caller's
// pass through.
const OWN_REPORTERS = new Set(["spec", "dot"]);

/** Why `node --test` arguments ask for output rtok must not rewrite, or `null`. */
export function nodeTestPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    const flag = arg.split("=")[0];
    if (flag === "--test-reporter") {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[i + 1] ?? "";
      if (!OWN_REPORTERS.has(value)) return `the caller chose a reporter (${value})`;
    }
    if (flag === "--watch") return "the caller chose watch mode";
  }
  return null;
}

const SUMMARY_KEYS = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\S+)$/;
const FRAME = /^\s*at /;

/** One `key: value` of a TAP YAML block, its block or nested lines joined by newlines. */
type Yaml = Map<string, string>;

// Unquotes a YAML scalar as node writes it: `'a ''b'''`, `"a\nb"`, `~`, or bare.
function scalar(value: string): string {
  if (value === "~") return "";
  if (value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  if (value.startsWith('"') && value.endsWith('"')) {
    try {
      return JSON.parse(value);
    } catch {
      return value.slice(1, -1);
    }
  }
  return value;
}

/** Reads the YAML block of a TAP result, `lines` being its lines between `---` and `...`. */
function readYaml(lines: readonly string[]): Yaml {
  const yaml: Yaml = new Map();
  const indent = lines.find((line) => line.trim() !== "")?.search(/\S/) ?? 0;
  let key = "";
  let nested: string[] = [];
  const flush = () => {
    if (key) yaml.set(key, [yaml.get(key) ?? "", ...nested].filter(Boolean).join("\n"));
    nested = [];
  };
  for (const line of lines) {
    const own = line.search(/\S/) === indent ? /^\s*([\w-]+):\s*(.*)$/.exec(line) : null;
    if (own) {
      flush();
      key = own[1];
      const value = own[2];
      yaml.set(key, value === "|-" || value === "|" || value === ">-" ? "" : scalar(value));
    } else if (key) nested.push(line.slice(indent + 2).trimEnd());
  }
  flush();
  return yaml;
}

// A message shows the values when it compares them (`2 !== 2.5`) or diffs them.
const SHOWS_VALUES = / !== | != |^\+ actual - expected$/m;

/** A TAP failure as the report shows it. */
function tapFailure(title: string, yaml: Yaml, comments: readonly string[], cuts: Cuts) {
  const error = yaml.get("error") ?? "";
  const name = yaml.get("name");
  const lines = error.split("\n");
  const message = [name && name !== "Error" ? `${name}: ${lines[0]}` : lines[0], ...lines.slice(1)];
  if (yaml.has("exitCode") && error === "test failed") {
    message[0] += ` (exit code ${yaml.get("exitCode")})`;
    message.push(...comments);
  }
  if (!SHOWS_VALUES.test(error)) {
    for (const key of ["expected", "actual"]) {
      if (!yaml.has(key)) continue;
      const value = (yaml.get(key) ?? "").split("\n");
      message.push(`${key}: ${value[0]}`, ...value.slice(1).map((line) => `  ${line}`));
    }
  }
  const dropped = ["code", "operator", "failureType", "signal", "type"];
  cuts.add("error property line", dropped.filter((key) => yaml.has(key)).length);
  const frames = (yaml.get("stack") ?? "").split("\n").filter(Boolean).map((f) => `at ${f}`);
  const location = yaml.get("location");
  const failure: TestFailure = { title, location, message, frames };
  return failure;
}

/** Parses node's TAP report; see the module doc. */
function filterTap(lines: readonly string[], cuts: Cuts) {
  const failures: TestFailure[] = [];
  const summary: string[] = [];
  const notes: string[] = [];
  const names: string[] = [];
  let comments: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const subtest = /^(\s*)# Subtest: (.*)$/.exec(line);
    if (subtest) {
      names[subtest[1].length / 4] = subtest[2];
      continue;
    }
    const result = /^(\s*)(ok|not ok) \d+ - (.*?)(?: # (SKIP|TODO)\b.*)?$/.exec(line);
    if (result) {
      const depth = result[1].length / 4;
      const yamlLines: string[] = [];
      if (lines[i + 1]?.trim() === "---") {
        i++;
        while (i + 1 < lines.length && lines[i + 1].trim() !== "...") yamlLines.push(lines[++i]);
        i++;
      }
      const yaml = readYaml(yamlLines);
      const fileLevel = depth === 0 && yaml.get("error") === "test failed";
      if (result[2] === "ok") {
        cuts.add(result[4] ? "skipped test line" : "passing test line");
      } else if (yaml.get("failureType") === "subtestsFailed") {
        cuts.add("failed suite line");
      } else {
        const title = [...names.slice(0, depth), result[3]].join(" › ");
        const output = fileLevel ? shapeErrorText(comments, cuts) : [];
        failures.push(tapFailure(title, yaml, output, cuts));
        if (fileLevel) comments = [];
      }
      if (depth === 0 && comments.length > 0) {
        notes.push(...comments);
        comments = [];
      }
      continue;
    }
    const comment = /^# (.*)$/.exec(line);
    const count = comment && SUMMARY_KEYS.exec(comment[1]);
    if (count) {
      summary.push(
        count[1] === "duration_ms"
          ? `${count[1]} ${Math.round(Number(count[2]))}`
          : count[1] + " " + count[2],
      );
      continue;
    }
    if (comment) {
      comments.push(comment[1]);
      continue;
    }
    if (/^TAP version \d+$|^\s*1\.\.\d+$/.test(line)) continue;
    if (line.trim() !== "") notes.push(line);
  }
  notes.push(...comments);
  return {
    failures,
    summary: summary.length ? [summary.join(", ")] : [],
    notes: shapeErrorText(notes, cuts),
  };
}

const MARKER = /^(\s*)([▶✔✖﹣ℹ]) (.*)$/;
const TIMING = / \(\d[\d.]*m?s\)( # (SKIP|TODO).*)?$/;

/** Reads a spec/dot failure's indented details into a failure. */
function specFailure(
  title: string,
  location: string | undefined,
  details: readonly string[],
  cuts: Cuts,
): TestFailure {
  const message: string[] = [];
  const frames: string[] = [];
  const properties: string[] = [];
  for (const line of details) {
    if (FRAME.test(line)) frames.push(line.trim().replace(/ \{$/, ""));
    else if (frames.length === 0) message.push(line);
    else properties.push(line.trim());
  }
  const error = message.join("\n");
  for (const property of properties) {
    if (/^(actual|expected): /.test(property) && !SHOWS_VALUES.test(error)) {
      message.push(property.replace(/,$/, ""));
    } else if (property !== "}") cuts.add("error property line");
  }
  return { title, location, message, frames };
}

/** Parses node's spec (or dot) report; see the module doc. */
function filterSpec(lines: readonly string[], cuts: Cuts) {
  type Entry = { title: string; location: string | undefined; details: string[] };
  const failures: Entry[] = [];
  const inline: Entry[] = [];
  const summary: string[] = [];
  const notes: string[] = [];
  let section = false;
  let location: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^(✖ failing tests:|Failed tests:)$/.test(line)) {
      section = true;
      continue;
    }
    const at = /^test at (.+)$/.exec(line);
    if (section && at) {
      location = at[1];
      continue;
    }
    const marker = MARKER.exec(line);
    if (marker) {
      const [, indent, mark, rest] = marker;
      if (mark === "ℹ") {
        const count = SUMMARY_KEYS.exec(rest);
        if (count) {
          summary.push(
            count[1] === "duration_ms" ? `${count[1]} ${Math.round(Number(count[2]))}` : rest,
          );
        } else notes.push(rest);
        continue;
      }
      const details: string[] = [];
      while (
        i + 1 < lines.length &&
        (lines[i + 1].trim() === "" || lines[i + 1].search(/\S/) > indent.length) &&
        !MARKER.exec(lines[i + 1]) && !/^test at /.test(lines[i + 1])
      ) details.push(lines[++i].slice(indent.length + 2));
      const title = rest.replace(TIMING, "");
      if (mark !== "✖") {
        cuts.add(
          mark === "✔" ? "passing test line" : mark === "▶" ? "suite line" : "skipped test line",
        );
        continue;
      }
      const trimmed = details.filter((d) => d.trim() !== "");
      // A suite that failed through its tests: no details, or only `'2 subtests failed'`.
      if (trimmed.length === 0 || /^'\d+ subtests? failed'$/.test(trimmed[0].trim())) {
        cuts.add("failed suite line");
        continue;
      }
      (section ? failures : inline).push({
        title,
        location: section ? location : undefined,
        details,
      });
      location = undefined;
      continue;
    }
    if (/^[.X]+$/.test(line.trim())) {
      cuts.add("progress line");
      continue;
    }
    if (line.trim() !== "") notes.push(line);
  }
  // The `failing tests:` section repeats the listing's failures with their locations.
  const shown = section ? failures : inline;
  if (section) cuts.add("repeated failure", inline.length);
  return {
    failures: shown.map((e) => specFailure(e.title, e.location, e.details, cuts)),
    summary: summary.length ? [summary.join(", ")] : [],
    notes: shapeErrorText(notes, cuts),
  };
}

/** Filters node's test report, TAP or spec; see the module doc. */
export function filterNodeTest(raw: string, input: FilterInput): Filtered {
  const text = stripAnsi(raw);
  const lines = splitLines(text);
  const cuts = new Cuts();
  const tap = lines.some((line) => /^TAP version \d+$/.test(line));
  const spec = lines.some((line) => /^(ℹ tests \d+|✖ failing tests:|Failed tests:)$/.test(line));
  if (!tap && !spec) return { text, cut: [] };
  const { failures, summary, notes } = tap ? filterTap(lines, cuts) : filterSpec(lines, cuts);
  const groups = [{ heading: null, failures }];
  return renderReport({ runner: "node --test", groups, summary, notes, cuts }, input.exitCode);
}

/** The `node --test` filter. */
export const nodeTestFilter: CommandFilter = {
  name: "node --test",
  textClass: "log",
  passthrough: nodeTestPassthrough,
  filter: filterNodeTest,
};

// TAP (`TAP version 13` … `# pass N`) or the spec reporter's `ℹ tests`/`ℹ fail` summary.
function _detect(s: Sample, text: string): ShapeMatch | null {
  const tap = /^TAP version \d+$/.test(s.filled[0] ?? "") &&
    anyLine(s.tail, /^# (pass|fail) \d+$/);
  const spec = hasLineStarting(text, "ℹ tests ") && hasLineStarting(text, "ℹ fail ");
  if (!tap && !spec) return null;
  const failed = tap
    ? anyLine(s.tail, /^# fail [1-9]/)
    : !hasLineStarting(text, "ℹ fail 0\n") && !text.endsWith("ℹ fail 0");
  return shapeMatch(failed ? FAILED : 0);
}

/** The families this module serves. Test runners run the project's code: never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "node --test": {
    filter: nodeTestFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 125, detect: _detect }],
    saving: 85,
  },
};
