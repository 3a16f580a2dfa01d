// `deno task test:unit` runs every test file but those that start a program or touch the
// network, and grants neither: a file it runs that spawns or listens fails there, loudly. This
// test keeps the other half honest: the files the task leaves out are exactly the ones whose
// text (or a test helper it imports) starts a program, opens a socket or fetches, so no file
// drops out of the quick run unseen, and none that needs a program slips in.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

// What a unit test may not do, written directly.
const DIRECT: readonly [RegExp, string][] = [
  [/\bnew Deno\.Command\b|\bDeno\.run\(/, "starts a program"],
  [/\bDeno\.(?:serve|listen|listenTls|connect|connectTls|startTls)\(/, "opens a socket"],
  [/(?<![\w.])fetch\(/, "fetches"],
];

// The project's own ways to start a program.
const SPAWN_MODULE = "src/core/spawn.ts";
const SPAWNERS = new Set(["startProcess", "runCaptured"]);

/** Why a file needs more than a unit run grants, or null. */
type Reason = string | null;

function _direct(text: string): Reason {
  for (const [re, why] of DIRECT) if (re.test(text)) return why;
  return null;
}

const IMPORT = /^import\s+(type\s+)?([^;]*?)\s+from\s+"([^"]+)";?/gms;

const _withoutImports = (text: string): string => text.replace(IMPORT, "");

const _withoutComments = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

// The names `text` (the file `path`) imports from a test helper or the spawn module that start
// a program or touch the network, each under its local name, with why. Type-only imports run
// nothing; a helper whose top-level code is external makes every import of it external.
async function _externalImports(path: string, text: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(IMPORT)) {
    if (m[1] || !m[3].startsWith(".")) continue;
    const target = new URL(m[3], new URL(path, ROOT)).pathname.slice(ROOT.pathname.length);
    const names = new Map<string, string>(); // imported name -> local name
    const star = /\*\s+as\s+(\w+)/.exec(m[2]);
    for (const spec of (/\{([^}]*)\}/.exec(m[2])?.[1] ?? "").split(",")) {
      const s = spec.trim();
      if (!s || s.startsWith("type ")) continue;
      const [name, local] = s.split(/\s+as\s+/);
      names.set(name.trim(), (local ?? name).trim());
    }
    if (target === SPAWN_MODULE) {
      for (const [name, local] of names) {
        if (SPAWNERS.has(name)) out.set(local, `${name}() starts a program`);
      }
      if (star) out.set(star[1], `${SPAWN_MODULE} starts programs`);
      continue;
    }
    if (!/^tests\/_\w+\.ts$/.test(target)) continue;
    const h = await _helper(target);
    if (h.top) {
      out.set(star?.[1] ?? [...names.values()][0] ?? target, `${target} ${h.top} when imported`);
      continue;
    }
    for (const [name, local] of names) {
      const why = h.exports.get(name);
      if (why) out.set(local, `${target} ${name}(): ${why}`);
    }
    if (star && [...h.exports.values()].some(Boolean)) {
      out.set(star[1], `${target} has exports that start a program or touch the network`);
    }
  }
  return out;
}

// Why `text` needs more than a unit run grants: what it does directly, else the first external
// name it imports.
async function _reason(path: string, text: string): Promise<Reason> {
  return _direct(_withoutImports(text)) ??
    [...(await _externalImports(path, text)).values()][0] ?? null;
}

// A test helper module read declaration by declaration: which of its exports (and whether its
// top-level code) start a program or touch the network, directly, through another of its own
// declarations, or through a name it imports.
interface _Helper {
  readonly top: Reason;
  readonly exports: ReadonlyMap<string, Reason>;
}

const DECL = /^(?:export\s+)?(?:async\s+)?(?:function\*?|const|let|class)\s+(\w+)/;

const _helpers = new Map<string, Promise<_Helper>>();

function _helper(path: string): Promise<_Helper> {
  let h = _helpers.get(path);
  if (!h) _helpers.set(path, h = _readHelper(path));
  return h;
}

