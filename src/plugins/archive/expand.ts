/**
 * Selecting from an archived output: whole (exact bytes), or by line range, pattern, head or
 * tail.
 *
 * @module
 */

/** A selection; every field optional, applied in the order lines → grep → head → tail. */
export interface ExpandSelection {
  /** Lines A to B, 1-based and inclusive. */
  readonly lines?: readonly [number, number];
  /** Lines matching this regular expression (plain text when it is not a valid one). */
  readonly grep?: string;
  /** The first N lines. */
  readonly head?: number;
  /** The last N lines. */
  readonly tail?: number;
}

/** True when the selection asks for less than the whole output. */
export function isPartial(sel: ExpandSelection): boolean {
  return sel.lines !== undefined || sel.grep !== undefined || sel.head !== undefined ||
    sel.tail !== undefined;
}

/**
 * Applies `sel` to archived bytes. With `grep`, each line is prefixed by its line number
 * (`12:text`) so a later `--lines` can find it. Throws a `TypeError` on non-UTF-8 bytes.
 */
export function selectLines(bytes: Uint8Array, sel: ExpandSelection): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new TypeError("This archived output is binary: expand it whole, without a selection");
  }
  const all = text.split("\n");
  if (all.length > 0 && all[all.length - 1] === "") all.pop();
  let rows = all.map((line, i) => ({ n: i + 1, line }));
  if (sel.lines) {
    const [a, b] = sel.lines;
    rows = rows.slice(a - 1, b);
  }
  if (sel.grep !== undefined) {
    const test = matcher(sel.grep);
    rows = rows.filter((r) => test(r.line));
  }
  if (sel.head !== undefined) rows = rows.slice(0, sel.head);
  if (sel.tail !== undefined) rows = sel.tail === 0 ? [] : rows.slice(-sel.tail);
  const numbered = sel.grep !== undefined;
  return rows.map((r) => (numbered ? `${r.n}:${r.line}` : r.line)).join("\n") +
    (rows.length ? "\n" : "");
}

function matcher(pattern: string): (line: string) => boolean {
  try {
    const re = new RegExp(pattern);
    return (line) => re.test(line);
  } catch {
    return (line) => line.includes(pattern);
  }
}

/** Parses `A:B` (1-based, inclusive; `A:` to the end). Throws a `RangeError` when malformed. */
export function parseRange(spec: string): [number, number] {
  const m = /^(\d+):(\d*)$/.exec(spec);
  const a = m ? Number(m[1]) : NaN;
  const b = m && m[2] !== "" ? Number(m[2]) : Number.MAX_SAFE_INTEGER;
  if (!m || a < 1 || b < a) {
    throw new RangeError(`--lines "${spec}": expected A:B with 1 ≤ A ≤ B, like 10:40 or 10:`);
  }
  return [a, b];
}
