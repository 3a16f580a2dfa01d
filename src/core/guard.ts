/**
 * The never-worse guard: the one place that decides whether filtered text may replace the raw
 * text. Every surface calls it; no other code makes that choice.
 *
 * @module
 */

import { estimate, type TextClass } from "./tokens.ts";

/** What the guard decided. */
export interface Guarded {
  /** The text to emit: `candidate`, or `raw` when `candidate` saves nothing. */
  readonly text: string;
  /** True when `candidate` was kept. */
  readonly kept: boolean;
}

/**
 * Keeps `candidate` only when it is strictly fewer estimated tokens than `raw`; an output
 * that saves nothing is not worth what it changed.
 */
export function neverWorse(raw: string, candidate: string, textClass: TextClass): Guarded {
  if (candidate !== raw && estimate(candidate, textClass) < estimate(raw, textClass)) {
    return { text: candidate, kept: true };
  }
  return { text: raw, kept: false };
}
