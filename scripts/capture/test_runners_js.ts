/**
 * Captures the golden fixtures of the JavaScript test-runner filters (`jest`, `vitest`,
 * `mocha`, `node --test`, `deno test`) from the real runners. It generates one small,
 * deterministic test suite per runner in a fixed directory under /tmp (so the paths the runners
 * print are the same on every capture): passing tests in plain and nested groups, five failing
 * ones (a `toBe`/`strictEqual` mismatch, a deep-equality diff, a thrown TypeError, a failing
 * async test, a failure two groups deep), a skipped and a todo test, and a file that fails to
 * load. Each runner runs a passing-only variant and the failing one.
 *
 * jest, vitest and mocha are installed with npm, at pinned versions, into
 * `/tmp/rtok-capture-js-runners/npm` (kept between captures as a cache); `node` and `deno` are
 * the ones on the PATH. The facts come from each runner's own machine report, run separately on
 * the same suite (jest's and vitest's `--json` files, mocha's `--reporter json`, node's and
 * deno's JUnit reporter), or from `node --check` / `deno check` for a file that fails to load:
 * never from rtok's output.
 *
 * Run: `deno run --allow-read --allow-write --allow-run --allow-env scripts/capture/test_runners_js.ts`
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandFilter } from "../../src/core/filter.ts";
import { splitArgv } from "../../src/core/command.ts";
import { denoTestFilter } from "../../filters/deno_tests.ts";
import { jestFilter } from "../../filters/jest.ts";
import { mochaFilter } from "../../filters/mocha.ts";
import { nodeTestFilter } from "../../filters/node_tests.ts";
import { vitestFilter } from "../../filters/vitest.ts";

const FIXTURES = fileURLToPath(new URL("../../tests/fixtures/", import.meta.url));
/** Every generated project lives here; `npm/` holds the npm-installed runners. */
const ROOT = "/tmp/rtok-capture-js-runners";
const NPM_DIR = join(ROOT, "npm");
/** The runner versions installed with npm (vitest 3: vite 8 needs a newer Node than 20). */
const VERSIONS: Readonly<Record<string, string>> = {
  jest: "30.5.2",
  vitest: "3.2.7",
  mocha: "12.0.3",
};

// ---------------------------------------------------------------------------------------------
// The generated suite

/** How a runner spells tests, groups and assertions. */
type Dialect = "jest" | "vitest" | "mocha" | "node" | "deno";

/** One generated test. */
interface TestDef {
  readonly name: string;
  readonly kind: "pass" | "skip" | "todo";
  /** The body's statements, one a line, written with `eq` / `deq` (see `assertion`). */
  readonly body?: readonly string[];
  readonly async?: boolean;
}

/** A group of tests (`describe`, or a Deno test with steps), or a test at the top. */
type Node = TestDef | { readonly group: string; readonly children: readonly Node[] };

/** One generated test file. */
interface FileDef {
  /** The file's stem: `math` becomes `math.test.js` (`math_test.ts` for Deno). */
  readonly stem: string;
  readonly imports: readonly string[];
  readonly nodes: readonly Node[];
}

const WORDS = [
  "alpha",
  "beta",
  "gamma",
  "delta",
  "epsilon",
  "zeta",
  "eta",
  "theta",
  "iota",
  "kappa",
];

/**
 * The suite. Tests that fail in the failing variant pass in the passing one: they call the
 * same lines of `lib`, whose behaviour (and the header the parser gets) is what changes, so
 * both variants have the same names and line numbers.
 */
