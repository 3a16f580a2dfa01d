/**
 * A small TOML parser for the subset rtok's `config.toml` uses: comments, `[table]` and
 * `[dotted.table]` headers, and `key = value` lines whose value is an integer, a float, a
 * boolean, a basic `"…"` string or a literal `'…'` string. What it accepts it reads with TOML
 * 1.0's meaning; everything else (arrays, inline tables, multi-line strings, dates, quoted or
 * dotted keys) is rejected with a `SyntaxError` naming the line. It loads no npm package, so the
 * hook path stays free of them.
 *
 * @module
 */

/** A parsed TOML table: nested plain objects whose leaves are strings, numbers and booleans. */
export type TomlTable = { [key: string]: TomlValue };

/** A value in a parsed TOML table. */
export type TomlValue = string | number | boolean | TomlTable;

/**
 * Parses `text` as rtok's TOML subset into nested plain objects. Throws a `SyntaxError` whose
 * message starts `line N: ` and says what was wrong.
 */
export function parseTomlLite(text: string): TomlTable {
  const root: TomlTable = {};
  const defined = new Set<string>();
  let table = root;
  let tableName = "";
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = i < lines.length - 1 && lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
    const scan = new _Scanner(line, i + 1);
    scan.checkControls();
    scan.skipSpace();
    if (scan.atEnd()) continue;
    if (scan.peek() === "[") {
      const keys = _readHeader(scan);
      tableName = keys.join(".");
      if (defined.has(tableName)) scan.fail(`table [${tableName}] is defined twice`);
      defined.add(tableName);
      table = _openTable(root, keys, scan);
      continue;
    }
    const key = _readKey(scan, "a key");
    scan.skipSpace();
    if (scan.peek() === ".") {
      scan.fail(
        `dotted keys are not supported in rtok's config; put "${key}" under a [table] header`,
      );
    }
    if (scan.peek() !== "=") scan.fail(`expected "=" after the key "${key}"`);
    scan.pos++;
    scan.skipSpace();
    const value = _readValue(scan, key);
    scan.expectEnd("the value");
    if (Object.hasOwn(table, key)) {
      scan.fail(
        `the key "${key}" is defined twice in ${tableName ? `[${tableName}]` : "the top level"}`,
      );
    }
    _set(table, key, value);
  }
  return root;
}

const _BARE_KEY = /[A-Za-z0-9_-]/;
const _INTEGER = /^[+-]?(?:0|[1-9](?:_?[0-9])*)$/;
const _FLOAT =
  /^[+-]?(?:0|[1-9](?:_?[0-9])*)(?:\.[0-9](?:_?[0-9])*)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?$/;
const _ESCAPES: Record<string, string> = {
  b: "\b",
  t: "\t",
  n: "\n",
  f: "\f",
  r: "\r",
  '"': '"',
  "\\": "\\",
};

// A cursor over one line of the document; every error it raises names the line.
class _Scanner {
  pos = 0;
  constructor(readonly text: string, readonly line: number) {}

  peek(offset = 0): string {
    return this.text[this.pos + offset] ?? "";
  }

  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  // At the end of the line, or at a comment that runs to it.
  atEnd(): boolean {
    return this.pos >= this.text.length || this.peek() === "#";
  }

  skipSpace(): void {
    while (this.peek() === " " || this.peek() === "\t") this.pos++;
  }

  expectEnd(after: string): void {
    this.skipSpace();
    if (!this.atEnd()) {
      this.fail(`unexpected ${_quote(this.text.slice(this.pos))} after ${after}`);
    }
  }

  // TOML allows no control character but tab anywhere, strings and comments included.
  checkControls(): void {
    for (let i = 0; i < this.text.length; i++) {
      const code = this.text.charCodeAt(i);
      if ((code >= 0x20 || code === 0x09) && code !== 0x7f) continue;
      if (code === 0x0d) this.fail("a carriage return must be followed by a newline");
      const hex = code.toString(16).toUpperCase().padStart(4, "0");
      this.fail(`control character U+${hex} is not allowed`);
    }
  }

  fail(what: string): never {
    throw new SyntaxError(`line ${this.line}: ${what}`);
  }
}

function _quote(s: string): string {
  return JSON.stringify(s.length > 20 ? `${s.slice(0, 20)}…` : s);
}

