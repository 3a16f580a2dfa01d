/**
 * The tool-result strings of a model-API request body found in its UTF-8 bytes, and a splicer
 * that replaces them there: the byte-level twin of `body.ts`, for the proxy's hot path, where a
 * 1 MB body must become neither a JS string nor a parsed tree.
 *
 * One pass validates the JSON and walks it along the paths `body.ts` documents (which strings
 * qualify, and that the last of duplicate keys wins, as `JSON.parse` has it), deciding at each
 * object's end from its own fields whether the strings under it count. Every value off those
 * paths is checked against the JSON grammar without being built. Structural characters are
 * ASCII and never occur inside a multi-byte UTF-8 sequence, so bytes can be scanned as they are.
 *
 * A tool string longer than {@linkcode COUNTED_BYTES} is only delimited (its closing quote is
 * found with a native search), not checked: its caller either knows the exact bytes already
 * (a cache of tokens it decoded before) or decodes it, which checks it.
 *
 * @module
 */

import type { Api } from "./routes.ts";

/** A tool string token of at most this many bytes is checked and counted by the scan. */
export const COUNTED_BYTES = 1024;

/** One JSON string token in the body bytes that holds tool-result text. */
export interface ToolToken {
  /** Byte index of the opening quote. */
  readonly start: number;
  /** Byte index just past the closing quote. */
  readonly end: number;
  /**
   * The decoded value's length in UTF-16 code units (what `string.length` says), or -1 for a
   * token longer than {@linkcode COUNTED_BYTES}, whose contents the scan did not check.
   */
  readonly units: number;
  /** Where it is, for tests and logs: `messages[3].content[0].content`. */
  readonly path: string;
}

/**
 * Tells whether a token the caller knows starts at `start` of `bytes`: its end, or -1. The
 * caller vouches that the bytes up to that end are a valid JSON string token (one it decoded
 * before, compared byte for byte), so the scan neither searches for its end nor checks it.
 */
export type KnownToken = (bytes: Uint8Array, start: number) => number;

/** A replacement of the bytes at `[start, end)` by `json`. */
export interface ByteEdit {
  /** Byte index of the opening quote of the token to replace. */
  readonly start: number;
  /** Byte index just past its closing quote. */
  readonly end: number;
  /** The new token, UTF-8 (a `JSON.stringify` of the new text, encoded). */
  readonly json: Uint8Array;
}

/** What a scan of a request body found. */
export interface ToolScan {
  /** The tool-result strings, in body order. */
  readonly tokens: ToolToken[];
  /** Whether the body has the API's list (`messages`, `input`, `contents`) as an array. */
  readonly list: boolean;
}

/**
 * The tool-result strings of `bytes` (valid UTF-8) for `api`, in body order. `null` when the
 * bytes are not a JSON object, apart from the insides of the unchecked long tokens; `[]` when
 * it is an object without the expected list or without a qualifying string. `known` is asked
 * first at each tool string. Never throws (unless `known` does).
 */
export function findToolTokens(
  bytes: Uint8Array,
  api: Api,
  known?: KnownToken,
): ToolToken[] | null {
  return scanToolTokens(bytes, api, known)?.tokens ?? null;
}

/**
 * {@linkcode findToolTokens}, saying also whether the body has the API's list at all: a JSON
 * object without it is a body of a shape the proxy cannot read.
 */
export function scanToolTokens(
  bytes: Uint8Array,
  api: Api,
  known?: KnownToken,
): ToolScan | null {
  _known = known ?? null;
  try {
    const out: ToolToken[] = [];
    let i = _ws(bytes, 0);
    if (bytes[i] !== OPEN_OBJECT) return null;
    const { name, key } = _LISTS[api];
    let found: ToolToken[] = [];
    let list = false;
    i = _members(bytes, i, [key], (_n, v) => {
      _drop(bytes, found);
      found = [];
      list = bytes[v] === OPEN_ARRAY;
      if (!list) return _skipValue(bytes, v);
      return _elements(bytes, v, (k, e) => {
        const path = `${name}[${k}]`;
        if (api === "anthropic") return _anthropicMessage(bytes, e, path, found);
        if (api === "openai-chat") return _chatMessage(bytes, e, path, found);
        if (api === "gemini") return _geminiContent(bytes, e, path, found);
        return _responsesItem(bytes, e, path, found);
      });
    });
    if (_ws(bytes, i) !== bytes.length) return null;
    for (const t of found) out.push(t);
    return { tokens: out, list };
  } catch (e) {
    if (e instanceof _Invalid) return null;
    throw e;
  } finally {
    _known = null;
  }
}

