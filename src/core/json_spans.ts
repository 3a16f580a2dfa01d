/**
 * Where values sit in a JSON text, without building them: for changing one part of a
 * document while every other byte stays as it was. The text must be valid JSON (parse it
 * first); positions are UTF-16 indexes into it.
 *
 * @module
 */

/** A value's source span, `[start, end)`. */
export interface Span {
  /** Its first character. */
  readonly start: number;
  /** Just past its last character. */
  readonly end: number;
}

/** An object member: its key and its value's span. */
export interface Member extends Span {
  /** The decoded key. */
  readonly key: string;
}

/** The index of the first non-whitespace character at or after `i`. */
export function skipWs(s: string, i: number): number {
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** Just past the string whose opening quote is at `i`. */
export function stringEnd(s: string, i: number): number {
  let j = i + 1;
  while (true) {
    const q = s.indexOf('"', j);
    if (q < 0) throw new SyntaxError(`unterminated string at ${i}`);
    let k = q - 1;
    while (s.charCodeAt(k) === 0x5c) k--;
    // An even run of backslashes before the quote escapes only themselves.
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Just past the value that starts at `i` (no leading whitespace). */
export function valueEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x22) return stringEnd(s, i);
  if (c !== 0x7b && c !== 0x5b) {
    let j = i;
    while (j < s.length && !",}] \n\r\t".includes(s[j])) j++;
    return j;
  }
  let depth = 0;
  let j = i;
  while (j < s.length) {
    const d = s.charCodeAt(j);
    if (d === 0x22) {
      j = stringEnd(s, j);
      continue;
    }
    if (d === 0x7b || d === 0x5b) depth++;
    else if (d === 0x7d || d === 0x5d) {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  throw new SyntaxError(`unterminated value at ${i}`);
}

/** The members of the object whose `{` is at `open`, in source order. */
export function members(s: string, open: number): Member[] {
  const out: Member[] = [];
  let i = skipWs(s, open + 1);
  if (s[i] === "}") return out;
  while (true) {
    const keyEnd = stringEnd(s, i);
    const key = JSON.parse(s.slice(i, keyEnd)) as string;
    i = skipWs(s, skipWs(s, keyEnd) + 1);
    const end = valueEnd(s, i);
    out.push({ key, start: i, end });
    i = skipWs(s, end);
    if (s[i] === "}") return out;
    i = skipWs(s, i + 1);
  }
}

/** The element spans of the array whose `[` is at `open`. */
export function elements(s: string, open: number): Span[] {
  const out: Span[] = [];
  let i = skipWs(s, open + 1);
  if (s[i] === "]") return out;
  while (true) {
    const end = valueEnd(s, i);
    out.push({ start: i, end });
    i = skipWs(s, end);
    if (s[i] === "]") return out;
    i = skipWs(s, i + 1);
  }
}

/** The last member named `key` (the one `JSON.parse` keeps), or `undefined`. */
export function member(list: readonly Member[], key: string): Member | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (list[i].key === key) return list[i];
  return undefined;
}
