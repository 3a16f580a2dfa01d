import { deepStrictEqual, ok } from "node:assert/strict";
import { SURFACES } from "../src/surfaces/mod.ts";
import { ALLOWED } from "./_layers.ts";
import { commitAll, gitInit, rtok, tempDir } from "./_helpers.ts";

const ROOT = new URL("../", import.meta.url);

// The documents a reader is pointed at: the front door, the docs folder, and the two beside it.
async function _docs(): Promise<Map<string, string>> {
  const paths = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md"];
  for await (const e of Deno.readDir(new URL("docs/", ROOT))) {
    if (e.isFile && e.name.endsWith(".md")) paths.push(`docs/${e.name}`);
  }
  const out = new Map<string, string>();
  for (const p of paths.sort()) out.set(p, await Deno.readTextFile(new URL(p, ROOT)));
  return out;
}

// Code blocks that hold data or code, not command lines.
const _NOT_SHELL = new Set(["toml", "json", "jsonc", "ts", "typescript", "js", "yaml", "yml"]);

/** One `rtok …` line a doc shows in a fenced block. */
interface _Shown {
  readonly doc: string;
  readonly line: string;
  /** The word after `rtok`. */
  readonly sub: string;
  /** Its `--flags`, values dropped. */
  readonly flags: readonly string[];
}

