/**
 * JSON read by its structure: a whole JSON file or tool result rendered in the shortest of
 * three lossless forms, and cut only when even the shortest is huge.
 *
 * The forms, measured on every input (the shortest wins; ties go to the earlier one):
 *
 * - `tabular`, rtok's own: one `key: value` line per member, indented two spaces per level;
 *   an array of scalars on one line as `key[N]: a,b,c`; an array of objects whose keys mostly
 *   agree as a table, every key once in the header and one row per object:
 *   `key[N]{id,name,user.login}:` then `  7,Ada,ada`. A nested object every row holds is
 *   folded into dotted columns (`user.login`); a key a row lacks is an empty cell; a nested
 *   value that does not fold is its compact JSON. Other arrays list their items as `- item`.
 * - `toon`: the same data through `@toon-format/toon`, which wins on objects keyed by name
 *   (its keyed tables) and loses on tables whose rows differ in a key.
 * - `compact`: the document's own tokens without whitespace (`compactJson`).
 *
 * Every number keeps the text it has in the source (`1.0`, `-0`, `1E+2`, digits past 2^53),
 * since `JSON.parse` would lose it; a string is written bare when it cannot be read as anything
 * else (not empty, no edge whitespace, no control char, not a number, `true`, `false` or
 * `null`, not opening with a quote, a bracket or `…`, no comma in a cell), else as its source
 * lexeme with its escapes as written. Keys are bare when they are plain words.
 *
 * The lossy step, for documents whose shortest lossless form is over
 * {@linkcode JSON_LOSSY_CHARS} chars: an array of more than {@linkcode ARRAY_CUT_MIN} items
 * of one kind keeps its first {@linkcode ARRAY_HEAD} and last {@linkcode ARRAY_TAIL} in the
 * tabular form, with one `… N items cut; id: …` line between them. Record ids survive: the
 * cut items' id column is listed whole (runs of consecutive integers as `a..b`), the id column
 * being the first present key named `id`, `_id`, `uuid` or `guid`; else the first ending in
 * `_id`, `Id`, `ID` or `_uuid`; else the first of `key`, `name`, `slug`, `sha`, `specifier`,
 * `path`, `file`, `url`. An array whose id column some cut item lacks (or holds as an object)
 * is not cut at all, nor is an array of scalars under a key naming ids (`ids`, `*_ids`,
 * `*Ids`). A key only cut rows have is named on the cut line (`they also have keys …`). The
 * pointer phrase is `N items of K arrays`.
 *
 * Deterministic: no clock, locale or randomness is read.
 *
 * @module
 */

import { encode, rawString } from "@toon-format/toon";
import type { Filtered } from "../core/filter.ts";
import { estimate } from "../core/tokens.ts";
import {
  ARRAY_CUT_MIN,
  ARRAY_HEAD,
  ARRAY_TAIL,
  compactJson,
  JSON_LOSSY_CHARS,
} from "./json_text.ts";

/** The lossless forms {@linkcode chooseJsonForm} measures, in tie-break order. */
export type JsonForm = "tabular" | "toon" | "compact";

/** What {@linkcode chooseJsonForm} picked, and the size of every form it measured. */
export interface JsonChoice extends Filtered {
  /** The form of `text`. A cut text is always `tabular`. */
  readonly form: JsonForm;
  /**
   * Chars of each lossless form measured; `toon` is absent when the data cannot be TOON
   * (a repeated key) or when the other two are so long that the cut form wins regardless.
   */
  readonly sizes: Readonly<Partial<Record<JsonForm, number>>>;
}

/** Tables wider than this many columns are listed item by item instead. */
export const TABLE_MAX_COLS = 64;
/** A nested object with more distinct keys than this stays one JSON cell, not columns. */
export const FOLD_MAX_KEYS = 16;

type _Obj = { readonly k: "o"; readonly m: _Member[]; readonly s: number; readonly e: number };
type _Arr = { readonly k: "a"; readonly items: _Node[]; readonly s: number; readonly e: number };
type _Str = { readonly k: "s"; readonly raw: string; readonly v: string };
type _Lit = { readonly k: "n" | "l"; readonly raw: string };
type _Node = _Obj | _Arr | _Str | _Lit;
type _Scalar = _Str | _Lit;
// Decoded key, its source lexeme, its value.
type _Member = readonly [string, string, _Node];

const _isWs = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9;

