/**
 * Text helpers only the built-in command filters share (the ones every layer uses are in
 * `src/core/text.ts`).
 *
 * @module
 */

/**
 * The line that says a run failed when its output did not: `pytest: failed with exit code 4`,
 * or `pytest: failed` when the exit code is not known (negative: text read without its run).
 */
export function failureLine(tool: string, exitCode: number): string {
  return exitCode < 0 ? `${tool}: failed` : `${tool}: failed with exit code ${exitCode}`;
}

/**
 * True when `line` may be a path: no tab, no `: `, no leading space, and at most two single
 * spaces (a path has few; prose has many).
 */
export function pathLike(line: string): boolean {
  if (line.length > 300 || /^\s/.test(line) || line.includes("\t") || line.includes(": ")) {
    return false;
  }
  let spaces = 0;
  for (const ch of line) if (ch === " " && ++spaces > 2) return false;
  return true;
}
