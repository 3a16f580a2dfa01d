/**
 * Captures the golden fixtures of the compiler and linter filters (tsc, eslint, biome, ruff,
 * mypy, cargo build/check/clippy, go build/vet) from the real tools. It writes small projects
 * with known faults into a fixed directory (`/tmp/rtok-capture-builds`, so the paths the tools
 * print are the same on every run), installs the npm tools there at pinned versions, runs each
 * command as an agent types it, and writes `tests/fixtures/<name>/`. Each case's facts come
 * from the tool itself: a machine format of the same run where the tool has one (eslint, biome
 * and ruff JSON, cargo's `--message-format json`, `go vet -json`), else the tool's own plain
 * diagnostic lines read by this script (tsc without `--pretty`, mypy, go build).
 *
 * Needs on PATH: node/npm (the npm registry, for typescript, eslint and biome), `ruff` (pip),
 * `mypy` and `go` (apt: `mypy`, `golang-go`), `cargo` with clippy. A tool that is missing is
 * reported and its fixtures are left as they were.
 *
 * Run: `deno run --allow-read --allow-write --allow-run --allow-env scripts/capture/builds.ts`
 *
 * @module
 */

import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandFilter } from "../../src/core/filter.ts";
import { biomeFilter } from "../../filters/biome.ts";
import {
  cargoBuildFilter,
  cargoCheckFilter,
  cargoClippyFilter,
} from "../../filters/cargo_build.ts";
import { eslintFilter } from "../../filters/eslint.ts";
import { goBuildFilter, goVetFilter } from "../../filters/go_build.ts";
import { mypyFilter } from "../../filters/mypy.ts";
import { ruffFilter } from "../../filters/ruff.ts";
import { tscFilter } from "../../filters/tsc.ts";

const FIXTURES = fileURLToPath(new URL("../../tests/fixtures/", import.meta.url));
const WORK = "/tmp/rtok-capture-builds";
const NPM_TOOLS = ["typescript@7.0.2", "eslint@9.39.5", "@biomejs/biome@2.6.9"];

/** What a run printed. */
interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