/**
 * `bytes` with each edit's span replaced by its `json`; every byte outside the spans stays as
 * it was. Throws a RangeError when an edit lies outside the body or two edits overlap.
 */
export function spliceBytes(bytes: Uint8Array, edits: readonly ByteEdit[]): Uint8Array {
  if (edits.length === 0) return bytes;
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let size = bytes.length;
  let at = 0;
  for (const e of sorted) {
    if (!(Number.isInteger(e.start) && Number.isInteger(e.end) && e.start <= e.end)) {
      throw new RangeError(
        `Cannot splice the request body: edit [${e.start}, ${e.end}) is not a span; pass the start and end of a ToolToken`,
      );
    }
    if (e.start < at || e.end > bytes.length) {
      throw new RangeError(
        `Cannot splice the request body: edit [${e.start}, ${e.end}) overlaps another edit or lies outside the ${bytes.length}-byte body`,
      );
    }
    size += e.json.length - (e.end - e.start);
    at = e.end;
  }
  const out = new Uint8Array(size);
  let from = 0, to = 0;
  for (const e of sorted) {
    out.set(bytes.subarray(from, e.start), to);
    to += e.start - from;
    out.set(e.json, to);
    to += e.json.length;
    from = e.end;
  }
  out.set(bytes.subarray(from), to);
  return out;
}

// ---- the walk along the qualifying paths ----

