/**
 * Failing tests, shown the same way by the JavaScript test-runner filters (jest, vitest, mocha,
 * node --test, deno test): each filter reads its runner's format into failures, summary lines
 * and stray output, and this module decides what of each is shown and renders it.
 *
 * - A passing run is one line: the runner's name and its counts (`jest: Tests: 36 passed, 38
 *   total; …`), then any output that is not the runner's own (a test's `console.log`).
 * - A failing run keeps every failing test's title and location, its message (the assertion's
 *   expected/actual and diff) up to {@link TEST_MESSAGE_LINES} lines, the source line the runner
 *   points at, and the first {@link TEST_FRAMES_SHOWN} stack frames in the project (runner,
 *   `node_modules` and `node:internal` frames are counted, not shown), then the counts.
 *   Passing tests are counted, not listed. After {@link TEST_FAILURES_SHOWN} failures the rest
 *   keep their title and location (or first frame in the project) only.
 * - A run with a non-zero exit code always says it failed.
 *
 * @module
 */

import { type Cuts, joinLines, sayFailed } from "./_test_report.ts";

/** Failures shown with their message and frames; later ones keep their title and location. */
export const TEST_FAILURES_SHOWN: number = 30;
/** Lines of one failure's message (its diff included) shown; the rest are counted. */
export const TEST_MESSAGE_LINES: number = 30;
/** Stack frames shown per failure: the first ones in the project, or the very first frame. */
export const TEST_FRAMES_SHOWN: number = 3;
/** Lines of output that is not the runner's own (a test's console output) shown per run. */
export const TEST_NOTE_LINES: number = 40;
/** Longest line shown whole; a longer one is cut to this width, `…` included. */
export const TEST_LINE_WIDTH: number = 300;

/** One failing test (or a file that failed to load), as the runner reported it. */
export interface TestFailure {
  /** The test's full title as the runner prints it, or the file that failed to load. */
  readonly title: string;
  /** Where the test is, when the runner says it apart from the stack (`./math_test.ts:4:6`). */
  readonly location?: string;
  /** The error's lines: message, expected/actual, diff, in the runner's order. */
  readonly message: readonly string[];
  /** The source line the runner points at, when it prints one. */
  readonly source?: string;
  /** Stack frames as printed (`at f (a.js:1:2)`, `❯ a.js:1:2`). */
  readonly frames: readonly string[];
}

/** Failures under one heading (a file, a section), or under none. */
export interface FailureGroup {
  readonly heading: string | null;
  readonly failures: readonly TestFailure[];
}

/** A parsed report, ready to render. */
export interface TestReport {
  /** The runner's name, as the one-line summary starts (`jest`, `node --test`). */
  readonly runner: string;
  readonly groups: readonly FailureGroup[];
  /** The runner's counts and timing, one phrase per line it printed them on. */
  readonly summary: readonly string[];
  /** Lines rtok does not know (a test's output, a runner warning), kept in order. */
  readonly notes: readonly string[];
  /** What parsing already dropped (the passing tests listed, progress lines). */
  readonly cuts: Cuts;
  /** Lines the caller asked for (a coverage table), shown whole after the counts. */
  readonly asked?: readonly string[];
}

