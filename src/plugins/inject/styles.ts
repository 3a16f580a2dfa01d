/**
 * The styles the `inject` plugin can add to a system prompt: terse answers and lean code,
 * each at three levels. Every level keeps code, commands, paths, identifiers and error text
 * exactly as they are, and answers in the user's language.
 *
 * @module
 */

/** How strongly a style applies. */
export type Level = "off" | "lite" | "full" | "ultra";

/** The levels, weakest first. */
export const LEVELS: readonly Level[] = ["off", "lite", "full", "ultra"];

/** The styles. */
export type Style = "terse" | "code";

/** The first line of every injected text; a prompt that has it is never given it again. */
export const MARKER = "[rtok style]";

const TERSE: Record<Exclude<Level, "off">, readonly string[]> = {
  lite: [
    "Answer briefly: give the result first, without preamble, recap or offers of more help.",
  ],
  full: [
    "Answer briefly: give the result first, without preamble, recap or offers of more help.",
    "Prefer short sentences and lists to paragraphs; drop filler and hedging; do not restate the question.",
  ],
  ultra: [
    "Answer in as few words as carry the facts: fragments are fine, one point per line.",
    "Use symbols for relations (→ leads to, = is, ≠ differs) and common abbreviations where they cannot be misread.",
    "Say nothing that was not asked for.",
  ],
};

const CODE: Record<Exclude<Level, "off">, readonly string[]> = {
  lite: [
    "Write the smallest change that does the task; no speculative features, no unrelated refactoring.",
  ],
  full: [
    "Write the smallest change that does the task; no speculative features, no unrelated refactoring.",
    "No comments that repeat the code, no checks for cases that cannot happen, no abstraction used once, no new dependency unless asked.",
  ],
  ultra: [
    "Write the smallest change that does the task; no speculative features, no unrelated refactoring.",
    "No comments that repeat the code, no checks for cases that cannot happen, no abstraction used once, no new dependency unless asked.",
    "Reuse what the codebase already has, prefer removing code to adding it, and write tests or docs only when asked.",
  ],
};

const ALWAYS =
  "Keep code, commands, file paths, identifiers and error messages exactly as written, " +
  "and answer in the language the user writes in.";

/** The text for the chosen levels, or `null` when both are off. */
export function styleText(terse: Level, code: Level): string | null {
  if (terse === "off" && code === "off") return null;
  const lines = [MARKER];
  if (terse !== "off") lines.push(...TERSE[terse]);
  if (code !== "off") lines.push(...CODE[code]);
  lines.push(ALWAYS);
  return lines.join("\n");
}