function _ascii(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

const ROLE = _ascii("role");
const CONTENT = _ascii("content");
const TYPE = _ascii("type");
const TEXT = _ascii("text");
const IS_ERROR = _ascii("is_error");
const OUTPUT = _ascii("output");
const USER = _ascii("user");
const TOOL = _ascii("tool");
const TOOL_RESULT = _ascii("tool_result");
const FUNCTION_CALL_OUTPUT = _ascii("function_call_output");
const INPUT_TEXT = _ascii("input_text");
const PARTS = _ascii("parts");
const FUNCTION_RESPONSE = _ascii("functionResponse");
const RESPONSE = _ascii("response");
const ERROR = _ascii("error");

// The top-level list each API keeps its turns in.
const _LISTS: Readonly<Record<Api, { name: string; key: Uint8Array }>> = {
  "anthropic": { name: "messages", key: _ascii("messages") },
  "openai-chat": { name: "messages", key: _ascii("messages") },
  "openai-responses": { name: "input", key: _ascii("input") },
  "gemini": { name: "contents", key: _ascii("contents") },
};

// A user turn's `tool_result` blocks that are not errors.
function _anthropicMessage(b: Uint8Array, i: number, path: string, out: ToolToken[]): number {
  if (b[i] !== OPEN_OBJECT) return _skipValue(b, i);
  let user = false, list = false;
  let blocks: ToolToken[] = [];
  const end = _members(b, i, [ROLE, CONTENT], (n, v) => {
    if (n === 0) {
      const e = _skipValue(b, v);
      user = _stringIs(b, v, e, USER);
      return e;
    }
    _drop(b, blocks);
    const found: ToolToken[] = blocks = [];
    list = b[v] === OPEN_ARRAY;
    if (!list) return _skipValue(b, v);
    return _elements(b, v, (k, e) => _toolResult(b, e, `${path}.content[${k}]`, found));
  });
  _keep(b, user && list, blocks, out);
  return end;
}

function _toolResult(b: Uint8Array, i: number, path: string, out: ToolToken[]): number {
  if (b[i] !== OPEN_OBJECT) return _skipValue(b, i);
  let isResult = false, isError = false;
  let texts: ToolToken[] = [];
  const end = _members(b, i, [TYPE, IS_ERROR, CONTENT], (n, v) => {
    if (n === 2) {
      _drop(b, texts);
      texts = [];
      return _take(b, v, `${path}.content`, TEXT, texts);
    }
    const e = _skipValue(b, v);
    if (n === 0) isResult = _stringIs(b, v, e, TOOL_RESULT);
    else isError = e - v === 4 && b[v] === 0x74; // `true`: the only valid value starting so
    return e;
  });
  _keep(b, isResult && !isError, texts, out);
  return end;
}

function _chatMessage(b: Uint8Array, i: number, path: string, out: ToolToken[]): number {
  return _holder(b, i, path, ROLE, TOOL, CONTENT, TEXT, out);
}

function _responsesItem(b: Uint8Array, i: number, path: string, out: ToolToken[]): number {
  return _holder(b, i, path, TYPE, FUNCTION_CALL_OUTPUT, OUTPUT, INPUT_TEXT, out);
}

// An object whose `field` counts when its `key` is the string `value`.
function _holder(
  b: Uint8Array,
  i: number,
  path: string,
  key: Uint8Array,
  value: Uint8Array,
  field: Uint8Array,
  partType: Uint8Array,
  out: ToolToken[],
): number {
  if (b[i] !== OPEN_OBJECT) return _skipValue(b, i);
  let matches = false;
  let texts: ToolToken[] = [];
  const end = _members(b, i, [key, field], (n, v) => {
    if (n === 1) {
      _drop(b, texts);
      texts = [];
      return _take(b, v, `${path}.${_latin(field)}`, partType, texts);
    }
    const e = _skipValue(b, v);
    matches = _stringIs(b, v, e, value);
    return e;
  });
  _keep(b, matches, texts, out);
  return end;
}

// A Gemini turn: the `output` string of each `functionResponse` part whose `response` has no
// `error` member (the API's own convention: `output` for a function's output, `error` for its
// failure). Turns are not told apart by role: only a client's turn carries function responses.
function _geminiContent(b: Uint8Array, i: number, path: string, out: ToolToken[]): number {
  if (b[i] !== OPEN_OBJECT) return _skipValue(b, i);
  let texts: ToolToken[] = [];
  const end = _members(b, i, [PARTS], (_n, v) => {
    _drop(b, texts);
    const found: ToolToken[] = texts = [];
    if (b[v] !== OPEN_ARRAY) return _skipValue(b, v);
    return _elements(b, v, (k, e) => _geminiPart(b, e, `${path}.parts[${k}]`, found));
  });
  _keep(b, true, texts, out);
  return end;
}

function _geminiPart(b: Uint8Array, i: number, path: string, out: ToolToken[]): number {
  const at = `${path}.functionResponse.response`;
  return _only(
    b,
    i,
    FUNCTION_RESPONSE,
    out,
    (v, found) => _only(b, v, RESPONSE, found, (r, texts) => _geminiResponse(b, r, at, texts)),
  );
}

// The object at `i`'s last member named `key`, walked by `walk`, which puts what it finds in
// the list it is given; a duplicate key replaces what an earlier one found.
function _only(
  b: Uint8Array,
  i: number,
  key: Uint8Array,
  out: ToolToken[],
  walk: (v: number, found: ToolToken[]) => number,
): number {
  if (b[i] !== OPEN_OBJECT) return _skipValue(b, i);
  let found: ToolToken[] = [];
  const end = _members(b, i, [key], (_n, v) => {
    _drop(b, found);
    found = [];
    return walk(v, found);
  });
  _keep(b, true, found, out);
  return end;
}

function _geminiResponse(b: Uint8Array, i: number, path: string, out: ToolToken[]): number {
  if (b[i] !== OPEN_OBJECT) return _skipValue(b, i);
  let isError = false;
  let texts: ToolToken[] = [];
  const end = _members(b, i, [OUTPUT, ERROR], (n, v) => {
    if (n === 1) {
      isError = true;
      return _skipValue(b, v);
    }
    _drop(b, texts);
    texts = [];
    return b[v] === QUOTE ? _token(b, v, `${path}.output`, texts) : _skipValue(b, v);
  });
  _keep(b, !isError, texts, out);
  return end;
}

// The value at `i`: a string is a token; an array gives the `text` of its parts of `partType`.
function _take(
  b: Uint8Array,
  i: number,
  path: string,
  partType: Uint8Array,
  out: ToolToken[],
): number {
  if (b[i] === QUOTE) return _token(b, i, path, out);
  if (b[i] !== OPEN_ARRAY) return _skipValue(b, i);
  return _elements(b, i, (k, e) => {
    if (b[e] !== OPEN_OBJECT) return _skipValue(b, e);
    let typed = false;
    let text: ToolToken[] = [];
    const end = _members(b, e, [TYPE, TEXT], (n, v) => {
      if (n === 1) {
        _drop(b, text);
        text = [];
        return b[v] === QUOTE ? _token(b, v, `${path}[${k}].text`, text) : _skipValue(b, v);
      }
      const s = _skipValue(b, v);
      typed = _stringIs(b, v, s, partType);
      return s;
    });
    _keep(b, typed, text, out);
    return end;
  });
}

// The caller's lookup, for the scan under way.
let _known: KnownToken | null = null;

function _token(b: Uint8Array, i: number, path: string, out: ToolToken[]): number {
  const knownEnd = _known ? _known(b, i) : -1;
  const end = knownEnd >= 0 ? knownEnd : _stringEndFast(b, i);
  let units = -1;
  if (end - i <= COUNTED_BYTES) {
    // Checked byte by byte; it must end at the same quote.
    if (_stringEnd(b, i) !== end) throw new _Invalid();
    units = _units;
  }
  out.push({ start: i, end, units, path });
  return end;
}

// Tokens found under an object: moved to `out` when it qualifies, else dropped.
function _keep(b: Uint8Array, qualifies: boolean, found: ToolToken[], out: ToolToken[]): void {
  if (qualifies) { for (const t of found) out.push(t); }
  else _drop(b, found);
}

// Tokens that turn out not to count (their object does not qualify, or a later duplicate key
// replaces them) are checked now: no caller will decode them, and the body must still be JSON.
function _drop(b: Uint8Array, found: readonly ToolToken[]): void {
  for (const t of found) if (t.units < 0) _stringEnd(b, t.start);
}

function _latin(name: Uint8Array): string {
  return String.fromCharCode(...name);
}

// ---- the validating scanner ----

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Not JSON: unwinds the scan (caught in `findToolTokens`). */
class _Invalid extends Error {}

function _ws(b: Uint8Array, i: number): number {
  for (;;) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

// The members of the object at `i`: `visit(n, v)` for a key that is `names[n]` (its value at
// `v`; it returns the index past the value), the others skipped. Returns the index past `}`.
function _members(
  b: Uint8Array,
  i: number,
  names: readonly Uint8Array[],
  visit: (n: number, v: number) => number,
): number {
  let j = _ws(b, i + 1);
  if (b[j] === CLOSE_OBJECT) return j + 1;
  for (;;) {
    if (b[j] !== QUOTE) throw new _Invalid();
    const keyEnd = _stringEnd(b, j);
    const n = _nameOf(b, j, keyEnd, names);
    j = _ws(b, keyEnd);
    if (b[j] !== COLON) throw new _Invalid();
    j = _ws(b, j + 1);
    j = n < 0 ? _skipValue(b, j) : visit(n, j);
    j = _ws(b, j);
    if (b[j] === CLOSE_OBJECT) return j + 1;
    if (b[j] !== COMMA) throw new _Invalid();
    j = _ws(b, j + 1);
  }
}

// The elements of the array at `i`: `visit(k, e)` for each (it returns the index past it).
function _elements(b: Uint8Array, i: number, visit: (k: number, e: number) => number): number {
  let j = _ws(b, i + 1);
  if (b[j] === CLOSE_ARRAY) return j + 1;
  for (let k = 0;; k++) {
    j = _ws(b, visit(k, j));
    if (b[j] === CLOSE_ARRAY) return j + 1;
    if (b[j] !== COMMA) throw new _Invalid();
    j = _ws(b, j + 1);
  }
}

// Which of `names` the string token `[s, e)` decodes to, or -1.
function _nameOf(b: Uint8Array, s: number, e: number, names: readonly Uint8Array[]): number {
  for (let n = 0; n < names.length; n++) if (_stringIs(b, s, e, names[n])) return n;
  return -1;
}

// Whether the value `[s, e)` is a string token that decodes to the ASCII `name`.
function _stringIs(b: Uint8Array, s: number, e: number, name: Uint8Array): boolean {
  if (b[s] !== QUOTE) return false;
  const len = e - s - 2;
  if (len === name.length) {
    let k = 0;
    while (k < len && b[s + 1 + k] === name[k]) k++;
    if (k === len) return true;
  }
  // Spelled with escapes (`"\u0074ype"`): decoded, which is rare and short.
  if (len <= name.length || len > 6 * name.length) return false;
  if (b.subarray(s + 1, e - 1).indexOf(BACKSLASH) < 0) return false;
  const text: string = JSON.parse(new TextDecoder().decode(b.subarray(s, e)));
  return text.length === name.length && _latin(name) === text;
}

// The UTF-16 length of the string `_stringEnd` last checked.
let _units = 0;

const _ESCAPE = new Uint8Array(128);
for (const c of '"\\/bfnrt') _ESCAPE[c.charCodeAt(0)] = 1;

function _isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

// Past the string token at `i`, checking its escapes and that no control char is raw; sets
// `_units`. The bytes are valid UTF-8, so a lead byte tells a char's UTF-16 length.
function _stringEnd(b: Uint8Array, i: number): number {
  if (b[i] !== QUOTE) throw new _Invalid();
  let units = 0;
  const n = b.length;
  for (let j = i + 1; j < n;) {
    const c = b[j];
    if (c === QUOTE) {
      _units = units;
      return j + 1;
    }
    if (c === BACKSLASH) {
      const e = b[j + 1];
      if (e === 0x75) {
        if (!(_isHex(b[j + 2]) && _isHex(b[j + 3]) && _isHex(b[j + 4]) && _isHex(b[j + 5]))) {
          throw new _Invalid();
        }
        j += 6;
      } else if (e < 128 && _ESCAPE[e] === 1) {
        j += 2;
      } else {
        throw new _Invalid();
      }
      units++;
      continue;
    }
    if (c < 0x20) throw new _Invalid();
    // A continuation byte adds nothing; a 4-byte char is a surrogate pair.
    if (c < 0x80 || c >= 0xc0) units += c >= 0xf0 ? 2 : 1;
    j++;
  }
  throw new _Invalid();
}

// Past the string token at `i`, found by its closing quote alone: the first quote after an
// even run of backslashes.
function _stringEndFast(b: Uint8Array, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = b.indexOf(QUOTE, from);
    if (q < 0) throw new _Invalid();
    let k = q - 1;
    while (b[k] === BACKSLASH) k--;
    if (((q - 1 - k) & 1) === 0) return q + 1;
    from = q + 1;
  }
}

function _isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function _literal(b: Uint8Array, i: number, word: string): number {
  for (let k = 0; k < word.length; k++) {
    if (b[i + k] !== word.charCodeAt(k)) throw new _Invalid();
  }
  return i + word.length;
}

// Past the number or literal at `i`.
function _scalarEnd(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === 0x74) return _literal(b, i, "true");
  if (c === 0x66) return _literal(b, i, "false");
  if (c === 0x6e) return _literal(b, i, "null");
  let j = i;
  if (b[j] === 0x2d) j++;
  if (b[j] === 0x30) j++;
  else if (_isDigit(b[j]) && b[j] !== 0x30) { while (_isDigit(b[j])) j++; }
  else throw new _Invalid();
  if (b[j] === 0x2e) {
    j++;
    if (!_isDigit(b[j])) throw new _Invalid();
    while (_isDigit(b[j])) j++;
  }
  if (b[j] === 0x65 || b[j] === 0x45) {
    j++;
    if (b[j] === 0x2b || b[j] === 0x2d) j++;
    if (!_isDigit(b[j])) throw new _Invalid();
    while (_isDigit(b[j])) j++;
  }
  return j;
}

