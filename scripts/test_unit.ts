/**
 * `deno task test:unit` runs every test file but those that start a program or touch the
 * network, and grants neither permission, so a file it runs that spawns or listens fails there.
 * This module finds the files to leave out, from their text and the test helpers they import
 * (a direct spawn, socket or fetch; a helper export, or a `src/core/spawn.ts` export, that
 * does one, followed through the helper's own calls). `tests/test_unit_test.ts` fails when
 * `deno.json` disagrees; run this script to rewrite the task's `--ignore=` list, and
 * `--check` to change nothing and exit 1 when it would.
 *
 * @module
 */

const ROOT = new URL("../", import.meta.url);
const DENO_JSON = new URL("deno.json", ROOT);

// What a unit test may not do, written directly.
const _DIRECT: readonly [RegExp, string][] = [
  [/\bnew Deno\.Command\b|\bDeno\.run\(/, "starts a program"],
  [/\bDeno\.(?:serve|listen|listenTls|connect|connectTls|startTls)\(/, "opens a socket"],
  [/(?<![\w.])fetch\(/, "fetches"],
];

// The project's own ways to start a program.
const SPAWN_MODULE = "src/core/spawn.ts";
const SPAWNERS = new Set(["startProcess", "runCaptured"]);

// Why a file needs more than a unit run grants, or null.
type _Reason = string | null;

/** What `text` does directly that a unit run does not grant, or null. */
export function directUse(text: string): string | null {
  for (const [re, why] of _DIRECT) if (re.test(text)) return why;
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
async function _reason(path: string, text: string): Promise<_Reason> {
  return directUse(_withoutImports(text)) ??
    [...(await _externalImports(path, text)).values()][0] ?? null;
}

// A test helper module read declaration by declaration: which of its exports (and whether its
// top-level code) start a program or touch the network, directly, through another of its own
// declarations, or through a name it imports.
interface _Helper {
  readonly top: _Reason;
  readonly exports: ReadonlyMap<string, _Reason>;
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
  const reasons = new Map<string, _Reason>();
  for (const [name, why] of await _externalImports(path, text)) reasons.set(name, why);
  for (const [name, body] of chunks) {
    chunks.set(name, _withoutComments(body));
    reasons.set(name, directUse(chunks.get(name)!));
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
  const exports = new Map<string, _Reason>();
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

/** Every test file (path from the repository root, sorted) that needs a program or the network, with why. */
export async function externalTests(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const path of (await _testFiles(ROOT)).sort()) {
    const text = await Deno.readTextFile(new URL(path, ROOT));
    const why = await _reason(path, text);
    if (why) out.set(path, why);
  }
  return out;
}

const _IGNORE = /(\"test:unit\": \"[^"]*--ignore=)([^\s"]*)/;

/** The `--ignore=` list of the `test:unit` task in `deno.json` text, or null without one. */
export function ignoredByTask(denoJson: string): string[] | null {
  const m = _IGNORE.exec(denoJson);
  return m ? m[2].split(",").filter(Boolean) : null;
}

async function _main(check: boolean): Promise<number> {
  const text = await Deno.readTextFile(DENO_JSON);
  if (!_IGNORE.test(text)) {
    console.error('deno.json: no "test:unit" task with an --ignore= list');
    return 1;
  }
  const want = [...(await externalTests()).keys()].join(",");
  const next = text.replace(_IGNORE, (_, head: string) => `${head}${want}`);
  if (next === text) return 0;
  if (check) {
    console.error("deno.json: the test:unit --ignore= list is stale; run scripts/test_unit.ts");
    return 1;
  }
  await Deno.writeTextFile(DENO_JSON, next);
  console.log(`deno.json: test:unit leaves out ${want.split(",").length} files`);
  return 0;
}

if (import.meta.main) Deno.exit(await _main(Deno.args.includes("--check")));
