/**
 * The pointer line: the one line that ends a lossy output, saying what was cut and the exact
 * command that brings the raw bytes back. One function writes it and one reads it, so every
 * surface that cuts, and every one that looks for a cut, agrees on its form.
 *
 * @module
 */

/** What a pointer line says. */
export interface Pointer {
  /** What was cut, as written (`3 older commits, 12 context lines`). */
  readonly cut: string;
  /** The archive id (`rtok expand <id>`). */
  readonly id: string;
}

/**
 * The line itself: `[rtok: cut <what>; raw: rtok expand <id>]`. A cut list that ends with where
 * the hidden lines are (`at lines 4–9, 30`, see `hidden_lines.ts`) reads
 * `[rtok: cut 3 older commits at lines 118–190; raw: rtok expand <id>]`.
 */
export function pointerLine(cut: readonly string[], id: string): string {
  const what = cut.map((c, i) => i === 0 ? c : (c.startsWith(_AT_LINES) ? " " : ", ") + c).join("");
  return `[rtok: cut ${what}; raw: rtok expand ${id}]`;
}

// The span phrase's opening words (hidden_lines.ts writes it; pointer.ts imports nothing).
const _AT_LINES = "at lines ";

const _LINE = /^\[rtok: cut (.+); raw: rtok expand ([0-9a-f]{6,64})\]\r?$/;
const _OPEN = "[rtok: cut ";
// A pointer line is short; a longer line that starts like one is read no further.
const _MAX_LINE = 4096;

/** The pointer `line` (one line, without its newline) is, or `null` when it is none. */
export function parsePointer(line: string): Pointer | null {
  if (line.length >= _MAX_LINE) return null;
  const m = _LINE.exec(line);
  return m ? { cut: m[1], id: m[2] } : null;
}

// The pointer lines of `text`, whole lines only, in order.
function* _pointers(text: string): Generator<Pointer> {
  let at = text.indexOf(_OPEN);
  while (at >= 0) {
    if (at === 0 || text[at - 1] === "\n") {
      const nl = text.indexOf("\n", at);
      const p = parsePointer(text.slice(at, nl < 0 ? text.length : Math.min(nl, at + _MAX_LINE)));
      if (p) yield p;
    }
    at = text.indexOf(_OPEN, at + 1);
  }
}

/** Every pointer line of `text` (whole lines only), in order. */
export function findPointers(text: string): Pointer[] {
  return [..._pointers(text)];
}

/** True when `text` holds a pointer line: it already ends a compression. */
export function hasPointer(text: string): boolean {
  return !_pointers(text).next().done;
}

/** What goes out for `result`: its text, then the pointer line to `id` when anything was cut. */
export function withPointer(
  result: { readonly text: string; readonly cut: readonly string[] },
  id: string,
): string {
  if (result.cut.length === 0) return result.text;
  const sep = result.text === "" || result.text.endsWith("\n") ? "" : "\n";
  return result.text + sep + pointerLine(result.cut, id);
}