/** One fixture. */
interface Case {
  readonly name: string;
  readonly filter: CommandFilter;
  /** The command as an agent types it. */
  readonly typed: readonly string[];
  /** The project directory under WORK it runs in. */
  readonly project: string;
  /** The stream the filter reads (cargo, go and biome print their report on stderr). */
  readonly stream: "stdout" | "stderr";
  /** The tool that must be on PATH. */
  readonly needs: string;
  readonly factsSource: string;
  facts(cwd: string, run: Run): Promise<string[]>;
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  const home = Deno.env.get("HOME") ?? "/root";
  return {
    PATH: `${WORK}/tools/node_modules/.bin:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    HOME: home,
    CARGO_HOME: Deno.env.get("CARGO_HOME") ?? `${home}/.cargo`,
    RUSTUP_HOME: Deno.env.get("RUSTUP_HOME") ?? `${home}/.rustup`,
    CARGO_TERM_COLOR: "never",
    CARGO_TERM_PROGRESS_WHEN: "never",
    GOPATH: `${WORK}/gopath`,
    GOFLAGS: "-mod=mod",
    GOPROXY: "off",
    GOTOOLCHAIN: "local",
    NO_COLOR: "1",
    LC_ALL: "C.UTF-8",
    TZ: "UTC",
    RUST_BACKTRACE: "0",
    ...extra,
  };
}

async function run(
  cmd: readonly string[],
  cwd: string,
  extra: Record<string, string> = {},
): Promise<Run> {
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    clearEnv: true,
    env: env(extra),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { stdout: text.decode(out.stdout), stderr: text.decode(out.stderr), code: out.code };
}

async function has(tool: string): Promise<boolean> {
  try {
    return (await run(["sh", "-c", `command -v ${tool}`], "/")).code === 0;
  } catch {
    return false;
  }
}

/** Writes `files` (path → text) under `dir`. */
async function writeTree(dir: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const full = join(dir, path);
    await Deno.mkdir(dirname(full), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
}

const unique = (items: readonly string[]): string[] => [...new Set(items)];
const lines = (text: string): string[] => text.split("\n").filter((line) => line !== "");
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;

// A file as facts: its directory and its name, since the filter writes a directory once, in
// full, before the files of one diagnostic (`src/: a.ts 2:7, b.ts 1:7`).
function pathFacts(path: string): string[] {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? [path] : [path.slice(0, slash + 1), path.slice(slash + 1)];
}

// ---------------------------------------------------------------------------------------------
// Projects

const VIEWS = [
  "account",
  "billing",
  "checkout",
  "dashboard",
  "inbox",
  "orders",
  "profile",
  "reports",
  "search",
  "settings",
];

// Each view repeats the same four faults (an export that was renamed, a call with a string id,
// a string stored as a number, a misspelt property) and has one of its own.
const VIEW_OWN: Readonly<Record<string, string>> = {
  account: `import { theme } from "../theme.js";\nexport const accent = theme;`,
  billing: `export const total: number = computeTotal();`,
  dashboard:
    `export const card: { title: string; size: { w: number } } = { title: "t", size: { w: "1" } };`,
  orders: `export function count(): number {\n  const n = 1;\n}`,
  profile: `export const nick: string = fetchUser(1).nick;`,
  reports: `export const rows: string[] = [1, 2, 3];`,
  settings: `export function save(): void {\n  fetchUser(1).save();\n}`,
};

function tsProject(): Record<string, string> {
  const files: Record<string, string> = {
    "tsconfig.json": JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "es2022",
          module: "nodenext",
          types: [],
        },
        include: ["src"],
      },
      null,
      2,
    ) + "\n",
    "src/api.ts": [
      "export interface User { id: number; name: string; email: string }",
      "export function fetchUser(id: number): User {",
      '  return { id, name: "n", email: "e" };',
      "}",
      "export function formatUser(user: User): string {",
      "  return `${user.name} <${user.email}>`;",
      "}",
      "",
    ].join("\n"),
    "src/util.ts": "export function newHelper(x: number): number {\n  return x * 2;\n}\n",
  };
  for (const view of VIEWS) {
    const name = view[0].toUpperCase() + view.slice(1);
    files[`src/views/${view}.ts`] = [
      'import { fetchUser, formatUser } from "../api.js";',
      'import { oldHelper } from "../util.js";',
      "",
      `export function render${name}(): number {`,
      '  const user = fetchUser("42");',
      "  const label: number = formatUser(user);",
      "  console.log(user.nmae);",
      "  return oldHelper(label);",
      "}",
      "",
      VIEW_OWN[view] ?? "",
      "",
    ].join("\n");
  }
  return files;
}

const TS_CLEAN: Record<string, string> = {
  "tsconfig.json": JSON.stringify(
    { compilerOptions: { strict: true, composite: true, outDir: "out", types: [] } },
    null,
    2,
  ) + "\n",
  "src/index.ts": "export const answer: number = 42;\n",
};

const ESLINT_CONFIG = `export default [
  {
    files: ["**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { console: "readonly" },
    },
    rules: {
      "no-unused-vars": "warn",
      "no-console": "warn",
      eqeqeq: "warn",
      "prefer-const": "warn",
      "no-var": "warn",
      curly: "warn",
      semi: ["warn", "always"],
      quotes: ["warn", "double"],
      "no-undef": "error",
      "no-debugger": "error",
      "no-dupe-keys": "error",
    },
  },
];
`;

const LIBS = ["cache", "format", "queue", "retry", "store", "timer"];

// Library modules: the same careless style in each, warnings only.
function libModule(name: string): string {
  return [
    "var count = 0",
    "function log(value) {",
    "  if (value == null) return",
    "  console.log('value', value)",
    "  console.log('count', count)",
    "}",
    "let limit = 10",
    `export function ${name}(items) {`,
    "  for (var i = 0; i < items.length; i++) {",
    "    if (items[i] == limit) log(items[i])",
    "  }",
    "  return limit",
    "}",
    "",
  ].join("\n");
}

function eslintProject(): Record<string, string> {
  const files: Record<string, string> = {
    "package.json": '{ "name": "lint-demo", "private": true, "type": "module" }\n',
    "eslint.config.mjs": ESLINT_CONFIG,
  };
  for (const lib of LIBS) files[`src/lib/${lib}.js`] = libModule(lib);
  files["src/app/main.js"] = [
    'import { cache } from "../lib/cache.js";',
    "",
    "export function main() {",
    "  debugger;",
    '  const config = { mode: "a", mode: "b" };',
    "  cache([config, startTime]);",
    "  return missingHelper(config);",
    "}",
    "",
  ].join("\n");
  files["src/app/broken.js"] = 'export function broken( {\n  return "x";\n}\n';
  return files;
}

function biomeProject(): Record<string, string> {
  const files: Record<string, string> = {
    "biome.json": "{}\n",
    "clean/index.js":
      "export const answer = 42;\n\nexport function double(x) {\n  return x * 2;\n}\n",
  };
  for (const lib of LIBS.slice(0, 4)) {
    files[`src/${lib}.js`] = [
      "var hits = 0",
      `export function ${lib}(items, unused) {`,
      "  let total = 0",
      "  for (var i = 0; i < items.length; i++) {",
      "    if (items[i] == null) { debugger }",
      "    total += items[i]",
      "  }",
      "  return total",
      "}",
      "",
    ].join("\n");
  }
  return files;
}

const PY_MODULES = ["billing", "catalog", "orders", "shipping"];

function ruffProject(): Record<string, string> {
  const files: Record<string, string> = {
    "pyproject.toml": '[project]\nname = "shop"\nversion = "0.1.0"\nrequires-python = ">=3.11"\n',
    "clean/__init__.py": "",
    "clean/maths.py": 'def double(x: int) -> int:\n    """Double x."""\n    return x * 2\n',
    "shop/__init__.py": "",
  };
  for (const module of PY_MODULES) {
    files[`shop/${module}.py`] = [
      "import os",
      "import sys",
      "from typing import List",
      "",
      "",
      `def ${module}_total(items: List[int]) -> int:`,
      "    result = 0",
      "    for item in items:",
      "        if item == None:",
      "            continue",
      "    try:",
      "        return sum(items)",
      "    except:",
      '        print(f"failed")',
      "    return undefined_total",
      "",
    ].join("\n");
  }
  return files;
}

const MYPY_MODULES = [...PY_MODULES, "payments", "returns", "stock"];

function mypyProject(): Record<string, string> {
  const files: Record<string, string> = {
    "clean/__init__.py": "",
    "clean/maths.py": "def double(x: int) -> int:\n    return x * 2\n",
    "shop/__init__.py": "",
    "shop/config.py": 'TIMEOUT: int = 30\nNAME: str = "shop"\n',
  };
  for (const module of MYPY_MODULES) {
    files[`shop/${module}.py`] = [
      "from shop.config import SETTINGS, TIMEOUT",
      "",
      "",
      `def ${module}_total(items: list[int]) -> int:`,
      '    limit: int = "ten"',
      "    if not items:",
      "        return None",
      "    return sum(items) + TIMEOUT.seconds",
      "",
      "",
      `def ${module}_label(code: int) -> str:`,
      "    if code > 0:",
      '        return "ok"',
      "",
    ].join("\n");
  }
  files["shop/orders.py"] +=
    "\n\nimport missing_lib\n\ntotal: int = orders_total([1]) + missing_lib.x\n";
  return files;
}

function cargoToml(name: string): string {
  return `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n`;
}

const RS_MODULES = ["store", "report", "net"];

// A crate that does not compile: the same faults in each module, and some of its own.
function inventoryCrate(): Record<string, string> {
  const files: Record<string, string> = {
    "Cargo.toml": cargoToml("inventory"),
    "src/main.rs": [
      ...RS_MODULES.map((m) => `mod ${m};`),
      "use crate::missing::Ledger;",
      "",
      "pub struct Item {",
      "    pub name: String,",
      "    pub price: u32,",
      "}",
      "",
      "impl Item {",
      "    pub fn total(&self, qty: u32) -> u32 {",
      "        self.price * qty",
      "    }",
      "}",
      "",
      "fn main() {",
      '    let item = Item { name: String::from("pen"), price: 3 };',
      '    let count: u32 = "five";',
      '    println!("{} {}", item.total(count), store::load(1, 2));',
      "}",
      "",
    ].join("\n"),
  };
  for (const m of RS_MODULES) {
    files[`src/${m}.rs`] = [
      "use crate::Item;",
      "",
      `pub fn ${m}_value(item: &Item) -> u32 {`,
      "    let limit: u32 = CONFIG.limit;",
      "    item.totl(limit)",
      "}",
      "",
      `pub fn ${m}_name(item: &Item) -> String {`,
      "    item.name",
      "}",
      "",
      m === "store" ? "pub fn load(id: u32) -> u32 {\n    id\n}\n" : "",
    ].join("\n");
  }
  return files;
}

// A crate that compiles with warnings of the kinds that repeat.
function ledgerCrate(): Record<string, string> {
  const files: Record<string, string> = {
    "Cargo.toml": cargoToml("ledger"),
    "src/main.rs": [
      ...RS_MODULES.map((m) => `mod ${m};`),
      "",
      "fn main() {",
      ...RS_MODULES.map((m) => `    println!("{}", ${m}::${m}_sum(&[1, 2, 3]));`),
      "}",
      "",
    ].join("\n"),
  };
  for (const m of RS_MODULES) {
    files[`src/${m}.rs`] = [
      "use std::collections::HashMap;",
      "use std::fmt::Write;",
      "",
      `pub fn ${m}_sum(values: &[u32]) -> u32 {`,
      "    let mut total = 0;",
      "    let mut unused = 1;",
      "    let scratch = String::new();",
      "    if (values.len() > 2) {",
      "        total = values.iter().sum();",
      "    }",
      '    std::fs::remove_file("/nonexistent");',
      "    total",
      "}",
      "",
      `fn ${m}_helper() -> u32 {`,
      "    7",
      "}",
      "",
      "pub struct Unused {",
      "    field: u32,",
      "}",
      "",
    ].join("\n");
  }
  return files;
}

// A crate that compiles cleanly but that clippy finds fault with, the same in each module.
function lintmeCrate(): Record<string, string> {
  const files: Record<string, string> = {
    "Cargo.toml": cargoToml("lintme"),
    "src/main.rs": [
      ...RS_MODULES.map((m) => `mod ${m};`),
      "",
      "fn main() {",
      ...RS_MODULES.map((m) => `    println!("{}", ${m}::${m}_size(&vec![1, 2]));`),
      "}",
      "",
    ].join("\n"),
  };
  for (const m of RS_MODULES) {
    files[`src/${m}.rs`] = [
      `pub fn ${m}_size(v: &Vec<i32>) -> usize {`,
      "    if v.len() == 0 {",
      "        return 0;",
      "    }",
      "    let copy = v.clone();",
      "    let n = copy.len();",
      "    return n;",
      "}",
      "",
    ].join("\n");
  }
  return files;
}

const GO_PACKAGES = ["billing", "cart"];
const GO_FILES = ["invoice", "refund", "tax"];

// A module whose packages no longer compile after `prices.OldPrice` was renamed: each file of
// each package calls it, and has a fault or two of its own kind.
function goBrokenModule(): Record<string, string> {
  const files: Record<string, string> = {
    "go.mod": "module example.com/shop\n\ngo 1.19\n",
    "prices/prices.go": "package prices\n\nfunc NewPrice(cents int) int {\n\treturn cents\n}\n",
  };
  for (const pkg of GO_PACKAGES) {
    for (const file of GO_FILES) {
      const name = file[0].toUpperCase() + file.slice(1);
      files[`internal/${pkg}/${file}.go`] = [
        `package ${pkg}`,
        "",
        'import "example.com/shop/prices"',
        "",
        `func ${name}Total(items []int) int {`,
        "\ttotal := 0",
        "\tfor _, item := range items {",
        "\t\ttotal += prices.OldPrice(item)",
        "\t}",
        "\tif total > 100 {",
        "\t\treturn prices.OldPrice(total)",
        "\t}",
        '\tvar count int = "none"',
        "\treturn total",
        "}",
        "",
      ].join("\n");
    }
  }
  return files;
}

const GO_CLEAN: Record<string, string> = {
  "go.mod": "module example.com/tidy\n\ngo 1.19\n",
  "main.go":
    'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/tidy/maths"\n)\n\nfunc main() {\n\tfmt.Println(maths.Double(2))\n}\n',
  "maths/maths.go":
    "package maths\n\n// Double doubles x.\nfunc Double(x int) int {\n\treturn x * 2\n}\n",
};

// A module that compiles but that vet finds fault with: the same printf slips in each file.
function goVetModule(): Record<string, string> {
  const files: Record<string, string> = { "go.mod": "module example.com/vetme\n\ngo 1.19\n" };
  for (const pkg of GO_PACKAGES) {
    for (const file of GO_FILES) {
      const name = file[0].toUpperCase() + file.slice(1);
      files[`internal/${pkg}/${file}.go`] = [
        `package ${pkg}`,
        "",
        'import "fmt"',
        "",
        `func ${name}Report(name string, n int) string {`,
        '\tfmt.Printf("%d items\\n", name)',
        '\tfmt.Printf("%s has %d\\n", name)',
        '\tfmt.Printf("%d left\\n", name)',
        '\treturn fmt.Sprintf("%s", n)',
        "}",
        "",
      ].join("\n");
    }
  }
  return files;
}

const PROJECTS: Readonly<Record<string, () => Record<string, string>>> = {
  ts: tsProject,
  "ts-clean": () => TS_CLEAN,
  eslint: eslintProject,
  biome: biomeProject,
  ruff: ruffProject,
  mypy: mypyProject,
  inventory: inventoryCrate,
  ledger: ledgerCrate,
  lintme: lintmeCrate,
  tiny: () => ({
    "Cargo.toml": cargoToml("tiny"),
    "src/main.rs": 'fn main() {\n    println!("hi");\n}\n',
  }),
  "go-broken": goBrokenModule,
  "go-clean": () => GO_CLEAN,
  "go-vet": goVetModule,
};

// ---------------------------------------------------------------------------------------------
// Facts

// tsc without --pretty: `file(line,col): error TSxxxx: message`, chains indented below.
async function tscFacts(cwd: string): Promise<string[]> {
  const plain = await run(["tsc", "-p", ".", "--pretty", "false"], cwd);
  const facts: string[] = [];
  let errors = 0;
  const files = new Set<string>();
  for (const line of lines(plain.stdout)) {
    const m = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (m) {
      errors++;
      files.add(m[1]);
      facts.push(...pathFacts(m[1]), `${m[2]}:${m[3]}`, `${m[4]}: ${m[5]}`);
    } else if (/^\s+\S/.test(line)) facts.push(line.trim());
  }
  return unique([...facts, `${count(errors, "error")} in ${count(files.size, "file")}`]);
}

interface EslintResult {
  filePath: string;
  messages: { ruleId: string | null; message: string; line: number; column: number }[];
  errorCount: number;
  warningCount: number;
}

// eslint's JSON, with the final period stylish takes off each message.
async function eslintFacts(cwd: string, typed: readonly string[]): Promise<string[]> {
  const json = await run([...typed, "--format", "json"], cwd);
  const results = JSON.parse(json.stdout) as EslintResult[];
  const facts: string[] = [];
  let errors = 0;
  let warnings = 0;
  for (const result of results) {
    errors += result.errorCount;
    warnings += result.warningCount;
    if (result.messages.length === 0) continue;
    facts.push(...pathFacts(result.filePath));
    for (const m of result.messages) {
      const message = m.message.replace(/([^ ])\.$/u, "$1");
      facts.push(m.ruleId ? `${m.ruleId}: ${message}` : message, `${m.line}:${m.column}`);
    }
  }
  const total = errors + warnings;
  facts.push(
    `✖ ${count(total, "problem")} (${count(errors, "error")}, ${count(warnings, "warning")})`,
  );
  return unique(facts);
}

interface BiomeJson {
  summary: { errors: number; warnings: number };
  diagnostics: {
    category: string;
    message: string;
    location: { path: string; start?: { line: number; column: number } };
  }[];
}

// biome's JSON reporter; only the diagnostics the default reporter showed (it shows 20).
async function biomeFacts(cwd: string, typed: readonly string[], shown: string): Promise<string[]> {
  const json = await run([...typed, "--reporter=json"], cwd);
  const report = JSON.parse(json.stdout) as BiomeJson;
  const facts: string[] = [];
  for (const d of report.diagnostics) {
    const at = d.location.start ? `:${d.location.start.line}:${d.location.start.column}` : "";
    if (!shown.includes(`${d.location.path}${at} ${d.category}`)) continue;
    facts.push(...pathFacts(d.location.path), `${d.category}: ${d.message}`);
    if (at) facts.push(at.slice(1));
  }
  if (report.summary.errors) facts.push(`Found ${count(report.summary.errors, "error")}.`);
  if (report.summary.warnings) facts.push(`Found ${count(report.summary.warnings, "warning")}.`);
  return unique(facts);
}

interface RuffJson {
  code: string | null;
  filename: string;
  message: string;
  location: { row: number; column: number };
}

async function ruffFacts(cwd: string, typed: readonly string[]): Promise<string[]> {
  const json = await run([...typed, "--output-format", "json"], cwd);
  const items = JSON.parse(json.stdout) as RuffJson[];
  const facts: string[] = [];
  for (const item of items) {
    facts.push(
      ...pathFacts(relative(cwd, item.filename)),
      `${item.location.row}:${item.location.column}`,
      `${item.code}: `,
      item.message,
    );
  }
  facts.push(items.length ? `Found ${count(items.length, "error")}.` : "All checks passed!");
  return unique(facts);
}

// mypy's own lines: `file:line: error: message  [code]`, and its closing line.
function mypyFacts(run: Run): string[] {
  const facts: string[] = [];
  for (const line of lines(run.stdout)) {
    const m = /^(.+?):(\d+): (error|note): (.*?)(?: {2}\[([\w-]+)\])?$/.exec(line);
    if (m) {
      facts.push(...pathFacts(m[1]), m[4]);
      if (m[5]) facts.push(`${m[5]}: `);
    } else facts.push(line);
  }
  return unique(facts);
}

interface CargoSpan {
  file_name: string;
  line_start: number;
  column_start: number;
  is_primary: boolean;
  label: string | null;
}
interface CargoMessage {
  message: string;
  level: string;
  code: { code: string } | null;
  spans: CargoSpan[];
  children: CargoMessage[];
}

// Notes the filter turns into the diagnostic's code, and clippy's documentation links.
const CODE_NOTE =
  /^`#\[(warn|deny)\(|^`-D [\w:-]+` implied by|^to override `-D warnings` add|^for further information visit /;

// cargo's `--message-format json` of the same build: each message with a location, its code,
// its labels and its children's messages.
async function cargoFacts(cwd: string, typed: readonly string[], run0: Run): Promise<string[]> {
  const dash = typed.indexOf("--");
  const args = dash < 0 ? [...typed] : typed.slice(0, dash);
  const rest = dash < 0 ? [] : typed.slice(dash);
  const json = await run([...args, "--message-format", "json", ...rest], cwd, cargoEnv(cwd));
  const facts: string[] = [];
  for (const line of lines(json.stdout)) {
    const record = JSON.parse(line);
    if (record.reason !== "compiler-message") continue;
    const m = record.message as CargoMessage;
    const primary = m.spans.find((s) => s.is_primary);
    if (!primary) continue;
    facts.push(
      ...pathFacts(primary.file_name),
      `${primary.line_start}:${primary.column_start}`,
      m.message,
    );
    if (m.code) facts.push(m.code.code);
    for (const span of m.spans) if (span.label) facts.push(span.label);
    // Children the human output shows (some suggestions are for tools only).
    for (const child of m.children) {
      if (!CODE_NOTE.test(child.message) && run0.stderr.includes(child.message)) {
        facts.push(child.message);
      }
    }
  }
  const summary = lines(run0.stderr).find((l) => /^error: could not compile|^\s+Finished/.test(l));
  if (summary) facts.push(summary.trim().replace(/ in [\d.]+s$/, ""));
  return unique(facts);
}

function cargoEnv(cwd: string): Record<string, string> {
  return { CARGO_TARGET_DIR: join(cwd, "target") };
}

// go build's own lines: `file:line:col: message`.
function goBuildFacts(run: Run): string[] {
  const facts: string[] = [];
  for (const line of lines(run.stderr)) {
    const m = /^(.+?\.go):(\d+):(\d+): (.*)$/.exec(line);
    if (m) facts.push(...pathFacts(m[1]), `${m[2]}:${m[3]}`, m[4]);
    else if (!line.startsWith("# ")) facts.push(line);
  }
  return unique(facts);
}

// go vet -json: `{pkg: {analyzer: [{posn, message}]}}` objects, one per package.
async function goVetFacts(cwd: string, typed: readonly string[]): Promise<string[]> {
  const json = await run([typed[0], typed[1], "-json", ...typed.slice(2)], cwd, goEnv(cwd));
  const facts: string[] = [];
  for (const chunk of json.stderr.split(/^# .*$/m)) {
    if (chunk.trim() === "") continue;
    const packages = JSON.parse(chunk) as Record<
      string,
      Record<string, { posn: string; message: string }[]>
    >;
    for (const analyzers of Object.values(packages)) {
      for (const findings of Object.values(analyzers)) {
        for (const f of findings) {
          const m = /^(.+):(\d+):(\d+)$/.exec(f.posn);
          if (!m) throw new Error(`unexpected posn ${f.posn}`);
          facts.push(...pathFacts(relative(cwd, m[1])), `${m[2]}:${m[3]}`, f.message);
        }
      }
    }
  }
  return unique(facts);
}

// One package at a time, so the packages' errors come in the same order on every run.
function goEnv(cwd: string): Record<string, string> {
  return { GOCACHE: join(cwd, ".gocache"), GOMAXPROCS: "1" };
}

// ---------------------------------------------------------------------------------------------
// Cases

const CASES: readonly Case[] = [
  {
    name: "tsc_errors",
    filter: tscFilter,
    typed: ["tsc", "-p", "."],
    project: "ts",
    stream: "stdout",
    needs: "tsc",
    factsSource: "tsc -p . --pretty false: each error's file, line:col, code and message",
    facts: (cwd) => tscFacts(cwd),
  },
  {
    name: "tsc_pretty",
    filter: tscFilter,
    typed: ["tsc", "-p", ".", "--pretty"],
    project: "ts",
    stream: "stdout",
    needs: "tsc",
    factsSource: "tsc -p . --pretty false: each error's file, line:col, code and message",
    facts: (cwd) => tscFacts(cwd),
  },
  {
    name: "tsc_build_clean",
    filter: tscFilter,
    typed: ["tsc", "-b", "-v"],
    project: "ts-clean",
    stream: "stdout",
    needs: "tsc",
    factsSource: "the project tsc -b builds (tsconfig.json)",
    facts: () => Promise.resolve(["Projects in this build", "Building project", "tsconfig.json"]),
  },
  {
    name: "eslint_errors",
    filter: eslintFilter,
    typed: ["eslint", "src"],
    project: "eslint",
    stream: "stdout",
    needs: "eslint",
    factsSource: "eslint src --format json: each problem's file, rule, message and line:col",
    facts: (cwd, _run) => eslintFacts(cwd, ["eslint", "src"]),
  },
  {
    name: "eslint_warnings",
    filter: eslintFilter,
    typed: ["eslint", "src/lib"],
    project: "eslint",
    stream: "stdout",
    needs: "eslint",
    factsSource: "eslint src/lib --format json: each problem's file, rule, message and line:col",
    facts: (cwd) => eslintFacts(cwd, ["eslint", "src/lib"]),
  },
  {
    name: "biome_check",
    filter: biomeFilter,
    typed: ["biome", "check", "src"],
    project: "biome",
    stream: "stderr",
    needs: "biome",
    factsSource:
      "biome check src --reporter=json: each diagnostic the default reporter showed (file, category, message, line:col), the counts",
    facts: (cwd, run) => biomeFacts(cwd, ["biome", "check", "src"], run.stderr),
  },
  {
    name: "biome_lint_clean",
    filter: biomeFilter,
    typed: ["biome", "lint", "clean"],
    project: "biome",
    stream: "stderr",
    needs: "biome",
    factsSource: "the one file under clean/",
    facts: () => Promise.resolve(["Checked 1 file", "No fixes applied."]),
  },
  {
    name: "ruff_check",
    filter: ruffFilter,
    typed: ["ruff", "check", "shop"],
    project: "ruff",
    stream: "stdout",
    needs: "ruff",
    factsSource:
      "ruff check shop --output-format json: each violation's file, line:col, code, message",
    facts: (cwd) => ruffFacts(cwd, ["ruff", "check", "shop"]),
  },
  {
    name: "ruff_clean",
    filter: ruffFilter,
    typed: ["ruff", "check", "clean"],
    project: "ruff",
    stream: "stdout",
    needs: "ruff",
    factsSource: "ruff check clean --output-format json (no violations)",
    facts: (cwd) => ruffFacts(cwd, ["ruff", "check", "clean"]),
  },
  {
    name: "mypy_errors",
    filter: mypyFilter,
    typed: ["mypy", "shop"],
    project: "mypy",
    stream: "stdout",
    needs: "mypy",
    factsSource: "mypy's own lines: each error's file, message and code; its closing line",
    facts: (_cwd, run) => Promise.resolve(mypyFacts(run)),
  },
  {
    name: "mypy_clean",
    filter: mypyFilter,
    typed: ["mypy", "clean"],
    project: "mypy",
    stream: "stdout",
    needs: "mypy",
    factsSource: "mypy's own closing line",
    facts: (_cwd, run) => Promise.resolve(mypyFacts(run)),
  },
  cargoCase("cargo_build_errors", cargoBuildFilter, ["cargo", "build"], "inventory"),
  cargoCase("cargo_build_warnings", cargoBuildFilter, ["cargo", "build"], "ledger"),
  cargoCase("cargo_check_errors", cargoCheckFilter, ["cargo", "check"], "inventory"),
  cargoCase("cargo_check_clean", cargoCheckFilter, ["cargo", "check"], "tiny"),
  cargoCase("cargo_clippy_warnings", cargoClippyFilter, ["cargo", "clippy"], "lintme"),
  cargoCase(
    "cargo_clippy_deny",
    cargoClippyFilter,
    ["cargo", "clippy", "--", "-D", "warnings"],
    "lintme",
  ),
  {
    name: "go_build_errors",
    filter: goBuildFilter,
    typed: ["go", "build", "./..."],
    project: "go-broken",
    stream: "stderr",
    needs: "go",
    factsSource: "go build's own lines: each error's file, line:col and message",
    facts: (_cwd, run) => Promise.resolve(goBuildFacts(run)),
  },
  {
    name: "go_build_verbose",
    filter: goBuildFilter,
    typed: ["go", "build", "-v", "./..."],
    project: "go-clean",
    stream: "stderr",
    needs: "go",
    factsSource: "the packages of the module (go list ./...)",
    facts: async (cwd) => lines((await run(["go", "list", "./..."], cwd, goEnv(cwd))).stdout),
  },
  {
    name: "go_vet_findings",
    filter: goVetFilter,
    typed: ["go", "vet", "./..."],
    project: "go-vet",
    stream: "stderr",
    needs: "go",
    factsSource: "go vet -json ./...: each finding's file, line:col and message",
    facts: (cwd) => goVetFacts(cwd, ["go", "vet", "./..."]),
  },
];

function cargoCase(
  name: string,
  filter: CommandFilter,
  typed: readonly string[],
  project: string,
): Case {
  return {
    name,
    filter,
    typed,
    project,
    stream: "stderr",
    needs: "cargo",
    factsSource: `${
      typed.join(" ")
    } --message-format json: each message's file, line:col, message, code, labels and children (but lint-level notes and clippy's links, which become the code); the closing line`,
    facts: (cwd, run0) => cargoFacts(cwd, typed, run0),
  };
}

// ---------------------------------------------------------------------------------------------

async function setUp(): Promise<void> {
  await Deno.remove(WORK, { recursive: true }).catch(() => {});
  await Deno.mkdir(join(WORK, "tools"), { recursive: true });
  await Deno.writeTextFile(join(WORK, "tools/package.json"), '{ "private": true }\n');
  const npm = await run(
    ["npm", "install", "--no-fund", "--no-audit", "--no-save", ...NPM_TOOLS],
    join(WORK, "tools"),
  );
  if (npm.code !== 0) throw new Error(`npm install failed: ${npm.stderr}`);
  for (const [name, files] of Object.entries(PROJECTS)) await writeTree(join(WORK, name), files());
}

async function capture(test: Case): Promise<void> {
  const cwd = join(WORK, test.project);
  const extra = test.needs === "cargo" ? cargoEnv(cwd) : test.needs === "go" ? goEnv(cwd) : {};
  if (test.needs === "cargo") {
    await Deno.remove(extra.CARGO_TARGET_DIR, { recursive: true }).catch(() => {});
  }
  if (test.needs === "go") await Deno.remove(extra.GOCACHE, { recursive: true }).catch(() => {});
  const result = await run(test.typed, cwd, extra);
  const bytes = test.stream === "stderr" ? result.stderr : result.stdout;
  const facts = await test.facts(cwd, result);
  const dir = join(FIXTURES, test.name);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "raw.out"), bytes);
  await Deno.writeTextFile(join(dir, "shaped.out"), bytes);
  const meta = {
    filter: test.filter.name,
    kind: "build",
    ...(test.stream === "stderr" ? { stream: "stderr" } : {}),
    typed: test.typed,
    ran: test.typed,
    exitCode: result.code,
    facts,
    factsSource: test.factsSource,
  };
  await Deno.writeTextFile(join(dir, "meta.json"), JSON.stringify(meta, null, 2) + "\n");
  console.log(`${test.name}: exit ${result.code}, ${bytes.length} chars, ${facts.length} facts`);
}

if (import.meta.main) {
  await setUp();
  const only = Deno.args.length ? new Set(Deno.args) : null;
  const missing = new Set<string>();
  for (const test of CASES) {
    if (only && !only.has(test.name)) continue;
    if (!(await has(test.needs))) {
      missing.add(test.needs);
      console.error(`${test.name}: skipped, ${test.needs} is not on PATH`);
      continue;
    }
    await capture(test);
  }
  if (missing.size) console.error(`missing tools: ${[...missing].join(", ")}`);
}