function suiteFiles(): FileDef[] {
  const adds: TestDef[] = Array.from({ length: 12 }, (_, k) => {
    const i = k + 1;
    return {
      name: `adds ${i} and ${i * 2}`,
      kind: "pass",
      body: [`eq(add(${i}, ${i * 2}), ${3 * i})`],
    };
  });
  const pads: TestDef[] = WORDS.map((word) => ({
    name: `pads "${word}" to width 8`,
    kind: "pass",
    body: [`eq(pad("${word}", 8).length, 8)`],
  }));
  const uniques: TestDef[] = Array.from({ length: 12 }, (_, k) => {
    const n = k + 2;
    const values = Array.from({ length: n * 2 }, (_, j) => j % n).join(", ");
    return {
      name: `unique keeps ${n} distinct values`,
      kind: "pass",
      body: [`eq(unique([${values}]).length, ${n})`],
    };
  });
  const evictions: TestDef[] = Array.from({ length: 8 }, (_, k) => {
    const cap = k + 1;
    return {
      name: `keeps at most ${cap} entries`,
      kind: "pass",
      body: [
        `const cache = lru(${cap})`,
        `for (let i = 0; i < ${cap + 3}; i++) cache.set(i, i)`,
        `eq(cache.size(), ${cap})`,
      ],
    };
  });
  const lookups: TestDef[] = Array.from({ length: 8 }, (_, k) => ({
    name: `finds key ${k}`,
    kind: "pass",
    body: [`const cache = lru(8)`, `cache.set(${k}, "v${k}")`, `eq(cache.get(${k}), "v${k}")`],
  }));
  const groupings: TestDef[] = Array.from({ length: 12 }, (_, k) => {
    const n = 7 ** (k + 1);
    return {
      name: `groups the digits of ${n}`,
      kind: "pass",
      body: [`eq(group(${n}), "${n.toLocaleString("en-US")}")`],
    };
  });
  return [
    {
      stem: "math",
      imports: ["add", "average", "config"],
      nodes: [{
        group: "math",
        children: [
          ...adds,
          { name: "computes the average", kind: "pass", body: ["eq(average([1, 2, 3, 4]), 2.5)"] },
          {
            name: "builds the config object",
            kind: "pass",
            body: [`deq(config(), { name: "rtok", retries: 3, verbose: false })`],
          },
          { name: "skips the slow path", kind: "skip", body: ["eq(add(1, 1), 2)"] },
          { name: "handles unicode", kind: "todo" },
        ],
      }],
    },
    {
      stem: "strings",
      imports: ["pad", "parseHeader", "fetchUser", "HEADER"],
      nodes: [
        ...pads,
        { name: "parses the header", kind: "pass", body: [`deq(parseHeader(HEADER), ["a", "b"])`] },
        {
          name: "fetches the user asynchronously",
          kind: "pass",
          async: true,
          body: ["const user = await fetchUser(1)", `eq(user.name, "Ada")`],
        },
      ],
    },
    {
      stem: "collections",
      imports: ["unique"],
      nodes: [{ group: "collections", children: uniques }],
    },
    {
      stem: "format",
      imports: ["group"],
      nodes: [{ group: "format", children: [{ group: "numbers", children: groupings }] }],
    },
    {
      stem: "cache",
      imports: ["lru"],
      nodes: [{
        group: "cache",
        children: [
          {
            group: "eviction",
            children: [
              ...evictions,
              {
                name: "evicts the oldest entry first",
                kind: "pass",
                body: [
                  "const cache = lru(2)",
                  `cache.set("a", 1)`,
                  `cache.set("b", 2)`,
                  `cache.set("c", 3)`,
                  `eq(cache.has("a"), false)`,
                ],
              },
            ],
          },
          { group: "lookup", children: lookups },
        ],
      }],
    },
  ];
}

/** The library under test; `failing` plants the five bugs. */
function libSource(dialect: Dialect, failing: boolean): string {
  const ts = dialect === "deno";
  const t = (type: string) => (ts ? `: ${type}` : "");
  const decls = [
    `const add = (a${t("number")}, b${t("number")}) => a + b;`,
    `const pad = (s${t("string")}, width${t("number")}) => s.padEnd(width, ".");`,
    `const unique = (xs${t("number[]")}) => [...new Set(xs)];`,
    `const group = (n${t("number")}) => String(n).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ",");`,
    failing
      ? `const average = (xs${
        t("number[]")
      }) => Math.floor(xs.reduce((a, b) => a + b, 0) / xs.length);`
      : `const average = (xs${t("number[]")}) => xs.reduce((a, b) => a + b, 0) / xs.length;`,
    `const config = () => ({ name: "rtok", retries: ${failing ? 2 : 3}, verbose: ${failing} });`,
    `const HEADER = ${failing ? "undefined" : `"a:b"`}${ts ? " as unknown as string" : ""};`,
    `const parseHeader = (value${t("string")}) => value.split(":");`,
    `const fetchUser = (id${t("number")}) =>`,
    `  new Promise${ts ? "<{ id: number; name: string }>" : ""}((resolve) =>`,
    `    setTimeout(() => resolve({ id, name: "${failing ? "Grace" : "Ada"}" }), 5)`,
    `  );`,
    `const lru = (capacity${t("number")}) => {`,
    `  const entries = new Map${ts ? "<unknown, unknown>" : ""}();`,
    `  return {`,
    `    set(key${t("unknown")}, value${t("unknown")}) {`,
    `      entries.delete(key);`,
    `      entries.set(key, value);`,
    `      if (entries.size > capacity) {`,
    `        entries.delete(${
      failing ? "[...entries.keys()].at(-2)" : "entries.keys().next().value"
    });`,
    `      }`,
    `    },`,
    `    get: (key${t("unknown")}) => entries.get(key),`,
    `    has: (key${t("unknown")}) => entries.has(key),`,
    `    size: () => entries.size,`,
    `  };`,
    `};`,
  ];
  const names = "add, pad, unique, group, average, config, HEADER, parseHeader, fetchUser, lru";
  const tail = dialect === "vitest" || ts
    ? `export { ${names} };`
    : `module.exports = { ${names} };`;
  return [...decls, tail, ""].join("\n");
}