// Past the value at `i`, checked against the grammar without being built. Containers are
// tracked on a stack, not by recursion, so no depth of nesting overflows it.
function _skipValue(b: Uint8Array, i: number): number {
  const stack: number[] = [];
  for (;;) {
    let c = b[i];
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
      const j = _ws(b, i + 1);
      if (b[j] === close) {
        i = j + 1;
      } else {
        stack.push(close);
        i = close === CLOSE_OBJECT ? _key(b, j) : j;
        continue;
      }
    } else if (c === QUOTE) {
      i = _stringEnd(b, i);
    } else {
      i = _scalarEnd(b, i);
    }
    // After a value: close what it ends, or go on past a comma.
    for (;;) {
      if (stack.length === 0) return i;
      i = _ws(b, i);
      c = b[i];
      const top = stack[stack.length - 1];
      if (c === COMMA) {
        i = _ws(b, i + 1);
        if (top === CLOSE_OBJECT) i = _key(b, i);
        break;
      }
      if (c !== top) throw new _Invalid();
      stack.pop();
      i++;
    }
  }
}

// Past the key at `i` and its colon, to its value.
function _key(b: Uint8Array, i: number): number {
  const j = _ws(b, _stringEnd(b, i));
  if (b[j] !== COLON) throw new _Invalid();
  return _ws(b, j + 1);
}