// A tree of a valid JSON text that keeps every scalar's source lexeme and every container's
// span (the spans give inline cells their compact JSON without re-serialising).
class _Parser {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    while (this.i < this.s.length && _isWs(this.s.charCodeAt(this.i))) this.i++;
  }

  string(): _Str {
    const s = this.s;
    const start = this.i;
    let j = start + 1;
    let escaped = false;
    while (true) {
      const c = s.charCodeAt(j);
      if (c === 92) {
        escaped = true;
        j += 2;
      } else if (c === 34) break;
      else j++;
    }
    this.i = j + 1;
    const raw = s.slice(start, j + 1);
    return { k: "s", raw, v: escaped ? JSON.parse(raw) : raw.slice(1, -1) };
  }

  value(): _Node {
    const s = this.s;
    this.ws();
    const c = s[this.i];
    if (c === '"') return this.string();
    if (c === "{") {
      const start = this.i++;
      const m: _Member[] = [];
      this.ws();
      if (s[this.i] === "}") return { k: "o", m, s: start, e: ++this.i };
      while (true) {
        this.ws();
        const key = this.string();
        this.ws();
        this.i++; // the colon
        m.push([key.v, key.raw, this.value()]);
        this.ws();
        if (s[this.i++] === "}") return { k: "o", m, s: start, e: this.i };
      }
    }
    if (c === "[") {
      const start = this.i++;
      const items: _Node[] = [];
      this.ws();
      if (s[this.i] === "]") return { k: "a", items, s: start, e: ++this.i };
      while (true) {
        items.push(this.value());
        this.ws();
        if (s[this.i++] === "]") return { k: "a", items, s: start, e: this.i };
      }
    }
    const start = this.i;
    while (this.i < s.length && !",}] \n\r\t".includes(s[this.i])) this.i++;
    const raw = s.slice(start, this.i);
    return { k: c === "t" || c === "f" || c === "n" ? "l" : "n", raw };
  }
}