/** One assertion line in the dialect: `eq(a, b)` is strict equality, `deq` deep equality. */
function statement(dialect: Dialect, line: string): string {
  const m = /^(d?eq)\((.*)\)$/.exec(line);
  if (!m) return `${line};`;
  // Split `a, b` at the comma that closes the first argument.
  const args = m[2];
  let depth = 0;
  let split = -1;
  for (let i = 0; i < args.length; i++) {
    const c = args[i];
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (c === "," && depth === 0) {
      split = i;
      break;
    }
  }
  const actual = args.slice(0, split);
  const expected = args.slice(split + 2);
  const deep = m[1] === "deq";
  if (dialect === "jest" || dialect === "vitest") {
    return `expect(${actual}).${deep ? "toEqual" : "toBe"}(${expected});`;
  }
  return `assert.${deep ? "deepStrictEqual" : "strictEqual"}(${actual}, ${expected});`;
}

function renderNodes(dialect: Dialect, nodes: readonly Node[], indent: string, step: boolean) {
  const out: string[] = [];
  for (const node of nodes) {
    if ("group" in node) out.push(...renderGroup(dialect, node, indent, step));
    else out.push(...renderTest(dialect, node, indent, step));
  }
  return out;
}

function renderGroup(
  dialect: Dialect,
  node: { group: string; children: readonly Node[] },
  indent: string,
  step: boolean,
): string[] {
  const name = JSON.stringify(node.group);
  if (dialect !== "deno") {
    return [
      `${indent}describe(${name}, () => {`,
      ...renderNodes(dialect, node.children, indent + "  ", false),
      `${indent}});`,
    ];
  }
  const opener = step
    ? `await t.step(${name}, async (t) => {`
    : `Deno.test(${name}, async (t) => {`;
  return [
    `${indent}${opener}`,
    ...renderNodes(dialect, node.children, indent + "  ", true),
    `${indent}});`,
  ];
}

function renderTest(dialect: Dialect, test: TestDef, indent: string, step: boolean): string[] {
  const name = JSON.stringify(test.name);
  const body = (test.body ?? []).map((line) => `${indent}  ${statement(dialect, line)}`);
  const fn = test.async ? "async () =>" : "() =>";
  if (dialect === "deno") {
    if (test.kind === "todo") return [];
    const call = step ? "await t.step" : "Deno.test";
    if (test.kind === "skip") {
      return [
        `${indent}${call}({ name: ${name}, ignore: true, fn${test.async ? ": async" : ""}() {`,
        ...body,
        `${indent}} });`,
      ];
    }
    return [`${indent}${call}(${name}, ${fn} {`, ...body, `${indent}});`];
  }
  const it = dialect === "mocha" || dialect === "node" ? "it" : "test";
  if (test.kind === "todo") {
    return [dialect === "mocha" ? `${indent}it(${name});` : `${indent}${it}.todo(${name});`];
  }
  const call = test.kind === "skip" ? `${it}.skip` : it;
  return [`${indent}${call}(${name}, ${fn} {`, ...body, `${indent}});`];
}

function testFileSource(dialect: Dialect, file: FileDef, libPath: string): string {
  const names = `{ ${file.imports.join(", ")} }`;
  const usesGroups = file.nodes.some((node) => "group" in node);
  const head: string[] = [];
  switch (dialect) {
    case "jest":
      head.push(`const ${names} = require("${libPath}");`);
      break;
    case "vitest":
      head.push(
        `import { ${usesGroups ? "describe, " : ""}expect, test } from "vitest";`,
        `import ${names} from "${libPath}";`,
      );
      break;
    case "mocha":
      head.push(
        `const assert = require("node:assert/strict");`,
        `const ${names} = require("${libPath}");`,
      );
      break;
    case "node":
      head.push(
        `const { ${usesGroups ? "describe, " : ""}it } = require("node:test");`,
        `const assert = require("node:assert/strict");`,
        `const ${names} = require("${libPath}");`,
      );
      break;
    case "deno":
      head.push(`import assert from "node:assert/strict";`, `import ${names} from "${libPath}";`);
      break;
  }
  return [...head, "", ...renderNodes(dialect, file.nodes, "", false), ""].join("\n");
}

/** A file that cannot load, as each runner meets one. */
type Broken = "none" | "syntax" | "throws" | "types";