function _shownCommands(doc: string, text: string): _Shown[] {
  const out: _Shown[] = [];
  let fence: string | null = null;
  for (const raw of text.split("\n")) {
    const open = /^```(\S*)/.exec(raw);
    if (open) {
      fence = fence === null ? open[1] : null;
      continue;
    }
    if (fence === null || _NOT_SHELL.has(fence)) continue;
    // A listing's description starts after two spaces, a shell comment after " #".
    const line = raw.replace(/^\$ /, "").split(/ {2,}| #/)[0].trim();
    const words = line.split(/\s+/);
    while (words.length && /^[A-Z_]+=\S*$/.test(words[0])) words.shift();
    if (words[0] !== "rtok" || words.length < 2) continue;
    const flags = words.slice(2)
      .map((w) => w.replace(/^[[(|]+|[\])|,]+$/g, ""))
      .filter((w) => /^--[a-z]/.test(w))
      .map((w) => w.replace(/=.*$/, ""));
    out.push({ doc, line, sub: words[1], flags });
  }
  return out;
}

// What the tests under tests/ and src/ say, to find where a subcommand and its flags are run.
async function _testSources(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: URL, rel: string) => {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory && e.name !== "fixtures" && e.name !== "testdata") {
        await walk(new URL(`${e.name}/`, dir), `${rel}${e.name}/`);
      } else if (e.isFile && e.name.endsWith("_test.ts") && e.name !== "docs_test.ts") {
        out.set(`${rel}${e.name}`, await Deno.readTextFile(new URL(e.name, dir)));
      }
    }
  };
  await walk(new URL("tests/", ROOT), "tests/");
  await walk(new URL("src/", ROOT), "src/");
  return out;
}

// A test runs `sub` with `flag` when one file names both as words of an argv or a command line.
function _runIn(source: string, sub: string, flag: string | null): boolean {
  const word = (w: string) =>
    new RegExp(`["'\` ]${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["'\` =]`);
  return word(sub).test(source) && (flag === null || word(flag).test(source));
}

// The cheap commands the docs show, run here for real: each must exit 0.
const _RUN_HERE: readonly (readonly string[])[] = [
  ["--help"],
  ["--version"],
  ["gain"],
  ["gain", "--format", "json"],
  ["gain", "--project"],
  ["gain", "--history"],
  ["gain", "--daily"],
  ["gain", "--graph"],
  ["gain", "--sessions"],
  ["gain", "--failures"],
  ["gain", "--by", "caller"],
  ["config"],
  ["filters", "list"],
  ["filters", "show", "git log"],
  ["filters", "verify"],
  ["git", "status"],
  ["git", "log", "-n", "5"],
  ["run", "--", "git", "status"],
  ["read", "a.ts"],
  ["read", "a.ts", "--outline"],
  ["rewrite", "git status && git log -5"],
  ["init", "--dry-run"],
  ["init", "--host", "codex", "--dry-run"],
  ["where", "hello"],
  ["refs", "hello"],
  ["symbols", "a.ts"],
  ["replay", "--since", "7d"],
  ["discover", "--since", "7d"],
  ...Object.keys(SURFACES)
    // `hook` reads an event from stdin, `trust`/`untrust` take no arguments: no --help.
    .filter((s) => !["hook", "trust", "untrust"].includes(s))
    .map((s) => [s, "--help"]),
];

Deno.test("README.md stays a front door: under 200 lines", async () => {
  const lines = (await Deno.readTextFile(new URL("README.md", ROOT))).split("\n").length;
  ok(lines < 200, `README.md has ${lines} lines`);
});

Deno.test("every subcommand the CLI dispatches is documented in README.md or docs/", async () => {
  const all = [...(await _docs()).values()].join("\n");
  const missing = [...Object.keys(SURFACES), "run"].filter((s) => !all.includes(`rtok ${s}`));
  deepStrictEqual(missing, []);
});

Deno.test("every rtok command a doc shows names a subcommand or a tool, with flags a test runs", async () => {
  const tests = await _testSources();
  const here = _RUN_HERE.map((a) => ` ${a.join(" ")} `).join("\n");
  const shown = [...(await _docs())].flatMap(([doc, text]) => _shownCommands(doc, text));
  ok(shown.length > 50, `only ${shown.length} rtok lines found in the docs`);
  const uncovered: string[] = [];
  for (const s of shown) {
    // A tool run (`rtok git log`) or a placeholder (`rtok <tool>`): the run surface's tests.
    if (!Object.hasOwn(SURFACES, s.sub)) continue;
    for (const flag of s.flags.length ? s.flags : [null]) {
      const covered = _runIn(here, s.sub, flag) ||
        [...tests.values()].some((src) => _runIn(src, s.sub, flag));
      if (!covered) uncovered.push(`${s.doc}: ${s.line} (${flag ?? "no flag"})`);
    }
  }
  deepStrictEqual(uncovered, []);
});

Deno.test("the cheap commands the docs show exit 0 in a fresh RTOK_HOME", async () => {
  using home = tempDir("rtok-docs-home-");
  using repo = tempDir("rtok-docs-repo-");
  await gitInit(repo.path);
  await Deno.writeTextFile(
    `${repo.path}/a.ts`,
    "export function hello(): number {\n  return 1;\n}\nhello();\n",
  );
  await commitAll(repo.path, "a");
  // A fresh HOME: init --dry-run and replay read the user's agent settings there, not ours.
  const env = { HOME: home.path };
  const failed: string[] = [];
  const queue = [..._RUN_HERE];
  const worker = async () => {
    for (let args = queue.shift(); args; args = queue.shift()) {
      const r = await rtok(`${home.path}/rtok`, args, { cwd: repo.path, env });
      if (r.code !== 0) failed.push(`rtok ${args.join(" ")}: exit ${r.code}: ${r.err.trim()}`);
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  deepStrictEqual(failed, []);
});

Deno.test("_shownCommands() reads prompts, env prefixes, listings and bracketed flags", () => {
  const text = [
    "```console",
    "$ rtok git log | wc -c",
    "```",
    "```",
    "rtok gain                tokens saved (--format json)",
    "RTOK_DISABLED=1 rtok hook claude",
    "rtok metrics --push URL [--job rtok] [--instance=NAME]   # once",
    "git log",
    "```",
    "```toml",
    "rtok = 1",
    "```",
    "rtok outside any block",
  ].join("\n");
  deepStrictEqual(
    _shownCommands("d.md", text).map((s) => [s.sub, ...s.flags]),
    [["git"], ["gain"], ["hook"], ["metrics", "--push", "--job", "--instance"]],
  );
});

// GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered.
function _anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const h = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!h) continue;
    const base = h[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

Deno.test("_anchors() spells headings as GitHub links them", () => {
  deepStrictEqual(
    [..._anchors(
      "# `rtok init` per host\n## A server (`rtok serve`)\n## `$RTOK_HOME`\n## x\n## x\n",
    )],
    ["rtok-init-per-host", "a-server-rtok-serve", "rtok_home", "x", "x-1"],
  );
});

Deno.test("every link between the docs resolves, anchors included", async () => {
  const docs = await _docs();
  const broken: string[] = [];
  for (const [doc, text] of docs) {
    const body = text.replace(/^```[\s\S]*?^```/gm, "");
    for (const m of body.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split("#");
      const file = path === "" ? new URL(doc, ROOT) : new URL(path, new URL(doc, ROOT));
      let stat: Deno.FileInfo;
      try {
        stat = await Deno.stat(file);
      } catch {
        broken.push(`${doc}: ${target} (no such file)`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!stat.isFile || !file.pathname.endsWith(".md")) {
        broken.push(`${doc}: ${target} (an anchor into what is not a document)`);
      } else if (!_anchors(await Deno.readTextFile(file)).has(anchor)) {
        broken.push(`${doc}: ${target} (no such heading)`);
      }
    }
  }
  deepStrictEqual(broken, []);
});

Deno.test("docs/architecture.md's layer table is tests/_layers.ts's ALLOWED", async () => {
  const text = await Deno.readTextFile(new URL("docs/architecture.md", ROOT));
  const rows = new Map<string, string[]>();
  for (const m of text.matchAll(/^\| `([a-z/]+)` +\| (.*?) *\|$/gm)) {
    rows.set(m[1], [...m[2].matchAll(/`([a-z/]+)`/g)].map((x) => x[1]));
  }
  deepStrictEqual(Object.fromEntries(rows), ALLOWED);
});
