/**
 * Where each key and array element of a TOML document sits: the line an error names. A TOML
 * parser returns values without positions, so after it has accepted a document this scanner
 * walks the same text once more and records the line of every key path (`filter[0].steps[2]`,
 * `filter[0].steps[2].replace`, `filter[1].test[0].input`).
 *
 * It assumes a document the parser accepted; on anything else it stops early and knows fewer
 * lines, never throws.
 *
 * @module
 */

/** Key path → the 1-based line where it is set (for an array element: where it starts). */
export type Locations = ReadonlyMap<string, number>;

/** Every key path of `text` with its line. */
export function locate(text: string): Locations {
  const s = new _Scan(text);
  try {
    s.document();
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  return s.found;
}

/** The line of `path`, else of the nearest enclosing path that has one; `null` when none. */
export function lineOf(where: Locations, path: string): number | null {
  for (let p = path; p !== "";) {
    const line = where.get(p);
    if (line !== undefined) return line;
    const cut = Math.max(p.lastIndexOf("."), p.lastIndexOf("["));
    p = cut < 0 ? "" : p.slice(0, cut);
  }
  return null;
}

class _Scan {
  readonly found = new Map<string, number>();
  // How many elements each array of tables (`[[a.b]]`) has so far, by resolved path.
  private readonly arrays = new Map<string, number>();
  private i = 0;
  private line = 1;

  constructor(private readonly t: string) {}

  document(): void {
    let table = "";
    for (;;) {
      this.blank(true);
      if (this.i >= this.t.length) return;
      if (this.t[this.i] === "[") {
        table = this.header();
      } else {
        this.keyValue(table);
      }
    }
  }

  private header(): string {
    const double = this.t.startsWith("[[", this.i);
    this.i += double ? 2 : 1;
    const keys = this.keys();
    this.i += double ? 2 : 1;
    let path = "";
    keys.forEach((k, n) => {
      path = path ? `${path}.${k}` : k;
      if (double && n === keys.length - 1) {
        const count = this.arrays.get(path) ?? 0;
        this.arrays.set(path, count + 1);
        path = `${path}[${count}]`;
      } else if (this.arrays.has(path)) {
        path = `${path}[${this.arrays.get(path)! - 1}]`;
      }
      if (!this.found.has(path)) this.found.set(path, this.line);
    });
    return path;
  }

  private keyValue(table: string): void {
    const line = this.line;
    let path = table;
    for (const k of this.keys()) {
      path = path ? `${path}.${k}` : k;
      if (!this.found.has(path)) this.found.set(path, line);
    }
    this.blank(false);
    this.expect("=");
    this.blank(false);
    this.value(path);
  }

  private keys(): string[] {
    const out: string[] = [];
    for (;;) {
      this.blank(false);
      const c = this.t[this.i];
      if (c === '"' || c === "'") {
        const start = this.i;
        this.string();
        const quoted = this.t.slice(start, this.i);
        // A basic string's escapes are JSON's, near enough for naming a key in an error.
        out.push(c === '"' ? JSON.parse(quoted) : quoted.slice(1, -1));
      } else {
        const m = /^[A-Za-z0-9_-]+/.exec(this.t.slice(this.i, this.i + 256));
        if (!m) throw new RangeError("not a key");
        out.push(m[0]);
        this.i += m[0].length;
      }
      this.blank(false);
      if (this.t[this.i] !== ".") return out;
      this.i++;
    }
  }

  private value(path: string): void {
    const c = this.t[this.i];
    if (c === '"' || c === "'") return this.string();
    if (c === "[") return this.array(path);
    if (c === "{") return this.inlineTable(path);
    // A number, boolean or date: up to the next delimiter.
    while (this.i < this.t.length && !",]}\n#".includes(this.t[this.i])) this.i++;
  }

  private array(path: string): void {
    this.i++;
    for (let n = 0;; n++) {
      this.blank(true);
      if (this.t[this.i] === "]") break;
      const element = `${path}[${n}]`;
      this.found.set(element, this.line);
      this.value(element);
      this.blank(true);
      if (this.t[this.i] === ",") this.i++;
      else break;
    }
    this.blank(true);
    this.expect("]");
  }

  private inlineTable(path: string): void {
    this.i++;
    for (;;) {
      this.blank(true);
      if (this.t[this.i] === "}") break;
      this.keyValue(path);
      this.blank(true);
      if (this.t[this.i] === ",") this.i++;
      else break;
    }
    this.blank(true);
    this.expect("}");
  }

  private string(): void {
    const t = this.t;
    const q = t[this.i];
    const multi = t.startsWith(q.repeat(3), this.i);
    this.i += multi ? 3 : 1;
    for (; this.i < t.length; this.i++) {
      const c = t[this.i];
      if (c === "\n") this.line++;
      else if (c === "\\" && q === '"') {
        if (t[this.i + 1] === "\n") this.line++;
        this.i++;
      } else if (c === q && (!multi || t.startsWith(q.repeat(3), this.i))) {
        this.i += multi ? 3 : 1;
        // A multi-line string may end with up to two more quotes that belong to its value.
        while (multi && t[this.i] === q) this.i++;
        return;
      }
    }
    throw new RangeError("unterminated string");
  }

  // Skips spaces and comments, and newlines too when `newlines`.
  private blank(newlines: boolean): void {
    const t = this.t;
    while (this.i < t.length) {
      const c = t[this.i];
      if (c === " " || c === "\t" || c === "\r") this.i++;
      else if (c === "#") { while (this.i < t.length && t[this.i] !== "\n") this.i++; }
      else if (c === "\n" && newlines) {
        this.line++;
        this.i++;
      } else return;
    }
  }

  private expect(c: string): void {
    if (this.t[this.i] !== c) throw new RangeError(`expected ${c}`);
    this.i++;
  }
}