interface SuiteSpec {
  readonly dialect: Dialect;
  readonly failing: boolean;
  readonly broken: Broken;
}

/** Writes the suite into `dir`; returns the names of the test files written. */
async function writeSuite(dir: string, spec: SuiteSpec): Promise<string[]> {
  const { dialect, failing, broken } = spec;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  // mocha's default spec is ./test/*.js; the others find test files where they are.
  const testDir = dialect === "mocha" ? join(dir, "test") : dir;
  await Deno.mkdir(testDir, { recursive: true });
  const libName = dialect === "deno" ? "lib.ts" : "lib.js";
  await Deno.writeTextFile(join(dir, libName), libSource(dialect, failing));
  const libPath = dialect === "mocha" ? `../${libName}` : `./${libName}`;
  const fileName = (stem: string) => dialect === "deno" ? `${stem}_test.ts` : `${stem}.test.js`;
  const written: string[] = [];
  for (const file of suiteFiles()) {
    const name = fileName(file.stem);
    await Deno.writeTextFile(join(testDir, name), testFileSource(dialect, file, libPath));
    written.push(name);
  }
  const brokenSource: Record<Exclude<Broken, "none">, string> = {
    syntax: `const retries = ;\n`,
    throws: `throw new Error("fixture database is missing");\n`,
    types:
      `const retries: number = "three";\nDeno.test("never runs", () => {});\nexport { retries };\n`,
  };
  if (broken !== "none") {
    const stem = broken === "throws" ? "setup" : broken === "types" ? "types" : "broken";
    const name = fileName(stem);
    const test = dialect === "deno" || broken !== "syntax"
      ? ""
      : `${dialect === "node" || dialect === "mocha" ? "it" : "test"}("never runs", () => {});\n`;
    await Deno.writeTextFile(join(testDir, name), brokenSource[broken] + test);
    written.push(name);
  }
  if (dialect === "jest") {
    // Without a config of its own jest takes the package.json above as its root.
    await Deno.writeTextFile(join(dir, "jest.config.js"), "module.exports = {};\n");
  }
  return written;
}

// ---------------------------------------------------------------------------------------------
// Running the tools

/** What a run printed. */
interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

const ENV: Record<string, string> = {
  PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
  HOME: Deno.env.get("HOME") ?? "/root",
  LC_ALL: "C.UTF-8",
  TZ: "UTC",
};