/** A frame of the runner, Node, Deno or a dependency rather than of the project. */
export function isInternalFrame(frame: string): boolean {
  return /\bnode:|\bext:|node_modules\/|\(<anonymous>\)|^(at )?(async )?Promise\.all \(index|<anonymous>$/
    .test(frame.trim());
}

/**
 * The frames to show: the first {@link TEST_FRAMES_SHOWN} in the project; the others are
 * counted. (An error with no frame in the project, a parse error, names its place in its
 * message.)
 */
export function pickFrames(frames: readonly string[], cuts: Cuts): string[] {
  const shown = frames.filter((frame) => !isInternalFrame(frame)).slice(0, TEST_FRAMES_SHOWN);
  cuts.add("stack frame", frames.length - shown.length);
  return shown;
}

/** `line` cut to {@link TEST_LINE_WIDTH}, counted when cut. */
export function fitLine(line: string, cuts: Cuts): string {
  if (line.length <= TEST_LINE_WIDTH) return line;
  cuts.add("long line trimmed", 1, "long lines trimmed");
  let end = TEST_LINE_WIDTH - 1;
  if (/[\uD800-\uDBFF]/.test(line[end - 1])) end--;
  return `${line.slice(0, end)}…`;
}

/** Removes the indentation every non-blank line of `lines` shares. */
export function dedent(lines: readonly string[]): string[] {
  let common = Infinity;
  for (const line of lines) {
    if (line.trim() === "") continue;
    common = Math.min(common, line.length - line.trimStart().length);
  }
  if (!Number.isFinite(common) || common === 0) return [...lines];
  return lines.map((line) => line.slice(common));
}

/** Drops blank lines at both ends and collapses runs of blank lines inside. */
export function squeezeBlank(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const blank = line.trim() === "";
    if (blank && (out.length === 0 || out[out.length - 1] === "")) continue;
    out.push(blank ? "" : line);
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

// `  36|       expect(x)` → `36| expect(x)`: the line number and the code, without the margin.
function sourceLine(source: string): string {
  return source.trim().replace(/^(\d+\s*\|)\s+/, "$1 ");
}

function renderFailure(failure: TestFailure, detailed: boolean, cuts: Cuts): string[] {
  // A file that failed to load is its own location (`a.test.js`, at `a.test.js:1:1`).
  const located = failure.location && !failure.location.startsWith(`${failure.title}:`);
  const where = located ? ` (${failure.location})` : "";
  if (!detailed) {
    // Past the cap a failure keeps its place: the runner's location, or its first own frame.
    const own = located ? "" : failure.frames.find((frame) => !isInternalFrame(frame));
    cuts.add("failure without details", 1, "failures without details");
    return [fitLine(`✖ ${failure.title}${where}${own ? ` ${own.trim()}` : ""}`, cuts)];
  }
  const out = [fitLine(`✖ ${failure.title}${where}`, cuts)];
  const message = squeezeBlank(failure.message).filter((line) => line !== "");
  const shown = message.slice(0, TEST_MESSAGE_LINES);
  cuts.add("message line", message.length - shown.length);
  for (const line of shown) out.push(fitLine(`  ${line}`, cuts));
  if (failure.source) out.push(fitLine(`  > ${sourceLine(failure.source)}`, cuts));
  for (const frame of pickFrames(failure.frames, cuts)) {
    out.push(fitLine(`  ${frame.trim()}`, cuts));
  }
  return out;
}

/** The failures, in groups, each with its details up to {@link TEST_FAILURES_SHOWN}. */
export function renderFailures(groups: readonly FailureGroup[], cuts: Cuts): string[] {
  const out: string[] = [];
  let shown = 0;
  for (const group of groups) {
    if (group.heading !== null) out.push(fitLine(group.heading, cuts));
    for (const failure of group.failures) {
      out.push(...renderFailure(failure, shown < TEST_FAILURES_SHOWN, cuts));
      shown++;
    }
  }
  return out;
}

/** The notes, at most {@link TEST_NOTE_LINES}, blank runs collapsed. */
export function renderNotes(notes: readonly string[], cuts: Cuts): string[] {
  const lines = squeezeBlank(notes);
  const shown = lines.slice(0, TEST_NOTE_LINES);
  const count = (some: readonly string[]) => some.filter((line) => line !== "").length;
  cuts.add("output line", count(lines) - count(shown));
  return shown.map((line) => fitLine(line, cuts));
}

/**
 * Renders a parsed report: the failures, the notes and the summary; a run without failures is
 * one summary line (then its notes). A non-zero exit code always shows as failed.
 */
export function renderReport(
  report: TestReport,
  exitCode: number,
): { text: string; cut: string[] } {
  const { runner, groups, summary, notes, cuts, asked = [] } = report;
  const failures = groups.some((group) => group.failures.length > 0);
  const out: string[] = [];
  const counts = summary.length > 0 ? [`${runner}: ${summary.join("; ")}`] : [];
  if (failures) {
    out.push(...renderFailures(groups, cuts), ...renderNotes(notes, cuts), ...counts);
  } else {
    out.push(...counts, ...renderNotes(notes, cuts));
  }
  out.push(...asked);
  return { text: joinLines(sayFailed(out, runner, exitCode)), cut: cuts.phrases() };
}

/**
 * Error text outside any test (a file that failed to load, a runner crash): every line kept
 * but the stack frames, of which only those in the project are shown, at most
 * {@link TEST_FRAMES_SHOWN} in a row.
 */
export function shapeErrorText(lines: readonly string[], cuts: Cuts): string[] {
  const out: string[] = [];
  let frames: string[] = [];
  const flush = () => {
    out.push(...pickFrames(frames, cuts));
    frames = [];
  };
  for (const line of lines) {
    if (/^\s*at /.test(line)) frames.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
}
