/**
 * The fallback for long text of no known shape: the first {@linkcode HEAD_LINES} and last
 * {@linkcode TAIL_LINES} lines, with one `… N lines cut …` line between them, under which the
 * cut lines that read like errors (up to {@linkcode ERROR_LINES_KEPT}) stay, in order: a failure
 * in the middle of a long log must not vanish. A kept line over {@linkcode LONG_LINE_CHARS}
 * chars (minified code, a base64 blob) keeps its first and last chars around an `… N chars cut …`
 * mark, so one huge line cannot defeat the cut.
 *
 * @module
 */

import type { Filtered } from "../core/filter.ts";
import { plural } from "../core/text.ts";

/** Lines kept from the start. */
export const HEAD_LINES = 60;
/** Lines kept from the end. */
export const TAIL_LINES = 40;
/** Cut lines that look like errors, kept at most. */
export const ERROR_LINES_KEPT = 30;
/** Longer lines are trimmed. */
export const LONG_LINE_CHARS = 2_000;
/** Chars a trimmed line keeps from its start. */
export const LONG_LINE_HEAD = 1_000;
/** Chars a trimmed line keeps from its end. */
export const LONG_LINE_TAIL = 300;

// Checked on a line's first 500 chars, so one huge line costs no more than a short one.
const ERRORISH =
  /\b(error|Error|ERROR|errors|FAIL|FAILED|failed|Failed|Traceback|panic|panicked|fatal|Fatal|FATAL|Exception|exception|assert(ion)?|Assertion|\w+(Error|Exception))\b|^\s*E\s{2,}/;

/** True when `line` reads like an error report (`Error:`, `FAIL`, `Traceback`, `panic`…). */
export function looksLikeError(line: string): boolean {
  return ERRORISH.test(line.length > 500 ? line.slice(0, 500) : line);
}

// Cut between UTF-16 code units that do not split a surrogate pair.
function _safeEnd(line: string, at: number): number {
  const c = line.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

function _trim(line: string, tally: { lines: number; chars: number }): string {
  if (line.length <= LONG_LINE_CHARS) return line;
  const head = _safeEnd(line, LONG_LINE_HEAD);
  const tailStart = _safeEnd(line, line.length - LONG_LINE_TAIL);
  const cut = tailStart - head;
  tally.lines++;
  tally.chars += cut;
  return `${line.slice(0, head)} … ${cut} chars cut … ${line.slice(tailStart)}`;
}

/**
 * The head and tail of `text` with error lines from the middle kept; `null` when the text is
 * short enough that nothing would be cut (at most head + tail + 10 lines, none too long).
 */
export function headAndTail(text: string): Filtered | null {
  const trailingNewline = text.endsWith("\n");
  const lines = (trailingNewline ? text.slice(0, -1) : text).split("\n");
  const long = { lines: 0, chars: 0 };
  const out: string[] = [];
  const cut: string[] = [];
  if (lines.length > HEAD_LINES + TAIL_LINES + 10) {
    const middle = lines.slice(HEAD_LINES, lines.length - TAIL_LINES);
    const errors = middle.filter(looksLikeError).slice(0, ERROR_LINES_KEPT);
    const dropped = middle.length - errors.length;
    out.push(...lines.slice(0, HEAD_LINES).map((l) => _trim(l, long)));
    out.push(
      errors.length
        ? `… ${plural(dropped, "line")} cut; ${
          plural(errors.length, "error line")
        } among them kept …`
        : `… ${plural(dropped, "line")} cut …`,
    );
    out.push(...errors.map((l) => _trim(l, long)));
    out.push(...lines.slice(lines.length - TAIL_LINES).map((l) => _trim(l, long)));
    cut.push(plural(dropped, "middle line"));
  } else {
    out.push(...lines.map((l) => _trim(l, long)));
  }
  if (long.lines) cut.push(`${long.chars} chars of ${plural(long.lines, "long line")}`);
  if (cut.length === 0) return null;
  return { text: out.join("\n") + (trailingNewline ? "\n" : ""), cut };
}
