/**
 * The tool-result strings of a model-API request body, found by their exact source spans, and
 * a splicer that replaces those spans and leaves every other byte of the body as it came.
 *
 * The body is never re-serialized: `JSON.stringify` of a parsed body can change number text,
 * escapes, whitespace and duplicate keys, and the upstream must receive what the client sent
 * apart from the compressed results. So the body is parsed once (native, validating) to decide
 * which values qualify, then a scanner walks the source text, descending only along the paths
 * of the qualifying values and skipping everything else without building it, to find where
 * each of those strings starts and ends.
 *
 * Which strings qualify (facts of the wire formats):
 *
 * - `anthropic` (`/v1/messages`, `/v1/messages/count_tokens`): in a `user` message's content
 *   array, a block with `type: "tool_result"` whose `is_error` is not `true`; its `content`
 *   when that is a string, or the `text` of its `{"type": "text"}` blocks when it is an array
 *   (images, documents, search results and tool references are never touched).
 * - `openai-chat` (`/v1/chat/completions`): a message with `role: "tool"`; its `content` when a
 *   string, or the `text` of its `{"type": "text"}` parts.
 * - `openai-responses` (`/v1/responses`): an item of the `input` array with
 *   `type: "function_call_output"`; its `output` when a string, or the `text` of its
 *   `{"type": "input_text"}` parts (the other parts are images and files).
 *
 * Duplicate keys: `JSON.parse` keeps the last occurrence, and so does the scanner, so a span
 * always holds the value the upstream's parser will see.
 *
 * @module
 */

import type { Api } from "./routes.ts";

export type { Api } from "./routes.ts";

/** One string in the body that holds tool-result text the proxy may compress. */
export interface ToolText {
  /** Index in the body string (UTF-16 code units) of the opening quote. */
  readonly start: number;
  /** Index just past the closing quote. */
  readonly end: number;
  /** The decoded string value. */
  readonly text: string;
  /** Where it is, for tests and logs: `messages[3].content[0].content`. */
  readonly path: string;
}

/** A replacement of the JSON string token at `[start, end)` by `text`, encoded as JSON. */
export interface BodyEdit {
  /** Index of the opening quote of the string token to replace. */
  readonly start: number;
  /** Index just past its closing quote. */
  readonly end: number;
  /** The new decoded value. */
  readonly text: string;
  /**
   * True when the caller knows `text` differs from the span's value: the span is then not
   * compared with it (which costs a walk of their common start, long for a head-and-tail cut).
   */
  readonly changed?: boolean;
}

/**
 * The tool-result strings of `body` for `api`, in body order. `null` when `body` is not JSON
 * or not a JSON object; `[]` when it is an object without the expected list (`messages`, or
 * `input` as an array) or without a qualifying string. Never throws.
 */
export function findToolTexts(body: string, api: Api): ToolText[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!_isObject(parsed)) return null;
  const root = _newNode();
  const leaves = _qualifying(parsed, api, root);
  if (leaves === 0) return [];
  const found: _Span[] = [];
  try {
    _scan(body, _skipWs(body, 0), root, found);
  } catch {
    // The body parsed, so the scanner cannot meet malformed JSON; a failure here would be a bug
    // in it, and no span is better than a wrong one.
    return [];
  }
  if (found.length !== leaves) return [];
  found.sort((a, b) => a.start - b.start);
  const out: ToolText[] = new Array(found.length);
  for (let k = 0; k < found.length; k++) {
    const f = found[k];
    out[k] = { start: f.start, end: f.end, text: f.leaf.text, path: f.leaf.path };
  }
  return out;
}

/**
 * `body` with each edit's span replaced by `JSON.stringify(edit.text)`; every byte outside the
 * spans stays as it was. An edit whose span already decodes to its text keeps the original
 * bytes, so a result put back unchanged never alters the body (nor a prompt-cache prefix).
 * Throws a RangeError when an edit lies outside the body or two edits overlap.
 */
