/**
 * Helpers shared by the test-runner filters of other languages (pytest, cargo test, go test,
 * rspec, phpunit): counting what a filter drops, capping runs of lines, and making sure a
 * failing run never reads as a passing one.
 *
 * @module
 */

import { failureLine } from "./_text.ts";
import { plural } from "../src/core/text.ts";

/** What a filter dropped, counted by kind, in order of first drop: `cut` phrases. */
export class Cuts {
  readonly #counts = new Map<string, { count: number; many: string }>();

  /** Counts `count` dropped items of a kind (`"passing test line"`, plural `many`). */
  add(noun: string, count = 1, many = noun + "s"): void {
    if (count <= 0) return;
    const seen = this.#counts.get(noun);
    if (seen) seen.count += count;
    else this.#counts.set(noun, { count, many });
  }

  /** The phrases for `Filtered.cut`: `["12 passing test lines", "1 header"]`. */
  phrases(): string[] {
    return [...this.#counts].map(([noun, { count, many }]) => plural(count, noun, many));
  }
}

/**
 * The first `max` of `lines`; the rest are counted in `cuts` as `noun`. Returns `lines` itself
 * when it fits.
 */
export function capLines(
  lines: readonly string[],
  max: number,
  cuts: Cuts,
  noun: string,
): readonly string[] {
  if (lines.length <= max) return lines;
  cuts.add(noun, lines.length - max);
  return lines.slice(0, max);
}

/**
 * The first `head` and last `tail` of `lines`, with one marker line where the middle was
 * dropped (counted in `cuts` as `noun`). Returns `lines` itself when it fits.
 */
export function capMiddle(
  lines: readonly string[],
  head: number,
  tail: number,
  cuts: Cuts,
  noun: string,
  indent = "",
): readonly string[] {
  const dropped = lines.length - head - tail;
  if (dropped <= 0) return lines;
  cuts.add(noun, dropped);
  return [
    ...lines.slice(0, head),
    `${indent}[${plural(dropped, noun)} cut]`,
    ...lines.slice(lines.length - tail),
  ];
}

// Words that tell a reader the run did not pass (`0 failed` does not).
const FAILED_WORDS = /(?<!\b0 )\b(fail(s|ed|ures?)?|errors?)\b/i;

/**
 * `lines` with a last `<tool>: failed with exit code N` line (`failureLine`) when the exit code is non-zero and
 * nothing in them already says the run failed or errored.
 */
export function sayFailed(lines: readonly string[], tool: string, exitCode: number): string[] {
  if (exitCode === 0 || lines.some((line) => FAILED_WORDS.test(line))) return [...lines];
  return [...lines, failureLine(tool, exitCode)];
}

/** Joins output lines, with a final newline unless there are none. */
export function joinLines(lines: readonly string[]): string {
  return lines.length ? lines.join("\n") + "\n" : "";
}
