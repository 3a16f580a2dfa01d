import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { type Definition, extractSymbols, type FileSymbols } from "./extract.ts";

// Each source is its lines; the expected definitions were counted by hand from these lines.
const TS = [
  /* 1 */ 'import { readFileSync } from "node:fs";',
  /* 2 */ "",
  /* 3 */ "export const LIMIT = 10;",
  /* 4 */ "let counter = 0, total = 1;",
  /* 5 */ "",
  /* 6 */ "/** A shape. */",
  /* 7 */ "export interface Shape {",
  /* 8 */ "  area(): number;",
  /* 9 */ "}",
  /* 10 */ "",
  /* 11 */ "export type Id = string | number;",
  /* 12 */ "",
  /* 13 */ "enum Color {",
  /* 14 */ "  Red,",
  /* 15 */ "  Blue,",
  /* 16 */ "}",
  /* 17 */ "",
  /* 18 */ "export class Circle implements Shape {",
  /* 19 */ "  constructor(private r: number) {}",
  /* 20 */ "",
  /* 21 */ "  area(): number {",
  /* 22 */ "    return Math.PI * this.r * this.r * LIMIT;",
  /* 23 */ "  }",
  /* 24 */ "}",
  /* 25 */ "",
  /* 26 */ "export function load(path: string): Shape[] {",
  /* 27 */ "  const text = readFileSync(path, 'utf8');",
  /* 28 */ "  counter += text.length;",
  /* 29 */ "  return [new Circle(counter)];",
  /* 30 */ "}",
  /* 31 */ "",
  /* 32 */ "export const total2 = (s: Shape): number => s.area() + total;",
  /* 33 */ "",
  /* 34 */ "namespace Geo {",
  /* 35 */ "  export function near(a: Shape, b: Shape): boolean {",
  /* 36 */ "    return total2(a) === total2(b);",
  /* 37 */ "  }",
  /* 38 */ "}",
].join("\n") + "\n";

const TS_DEFS: readonly Definition[] = [
  { name: "LIMIT", kind: "const", start: 3, end: 3, scope: "" },
  { name: "counter", kind: "variable", start: 4, end: 4, scope: "" },
  { name: "total", kind: "variable", start: 4, end: 4, scope: "" },
  { name: "Shape", kind: "interface", start: 7, end: 9, scope: "" },
  { name: "area", kind: "method", start: 8, end: 8, scope: "Shape" },
  { name: "Id", kind: "type", start: 11, end: 11, scope: "" },
  { name: "Color", kind: "enum", start: 13, end: 16, scope: "" },
  { name: "Circle", kind: "class", start: 18, end: 24, scope: "" },
  { name: "constructor", kind: "constructor", start: 19, end: 19, scope: "Circle" },
  { name: "area", kind: "method", start: 21, end: 23, scope: "Circle" },
  { name: "load", kind: "function", start: 26, end: 30, scope: "" },
  { name: "total2", kind: "function", start: 32, end: 32, scope: "" },
  { name: "Geo", kind: "namespace", start: 34, end: 38, scope: "" },
  { name: "near", kind: "function", start: 35, end: 37, scope: "Geo" },
];

const PY = [
  /* 1 */ "import os",
  /* 2 */ "",
  /* 3 */ "MAX_DEPTH = 3",
  /* 4 */ "name: str = 'walker'",
  /* 5 */ "",
  /* 6 */ "",
  /* 7 */ "class Walker:",
  /* 8 */ '    """Walks a tree."""',
  /* 9 */ "",
  /* 10 */ "    def __init__(self, root):",
  /* 11 */ "        self.root = root",
  /* 12 */ "",
  /* 13 */ "    @property",
  /* 14 */ "    def depth(self):",
  /* 15 */ "        return MAX_DEPTH",
  /* 16 */ "",
  /* 17 */ "    async def walk(self):",
  /* 18 */ "        for entry in os.listdir(self.root):",
  /* 19 */ "            yield entry",
  /* 20 */ "",
  /* 21 */ "",
  /* 22 */ "def helper(w):",
  /* 23 */ "    def inner():",
  /* 24 */ "        return w.depth",
  /* 25 */ "    return Walker(inner())",
].join("\n") + "\n";