export function spliceBody(body: string, edits: readonly BodyEdit[]): string {
  if (edits.length === 0) return body;
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let at = 0;
  for (const e of sorted) {
    if (!(Number.isInteger(e.start) && Number.isInteger(e.end) && e.start <= e.end)) {
      throw new RangeError(
        `Cannot splice the request body: edit [${e.start}, ${e.end}) is not a span; pass the start and end of a ToolText`,
      );
    }
    if (e.start < at || e.end > body.length) {
      throw new RangeError(
        `Cannot splice the request body: edit [${e.start}, ${e.end}) overlaps another edit or lies outside the ${body.length}-char body`,
      );
    }
    parts.push(body.slice(at, e.start), _encodeFor(body, e));
    at = e.end;
  }
  parts.push(body.slice(at));
  return parts.join("");
}

// The JSON text for an edit: the original token when it already holds the text (it may be
// spelled with other escapes than JSON.stringify's), else the canonical encoding.
function _encodeFor(body: string, e: BodyEdit): string {
  const encoded = JSON.stringify(e.text);
  if (e.changed) return encoded;
  const old = body.slice(e.start, e.end);
  if (old === encoded || _holds(old, e.text)) return old;
  return encoded;
}

const _ESCAPED: Record<string, number> = {
  '"': 0x22,
  "\\": 0x5c,
  "/": 0x2f,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
};

// Whether the JSON string token `token` decodes to `text`. Compared in step, so a changed text
// is told apart at its first difference instead of after decoding the whole old token.
function _holds(token: string, text: string): boolean {
  const last = token.length - 1;
  // A token decodes to at most its length less the quotes.
  if (token.charCodeAt(0) !== QUOTE || token.charCodeAt(last) !== QUOTE) return false;
  if (text.length > last - 1) return false;
  let j = 0;
  for (let i = 1; i < last; j++) {
    let c = token.charCodeAt(i);
    if (c === BACKSLASH) {
      const e = token[i + 1];
      if (e === "u") {
        c = parseInt(token.slice(i + 2, i + 6), 16);
        i += 6;
      } else {
        c = _ESCAPED[e] ?? -1;
        i += 2;
      }
    } else {
      i++;
    }
    if (c !== text.charCodeAt(j)) return false;
  }
  return j === text.length;
}

interface _Leaf {
  readonly text: string;
  readonly path: string;
}

// A trie of the paths to the qualifying strings: object keys and array indexes down to a leaf.
interface _Node {
  leaf: _Leaf | null;
  readonly children: Map<string | number, _Node>;
}

interface _Span {
  readonly start: number;
  readonly end: number;
  readonly leaf: _Leaf;
}

function _newNode(): _Node {
  return { leaf: null, children: new Map() };
}

function _isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// Adds the path `keys` (ending at a string whose value is `text`) to the trie.
function _add(root: _Node, keys: readonly (string | number)[], text: string): void {
  let node = root;
  let path = "";
  for (const k of keys) {
    path += typeof k === "number" ? `[${k}]` : path === "" ? k : `.${k}`;
    let child = node.children.get(k);
    if (!child) {
      child = _newNode();
      node.children.set(k, child);
    }
    node = child;
  }
  node.leaf = { text, path };
}

// The qualifying strings of a parsed body, added to the trie; returns how many.
function _qualifying(body: Record<string, unknown>, api: Api, root: _Node): number {
  let n = 0;
  // `field` of `holder` (reached by `keys`): the string itself, or the text of its parts of
  // `partType`.
  const take = (
    holder: Record<string, unknown>,
    keys: (string | number)[],
    field: string,
    partType: string,
  ) => {
    const v = holder[field];
    if (typeof v === "string") {
      _add(root, [...keys, field], v);
      n++;
    } else if (Array.isArray(v)) {
      for (let p = 0; p < v.length; p++) {
        const part = v[p];
        if (_isObject(part) && part.type === partType && typeof part.text === "string") {
          _add(root, [...keys, field, p, "text"], part.text);
          n++;
        }
      }
    }
  };
  if (api === "openai-responses") {
    const input = body.input;
    if (!Array.isArray(input)) return 0;
    for (let i = 0; i < input.length; i++) {
      const item = input[i];
      if (_isObject(item) && item.type === "function_call_output") {
        take(item, ["input", i], "output", "input_text");
      }
    }
    return n;
  }
  const messages = body.messages;
  if (!Array.isArray(messages)) return 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!_isObject(m)) continue;
    if (api === "openai-chat") {
      if (m.role === "tool") take(m, ["messages", i], "content", "text");
      continue;
    }
    // Only a user turn carries tool results; the model's own turns are never touched.
    if (m.role !== "user" || !Array.isArray(m.content)) continue;
    const blocks = m.content;
    for (let j = 0; j < blocks.length; j++) {
      const b = blocks[j];
      if (_isObject(b) && b.type === "tool_result" && b.is_error !== true) {
        take(b, ["messages", i, "content", j], "content", "text");
      }
    }
  }
  return n;
}