// Anything a reader could take for a number, so a string holding it must be quoted.
const _NUMERIC = /^[-+]?(\d[\d_]*\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
// deno-lint-ignore no-control-regex
const _UNSAFE = /[\x00-\x1f\x7f\u2028\u2029]/;
const _KEY = /^[\w$@][\w$@.\/-]*$/;
const _HEADER_KEY = /^[\w$@][\w$@\/-]*$/;
const _RANGE = /^-?\d+\.\.-?\d+$/;
const _LOOKS_KEYED = /^[\w$@][\w$@.\/-]*[:[]/;

// Where a scalar is written: after `key: `, between commas, or after a list item's `- `.
type _Mode = "value" | "cell" | "item";

function _bare(v: string, mode: _Mode): boolean {
  if (v === "" || v.trim() !== v || _UNSAFE.test(v)) return false;
  const c = v[0];
  if (c === '"' || c === "[" || c === "{" || c === "…") return false;
  if (v === "true" || v === "false" || v === "null" || _NUMERIC.test(v)) return false;
  if (mode === "cell") return !v.includes(",") && !_RANGE.test(v);
  // An item that opens like `key:` or `key[` would read as an object or an array.
  return mode === "value" || !_LOOKS_KEYED.test(v);
}

const _isScalar = (n: _Node): n is _Scalar => n.k !== "o" && n.k !== "a";

function _scalar(n: _Scalar, mode: _Mode): string {
  if (n.k !== "s") return n.raw;
  return _bare(n.v, mode) ? n.v : n.raw;
}

// `7,000`: grouped by hand, since a locale could differ between machines.
function _count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function _plural(n: number, noun: string): string {
  return `${_count(n)} ${n === 1 ? noun : noun + "s"}`;
}

interface _Ctx {
  readonly src: string;
  readonly cutting: boolean;
  items: number;
  arrays: number;
}

// A container as one cell or value: its own tokens without whitespace.
function _inline(n: _Node, ctx: _Ctx, mode: _Mode): string {
  if (_isScalar(n)) return _scalar(n, mode);
  return compactJson(ctx.src.slice(n.s, n.e));
}

function _keyLabel(key: string, raw: string, header: boolean): string {
  return (header ? _HEADER_KEY : _KEY).test(key) ? key : raw;
}

interface _Col {
  readonly path: readonly string[];
  readonly label: string;
}

// The value at `path` in `row`, or undefined where a key along it is absent.
function _at(row: _Obj, path: readonly string[], from = 0): _Node | undefined {
  let node: _Node = row;
  for (let i = from; i < path.length; i++) {
    if (node.k !== "o") return undefined;
    const key = path[i];
    const hit: _Member | undefined = node.m.find((m) => m[0] === key);
    if (!hit) return undefined;
    node = hit[2];
  }
  return node;
}

function _hasDuplicateKeys(o: _Obj): boolean {
  return new Set(o.m.map((m) => m[0])).size !== o.m.length;
}

// The columns of `rows` (labels prefixed by `prefix`), folding a key into dotted columns when
// every row holding it holds a non-empty object whose keys mostly agree; `null` when the rows
// are no table (a duplicate key, too wide, or too many absent cells).
function _columns(rows: readonly _Obj[], prefix: string, path: readonly string[]): _Col[] | null {
  if (rows.some(_hasDuplicateKeys)) return null;
  const keys = new Map<string, string>();
  for (const r of rows) for (const [k, raw] of r.m) if (!keys.has(k)) keys.set(k, raw);
  const cols: _Col[] = [];
  for (const [key, raw] of keys) {
    const label = prefix + _keyLabel(key, raw, true);
    const values = rows.map((r) => r.m.find((m) => m[0] === key)?.[2]).filter((v) => v);
    const objects = values.filter((v): v is _Obj => v!.k === "o" && v!.m.length > 0);
    if (objects.length === values.length) {
      const sub = _foldable(objects) ? _columns(objects, label + ".", [...path, key]) : null;
      if (sub) {
        cols.push(...sub);
        continue;
      }
    }
    cols.push({ path: [...path, key], label });
  }
  if (cols.length > TABLE_MAX_COLS) return null;
  return _dense(rows, cols, path.length) ? cols : null;
}

function _foldable(objects: readonly _Obj[]): boolean {
  const keys = new Set<string>();
  for (const o of objects) for (const [k] of o.m) keys.add(k);
  return keys.size <= FOLD_MAX_KEYS;
}

// At most a third of the cells absent: a sparser array reads better item by item.
function _dense(rows: readonly _Obj[], cols: readonly _Col[], depth: number): boolean {
  let absent = 0;
  for (const r of rows) {
    for (const c of cols) if (_at(r, c.path, depth) === undefined) absent++;
  }
  return absent * 3 <= rows.length * cols.length;
}

function _table(a: _Arr): _Col[] | null {
  if (a.items.length < 2) return null;
  if (!a.items.every((n) => n.k === "o" && n.m.length > 0)) return null;
  return _columns(a.items as _Obj[], "", []);
}

// Keys that name a record when it has no id: a path or a URL is the identifier an agent uses.
const _NAMING_KEYS = new Set(["key", "name", "slug", "sha", "specifier", "path", "file", "url"]);

const _ID_RANKS: readonly ((k: string) => boolean)[] = [
  (k) => k === "id" || k === "_id" || k === "uuid" || k === "guid",
  (k) => /(_id|Id|ID|_uuid)$/.test(k),
  (k) => _NAMING_KEYS.has(k),
];

// The id key of objects `items` (first present key of the best rank), or undefined.
function _idKey(items: readonly _Node[]): string | undefined {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const n of items) {
    if (n.k !== "o") continue;
    for (const [k] of n.m) if (!seen.has(k)) seen.add(k), keys.push(k);
  }
  for (const rank of _ID_RANKS) {
    const hit = keys.find(rank);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

// The id cells of `cut`, runs of three or more consecutive integers as `a..b`; `null` when an
// item lacks the key or holds a container there (its id could not be listed).
function _idList(cut: readonly _Node[], key: string): string | null {
  const cells: string[] = [];
  for (const n of cut) {
    const v = n.k === "o" ? n.m.find((m) => m[0] === key)?.[2] : undefined;
    if (!v || !_isScalar(v) || v.k === "l") return null;
    cells.push(_scalar(v, "cell"));
  }
  const out: string[] = [];
  let i = 0;
  while (i < cells.length) {
    let j = i;
    if (/^-?\d{1,15}$/.test(cells[i])) {
      while (
        j + 1 < cells.length && /^-?\d{1,15}$/.test(cells[j + 1]) &&
        Number(cells[j + 1]) === Number(cells[j]) + 1 && !/^-?0\d/.test(cells[j + 1])
      ) j++;
    }
    if (j - i >= 2) out.push(`${cells[i]}..${cells[j]}`);
    else for (let k = i; k <= j; k++) out.push(cells[k]);
    i = j + 1;
  }
  return out.join(",");
}

const _IDS_KEY = /^(ids|.*_ids|.*Ids|.*IDs)$/;

// How an array of `n` items is cut: `[head, tail]` item counts, or null to keep it whole.
function _cutPlan(a: _Arr, ctx: _Ctx, key: string | null): [number, number] | null {
  const n = a.items.length;
  if (!ctx.cutting || n <= ARRAY_CUT_MIN) return null;
  const kinds = new Set(a.items.map((i) => (_isScalar(i) ? "scalar" : i.k)));
  if (kinds.size !== 1) return null;
  if (kinds.has("scalar") && key !== null && _IDS_KEY.test(key)) return null;
  return [ARRAY_HEAD, ARRAY_TAIL];
}

// The line between the kept head and tail of a cut array; `null` when its ids cannot be kept.
function _cutLine(a: _Arr, plan: [number, number], extra: readonly string[]): string | null {
  const cut = a.items.slice(plan[0], a.items.length - plan[1]);
  const parts = [`… ${_plural(cut.length, "item")} cut`];
  if (extra.length) parts[0] += ` (they also have keys ${extra.join(", ")})`;
  const key = _idKey(a.items);
  if (key !== undefined) {
    const ids = _idList(cut, key);
    if (ids === null) return null;
    parts.push(`${_keyLabel(key, JSON.stringify(key), false)}: ${ids}`);
  }
  return parts.join("; ");
}

function _tally(ctx: _Ctx, a: _Arr, plan: [number, number]): void {
  ctx.items += a.items.length - plan[0] - plan[1];
  ctx.arrays++;
}

function _members(out: string[], ind: string, members: readonly _Member[], ctx: _Ctx): void {
  for (const [key, raw, v] of members) {
    const label = _keyLabel(key, raw, false);
    if (v.k === "o" && v.m.length) {
      out.push(`${ind}${label}:`);
      _members(out, ind + "  ", v.m, ctx);
    } else if (v.k === "a" && v.items.length) {
      _array(out, ind, label, v, ctx, key);
    } else out.push(`${ind}${label}: ${_inline(v, ctx, "value")}`);
  }
}

// One list item at `ind`: its first line opens with `- `, the rest sit under its content.
function _item(out: string[], ind: string, v: _Node, ctx: _Ctx): void {
  const content = ind + "  ";
  const first = out.length;
  if (v.k === "o" && v.m.length) _members(out, content, v.m, ctx);
  else if (v.k === "a" && v.items.length) _array(out, content, "", v, ctx, null);
  else out.push(content + _inline(v, ctx, "item"));
  out[first] = ind + "- " + out[first].slice(content.length);
}

function _array(
  out: string[],
  ind: string,
  label: string,
  a: _Arr,
  ctx: _Ctx,
  key: string | null,
): void {
  const n = a.items.length;
  const head = `${ind}${label}[${n}]`;
  let plan = _cutPlan(a, ctx, key);
  if (a.items.every(_isScalar)) {
    const cells = a.items.map((i) => _scalar(i as _Scalar, "cell"));
    if (plan) {
      _tally(ctx, a, plan);
      const dropped = n - plan[0] - plan[1];
      cells.splice(plan[0], dropped, `… ${_count(dropped)} cut …`);
    }
    out.push(`${head}: ${cells.join(",")}`);
    return;
  }
  const inner = ind + "  ";
  const cols = _table(a);
  if (cols) {
    let shown = cols;
    let extra: string[] = [];
    let line: string | null = null;
    if (plan) {
      const kept = [...a.items.slice(0, plan[0]), ...a.items.slice(n - plan[1])] as _Obj[];
      shown = cols.filter((c) => kept.some((r) => _at(r, c.path) !== undefined));
      extra = cols.filter((c) => !shown.includes(c)).map((c) => c.label);
      line = _cutLine(a, plan, extra);
      if (line === null) plan = null;
    }
    out.push(`${head}{${shown.map((c) => c.label).join(",")}}:`);
    const row = (r: _Obj) => {
      const cells = shown.map((c) => {
        const v = _at(r, c.path);
        return v === undefined ? "" : _inline(v, ctx, "cell");
      });
      out.push(inner + cells.join(","));
    };
    if (plan) {
      _tally(ctx, a, plan);
      a.items.slice(0, plan[0]).forEach((r) => row(r as _Obj));
      out.push(inner + line);
      a.items.slice(n - plan[1]).forEach((r) => row(r as _Obj));
    } else a.items.forEach((r) => row(r as _Obj));
    return;
  }
  const line = plan ? _cutLine(a, plan, []) : null;
  if (line === null) plan = null;
  out.push(`${head}:`);
  if (plan) {
    _tally(ctx, a, plan);
    for (const v of a.items.slice(0, plan[0])) _item(out, inner, v, ctx);
    out.push(inner + line);
    for (const v of a.items.slice(n - plan[1])) _item(out, inner, v, ctx);
  } else for (const v of a.items) _item(out, inner, v, ctx);
}

function _tabular(root: _Obj | _Arr, ctx: _Ctx): string {
  const out: string[] = [];
  if (root.k === "o") _members(out, "", root.m, ctx);
  else _array(out, "", "", root, ctx, null);
  return out.join("\n");
}

class _NotToon extends Error {}

// The tree as plain data for the TOON encoder, numbers as their source lexemes.
function _toData(n: _Node): unknown {
  switch (n.k) {
    case "s":
      return n.v;
    case "n":
      return rawString(n.raw);
    case "l":
      return n.raw === "null" ? null : n.raw === "true";
    case "a":
      return n.items.map(_toData);
    case "o": {
      const o: Record<string, unknown> = {};
      for (const [k, , v] of n.m) {
        // A repeated key or `__proto__` cannot be a plain object's own key: no TOON then.
        if (k === "__proto__" || Object.hasOwn(o, k)) throw new _NotToon();
        o[k] = _toData(v);
      }
      return o;
    }
  }
}

function _toon(root: _Node): string | null {
  try {
    return encode(_toData(root));
  } catch {
    // Data TOON cannot hold (or an encoder failure) leaves the other forms to choose from.
    return null;
  }
}

function _parse(text: string): _Obj | _Arr | null {
  const start = text.search(/\S/);
  if (start < 0 || (text[start] !== "{" && text[start] !== "[")) return null;
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  const root = new _Parser(text).value();
  return root.k === "o" || root.k === "a" ? root : null;
}

/**
 * `text`, a JSON object or array, in the tabular form whole (nothing cut, whatever its size);
 * `null` when it is not a JSON object or array, or nests too deeply to walk.
 */
export function jsonTabular(text: string): string | null {
  try {
    const root = _parse(text);
    return root && _tabular(root, { src: text, cutting: false, items: 0, arrays: 0 });
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
}

/**
 * `text`, a JSON object or array, in the shortest lossless form (see the module doc), or cut
 * when even that is over {@linkcode JSON_LOSSY_CHARS} chars; `null` when `text` is not a JSON
 * object or array, nests too deeply to walk, or no form is strictly smaller than it (in chars
 * and estimated tokens).
 */
export function chooseJsonForm(text: string): JsonChoice | null {
  let choice: JsonChoice;
  try {
    const root = _parse(text);
    if (!root) return null;
    const ctx: _Ctx = { src: text, cutting: false, items: 0, arrays: 0 };
    const tabular = _tabular(root, ctx);
    const compact = compactJson(text);
    // TOON is a lossless candidate only; when both other forms are over four times the lossy
    // threshold the cut form wins whatever TOON gives, so its encoding is not worth its time.
    const toon = Math.min(tabular.length, compact.length) > 4 * JSON_LOSSY_CHARS
      ? null
      : _toon(root);
    const sizes: Partial<Record<JsonForm, number>> = { tabular: tabular.length };
    if (toon !== null) sizes.toon = toon.length;
    sizes.compact = compact.length;
    const forms: [JsonForm, string][] = [["tabular", tabular]];
    if (toon !== null) forms.push(["toon", toon]);
    forms.push(["compact", compact]);
    const [form, best] = forms.reduce((a, b) => (b[1].length < a[1].length ? b : a));
    choice = { form, text: best, cut: [], sizes };
    if (best.length > JSON_LOSSY_CHARS) {
      const lossy: _Ctx = { src: text, cutting: true, items: 0, arrays: 0 };
      const cut = _tabular(root, lossy);
      if (lossy.items > 0 && cut.length < best.length) {
        const phrase = `${_count(lossy.items)} ${lossy.items === 1 ? "item" : "items"} of ${
          _plural(lossy.arrays, "array")
        }`;
        choice = { form: "tabular", text: cut, cut: [phrase], sizes };
      }
    }
  } catch (e) {
    // A document nested deeper than the call stack is left whole rather than half-walked.
    if (e instanceof RangeError) return null;
    throw e;
  }
  const smaller = choice.text.length < text.length &&
    estimate(choice.text, "json") < estimate(text, "json");
  return smaller ? choice : null;
}

/** `text`, a JSON object or array, compressed by its structure; see {@linkcode chooseJsonForm}. */
export function compressJson(text: string): Filtered | null {
  const choice = chooseJsonForm(text);
  return choice && { text: choice.text, cut: choice.cut };
}