const PY_DEFS: readonly Definition[] = [
  { name: "MAX_DEPTH", kind: "variable", start: 3, end: 3, scope: "" },
  { name: "name", kind: "variable", start: 4, end: 4, scope: "" },
  { name: "Walker", kind: "class", start: 7, end: 19, scope: "" },
  { name: "__init__", kind: "method", start: 10, end: 11, scope: "Walker" },
  { name: "depth", kind: "method", start: 13, end: 15, scope: "Walker" },
  { name: "walk", kind: "method", start: 17, end: 19, scope: "Walker" },
  { name: "helper", kind: "function", start: 22, end: 25, scope: "" },
  { name: "inner", kind: "function", start: 23, end: 24, scope: "" },
];

const GO = [
  /* 1 */ "package store",
  /* 2 */ "",
  /* 3 */ 'import "fmt"',
  /* 4 */ "",
  /* 5 */ "const Version = 2",
  /* 6 */ "",
  /* 7 */ "const (",
  /* 8 */ "\tMinSize, MaxSize = 1, 64",
  /* 9 */ '\tDefaultName string = "db"',
  /* 10 */ ")",
  /* 11 */ "",
  /* 12 */ "var registry = map[string]*Store{}",
  /* 13 */ "",
  /* 14 */ "// Store keeps rows.",
  /* 15 */ "type Store struct {",
  /* 16 */ "\tname string",
  /* 17 */ "\trows []Row",
  /* 18 */ "}",
  /* 19 */ "",
  /* 20 */ "type Row interface {",
  /* 21 */ "\tKey() string",
  /* 22 */ "}",
  /* 23 */ "",
  /* 24 */ "type ID = int",
  /* 25 */ "",
  /* 26 */ "func Open(name string) *Store {",
  /* 27 */ "\ts := &Store{name: name}",
  /* 28 */ "\tregistry[name] = s",
  /* 29 */ "\treturn s",
  /* 30 */ "}",
  /* 31 */ "",
  /* 32 */ "func (s *Store) Put(r Row) {",
  /* 33 */ "\ts.rows = append(s.rows, r)",
  /* 34 */ "\tfmt.Println(r.Key(), Version, MaxSize)",
  /* 35 */ "}",
].join("\n") + "\n";

const GO_DEFS: readonly Definition[] = [
  { name: "Version", kind: "const", start: 5, end: 5, scope: "" },
  { name: "MinSize", kind: "const", start: 8, end: 8, scope: "" },
  { name: "MaxSize", kind: "const", start: 8, end: 8, scope: "" },
  { name: "DefaultName", kind: "const", start: 9, end: 9, scope: "" },
  { name: "registry", kind: "variable", start: 12, end: 12, scope: "" },
  { name: "Store", kind: "struct", start: 15, end: 18, scope: "" },
  { name: "Row", kind: "interface", start: 20, end: 22, scope: "" },
  { name: "Key", kind: "method", start: 21, end: 21, scope: "Row" },
  { name: "ID", kind: "type", start: 24, end: 24, scope: "" },
  { name: "Open", kind: "function", start: 26, end: 30, scope: "" },
  { name: "Put", kind: "method", start: 32, end: 35, scope: "Store" },
];

async function symbols(path: string, text: string): Promise<FileSymbols> {
  const r = await extractSymbols(path, text);
  if (!r.ok) throw new Error(`${path}: ${r.problem}`);
  return r.symbols;
}

// Every line a definition claims, checked against the source: the name is on its lines.
function assertNamesOnTheirLines(text: string, defs: readonly Definition[]): void {
  const lines = text.split("\n");
  for (const d of defs) {
    const span = lines.slice(d.start - 1, d.end).join("\n");
    ok(span.includes(d.name), `${d.name} is within L${d.start}-${d.end}`);
  }
}

