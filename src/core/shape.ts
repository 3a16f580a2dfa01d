/**
 * Reading what a text is from the text alone: the sample every shape detector looks at, and the
 * contract a filter module's detector keeps. A tool result that reaches rtok without its command
 * (inside a model request, or a host's own tool output) is given to the filter whose detector
 * recognises it, with the arguments and exit code the text implies.
 *
 * Detection looks at a sample: the first {@linkcode HEAD_LINES} and the last
 * {@linkcode TAIL_LINES} lines, each cut to {@linkcode SAMPLE_LINE_CHARS} chars with colours
 * stripped, so its cost does not grow with the text and no pattern runs over the whole of it.
 * Anything else a detector needs from the whole text (a failure marker in the middle of a test
 * run) it finds with `includes`/`indexOf`, which cannot backtrack.
 *
 * @module
 */

import { stripAnsi } from "./text.ts";

/** Lines read from the start of the text. */
export const HEAD_LINES = 60;
/** Lines read from the end of the text. */
export const TAIL_LINES = 30;
/** Chars of each sampled line that the patterns see. */
export const SAMPLE_LINE_CHARS = 400;

/**
 * The exit code a detector gives a run whose text shows it failed: the real code is not in
 * the text, so the filters say "failed" without one.
 */
export const FAILED = -1;

/** The first and last lines of a text, colour-free and width-capped. */
export interface Sample {
  /** The first lines. */
  readonly head: readonly string[];
  /** The last lines. */
  readonly tail: readonly string[];
  /** The head's non-blank lines. */
  readonly filled: readonly string[];
  /** The tail's last non-blank line, or "". */
  readonly last: string;
}

/** How the filter should read a text its detector recognised. */
export interface ShapeMatch {
  /**
   * Arguments that make the filter read the text as it is laid out (`["-H", "-n"]` for grep
   * hits with names and numbers); never a machine format.
   */
  readonly args: readonly string[];
  /** 0 unless the text shows a failure (then usually {@linkcode FAILED}). */
  readonly exitCode: number;
}

/**
 * A filter module's recogniser of its family's output. Detectors run in `rank` order, lowest
 * first, and the first that recognises a text decides it; ranks are unique across all filter
 * modules (a test holds them so). Where shapes overlap the order matters: test runners
 * (100–199) and compilers (200–299) print `path:line:` lines that would also read as grep
 * hits, and a `git show` starts like a `git log` (git, 300–399); file listings and search hits
 * come last (400–499).
 */
export interface ShapeDetector {
  /** Where it runs among all detectors. */
  readonly rank: number;
  /** How its filter should read `text`, or `null` when `text` is not of its shape. */
  detect(sample: Sample, text: string): ShapeMatch | null;
}

/** `line` without its CR and colours, cut to {@linkcode SAMPLE_LINE_CHARS} chars. */
export function cleanLine(line: string): string {
  const capped = line.length > SAMPLE_LINE_CHARS * 2 ? line.slice(0, SAMPLE_LINE_CHARS * 2) : line;
  return stripAnsi(capped.endsWith("\r") ? capped.slice(0, -1) : capped).slice(
    0,
    SAMPLE_LINE_CHARS,
  );
}

/** The sample of `text` every detector reads. */
export function sampleText(text: string): Sample {
  const head: string[] = [];
  let at = 0;
  while (head.length < HEAD_LINES && at < text.length) {
    const nl = text.indexOf("\n", at);
    const end = nl < 0 ? text.length : nl;
    head.push(cleanLine(text.slice(at, Math.min(end, at + SAMPLE_LINE_CHARS * 2))));
    at = end + 1;
  }
  const tail: string[] = [];
  let end = text.endsWith("\n") ? text.length - 1 : text.length;
  while (tail.length < TAIL_LINES && end > 0) {
    const nl = text.lastIndexOf("\n", end - 1);
    const start = nl + 1;
    tail.unshift(cleanLine(text.slice(Math.max(start, end - SAMPLE_LINE_CHARS * 2), end)));
    end = nl < 0 ? 0 : nl;
  }
  const filled = head.filter((l) => l.trim() !== "");
  let last = "";
  for (let i = tail.length - 1; i >= 0; i--) {
    if (tail[i].trim() !== "") {
      last = tail[i];
      break;
    }
  }
  return { head, tail, filled, last };
}

/** A match with `args` and `exitCode` (0 unless given). */
export function shapeMatch(exitCode = 0, args: readonly string[] = []): ShapeMatch {
  return { args, exitCode };
}

/** True when any of `lines` matches `re`. */
export function anyLine(lines: readonly string[], re: RegExp): boolean {
  return lines.some((l) => re.test(l));
}

/** The share (0 to 1) of `lines` that pass `test`; 0 for none. */
export function shareOf(lines: readonly string[], test: (l: string) => boolean): number {
  return lines.length === 0 ? 0 : lines.filter(test).length / lines.length;
}

/** True when a line of the whole `text` starts with `start` (the first line included). */
export function hasLineStarting(text: string, start: string): boolean {
  return text.startsWith(start) || text.includes("\n" + start);
}

/** The cleaned line of `text` that holds the char at `index`. */
export function lineAround(text: string, index: number): string {
  const start = text.lastIndexOf("\n", index) + 1;
  const end = text.indexOf("\n", index);
  return cleanLine(text.slice(start, end < 0 ? text.length : end));
}
