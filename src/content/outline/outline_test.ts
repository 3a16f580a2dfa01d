import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  type GrammarReader,
  languageOf,
  type Outline,
  outlineOf,
  renderOutline,
} from "./outline.ts";

const TESTDATA = new URL("./testdata/", import.meta.url);
// Grammar readers that fail: a folder with no grammars, and bytes that are no grammar.
const NO_GRAMMARS: GrammarReader = (file) =>
  Deno.readFile(new URL(`./no-such-folder/${file}`, TESTDATA));
const NOT_WASM: GrammarReader = () => Promise.resolve(new TextEncoder().encode("not WebAssembly"));
const TRUNCATED: GrammarReader = () =>
  Promise.resolve(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0x01, 0xff, 0xff]));
// The package's .wasm files sit in Deno's npm cache; reading them is all the grammars need.
const WASM = new URL("./", import.meta.resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter.wasm"));
const read = { read: [TESTDATA, WASM] };

/**
 * The outline a fixture promises, read from its markers alone, never from a parser: a comment
 * line `@sym <kind> <qualified name>` marks a symbol whose first line is the next line that is
 * not itself such a marker; `@end <qualified name>` in a line's comment (several may share one)
 * marks its last line. A symbol's depth is the number of symbols marked before it whose range
 * holds its own (a symbol with the very same range is a sibling on the same line).
 */
function expected(text: string): string[] {
  interface Mark {
    kind: string;
    name: string;
    start: number;
    end: number;
  }
  const lines = text.split("\n");
  const marks: Mark[] = [];
  const open: Mark[] = [];
  let pending: { kind: string; name: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const sym = /^\s*(?:\/\/|#)\s*@sym (\S+) (.+?)\s*$/.exec(lines[i]);
    if (sym) {
      pending.push({ kind: sym[1], name: sym[2] });
      continue;
    }
    for (const p of pending) {
      const m = { ...p, start: i + 1, end: -1 };
      marks.push(m);
      open.push(m);
    }
    pending = [];
    const comment = lines[i].search(/(?:\/\/|#)\s*@end /);
    if (comment === -1) continue;
    for (const raw of lines[i].slice(comment).split("@end ").slice(1)) {
      const name = raw.trim();
      const at = open.findLastIndex((m) => m.name === name);
      if (at === -1) throw new Error(`line ${i + 1}: @end ${name} has no open @sym`);
      open[at].end = i + 1;
      open.splice(at, 1);
    }
  }
  if (open.length) throw new Error(`never ended: ${open.map((m) => m.name).join(", ")}`);
  return marks.map((b, j) => {
    const depth = marks.slice(0, j).filter((a) =>
      a.start <= b.start && a.end >= b.end && (a.start !== b.start || a.end !== b.end)
    ).length;
    const range = b.start === b.end ? `L${b.start}` : `L${b.start}-${b.end}`;
    return `${"  ".repeat(depth)}${b.kind} ${b.name} ${range}`;
  });
}

// Every symbol's name is written within its range: the lines are the file's own.
function assertNamesInRange(o: Outline, text: string): void {
  const lines = text.split("\n");
  for (const s of o.symbols) {
    ok(s.start >= 1 && s.start <= s.end && s.end <= o.lines, `${s.name} L${s.start}-${s.end}`);
    const span = lines.slice(s.start - 1, s.end).join("\n").replace(/\s+/g, " ");
    ok(span.includes(s.name), `${s.kind} ${s.name} is not in its lines L${s.start}-${s.end}`);
  }
}

async function fixture(name: string): Promise<string> {
  return await Deno.readTextFile(new URL(name, TESTDATA));
}

async function assertFixture(
  file: string,
  path: string,
  language: string,
  parser: Outline["parser"],
  readGrammar?: GrammarReader,
): Promise<Outline> {
  const text = await fixture(file);
  const o = await outlineOf(path, text, readGrammar);
  strictEqual(o.parser, parser);
  strictEqual(o.language, language);
  strictEqual(o.lines, text.split("\n").length - (text.endsWith("\n") ? 1 : 0));
  deepStrictEqual(renderOutline(o).split("\n"), expected(text));
  assertNamesInRange(o, text);
  return o;
}

Deno.test("expected() reads a fixture's markers, nesting by range", () => {
  const text = [
    "// @sym class A",
    "class A {",
    "  // @sym method A.m",
    "  m() {} // @end A.m",
    "} // @end A",
    "// @sym function f",
    "// @sym function g",
    "const f = () => 1, g = () => 2; // @end f @end g",
  ].join("\n");
  deepStrictEqual(expected(text), [
    "class A L2-5",
    "  method A.m L4",
    "function f L8",
    "function g L8",
  ]);
});

Deno.test(
  "outlineOf() keeps every TypeScript symbol with its true line range",
  { permissions: read },
  async (t) => {
    for (const path of ["src/widget.ts", "src/widget.mts", "src/widget.cts", "lib/widget.d.ts"]) {
      await t.step(path, async () => {
        const o = await assertFixture("sample.ts.txt", path, "typescript", "tree-sitter");
        ok(o.symbols.length >= 75, `${o.symbols.length} symbols`);
      });
    }
  },
);

Deno.test(
  "outlineOf() keeps every JavaScript symbol with its true line range",
  { permissions: read },
  async (t) => {
    for (const path of ["app.jsx", "app.js", "app.mjs", "app.cjs"]) {
      await t.step(path, async () => {
        await assertFixture("sample.jsx.txt", path, "javascript", "tree-sitter");
      });
    }
    await t.step("app.tsx (the TSX grammar reads the same JSX)", async () => {
      await assertFixture("sample.jsx.txt", "app.tsx", "tsx", "tree-sitter");
    });
  },
);

Deno.test(
  "outlineOf() keeps every Python class, method and nested function with its true line range",
  { permissions: read },
  async (t) => {
    for (const path of ["repo.py", "repo.pyi"]) {
      await t.step(path, async () => {
        const o = await assertFixture("sample.py.txt", path, "python", "tree-sitter");
        // A decorated definition starts at its first decorator.
        const distance = o.symbols.find((s) => s.name === "distance")!;
        const text = await fixture("sample.py.txt");
        ok(text.split("\n")[distance.start - 1].trim().startsWith("@staticmethod"));
      });
    }
  },
);

Deno.test(
  "outlineOf() keeps every Go type, function and method with its true line range",
  { permissions: read },
  async () => {
    const o = await assertFixture("sample.go.txt", "store/memory.go", "go", "tree-sitter");
    const get = o.symbols.find((s) => s.name === "Get" && s.kind === "method" && s.depth === 0);
    strictEqual(get?.owner, "Memory");
    strictEqual(o.symbols.find((s) => s.name === "Push")?.owner, "List");
  },
);

Deno.test(
  "outlineOf() keeps every Rust item, impl and trait method with its true line range",
  { permissions: read },
  async () => {
    const o = await assertFixture("sample.rs.txt", "src/lexer.rs", "rust", "tree-sitter");
    const impls = o.symbols.filter((s) => s.kind === "impl").map((s) => s.name);
    deepStrictEqual(impls, [
      "fmt::Display for Error",
      "std::error::Error for Error",
      "Lexer<'a>",
      "Iterator for Lexer<'a>",
      "Visitor for Counter<T>",
      "Parser",
      "Local",
    ]);
  },
);

Deno.test(
  "outlineOf() keeps every Java type, constructor and overload with its true line range",
  { permissions: read },
  async () => {
    const o = await assertFixture("Sample.java.txt", "src/Repository.java", "java", "tree-sitter");
    strictEqual(o.symbols.filter((s) => s.name === "clamp").length, 2);
  },
);

Deno.test(
  "outlineOf() outlines code no grammar reads by its indentation",
  { permissions: read },
  async (t) => {
    await t.step("Ruby", async () => {
      await assertFixture("sample.rb.txt", "lib/billing.rb", "ruby", "indent");
    });
    await t.step("Kotlin", async () => {
      await assertFixture("sample.kt.txt", "src/Repository.kt", "kotlin", "indent");
    });
  },
);

Deno.test(
  "outlineOf() falls back to the indentation outline when a grammar fails to load",
  { permissions: read },
  async (t) => {
    await t.step("no grammar file: Python keeps every symbol and its lines", async () => {
      await assertFixture("sample.py.txt", "repo.py", "python", "indent", NO_GRAMMARS);
    });
    await t.step("a grammar file that is not WebAssembly (Go)", async () => {
      const text = await fixture("sample.go.txt");
      const o = await outlineOf("store/memory.go", text, NOT_WASM);
      strictEqual(o.parser, "indent");
      strictEqual(o.language, "go");
      assertNamesInRange(o, text);
      const memoryGet = o.symbols.find((s) => s.name === "Get" && s.kind === "function");
      ok(memoryGet, renderOutline(o));
      strictEqual(text.split("\n")[memoryGet.start - 1].startsWith("func (m *Memory) Get("), true);
    });
    await t.step("a truncated WebAssembly grammar (Python)", async () => {
      await assertFixture("sample.py.txt", "repo.py", "python", "indent", TRUNCATED);
    });
    await t.step("a second call with the failing grammar still answers", async () => {
      const o = await outlineOf("x.go", "package x\n\nfunc F() {}\n", NOT_WASM);
      deepStrictEqual(renderOutline(o), "function F L3");
      strictEqual(o.parser, "indent");
    });
    await t.step("a reader that throws", async () => {
      const o = await outlineOf("x.go", "package x\n\nfunc F() {}\n", () => {
        throw new Error("no reading today");
      });
      strictEqual(o.parser, "indent");
      strictEqual(renderOutline(o), "function F L3");
    });
    await t.step("the package's own grammar is untouched by those failures", async () => {
      const o = await outlineOf("x.go", "package x\n\nfunc F() {}\n");
      strictEqual(o.parser, "tree-sitter");
      strictEqual(renderOutline(o), "function F L3");
    });
  },
);

Deno.test(
  "outlineOf() reads only the grammar of the language asked for, once per process",
  { permissions: read },
  async () => {
    const asked: string[] = [];
    const recording: GrammarReader = (file) => {
      asked.push(file);
      return Deno.readFile(new URL(file, WASM));
    };
    const py = await outlineOf("a.py", "def f():\n    pass\n", recording);
    strictEqual(py.parser, "tree-sitter");
    deepStrictEqual(asked, ["tree-sitter-python.wasm"]);
    await outlineOf("b.py", "class A:\n    pass\n", recording);
    await outlineOf("c.rb", "def f\nend\n", recording);
    deepStrictEqual(asked, ["tree-sitter-python.wasm"]);
    const rs = await outlineOf("d.rs", "fn f() {}\n", recording);
    strictEqual(renderOutline(rs), "function f L1");
    deepStrictEqual(asked, ["tree-sitter-python.wasm", "tree-sitter-rust.wasm"]);
  },
);

Deno.test(
  "outlineOf() gives an empty outline for an empty file",
  { permissions: read },
  async (t) => {
    for (
      const path of ["a.ts", "a.tsx", "a.js", "a.py", "a.go", "a.rs", "A.java", "a.rb", "README"]
    ) {
      await t.step(path, async () => {
        const o = await outlineOf(path, "");
        deepStrictEqual(o.symbols, []);
        strictEqual(o.lines, 0);
        strictEqual(renderOutline(o), "");
        strictEqual(o.parser, languageOf(path) ? "tree-sitter" : "indent");
      });
    }
  },
);

Deno.test(
  "outlineOf() keeps symbols and true lines in a file with a syntax error",
  { permissions: read },
  async (t) => {
    const ts = await fixture("sample.ts.txt");
    await t.step("TypeScript: a broken statement inside a function", async () => {
      const text = ts.replace('  let word = "";\n', "  let word = ;\n  if (( {\n");
      ok(text !== ts);
      const o = await outlineOf("broken.ts", text);
      strictEqual(o.parser, "tree-sitter");
      deepStrictEqual(renderOutline(o).split("\n"), expected(text));
    });
    await t.step("TypeScript: a method that lost its closing brace", async () => {
      const text = ts.replace(
        "    return this.items.length;\n  } // @end Widget.size\n",
        "    return this.items.length;\n  // (its brace is gone)\n",
      ).replace("  // @sym getter Widget.size\n", "").replace("  // @sym setter Widget.size\n", "")
        .replace("  } // @end Widget.size\n", "  }\n");
      ok(text !== ts);
      const o = await outlineOf("broken.ts", text);
      assertNamesInRange(o, text);
      // Every other symbol is as marked; the getter swallows the setter and ends where it ends.
      const rest = renderOutline(o).split("\n").filter((l) => !l.includes("Widget.size"));
      deepStrictEqual(rest, expected(text));
      const getter = o.symbols.find((s) => s.kind === "getter" && s.name === "size")!;
      ok(text.split("\n")[getter.start - 1].includes("get size()"));
    });
    await t.step("Python: a broken parameter list", async () => {
      const py = await fixture("sample.py.txt");
      const text = py.replace(
        "default: T | None = None) -> T | None:",
        "default: T | None = None -> T | None:",
      );
      ok(text !== py);
      const o = await outlineOf("broken.py", text);
      strictEqual(o.parser, "tree-sitter");
      deepStrictEqual(renderOutline(o).split("\n"), expected(text));
    });
  },
);

Deno.test(
  "outlineOf() counts CRLF lines as the file shows them",
  { permissions: read },
  async (t) => {
    const cases: [string, string, Outline["parser"]][] = [
      ["sample.ts.txt", "crlf.ts", "tree-sitter"],
      ["sample.py.txt", "crlf.py", "tree-sitter"],
      ["Sample.java.txt", "Crlf.java", "tree-sitter"],
      ["sample.rb.txt", "crlf.rb", "indent"],
    ];
    for (const [file, path, parser] of cases) {
      await t.step(path, async () => {
        const lf = await fixture(file);
        const crlf = lf.replaceAll("\n", "\r\n");
        const o = await outlineOf(path, crlf);
        strictEqual(o.parser, parser);
        strictEqual(o.lines, lf.split("\n").length - 1);
        deepStrictEqual(renderOutline(o).split("\n"), expected(lf));
        ok(o.symbols.every((s) => !s.name.includes("\r")));
      });
    }
  },
);

// A TypeScript file of `blocks` blocks of about 50 lines each, with its own markers.
function generatedTypeScript(blocks: number): string {
  const out: string[] = [];
  for (let b = 0; b < blocks; b++) {
    out.push(
      `// @sym interface Model${b}`,
      `export interface Model${b}<T> {`,
      `  id: string;`,
      `  // @sym method Model${b}.load`,
      `  load(id: string): Promise<T>; // @end Model${b}.load`,
      `} // @end Model${b}`,
      ``,
      `// @sym class Service${b}`,
      `@Injectable()`,
      `export class Service${b}<T> implements Model${b}<T> {`,
      `  id = "s${b}";`,
      `  // @sym constructor Service${b}.constructor`,
      `  constructor(private readonly repo: Map<string, T>) {} // @end Service${b}.constructor`,
      ``,
      `  // @sym method Service${b}.load`,
      `  @Log()`,
      `  async load(id: string): Promise<T> {`,
      `    const hit = this.repo.get(id);`,
      `    if (!hit) throw new Error(\`missing \${id}\`);`,
      `    return hit;`,
      `  } // @end Service${b}.load`,
      ``,
      `  // @sym getter Service${b}.size`,
      `  get size(): number {`,
      `    return this.repo.size;`,
      `  } // @end Service${b}.size`,
      ``,
      `  // @sym method Service${b}.each`,
      `  each(fn: (v: T) => void): void {`,
      `    for (const v of this.repo.values()) fn(v);`,
      `  } // @end Service${b}.each`,
      `} // @end Service${b}`,
      ``,
      `// @sym function helper${b}`,
      `export function helper${b}(x: number): number {`,
      `  // @sym function inner${b}`,
      `  function inner${b}(y: number): number {`,
      `    return y * ${b};`,
      `  } // @end inner${b}`,
      `  return inner${b}(x) + 1;`,
      `} // @end helper${b}`,
      ``,
      `// @sym function arrow${b}`,
      `export const arrow${b} = async (n: number): Promise<number> => {`,
      `  return await Promise.resolve(n + ${b});`,
      `}; // @end arrow${b}`,
      ``,
      `// @sym type Alias${b}`,
      `type Alias${b} = Model${b}<string> | null; // @end Alias${b}`,
      ``,
    );
  }
  return out.join("\n") + "\n";
}

Deno.test(
  "outlineOf() keeps every symbol of a 2,000-line TypeScript file with its true line range",
  { permissions: read },
  async () => {
    const text = generatedTypeScript(40);
    const o = await outlineOf("big.ts", text);
    strictEqual(o.parser, "tree-sitter");
    ok(o.lines >= 2000, `${o.lines} lines`);
    strictEqual(o.symbols.length, 40 * 11);
    deepStrictEqual(renderOutline(o).split("\n"), expected(text));
    strictEqual(o.symbols.at(-1)!.end, o.lines - 1);
  },
);

Deno.test("languageOf() names the grammar a path's extension selects", async (t) => {
  const table: [string, string | null][] = [
    ["a.ts", "typescript"],
    ["dir.v2/a.mts", "typescript"],
    ["a.cts", "typescript"],
    ["types/index.d.ts", "typescript"],
    ["App.tsx", "tsx"],
    ["a.js", "javascript"],
    ["a.jsx", "javascript"],
    ["a.mjs", "javascript"],
    ["a.cjs", "javascript"],
    ["a.py", "python"],
    ["a.pyi", "python"],
    ["main.go", "go"],
    ["lib.rs", "rust"],
    ["Main.java", "java"],
    ["UPPER.TS", "typescript"],
    ["a.rb", null],
    ["a.kt", null],
    ["Makefile", null],
    [".ts", null],
    ["src.ts/readme", null],
    ["notes.txt", null],
  ];
  for (const [path, language] of table) {
    await t.step(path, () => strictEqual(languageOf(path), language));
  }
});

Deno.test("renderOutline() writes one line per symbol: kind, qualified name, range", () => {
  const o: Outline = {
    language: "typescript",
    parser: "tree-sitter",
    lines: 40,
    symbols: [
      { kind: "namespace", name: "App.Config", start: 1, end: 30, depth: 0 },
      { kind: "class", name: "Parser", start: 2, end: 20, depth: 1 },
      { kind: "method", name: "parse", start: 3, end: 10, depth: 2 },
      { kind: "function", name: "step", start: 4, end: 4, depth: 3 },
      { kind: "class", name: "Local", start: 5, end: 9, depth: 3 },
      { kind: "method", name: "#run", start: 6, end: 8, depth: 4 },
      { kind: "module", name: '"virtual:x"', start: 21, end: 29, depth: 1 },
      { kind: "function", name: "read", start: 22, end: 22, depth: 2 },
      { kind: "function", name: "default", start: 31, end: 40, depth: 0 },
    ],
  };
  strictEqual(
    renderOutline(o),
    [
      "namespace App.Config L1-30",
      "  class App.Config.Parser L2-20",
      "    method App.Config.Parser.parse L3-10",
      "      function step L4",
      "      class Local L5-9",
      "        method Local.#run L6-8",
      '  module App.Config."virtual:x" L21-29',
      "    function read L22",
      "function default L31-40",
    ].join("\n"),
  );
});

Deno.test("renderOutline() names Rust members with :: and Go methods by their receiver", () => {
  const rust: Outline = {
    language: "rust",
    parser: "tree-sitter",
    lines: 20,
    symbols: [
      { kind: "module", name: "parser", start: 1, end: 20, depth: 0 },
      { kind: "impl", name: "fmt::Display for Lexer<'a>", start: 2, end: 9, depth: 1 },
      { kind: "method", name: "fmt", start: 3, end: 8, depth: 2 },
      { kind: "impl", name: "Token", start: 10, end: 19, depth: 1 },
      { kind: "method", name: "new", start: 11, end: 18, depth: 2 },
    ],
  };
  strictEqual(
    renderOutline(rust),
    [
      "module parser L1-20",
      "  impl parser::fmt::Display for Lexer<'a> L2-9",
      "    method parser::Lexer::fmt L3-8",
      "  impl parser::Token L10-19",
      "    method parser::Token::new L11-18",
    ].join("\n"),
  );
  const go: Outline = {
    language: "go",
    parser: "tree-sitter",
    lines: 9,
    symbols: [
      { kind: "struct", name: "Parser", start: 1, end: 3, depth: 0 },
      { kind: "method", name: "Parse", start: 5, end: 9, depth: 0, owner: "Parser" },
    ],
  };
  strictEqual(renderOutline(go), "struct Parser L1-3\nmethod Parser.Parse L5-9");
});

Deno.test(
  "outline.ts imports the tree-sitter runtime only when an outline is asked for",
  { permissions: { read: [new URL("./outline.ts", import.meta.url)] } },
  async () => {
    const source = await Deno.readTextFile(new URL("./outline.ts", import.meta.url));
    ok(!/^\s*import\b[^;(]*tree-sitter/m.test(source), "a static import of the runtime");
    strictEqual(source.match(/await import\("@vscode\/tree-sitter-wasm"\)/g)?.length, 1);
  },
);