async function run(
  cmd: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
): Promise<Run> {
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    clearEnv: true,
    env: { ...ENV, ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { stdout: decode(out.stdout), stderr: decode(out.stderr), code: out.code };
}

async function installedVersion(name: string): Promise<string | null> {
  try {
    const text = await Deno.readTextFile(join(NPM_DIR, "node_modules", name, "package.json"));
    return JSON.parse(text).version;
  } catch {
    return null;
  }
}

/** Installs the pinned jest, vitest and mocha into `NPM_DIR` unless they are there already. */
async function ensureRunners(): Promise<void> {
  const missing: string[] = [];
  for (const [name, version] of Object.entries(VERSIONS)) {
    if (await installedVersion(name) !== version) missing.push(`${name}@${version}`);
  }
  if (missing.length === 0) return;
  await Deno.mkdir(NPM_DIR, { recursive: true });
  const pkg = { name: "rtok-capture-js-runners", private: true, devDependencies: VERSIONS };
  await Deno.writeTextFile(join(NPM_DIR, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  console.log(`installing ${missing.join(", ")} into ${NPM_DIR}`);
  const out = await run(["npm", "install", "--no-fund", "--no-audit"], NPM_DIR);
  if (out.code !== 0) throw new Error(`npm install failed: ${out.stderr}`);
}

// ---------------------------------------------------------------------------------------------
// Facts, from each runner's own machine report

const REPORTS = join(ROOT, "reports");

/**
 * `path:line:col` of the first stack frame inside `dir` (not under node_modules), relative to
 * `dir`; frames may name files absolutely, as `file://` URLs, or relative to `dir` already.
 */
function projectFrame(stack: string, dir: string): string | null {
  const frame = /(?:\(|at |^)(?:file:\/\/)?([^\s()'"]+?):(\d+):(\d+)\)?$/;
  for (const line of stack.split("\n")) {
    const m = frame.exec(line.trim());
    if (!m || m[1].includes("/node_modules/") || /^(node|ext):/.test(m[1])) continue;
    if (m[1].startsWith("/") && !m[1].startsWith(`${dir}/`)) continue;
    const path = m[1].startsWith("/") ? m[1].slice(dir.length + 1) : m[1];
    return `${path}:${m[2]}:${m[3]}`;
  }
  return null;
}

/** The lines of an error message before its stack, trimmed, blank ones dropped. */
function messageLines(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    if (/^\s+at /.test(line)) break;
    if (line.trim() !== "") lines.push(line.trim());
  }
  return lines;
}

function need<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`no ${what}`);
  return value;
}

/** The parts of jest's (and vitest's jest-compatible) `--json` report the facts use. */
interface JestReport {
  numFailedTests: number;
  numPassedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numTotalTests: number;
  numFailedTestSuites: number;
  numTotalTestSuites: number;
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: {
      ancestorTitles: string[];
      title: string;
      status: string;
      failureMessages: string[];
    }[];
  }[];
}

async function readReport<T>(name: string): Promise<T> {
  return JSON.parse(await Deno.readTextFile(join(REPORTS, name))) as T;
}

/**
 * jest: every failing test's ` › ` title, message lines and first frame in the project, for
 * the test files `only` (all when empty).
 */
async function jestFacts(dir: string, only: readonly string[] = []): Promise<string[]> {
  await Deno.mkdir(REPORTS, { recursive: true });
  const file = join(REPORTS, "jest.json");
  const flags = ["--json", "--testLocationInResults", `--outputFile=${file}`];
  await run(["npx", "jest", ...flags, ...only], dir);
  const report = await readReport<JestReport>("jest.json");
  const facts: string[] = [];
  for (const result of report.testResults) {
    if (result.status === "failed" && result.assertionResults.length === 0) {
      facts.push(result.name.slice(dir.length + 1));
      facts.push(
        need(result.message.split("\n").find((l) => /\w*Error: /.test(l)), "error").trim(),
      );
    }
    for (const test of result.assertionResults) {
      if (test.status !== "failed") continue;
      const message = test.failureMessages[0];
      // jest prints a plain `Error: ` name only in its JSON, not in its report.
      facts.push([...test.ancestorTitles, test.title].join(" › "));
      facts.push(...messageLines(message.replace(/^Error: /, "")));
      facts.push(need(projectFrame(message, dir), `frame of ${test.title}`));
    }
  }
  return [...facts, ...jestCounts(report)];
}

function jestCounts(report: JestReport): string[] {
  const counts = [`${report.numTotalTests} total`];
  if (report.numFailedTests) counts.push(`${report.numFailedTests} failed`);
  if (report.numPassedTests) counts.push(`${report.numPassedTests} passed`);
  if (report.numPendingTests) counts.push(`${report.numPendingTests} skipped`);
  if (report.numTodoTests) counts.push(`${report.numTodoTests} todo`);
  return counts;
}

/**
 * vitest: on stdout each failing test's ` > ` title and message, the files that failed and the
 * counts; on stderr each failure's title, full first message line and location.
 */
async function vitestFacts(dir: string, stream: "stdout" | "stderr"): Promise<string[]> {
  await Deno.mkdir(REPORTS, { recursive: true });
  const file = join(REPORTS, "vitest.json");
  await run(["npx", "vitest", "run", "--reporter=json", `--outputFile=${file}`], dir);
  const report = await readReport<JestReport>("vitest.json");
  const facts: string[] = [];
  for (const result of report.testResults) {
    // A file that failed to load shows on stderr only.
    if (result.status === "failed" && result.assertionResults.length === 0 && stream === "stderr") {
      facts.push(result.name.slice(dir.length + 1), result.message.split("\n")[0]);
    }
    for (const test of result.assertionResults) {
      if (test.status !== "failed") continue;
      const message = test.failureMessages[0];
      const first = message.split("\n")[0];
      facts.push([...test.ancestorTitles, test.title].join(" > "));
      if (stream === "stdout") facts.push(first.replace(/^[\w$.]*Error: /, ""));
      else facts.push(first, need(projectFrame(message, dir), `frame of ${test.title}`));
    }
  }
  if (stream === "stderr") return facts;
  return [...facts, ...jestCounts(report).filter((count) => !count.endsWith("total"))];
}

/** The parts of mocha's `--reporter json` output the facts use. */
interface MochaReport {
  stats: { passes: number; pending: number; failures: number };
  failures: { title: string; err: { message: string; stack: string } }[];
}

/** mocha: every failure's title, message lines and first frame, and the counts. */
async function mochaFacts(dir: string): Promise<string[]> {
  const out = await run(["npx", "mocha", "--reporter", "json"], dir);
  const report = JSON.parse(out.stdout) as MochaReport;
  const facts: string[] = [];
  for (const failure of report.failures) {
    facts.push(failure.title, ...messageLines(failure.err.message));
    facts.push(need(projectFrame(failure.err.stack, dir), `frame of ${failure.title}`));
  }
  const { passes, pending, failures } = report.stats;
  facts.push(`${passes} passing`);
  if (pending) facts.push(`${pending} pending`);
  if (failures) facts.push(`${failures} failing`);
  return facts;
}

/** A file that fails to load: node's own parse error (mocha loads files with node). */
async function nodeCheckFacts(dir: string, file: string): Promise<string[]> {
  const out = await run(["node", "--check", file], dir);
  const lines = out.stderr.split("\n");
  const at = need(/^(\/.+):(\d+)$/.exec(lines[0]), "node --check location");
  return [
    `${at[1].slice(dir.length + 1)}:${at[2]}`,
    need(lines.find((l) => /^\w*Error: /.test(l)), "error"),
  ];
}

/** A `<testcase>` of a JUnit report. */
interface JunitCase {
  readonly attrs: Record<string, string>;
  /** The `<failure>` element's text, `null` when it did not fail. */
  readonly failure: string | null;
  readonly failureMessage: string | null;
  /** The `<skipped>` element's `type` (or `""`), `null` when not skipped. */
  readonly skipped: string | null;
}

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp|#(\d+)|#x([0-9a-f]+));/gi, (_, name, dec, hex) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" }[name as string] ?? "";
  });
}