Deno.test("extractSymbols() finds every definition with its true line range", async (t) => {
  const cases: [string, string, readonly Definition[]][] = [
    ["src/shapes.ts", TS, TS_DEFS],
    ["walker/walk.py", PY, PY_DEFS],
    ["store/store.go", GO, GO_DEFS],
  ];
  for (const [path, text, expected] of cases) {
    await t.step(path, async () => {
      const s = await symbols(path, text);
      deepStrictEqual(s.definitions, expected);
      assertNamesOnTheirLines(text, s.definitions);
    });
  }
});

Deno.test("extractSymbols() finds each use of a name with its line, never the definition's own name", async (t) => {
  await t.step("TypeScript", async () => {
    const s = await symbols("src/shapes.ts", TS);
    deepStrictEqual(s.references.get("LIMIT"), [22]);
    deepStrictEqual(s.references.get("Circle"), [29]);
    deepStrictEqual(s.references.get("Shape"), [18, 26, 32, 35]);
    deepStrictEqual(s.references.get("total2"), [36]);
    deepStrictEqual(s.references.get("counter"), [28, 29]);
    deepStrictEqual(s.references.get("readFileSync"), [1, 27]);
    deepStrictEqual(s.references.get("area"), [32], "the call only: both declarations left out");
    strictEqual(s.references.get("load"), undefined, "declared, never used");
  });
  await t.step("Python", async () => {
    const s = await symbols("walker/walk.py", PY);
    deepStrictEqual(s.references.get("MAX_DEPTH"), [15]);
    deepStrictEqual(s.references.get("Walker"), [25]);
    deepStrictEqual(s.references.get("depth"), [24]);
    deepStrictEqual(s.references.get("inner"), [25]);
    deepStrictEqual(s.references.get("os"), [1, 18]);
    strictEqual(s.references.get("helper"), undefined);
  });
  await t.step("Go", async () => {
    const s = await symbols("store/store.go", GO);
    deepStrictEqual(s.references.get("Store"), [12, 26, 27, 32]);
    deepStrictEqual(s.references.get("Row"), [17, 32]);
    deepStrictEqual(s.references.get("Version"), [34]);
    deepStrictEqual(s.references.get("MaxSize"), [34]);
    deepStrictEqual(s.references.get("registry"), [28]);
    deepStrictEqual(s.references.get("Key"), [34]);
    strictEqual(s.references.get("store"), undefined, "the package clause names no use");
    strictEqual(s.references.get("Open"), undefined);
  });
});

Deno.test("extractSymbols() reads a file with a local syntax error and keeps its true lines", async () => {
  const text = "export function ok(): number {\n  return 1;\n}\n\nconst broken = (;\n\n" +
    "export function after(): void {}\n";
  const s = await symbols("a.ts", text);
  const byName = new Map(s.definitions.map((d) => [d.name, d]));
  deepStrictEqual([byName.get("ok")?.start, byName.get("ok")?.end], [1, 3]);
  deepStrictEqual([byName.get("after")?.start, byName.get("after")?.end], [7, 7]);
});

Deno.test("extractSymbols() gives a problem, not symbols, for what no grammar can read", async (t) => {
  const cases: [string, string, RegExp][] = [
    ["garbage.ts", "}}}} ((( ]]] \n", /syntax errors and no definition/],
    ["garbage.py", "def (:\n  )))\n", /syntax errors and no definition/],
    ["binary.go", "package x\0\0\x01", /not text/],
    ["notes.txt", "hello", /no grammar/],
  ];
  for (const [path, text, problem] of cases) {
    await t.step(path, async () => {
      const r = await extractSymbols(path, text);
      ok(!r.ok, "not read");
      ok(!r.ok && problem.test(r.problem), !r.ok ? r.problem : "");
    });
  }
});