async function _readHelper(path: string): Promise<_Helper> {
  const text = await Deno.readTextFile(new URL(path, ROOT));
  const chunks = new Map<string, string>([["", ""]]);
  let current = "";
  for (const line of _withoutImports(text).split("\n")) {
    const d = DECL.exec(line);
    if (d) current = d[1];
    else if (/^[^\s})\]/]/.test(line)) current = "";
    chunks.set(current, (chunks.get(current) ?? "") + line + "\n");
  }
  const reasons = new Map<string, Reason>();
  for (const [name, why] of await _externalImports(path, text)) reasons.set(name, why);
  for (const [name, body] of chunks) {
    chunks.set(name, _withoutComments(body));
    reasons.set(name, _direct(chunks.get(name)!));
  }
  // A declaration that calls an external one (its own or imported) is external too.
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, body] of chunks) {
      if (reasons.get(name)) continue;
      for (const [other, why] of reasons) {
        if (
          other && other !== name && why && new RegExp(`(?<![\\w.$])${other}\\s*\\(`).test(body)
        ) {
          reasons.set(name, `${other}(): ${why}`);
          changed = true;
          break;
        }
      }
    }
  }
  const exported = new RegExp(
    String.raw`^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+(\w+)`,
    "gm",
  );
  const exports = new Map<string, Reason>();
  for (const m of text.matchAll(exported)) exports.set(m[1], reasons.get(m[1]) ?? null);
  return { top: reasons.get("") ?? null, exports };
}

async function _testFiles(dir: URL, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    const path = `${prefix}${e.name}`;
    if (e.isDirectory) out.push(...await _testFiles(new URL(`${e.name}/`, dir), `${path}/`));
    else if (e.isFile && /_test\.ts$/.test(e.name)) out.push(path);
  }
  return out;
}

/** Every test file that needs a program or the network, with why. */
async function externalTests(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const path of (await _testFiles(ROOT)).sort()) {
    const text = await Deno.readTextFile(new URL(path, ROOT));
    const why = await _reason(path, text);
    if (why) out.set(path, why);
  }
  return out;
}

const tasks = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).tasks as Record<
  string,
  string
>;
const unit = tasks["test:unit"];

Deno.test("test:unit leaves out exactly the test files that start a program or touch the network", async () => {
  const external = await externalTests();
  const ignored = /--ignore=(\S+)/.exec(unit)?.[1].split(",") ?? [];
  const want = [...external.keys()];
  deepStrictEqual(
    [...ignored].sort(),
    want,
    `test:unit should ignore these ${want.length} files (why each):\n` +
      [...external].map(([p, why]) => `  ${p}: ${why}`).join("\n") +
      `\n--ignore=${want.join(",")}`,
  );
});

Deno.test("test:unit grants no program, no network, and names no path, so a new test file joins it", () => {
  ok(unit.startsWith("deno test --config dev.json "), unit);
  for (
    const flag of ["--allow-run", "--allow-net", "--allow-all", "-A ", "--allow-ffi", "--allow-sys"]
  ) {
    ok(!unit.includes(flag), `${flag} in ${unit}`);
  }
  const words = unit.split(/\s+/).slice(2);
  deepStrictEqual(words.filter((w) => !w.startsWith("-")), ["dev.json"]);
});

Deno.test("externalTests() reads a direct spawn, a socket and a spawning helper, not a local run()", async () => {
  // Built from parts, so that this file's own text starts nothing.
  strictEqual(_direct(["new Deno", 'Command("git", {})'].join(".")), "starts a program");
  strictEqual(_direct(["Deno", "listen({ port: 0 })"].join(".")), "opens a socket");
  strictEqual(_direct("const run = (x) => filter(x); run(raw);"), null);
  const external = await externalTests();
  ok(external.get("tests/claude_e2e_test.ts")?.includes("tests/_claude.ts"));
  ok(external.get("src/core/spawn_test.ts")?.includes("starts a program"));
  ok(external.get("tests/cli_test.ts")?.includes("tests/_helpers.ts"));
  strictEqual(external.get("filters/git_log_test.ts"), undefined);
  strictEqual(external.get("tests/fixtures_test.ts"), undefined);
});
