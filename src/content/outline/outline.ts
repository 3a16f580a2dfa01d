/**
 * The outline of a source file: its classes, interfaces, types, enums, functions and methods
 * (Rust impls, traits, structs, modules and macros; Go types, functions and methods; Java
 * records and constructors), each with its true 1-based line range and nesting depth. Read by
 * tree-sitter grammars for TypeScript, TSX, JavaScript, Python, Go, Rust and Java (npm
 * `@vscode/tree-sitter-wasm`: the web-tree-sitter runtime and its grammars as .wasm, built
 * together); by indentation for any other code, and whenever a grammar cannot be loaded.
 *
 * The runtime is imported on the first call only, and only the grammar of the language asked
 * for is read, once per process. Reading the .wasm files needs read access to Deno's npm cache.
 *
 * @module
 */

import { indentSymbols } from "./indent.ts";
import { type GrammarLanguage, treeSymbols, type TsNode } from "./tree_rules.ts";
import type { OutlineSymbol } from "./symbol.ts";

export type { OutlineSymbol } from "./symbol.ts";

/** A file's outline. */
export interface Outline {
  /** The grammar's language (`typescript`, `tsx`, …), or the file's kind of code when none. */
  readonly language: string;
  /** How the symbols were found: a tree-sitter grammar, or the indentation fallback. */
  readonly parser: "tree-sitter" | "indent";
  /** The symbols in source order; a nested symbol follows the one enclosing it. */
  readonly symbols: readonly OutlineSymbol[];
  /** Lines in the file (a final newline does not start another). */
  readonly lines: number;
  /** Why the file's grammar gave no outline (it did not load, or the parse failed), if so. */
  readonly problem?: string;
}

const _BY_EXTENSION: Readonly<Record<string, GrammarLanguage>> = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  py: "python",
  pyi: "python",
  go: "go",
  rs: "rust",
  java: "java",
};

// What the indentation outline calls the code it reads, by extension; any other extension is
// its own name.
const _OTHER: Readonly<Record<string, string>> = {
  rb: "ruby",
  kt: "kotlin",
  kts: "kotlin",
  swift: "swift",
  scala: "scala",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  cs: "csharp",
  php: "php",
  lua: "lua",
  ex: "elixir",
  exs: "elixir",
  sh: "shell",
  bash: "shell",
  pl: "perl",
  dart: "dart",
  groovy: "groovy",
};