function xmlAttrs(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of text.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[m[1]] = unescapeXml(m[2]);
  return attrs;
}

/** The test cases of a JUnit XML report (enough of XML for what node and deno write). */
function junitCases(xml: string): JunitCase[] {
  const cases: JunitCase[] = [];
  const re = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  for (const m of xml.matchAll(re)) {
    const body = m[3] ?? "";
    const failure = /<failure\b([^>]*?)(?:\/>|>([\s\S]*?)<\/failure>)/.exec(body);
    const skipped = /<skipped\b([^>]*?)\/?>/.exec(body);
    cases.push({
      attrs: xmlAttrs(m[1]),
      failure: failure ? unescapeXml(failure[2] ?? "") : null,
      failureMessage: failure ? xmlAttrs(failure[1]).message ?? "" : null,
      skipped: skipped ? xmlAttrs(skipped[1]).type ?? "" : null,
    });
  }
  return cases;
}

/** node --test: every failing test's name, message and first frame; the counts. */
async function nodeTestFacts(dir: string, broken: string | null): Promise<string[]> {
  const out = await run(["node", "--test", "--test-reporter=junit"], dir);
  const cases = junitCases(out.stdout);
  const facts: string[] = [];
  let pass = 0;
  let fail = 0;
  let skipped = 0;
  let todo = 0;
  for (const test of cases) {
    if (test.skipped !== null) {
      if (test.skipped === "todo" || /# TODO/.test(test.attrs.name)) todo++;
      else skipped++;
      continue;
    }
    if (test.failure === null) {
      pass++;
      continue;
    }
    fail++;
    facts.push(test.attrs.name);
    // `Error [ERR_TEST_FAILURE]: <message>`, the test's own error following as its cause;
    // node writes an error without a stack as `[Error: <message>] { <properties> }`.
    const body = test.failure.trim().replace(/^\[/, "");
    const message: string[] = [];
    for (const line of body.replace(/^[\w ]*(\[\w+\])?: /, "").split("\n")) {
      if (/^\s+at /.test(line)) break;
      const end = /^(.*?)\] \{/.exec(line);
      if (end?.[1].trim()) message.push(end[1].trim());
      if (end) break;
      if (line.trim()) message.push(line.trim());
    }
    if (message[0] !== "test failed") facts.push(...message);
    const frame = projectFrame(body, dir);
    if (frame) facts.push(frame);
  }
  if (broken) facts.push(...await nodeCheckFacts(dir, broken));
  facts.push(`tests ${cases.length}`, `pass ${pass}`, `fail ${fail}`);
  if (skipped) facts.push(`skipped ${skipped}`);
  if (todo) facts.push(`todo ${todo}`);
  return facts;
}

/**
 * deno test: every failing test's name, location and message, and each of `throwing`, the
 * modules that throw as they load, with its error; the counts.
 */
async function denoTestFacts(dir: string, throwing: readonly string[] = []): Promise<string[]> {
  const out = await run(["deno", "test", "--reporter=junit"], dir);
  const cases = junitCases(out.stdout);
  const facts: string[] = [];
  let passed = 0;
  let failed = 0;
  let ignored = 0;
  for (const test of cases) {
    const top = !test.attrs.name.includes(" > ");
    if (test.skipped !== null) {
      if (top) ignored++;
      continue;
    }
    if (test.failure === null) {
      if (top) passed++;
      continue;
    }
    if (top) failed++;
    // A group that failed only through its steps says so; its steps carry the facts.
    if (/^\d+ test steps? failed/.test(test.failureMessage ?? "")) continue;
    const { name, classname, line, col } = test.attrs;
    facts.push(name.split(" > ").at(-1) ?? name);
    if (line) facts.push(`${classname}:${line}:${col}`);
    facts.push(...messageLines((test.failureMessage ?? "").replace(/^Uncaught /, "")));
  }
  // deno's JUnit report leaves out a module that throws as it loads; `deno run` shows it.
  for (const file of throwing) {
    const out = await run(["deno", "run", file], dir);
    // deno-lint-ignore no-control-regex
    const error = out.stderr.replace(/\x1b\[[0-9;]*m/g, "").split("\n")[0];
    facts.push(file, need(/^error: Uncaught (?:\(in promise\) )?(.+)$/.exec(error), "error")[1]);
    failed++;
  }
  facts.push(`${passed} passed`, `${failed} failed`);
  if (ignored) facts.push(`${ignored} ignored`);
  return facts;
}

/** deno test on a file that does not type-check: `deno check`'s own diagnostic. */
async function denoCheckFacts(dir: string, file: string): Promise<string[]> {
  const out = await run(["deno", "check", file], dir);
  // deno colours its diagnostics even on a pipe.
  // deno-lint-ignore no-control-regex
  const text = out.stderr.replace(/\x1b\[[0-9;]*m/g, "");
  const diag = need(/(TS\d+) \[ERROR\]: (.+)/.exec(text), "deno check diagnostic");
  const at = need(/at file:\/\/(\S+):(\d+):(\d+)/.exec(text), "deno check location");
  return [diag[1], diag[2], `${at[1].slice(dir.length + 1)}:${at[2]}:${at[3]}`];
}

// ---------------------------------------------------------------------------------------------
// The cases

/** One fixture. */
interface Case {
  readonly name: string;
  readonly filter: CommandFilter;
  readonly typed: readonly string[];
  readonly suite: SuiteSpec;
  /** The stream the runner prints its report on, and so the one the fixture keeps. */
  readonly stream: "stdout" | "stderr";
  /** Environment the runner sees besides PATH, HOME, LC_ALL and TZ. */
  readonly env?: Readonly<Record<string, string>>;
  readonly factsSource: string;
  facts(dir: string): Promise<string[]>;
}

const pass = (dialect: Dialect): SuiteSpec => ({ dialect, failing: false, broken: "none" });
const fail = (dialect: Dialect, broken: Broken): SuiteSpec => ({ dialect, failing: true, broken });

const CASES: readonly Case[] = [
  {
    name: "jest_pass",
    filter: jestFilter,
    typed: ["npx", "jest"],
    suite: pass("jest"),
    stream: "stderr",
    factsSource: "npx jest --json --testLocationInResults --outputFile=<file>",
    facts: (dir) => jestFacts(dir),
  },
  {
    name: "jest_verbose_pass",
    filter: jestFilter,
    typed: ["npx", "jest", "--verbose"],
    suite: pass("jest"),
    stream: "stderr",
    factsSource: "npx jest --json --testLocationInResults --outputFile=<file>",
    facts: (dir) => jestFacts(dir),
  },
  {
    name: "jest_fail",
    filter: jestFilter,
    typed: ["npx", "jest"],
    suite: fail("jest", "syntax"),
    stream: "stderr",
    factsSource: "npx jest --json --testLocationInResults --outputFile=<file>",
    facts: (dir) => jestFacts(dir),
  },
  {
    // One file: jest lists its tests as with --verbose; FORCE_COLOR as CI systems set it.
    name: "jest_one_file_color",
    filter: jestFilter,
    typed: ["npx", "jest", "math.test.js"],
    suite: fail("jest", "none"),
    stream: "stderr",
    env: { FORCE_COLOR: "1" },
    factsSource: "npx jest --json --testLocationInResults --outputFile=<file> math.test.js",
    facts: (dir) => jestFacts(dir, ["math.test.js"]),
  },
  {
    name: "vitest_pass",
    filter: vitestFilter,
    typed: ["npx", "vitest", "run"],
    suite: pass("vitest"),
    stream: "stdout",
    factsSource: "npx vitest run --reporter=json --outputFile=<file>",
    facts: (dir) => vitestFacts(dir, "stdout"),
  },
  {
    name: "vitest_fail",
    filter: vitestFilter,
    typed: ["npx", "vitest", "run"],
    suite: fail("vitest", "syntax"),
    stream: "stdout",
    factsSource: "npx vitest run --reporter=json --outputFile=<file>",
    facts: (dir) => vitestFacts(dir, "stdout"),
  },
  {
    name: "vitest_fail_stderr",
    filter: vitestFilter,
    typed: ["npx", "vitest", "run"],
    suite: fail("vitest", "syntax"),
    stream: "stderr",
    factsSource: "npx vitest run --reporter=json --outputFile=<file>",
    facts: (dir) => vitestFacts(dir, "stderr"),
  },
  {
    name: "mocha_pass",
    filter: mochaFilter,
    typed: ["npx", "mocha"],
    suite: pass("mocha"),
    stream: "stdout",
    factsSource: "npx mocha --reporter json",
    facts: mochaFacts,
  },
  {
    name: "mocha_fail",
    filter: mochaFilter,
    typed: ["npx", "mocha"],
    suite: fail("mocha", "none"),
    stream: "stdout",
    factsSource: "npx mocha --reporter json",
    facts: mochaFacts,
  },
  {
    name: "mocha_load_error",
    filter: mochaFilter,
    typed: ["npx", "mocha"],
    suite: fail("mocha", "syntax"),
    stream: "stderr",
    factsSource: "node --check test/broken.test.js",
    facts: (dir) => nodeCheckFacts(dir, "test/broken.test.js"),
  },
  {
    name: "node_test_pass",
    filter: nodeTestFilter,
    typed: ["node", "--test"],
    suite: pass("node"),
    stream: "stdout",
    factsSource: "node --test --test-reporter=junit",
    facts: (dir) => nodeTestFacts(dir, null),
  },
  {
    name: "node_test_fail",
    filter: nodeTestFilter,
    typed: ["node", "--test"],
    suite: fail("node", "syntax"),
    stream: "stdout",
    factsSource: "node --test --test-reporter=junit; node --check broken.test.js",
    facts: (dir) => nodeTestFacts(dir, "broken.test.js"),
  },
  {
    name: "node_test_spec_fail",
    filter: nodeTestFilter,
    typed: ["node", "--test", "--test-reporter=spec"],
    suite: fail("node", "syntax"),
    stream: "stdout",
    factsSource: "node --test --test-reporter=junit; node --check broken.test.js",
    facts: (dir) => nodeTestFacts(dir, "broken.test.js"),
  },
  {
    name: "deno_test_pass",
    filter: denoTestFilter,
    typed: ["deno", "test"],
    suite: pass("deno"),
    stream: "stdout",
    factsSource: "deno test --reporter=junit",
    facts: (dir) => denoTestFacts(dir),
  },
  {
    name: "deno_test_fail",
    filter: denoTestFilter,
    typed: ["deno", "test"],
    suite: fail("deno", "throws"),
    stream: "stdout",
    factsSource: "deno test --reporter=junit; deno run setup_test.ts",
    facts: (dir) => denoTestFacts(dir, ["setup_test.ts"]),
  },
  {
    name: "deno_test_type_error",
    filter: denoTestFilter,
    typed: ["deno", "test"],
    suite: fail("deno", "types"),
    stream: "stderr",
    factsSource: "deno check types_test.ts",
    facts: (dir) => denoCheckFacts(dir, "types_test.ts"),
  },
];

async function capture(test: Case): Promise<void> {
  const npm = ["jest", "vitest", "mocha"].includes(test.suite.dialect);
  const dir = join(npm ? NPM_DIR : ROOT, test.name);
  await writeSuite(dir, test.suite);
  const typedRun = await run(test.typed, dir, test.env);
  const { prefix, args } = splitArgv(test.typed);
  const shapedArgs = test.filter.shape?.(args) ?? null;
  const ran = shapedArgs ? [...prefix, ...shapedArgs] : [...test.typed];
  const shapedRun = shapedArgs ? await run(ran, dir, test.env) : typedRun;
  const facts = await test.facts(dir);
  const out = join(FIXTURES, test.name);
  await Deno.remove(out, { recursive: true }).catch(() => {});
  await Deno.mkdir(out, { recursive: true });
  await Deno.writeTextFile(join(out, "raw.out"), typedRun[test.stream]);
  await Deno.writeTextFile(join(out, "shaped.out"), shapedRun[test.stream]);
  const meta = {
    filter: test.filter.name,
    kind: "test",
    ...(test.stream === "stderr" ? { stream: "stderr" } : {}),
    ...(test.env ? { env: test.env } : {}),
    typed: test.typed,
    ran,
    exitCode: shapedRun.code,
    facts,
    factsSource: test.factsSource,
  };
  await Deno.writeTextFile(join(out, "meta.json"), JSON.stringify(meta, null, 2) + "\n");
  const chars = typedRun[test.stream].length;
  console.log(`${test.name}: exit ${shapedRun.code}, ${chars} chars, ${facts.length} facts`);
}

if (import.meta.main) {
  await ensureRunners();
  const only = Deno.args;
  for (const test of CASES) {
    if (only.length === 0 || only.includes(test.name)) await capture(test);
  }
}
