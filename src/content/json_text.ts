/**
 * JSON tool results made smaller without re-serialising them.
 *
 * `compactJson` drops the whitespace between tokens and copies every token verbatim, so no
 * number changes its text (`1.0`, `-0`, `1e3` and integers beyond 2^53 keep their digits, which
 * `JSON.stringify(JSON.parse(x))` would not) and no string changes its escapes: lossless.
 *
 * `cutJsonArrays` is the one lossy step, and only for huge documents (over
 * {@linkcode JSON_LOSSY_CHARS} chars once compact): every array of more than
 * {@linkcode ARRAY_CUT_MIN} uniform items (all of one JSON kind, and objects all opening with
 * the same key) keeps its first {@linkcode ARRAY_HEAD} and last {@linkcode ARRAY_TAIL} items,
 * with one string item `"… N items cut …"` between them. The result is still valid JSON, and the
 * kept items are the document's own bytes.
 *
 * @module
 */

/** Compact JSON over this many chars has its long uniform arrays cut. */
export const JSON_LOSSY_CHARS = 20_000;
/** Arrays with more items than this are cut (when uniform and the document is huge). */
export const ARRAY_CUT_MIN = 30;
/** Items kept from the start of a cut array. */
export const ARRAY_HEAD = 10;
/** Items kept from the end of a cut array. */
export const ARRAY_TAIL = 5;

const _ws = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * `text`, a valid JSON document, without insignificant whitespace; every token copied verbatim.
 * Text that is not valid JSON gives unspecified (but deterministic) output: validate first.
 */
export function compactJson(text: string): string {
  const parts: string[] = [];
  const n = text.length;
  let span = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === 34) {
          i++;
          break;
        } else i++;
      }
    } else if (_ws(c)) {
      if (i > span) parts.push(text.slice(span, i));
      while (i < n && _ws(text.charCodeAt(i))) i++;
      span = i;
    } else i++;
  }
  if (span < n) parts.push(text.slice(span));
  return parts.join("");
}

// End of the string token opening at `i`.
function _stringEnd(s: string, i: number): number {
  let j = i + 1;
  while (j < s.length) {
    const d = s.charCodeAt(j);
    if (d === 92) j += 2;
    else if (d === 34) return j + 1;
    else j++;
  }
  return j;
}

// End of the value opening at `i` in compact JSON.
function _valueEnd(s: string, i: number): number {
  const c = s[i];
  if (c === '"') return _stringEnd(s, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    let j = i;
    while (j < s.length) {
      const d = s[j];
      if (d === '"') {
        j = _stringEnd(s, j);
        continue;
      }
      if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return j;
  }
  let j = i;
  while (j < s.length && s[j] !== "," && s[j] !== "]" && s[j] !== "}") j++;
  return j;
}

// What an item is, for uniformity: its kind, and for an object its first key.
function _itemKind(s: string, start: number): string {
  const c = s[start];
  if (c === "{") return s[start + 1] === '"' ? s.slice(start, _stringEnd(s, start + 1)) : "{}";
  if (c === '"' || c === "[") return c;
  if (c === "t" || c === "f") return "bool";
  if (c === "n") return "null";
  return "number";
}

interface _Tally {
  items: number;
  arrays: number;
}

// Renders the value at `i` with its long uniform arrays cut; returns the text and its end.
function _render(s: string, i: number, tally: _Tally): [string, number] {
  const c = s[i];
  if (c === "[") {
    const spans: [number, number][] = [];
    let j = i + 1;
    if (s[j] === "]") return ["[]", j + 1];
    while (j < s.length) {
      const end = _valueEnd(s, j);
      spans.push([j, end]);
      j = end;
      if (s[j] === ",") j++;
      else break;
    }
    const end = j + 1;
    const kind = _itemKind(s, spans[0][0]);
    const cut = spans.length > ARRAY_CUT_MIN &&
      spans.every(([a]) => _itemKind(s, a) === kind);
    const kept = cut ? [...spans.slice(0, ARRAY_HEAD), ...spans.slice(-ARRAY_TAIL)] : spans;
    const parts = kept.map(([a]) => _render(s, a, tally)[0]);
    if (cut) {
      const dropped = spans.length - kept.length;
      tally.items += dropped;
      tally.arrays++;
      parts.splice(ARRAY_HEAD, 0, JSON.stringify(`… ${dropped} items cut …`));
    }
    return [`[${parts.join(",")}]`, end];
  }
  if (c === "{") {
    const parts: string[] = [];
    let j = i + 1;
    if (s[j] === "}") return ["{}", j + 1];
    while (j < s.length) {
      const keyEnd = _stringEnd(s, j);
      const [value, end] = _render(s, keyEnd + 1, tally);
      parts.push(`${s.slice(j, keyEnd)}:${value}`);
      j = end;
      if (s[j] === ",") j++;
      else break;
    }
    return [`{${parts.join(",")}}`, j + 1];
  }
  const end = _valueEnd(s, i);
  return [s.slice(i, end), end];
}

/** What {@linkcode cutJsonArrays} did. */
export interface JsonCut {
  /** The document with its long uniform arrays cut. */
  readonly text: string;
  /** Items dropped in all. */
  readonly items: number;
  /** Arrays that lost items. */
  readonly arrays: number;
}

/**
 * `compact` (the output of {@linkcode compactJson}) with every array of more than
 * {@linkcode ARRAY_CUT_MIN} uniform items cut to its first and last few; `null` when no array
 * qualifies or the document nests too deeply to walk.
 */
export function cutJsonArrays(compact: string): JsonCut | null {
  const tally: _Tally = { items: 0, arrays: 0 };
  let text: string;
  try {
    text = _render(compact, 0, tally)[0];
  } catch {
    // A document nested deeper than the call stack stays whole rather than half-walked.
    return null;
  }
  return tally.items > 0 ? { text, ...tally } : null;
}