function _extension(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/**
 * The language of a path by its extension, or null when it is not code rtok outlines with a
 * grammar.
 */
export function languageOf(path: string): string | null {
  return _BY_EXTENSION[_extension(path)] ?? null;
}

// ---------------------------------------------------------------------------------------------
// The runtime, typed by the members rtok calls (the package's own types describe an ES module,
// while Deno loads its UMD build as CommonJS: everything sits on `default`).

interface _Language {
  readonly abiVersion: number;
}
interface _Tree {
  readonly rootNode: TsNode;
  delete(): void;
}
interface _Parser {
  setLanguage(language: _Language): _Parser;
  parse(text: string): _Tree | null;
}
interface _Runtime {
  readonly Parser: {
    init(options: { wasmBinary: Uint8Array }): Promise<void>;
    new (): _Parser;
  };
  readonly Language: { load(bytes: Uint8Array): Promise<_Language> };
}

const _GRAMMAR_FILE: Readonly<Record<GrammarLanguage, string>> = {
  typescript: "tree-sitter-typescript.wasm",
  tsx: "tree-sitter-tsx.wasm",
  javascript: "tree-sitter-javascript.wasm",
  python: "tree-sitter-python.wasm",
  go: "tree-sitter-go.wasm",
  rust: "tree-sitter-rust.wasm",
  java: "tree-sitter-java.wasm",
};

/**
 * The folder of the .wasm files of `@vscode/tree-sitter-wasm` (pinned in deno.json), in Deno's
 * npm cache (or `node_modules/`). The specifier is a literal so that `deno cache`, `deno compile`
 * and `deno publish` see the package.
 */
function _wasmDir(): URL {
  return new URL("./", import.meta.resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter.wasm"));
}

/**
 * Reads a grammar's .wasm file given its name in the package (`tree-sitter-python.wasm`); the
 * default reads it from the package's folder.
 */
export type GrammarReader = (file: string) => Promise<Uint8Array>;

const _readPackageFile: GrammarReader = (file) => Deno.readFile(new URL(file, _wasmDir()));

let _runtime: Promise<_Runtime> | undefined;
// Per reader, per language: a parser, or the failure to make one.
const _parsers = new Map<GrammarReader, Map<GrammarLanguage, Promise<_Parser>>>();

function _loadRuntime(): Promise<_Runtime> {
  return _runtime ??= (async () => {
    const runtime = await _evaluatedRuntime() ??
      (await import("@vscode/tree-sitter-wasm") as unknown as { default: _Runtime }).default;
    const wasmBinary = await _readPackageFile("tree-sitter.wasm");
    await runtime.Parser.init({ wasmBinary });
    return runtime;
  })();
}

/**
 * The runtime's script evaluated in a scope of its own, or `null` when that fails (the module
 * import is then the way). The package is a UMD script that Deno would load as CommonJS,
 * starting its Node compatibility layer, about 40 ms of a hook's life; evaluated with a
 * `module` to fill and no `process`, it sets itself up as it would in a browser, and reads no
 * file (the caller hands it the .wasm bytes).
 */
async function _evaluatedRuntime(): Promise<_Runtime | null> {
  try {
    const file = new URL("tree-sitter.js", _wasmDir());
    const source = await Deno.readTextFile(file);
    const module = { exports: {} as unknown };
    const require = (name: string) => {
      if (name === "url") return { pathToFileURL: (p: string) => new URL(`file://${p}`) };
      throw new Error(`the tree-sitter runtime asked for "${name}"`);
    };
    // The package's own script, read from the pinned package.
    const run = new Function("module", "exports", "require", "__filename", "process", source);
    run(module, module.exports, require, file.pathname, undefined);
    const runtime = module.exports as _Runtime;
    return typeof runtime?.Parser?.init === "function" ? runtime : null;
  } catch {
    return null;
  }
}

function _loadParser(language: GrammarLanguage, read: GrammarReader): Promise<_Parser> {
  let byLanguage = _parsers.get(read);
  if (!byLanguage) _parsers.set(read, byLanguage = new Map());
  let parser = byLanguage.get(language);
  if (!parser) {
    parser = (async () => {
      const runtime = await _loadRuntime();
      const grammar = await runtime.Language.load(await read(_GRAMMAR_FILE[language]));
      return new runtime.Parser().setLanguage(grammar);
    })();
    // A failure is kept too: a grammar that did not load once is not read again.
    byLanguage.set(language, parser);
  }
  return parser;
}

function _lineCount(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

function _indentOutline(
  language: string,
  text: string,
  lines: number,
  problem?: string,
): Outline {
  let symbols: OutlineSymbol[] = [];
  try {
    symbols = indentSymbols(text);
  } catch {
    // Never throws: no symbols rather than an error.
  }
  return { language, parser: "indent", symbols, lines, ...(problem ? { problem } : {}) };
}

/**
 * The outline of `text` (the file at `path`); loads only that language's grammar, once per
 * process. Never throws: a grammar that fails to load or a parse that fails gives the
 * indentation outline, with `parser: "indent"`.
 *
 * `readGrammar` is a test seam: how a grammar's .wasm file is read (the runtime always comes
 * from the package); it defaults to reading the package's own file.
 */
export async function outlineOf(
  path: string,
  text: string,
  readGrammar: GrammarReader = _readPackageFile,
): Promise<Outline> {
  const lines = _lineCount(text);
  const language = languageOf(path) as GrammarLanguage | null;
  if (language === null) {
    const ext = _extension(path);
    return _indentOutline(_OTHER[ext] ?? (ext || "text"), text, lines);
  }
  let problem = "the parse gave no tree";
  try {
    const parser = await _loadParser(language, readGrammar);
    const tree = parser.parse(text);
    if (tree) {
      try {
        return {
          language,
          parser: "tree-sitter",
          symbols: treeSymbols(tree.rootNode, language),
          lines,
        };
      } finally {
        tree.delete();
      }
    }
  } catch (e) {
    // The grammar did not load or the parse failed: the indentation outline below.
    problem = e instanceof Error ? e.message : String(e);
  }
  return _indentOutline(language, text, lines, problem);
}

/**
 * Parses `text` as `language` and hands the tree's root to `use` while the tree lives (it is
 * freed after); `null` when the parse gave no tree. Loads the grammar once per process, as
 * {@linkcode outlineOf} does. Throws when the grammar does not load or the parser throws.
 */
export async function withTree<T>(
  language: GrammarLanguage,
  text: string,
  use: (root: TsNode) => T,
  readGrammar: GrammarReader = _readPackageFile,
): Promise<T | null> {
  const parser = await _loadParser(language, readGrammar);
  const tree = parser.parse(text);
  if (!tree) return null;
  try {
    return use(tree.rootNode);
  } finally {
    tree.delete();
  }
}

// Kinds whose members are named through them: `Parser.parse`, `outer::inner::f`.
const _SCOPES = new Set([
  "class",
  "interface",
  "enum",
  "record",
  "annotation",
  "namespace",
  "module",
  "struct",
  "trait",
  "impl",
  "union",
  "object",
]);

// What a scope adds to its members' names: a Rust impl adds its type, generics dropped.
function _qualifier(s: OutlineSymbol): string {
  if (s.kind !== "impl") return s.name;
  const at = s.name.lastIndexOf(" for ");
  return (at === -1 ? s.name : s.name.slice(at + 5)).replace(/<[\s\S]*$/, "");
}

/**
 * The outline as lines for the model: one line per symbol, indented two spaces per depth,
 * `<kind> <qualified name> L<start>-<end>` (`L<start>` for a one-line symbol), e.g.
 * `  method Parser.parse L120-168`. The qualified name joins the enclosing classes, interfaces,
 * namespaces, modules, traits and impls to the name with `.` (`::` for Rust), stopping at an
 * enclosing function; a Go method is named through its receiver type (`Parser.Parse`). The name
 * itself is never altered; the kind is one word; the range is always the last word.
 */
export function renderOutline(o: Outline): string {
  const scopes = symbolScopes(o);
  const sep = o.language === "rust" ? "::" : ".";
  return o.symbols.map((s, i) => {
    const range = s.start === s.end ? `L${s.start}` : `L${s.start}-${s.end}`;
    const name = scopes[i] ? `${scopes[i]}${sep}${s.name}` : s.name;
    return `${"  ".repeat(s.depth)}${s.kind} ${name} ${range}`;
  }).join("\n");
}

/**
 * Per symbol of `o`, what its name is qualified through (`Geometry.Vector`, `outer::inner`,
 * a Go method's receiver type), or `""` at the top: the enclosing classes, interfaces,
 * namespaces, modules, traits and impls joined with `.` (`::` for Rust), stopping at an
 * enclosing function.
 */
export function symbolScopes(o: Outline): string[] {
  const sep = o.language === "rust" ? "::" : ".";
  const stack: OutlineSymbol[] = [];
  const out: string[] = [];
  for (const s of o.symbols) {
    stack.length = Math.min(stack.length, s.depth);
    const chain: string[] = [];
    if (s.owner) chain.push(s.owner);
    else {
      for (let i = stack.length - 1; i >= 0; i--) {
        const scope = stack[i];
        if (!_SCOPES.has(scope.kind) || /^["'`]/.test(scope.name)) break;
        chain.unshift(_qualifier(scope));
      }
    }
    stack.push(s);
    out.push(chain.join(sep));
  }
  return out;
}
