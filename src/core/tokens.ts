/**
 * Token estimates by text class. The ratios are chars per token, calibrated against a real
 * tokenizer (o200k_base, npm `gpt-tokenizer`) over the captured fixtures by
 * `bench/tokens_calibrate.ts`; the budget script keeps each class within ±15 %.
 *
 * @module
 */

/** The kinds of text rtok sees; each has its own chars-per-token ratio. */
export type TextClass = "code" | "prose" | "log" | "diff" | "json" | "paths";

/** Every text class, in a stable order. */
export const TEXT_CLASSES: readonly TextClass[] = ["code", "prose", "log", "diff", "json", "paths"];

/** Chars per token for each class (an estimate, labelled as such wherever it is shown). */
export const CHARS_PER_TOKEN: Readonly<Record<TextClass, number>> = {
  code: 3.6,
  prose: 4.2,
  log: 3.1,
  diff: 3.3,
  json: 3.2,
  paths: 2.6,
};

/** Estimated tokens of `text` read as `textClass`: ceil(chars / ratio), 0 for empty text. */
export function estimate(text: string, textClass: TextClass): number {
  return estimateChars(text.length, textClass);
}

/** Estimated tokens for a text of `chars` UTF-16 code units read as `textClass`. */
export function estimateChars(chars: number, textClass: TextClass): number {
  if (chars <= 0) return 0;
  return Math.ceil(chars / CHARS_PER_TOKEN[textClass]);
}