// Defines `key` as an own property, so `__proto__` is a key like any other.
function _set(table: TomlTable, key: string, value: TomlValue): void {
  Object.defineProperty(table, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function _readKey(scan: _Scanner, what: string): string {
  const c = scan.peek();
  if (c === '"' || c === "'") {
    scan.fail("quoted keys are not supported in rtok's config; use a bare key (A-Z a-z 0-9 _ -)");
  }
  const start = scan.pos;
  while (_BARE_KEY.test(scan.peek())) scan.pos++;
  if (scan.pos === start) {
    const rest = scan.text.slice(start);
    scan.fail(`expected ${what}, got ${rest ? _quote(rest) : "the end of the line"}`);
  }
  return scan.text.slice(start, scan.pos);
}

// `[a]`, `[ a.b ]`, `[a . b]`: the header's keys, the scanner past the `]` and any comment.
function _readHeader(scan: _Scanner): string[] {
  if (scan.startsWith("[[")) {
    scan.fail("arrays of tables ([[…]]) are not supported in rtok's config");
  }
  scan.pos++;
  const keys: string[] = [];
  for (;;) {
    scan.skipSpace();
    keys.push(_readKey(scan, "a table name"));
    scan.skipSpace();
    const c = scan.peek();
    scan.pos++;
    if (c === "]") break;
    if (c !== ".") scan.fail(`expected "." or "]" in the table header [${keys.join(".")}…`);
  }
  scan.expectEnd(`the table header [${keys.join(".")}]`);
  return keys;
}

// The table at `keys` under `root`, creating any that are missing on the way.
function _openTable(root: TomlTable, keys: string[], scan: _Scanner): TomlTable {
  let table = root;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!Object.hasOwn(table, key)) _set(table, key, {});
    const next = table[key];
    if (typeof next !== "object") {
      scan.fail(`[${keys.slice(0, i + 1).join(".")}] is already a value, not a table`);
    }
    table = next;
  }
  return table;
}

function _readValue(scan: _Scanner, key: string): TomlValue {
  if (scan.atEnd()) scan.fail(`missing value for the key "${key}"`);
  const c = scan.peek();
  if (scan.startsWith('"""') || scan.startsWith("'''")) {
    return _unsupported(scan, "multi-line strings");
  }
  if (c === '"') return _readBasicString(scan);
  if (c === "'") return _readLiteralString(scan);
  if (c === "[") return _unsupported(scan, "arrays");
  if (c === "{") return _unsupported(scan, "inline tables");
  const start = scan.pos;
  while (!scan.atEnd() && scan.peek() !== " " && scan.peek() !== "\t") scan.pos++;
  return _readBareValue(scan.text.slice(start, scan.pos), scan);
}

function _unsupported(scan: _Scanner, what: string): never {
  scan.fail(`${what} are not supported in rtok's config`);
}

function _readBareValue(token: string, scan: _Scanner): number | boolean {
  if (token === "true") return true;
  if (token === "false") return false;
  if (/^\d{4}-\d{2}-\d{2}/.test(token) || /^\d{2}:\d{2}/.test(token)) {
    return _unsupported(scan, "dates and times");
  }
  if (/^[+-]?(?:inf|nan)$/.test(token)) return _unsupported(scan, "inf and nan");
  if (/^[+-]?0[xob]/.test(token)) {
    return _unsupported(scan, "hexadecimal, octal and binary integers");
  }
  const digits = token.replaceAll("_", "");
  if (_INTEGER.test(token)) {
    const n = Number(digits);
    if (!Number.isSafeInteger(n)) {
      scan.fail(`the integer ${token} is too large to read exactly (more than 2^53 - 1)`);
    }
    return n === 0 ? 0 : n; // an integer has no negative zero
  }
  if (_FLOAT.test(token) && /[.eE]/.test(token)) {
    const n = Number(digits);
    if (!Number.isFinite(n)) scan.fail(`the float ${token} is out of range`);
    return n;
  }
  return scan.fail(
    `invalid value ${_quote(token)}; expected a number, true, false or a quoted string`,
  );
}

function _readBasicString(scan: _Scanner): string {
  scan.pos++;
  let out = "";
  for (;;) {
    const c = scan.peek();
    if (c === "") scan.fail('unterminated string; expected a closing "');
    scan.pos++;
    if (c === '"') return out;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = scan.peek();
    scan.pos++;
    if (Object.hasOwn(_ESCAPES, e)) {
      out += _ESCAPES[e];
    } else if (e === "u" || e === "U") {
      out += _readUnicodeEscape(scan, e === "u" ? 4 : 8);
    } else {
      scan.fail(`invalid escape ${_quote(`\\${e}`)} in a string`);
    }
  }
}

function _readUnicodeEscape(scan: _Scanner, length: number): string {
  const hex = scan.text.slice(scan.pos, scan.pos + length);
  const escape = `\\${length === 4 ? "u" : "U"}${hex}`;
  if (!new RegExp(`^[0-9A-Fa-f]{${length}}$`).test(hex)) {
    scan.fail(`invalid escape ${_quote(escape)}; expected ${length} hex digits`);
  }
  const code = parseInt(hex, 16);
  if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
    scan.fail(`invalid escape ${_quote(escape)}; not a Unicode scalar value`);
  }
  scan.pos += length;
  return String.fromCodePoint(code);
}

function _readLiteralString(scan: _Scanner): string {
  const end = scan.text.indexOf("'", scan.pos + 1);
  if (end < 0) scan.fail("unterminated string; expected a closing '");
  const out = scan.text.slice(scan.pos + 1, end);
  scan.pos = end + 1;
  return out;
}
