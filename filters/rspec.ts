/**
 * `rspec`, progress and documentation formats: a passing run becomes its summary line
 * (`rspec: 60 examples, 0 failures, 2 pending in 0.0158 seconds`). A failing run keeps each
 * failure entry (its number and description, the `Failure/Error:` line, the message, expected
 * and got values, a diff, the first backtrace lines), every error raised outside examples (a
 * spec file that failed to load), the `Failed examples:` rerun lines (each failing example's
 * location and description), the random seed and the summary line.
 *
 * Cut: progress dots and documentation-format example lines (counted in the summary; output the
 * specs printed among them goes with them), the `Pending:` section, `Run options:`, blank lines,
 * `(compared using ==)` notes, the `Finished in` line (its time moves to the summary), and beyond
 * the caps below: backtrace lines, long entries, failure details past the first
 * {@link RSPEC_DETAILS_SHOWN} (still named in the rerun lines) and unrecognised lines.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { capLines, Cuts, joinLines, sayFailed } from "./_test_report.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import { FAILED, lineAround, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

/** Failure entries shown in full; the rest keep their rerun line. */
export const RSPEC_DETAILS_SHOWN = 20;
/** Lines kept of one failure entry (its heading excluded). */
export const RSPEC_ENTRY_LINES = 25;
/** Backtrace lines kept per run of them (one per failure, or per aggregated failure). */
export const RSPEC_BACKTRACE_SHOWN = 3;
/** Unrecognised lines kept (a profile, deprecation warnings). */
export const RSPEC_OTHER_LINES = 20;

// Formatters whose output is for machines, or a file of failures for `--only-failures`.
const MACHINE_FORMATS = new Set(["j", "json", "h", "html", "f", "failures"]);

/** Why `rspec` arguments ask for an output rtok must not rewrite, or `null`. */
export function rspecPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    if (["--help", "-h", "--version", "-v", "--init"].includes(arg)) {
      return `the caller asked for ${arg}`;
    }
    let format: string | undefined;
    if (arg === "-f" || arg === "--format") format = args[i + 1];
    else if (arg.startsWith("--format=")) format = arg.slice("--format=".length);
    else if (/^-f\w/.test(arg)) format = arg.slice(2);
    if (format !== undefined && MACHINE_FORMATS.has(format)) {
      return `the caller chose --format ${format}`;
    }
  }
  return null;
}

const SUMMARY =
  /^\d+ examples?, \d+ failures?(?:, \d+ pending)?(?:, \d+ errors? occurred outside of examples)?$/;