// ---- the scanner: the body is known to be valid JSON, so it checks nothing it need not ----

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

function _isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function _skipWs(s: string, i: number): number {
  while (_isWs(s.charCodeAt(i))) i++;
  return i;
}

// From the opening quote at `i` to just past the closing one. A quote closes the string when
// an even run of backslashes precedes it.
function _skipString(s: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = s.indexOf('"', from);
    if (q < 0) throw new SyntaxError(`Unterminated string at ${i}`);
    let k = q - 1;
    while (s.charCodeAt(k) === BACKSLASH) k--;
    if (((q - 1 - k) & 1) === 0) return q + 1;
    from = q + 1;
  }
}

// Past the value starting at `i`, without building it.
function _skipValue(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === QUOTE) return _skipString(s, i);
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      const d = s.charCodeAt(j);
      if (d === QUOTE) {
        j = _skipString(s, j) - 1;
      } else if (d === OPEN_OBJECT || d === OPEN_ARRAY) {
        depth++;
      } else if (d === CLOSE_OBJECT || d === CLOSE_ARRAY) {
        if (--depth === 0) return j + 1;
      }
    }
    throw new SyntaxError(`Unterminated container at ${i}`);
  }
  // A number, true, false or null: it runs to the next delimiter.
  let j = i;
  for (; j < s.length; j++) {
    const d = s.charCodeAt(j);
    if (d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || _isWs(d)) break;
  }
  return j;
}

// Scans the value at `i` for the strings under `node`, pushing their spans onto `out`; returns
// the index past the value.
function _scan(s: string, i: number, node: _Node, out: _Span[]): number {
  const c = s.charCodeAt(i);
  if (node.leaf) {
    if (c !== QUOTE) return _skipValue(s, i);
    const end = _skipString(s, i);
    out.push({ start: i, end, leaf: node.leaf });
    return end;
  }
  if (c === OPEN_ARRAY) {
    let j = _skipWs(s, i + 1);
    if (s.charCodeAt(j) === CLOSE_ARRAY) return j + 1;
    for (let index = 0;; index++) {
      const child = node.children.get(index);
      j = child ? _scan(s, j, child, out) : _skipValue(s, j);
      j = _skipWs(s, j);
      if (s.charCodeAt(j) === CLOSE_ARRAY) return j + 1;
      j = _skipWs(s, j + 1); // past the comma
    }
  }
  if (c === OPEN_OBJECT) {
    // The last occurrence of a key wins, as in JSON.parse: spans found under an earlier one are
    // dropped when the key comes again.
    let byKey: Map<string, _Span[]> | null = null;
    let j = _skipWs(s, i + 1);
    if (s.charCodeAt(j) === CLOSE_OBJECT) return j + 1;
    for (;;) {
      const keyEnd = _skipString(s, j);
      const raw = s.slice(j + 1, keyEnd - 1);
      const key: string = raw.includes("\\") ? JSON.parse(s.slice(j, keyEnd)) : raw;
      j = _skipWs(s, _skipWs(s, keyEnd) + 1); // past the colon
      const child = node.children.get(key);
      if (child) {
        const sub: _Span[] = [];
        j = _scan(s, j, child, sub);
        (byKey ??= new Map()).set(key, sub);
      } else {
        j = _skipValue(s, j);
      }
      j = _skipWs(s, j);
      if (s.charCodeAt(j) === CLOSE_OBJECT) {
        if (byKey) { for (const sub of byKey.values()) for (const f of sub) out.push(f); }
        return j + 1;
      }
      j = _skipWs(s, j + 1); // past the comma
    }
  }
  return _skipValue(s, i);
}
