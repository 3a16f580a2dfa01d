/**
 * Text helpers every layer shares: ANSI stripping, line splitting, counted nouns, and the one
 * strict UTF-8 decode that tells text from binary bytes.
 *
 * @module
 */

// CSI sequences (colours, cursor moves) and OSC sequences (hyperlinks, titles).
// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Removes ANSI escape sequences. Returns `text` itself when it holds none. */
export function stripAnsi(text: string): string {
  return text.includes("\x1b") ? text.replace(ANSI, "") : text;
}

/** Splits text into lines; a final newline does not make an empty last line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** `3 lines`, `1 line`: a count with its noun, plural unless the count is 1. */
export function plural(count: number, noun: string, nouns: string = noun + "s"): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

const _UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * `bytes` as text, or `null` when they are binary: a NUL byte or invalid UTF-8. A byte-order
 * mark is kept, so the text re-encodes to the same bytes.
 */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return _UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Rows as aligned columns, one line each after `indent`: the first column left-aligned, the
 * others (numbers) right-aligned, two spaces between.
 */
export function columns(rows: readonly (readonly string[])[], indent = ""): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    indent + r.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ")
      .trimEnd() +
    "\n"
  ).join("");
}