const FINISHED = /^Finished in (.+?) \(files took .+\)$/;
const SEED = /^Randomized with seed \d+$/;
const ENTRY = /^ {2}\d+\) \S/;
const BACKTRACE = /^\s*# /;
const COMPARED = /^\s*\(compared using .+\)$/;
// The frame name of an example's own block, which every spec backtrace ends with.
const SPEC_BLOCK = /:in [`']block \(\d+ levels?\) in <top \(required\)>'$/;
const OUTSIDE = /^An error occurred (while loading|in a|in an) /;

type Section = "progress" | "pending" | "failures" | "outside" | "rerun" | "other";

/** One failure entry, or one error outside examples. */
interface Entry {
  readonly heading: string;
  readonly lines: string[];
}

/** Filters rspec's report; see the module doc. */
export function filterRspec(raw: string, input: FilterInput): Filtered {
  const cuts = new Cuts();
  const failures: Entry[] = [];
  const outside: Entry[] = [];
  const rerun: string[] = [];
  const other: string[] = [];
  let summary: string | null = null;
  let time = "";
  let seed = "";
  let section: Section = "progress";
  let entry: Entry | null = null;
  for (const line of splitLines(stripAnsi(raw))) {
    if (SUMMARY.test(line)) {
      summary = line;
      section = "other";
      continue;
    }
    const finished = FINISHED.exec(line);
    if (finished) {
      time = finished[1];
      section = "other";
      continue;
    }
    if (SEED.test(line)) {
      seed = line;
      continue;
    }
    if (OUTSIDE.test(line)) {
      entry = { heading: line, lines: [] };
      outside.push(entry);
      section = "outside";
      continue;
    }
    if (line.startsWith("Pending: ")) section = "pending";
    else if (line === "Failures:") section = "failures";
    else if (line === "Failed examples:") section = "rerun";
    else if (section === "failures" && ENTRY.test(line)) {
      entry = { heading: line.trim(), lines: [] };
      failures.push(entry);
    } else if (section === "failures" || section === "outside") {
      if (entry && line.trim() !== "") entry.lines.push(line);
    } else if (section === "rerun" && line.startsWith("rspec ")) rerun.push(line);
    else if (section === "pending") {
      if (line.trim() !== "") cuts.add("pending detail line");
    } else if (section === "progress") {
      if (line.trim() !== "") cuts.add("progress line");
    } else if (line.trim() !== "") other.push(line);
  }
  const out: string[] = [];
  const merged = new Set<string>();
  failures.forEach((failure, i) => {
    if (i >= RSPEC_DETAILS_SHOWN) {
      cuts.add("failure detail");
      return;
    }
    // `1) Cart totals` becomes its rerun line, `rspec ./spec/cart_spec.rb:7 # Cart totals`.
    const description = failure.heading.replace(/^\d+\) /, "");
    const line = rerun.find((r) => !merged.has(r) && r.endsWith(` # ${description}`));
    if (line) merged.add(line);
    out.push(line ?? failure.heading, ...entryLines(failure.lines, cuts));
  });
  for (const error of outside) out.push(error.heading, ...entryLines(error.lines, cuts));
  out.push(...rerun.filter((line) => !merged.has(line)));
  out.push(...capLines(other, RSPEC_OTHER_LINES, cuts, "other line"));
  if (seed && (failures.length || outside.length)) out.push(seed);
  if (summary) out.push(`rspec: ${summary}${time ? ` in ${time}` : ""}`);
  return { text: joinLines(sayFailed(out, "rspec", input.exitCode)), cut: cuts.phrases() };
}

/** An entry's lines: blank lines and `(compared using …)` notes dropped, backtraces capped. */
function entryLines(lines: readonly string[], cuts: Cuts): readonly string[] {
  const kept: string[] = [];
  let trace: string[] = [];
  // A backtrace keeps its first lines and its last, the example's own line.
  const flush = () => {
    const head = trace.slice(0, RSPEC_BACKTRACE_SHOWN - 1);
    const tail = trace.length >= RSPEC_BACKTRACE_SHOWN ? trace.slice(-1) : [];
    cuts.add("backtrace line", trace.length - head.length - tail.length);
    kept.push(...head, ...tail);
    trace = [];
  };
  for (const line of lines) {
    if (BACKTRACE.test(line)) {
      trace.push(line.replace(SPEC_BLOCK, ""));
      continue;
    }
    flush();
    if (COMPARED.test(line)) cuts.add("comparison note");
    else kept.push(line);
  }
  flush();
  const margin = Math.min(...kept.map((line) => /^ */.exec(line)?.[0].length ?? 0));
  const dedented = kept.map((line) => `  ${line.slice(margin)}`);
  return capLines(dedented, RSPEC_ENTRY_LINES, cuts, "failure line");
}

/** The `rspec` filter. */
export const rspecFilter: CommandFilter = {
  name: "rspec",
  textClass: "log",
  passthrough: rspecPassthrough,
  filter: filterRspec,
};

// `N examples, M failures`, anywhere.
function _detect(_s: unknown, text: string): ShapeMatch | null {
  let at = text.indexOf(" examples, ");
  if (at < 0) at = text.indexOf(" example, ");
  if (at < 0) return null;
  const m = /^\d+ examples?, (\d+) failures?/.exec(lineAround(text, at));
  if (!m) return null;
  return shapeMatch(m[1] === "0" ? 0 : FAILED);
}

/** The families this module serves. Test runners run the project's code: never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "rspec": {
    filter: rspecFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 145, detect: _detect }],
    saving: 79,
  },
};
