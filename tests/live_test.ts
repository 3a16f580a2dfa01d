/**
 * Every filtered family run live through `rtok` against the real tool on this machine: the
 * exit code and stderr are the tool's, the facts the tool itself reports survive, the run is
 * recorded as filtered. Tools that are not installed are reported as ignored.
 *
 * @module
 */

import { ok, strictEqual } from "node:assert/strict";
import { buildLab, commitAll, gitInit, ledger, rtok, run, sh, tempDir } from "./_helpers.ts";

async function has(tool: string): Promise<boolean> {
  try {
    return (await run(tool, ["--version"])).code === 0;
  } catch {
    return false;
  }
}

const HAS_RG = await has("rg");
const HAS_TREE = await has("tree");

const MODULE = (name: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `export function ${name}Step${i}(input: string): string {\n  return parse(input, ${i});\n}\n`,
  ).join("\n");

/** A small project: nested sources, a git history, a dirty tree, branches and a remote. */
async function project(dir: string): Promise<void> {
  await gitInit(dir);
  for (const sub of ["src/core", "src/cli", "tests", "docs"]) {
    await Deno.mkdir(`${dir}/${sub}`, { recursive: true });
  }
  const files = [
    "src/core/config.ts",
    "src/core/store.ts",
    "src/cli/main.ts",
    "src/cli/args.ts",
    "tests/store_test.ts",
  ];
  for (const [i, f] of files.entries()) {
    await Deno.writeTextFile(`${dir}/${f}`, MODULE(`m${i}`, 12));
  }
  await Deno.writeTextFile(`${dir}/docs/guide.md`, "# Guide\n\nHow to parse things.\n");
  await commitAll(dir, "feat: the first version");
  for (const b of ["feature/login", "feature/search", "fix/crash"]) {
    await sh("git", ["branch", b], dir);
  }
  await sh("git", ["clone", "-q", "--bare", dir, `${dir}/../remote.git`]);
  await sh("git", ["remote", "add", "origin", `${dir}/../remote.git`], dir);
  await sh("git", ["fetch", "-q", "origin"], dir);
  for (const f of files.slice(0, 3)) {
    const text = await Deno.readTextFile(`${dir}/${f}`);
    await Deno.writeTextFile(`${dir}/${f}`, text.replaceAll("parse(input", "parseStrict(input"));
  }
  await sh("git", ["add", files[0]], dir);
  await Deno.writeTextFile(`${dir}/src/cli/new_flag.ts`, MODULE("flag", 3));
  await Deno.remove(`${dir}/docs/guide.md`);
}

interface Case {
  /** The command. */
  readonly argv: string[];
  /** Facts from the tool itself, given the project dir. */
  readonly facts: (dir: string) => Promise<string[]>;
  /** Skip when the tool is missing. */
  readonly needs?: boolean;
}

const lines = (text: string) => text.split("\n").filter((l) => l !== "");
const base = (path: string) => path.replace(/\/$/, "").split("/").pop()!;

const CASES: Case[] = [
  {
    argv: ["git", "status"],
    facts: async (d) =>
      lines(await sh("git", ["status", "--porcelain"], d)).map((l) => base(l.slice(3))),
  },
  {
    argv: ["git", "diff"],
    facts: async (d) => [
      ...lines(await sh("git", ["diff", "--name-only"], d)).map(base),
      ...lines(await sh("git", ["diff"], d)).filter((l) => l.startsWith("@@")),
    ],
  },
  {
    argv: ["git", "show"],
    facts: async (
      d,
    ) => [(await sh("git", ["log", "-1", "--format=%h"], d)).trim(), "feat: the first version"],
  },
  {
    argv: ["git", "branch", "-a"],
    facts: async (d) =>
      lines(await sh("git", ["branch", "-a", "--format=%(refname:short)"], d)).map(base),
  },
  {
    argv: ["git", "log"],
    facts: async (d) => lines(await sh("git", ["log", "-1", "--format=%h%n%s%n%an <%ae>"], d)),
  },
  {
    argv: ["grep", "-rn", "parse", "src"],
    facts: async (d) => {
      const counts = lines(await sh("grep", ["-rc", "parse", "src"], d));
      const total = counts.reduce((n, l) => n + Number(l.split(":").pop()), 0);
      return [`${total} matches`, ...counts.map((l) => l.split(":")[0])];
    },
  },
  {
    argv: ["rg", "parse", "src"],
    needs: HAS_RG,
    facts: async (d) => lines(await sh("rg", ["-l", "parse", "src"], d)),
  },
  {
    argv: ["ls", "-la"],
    facts: async (d) => lines(await sh("ls", ["-A"], d)),
  },
  {
    argv: ["find", ".", "-name", "*.ts"],
    facts: async (d) => lines(await sh("find", [".", "-name", "*.ts"], d)).map(base),
  },
  {
    argv: ["tree"],
    needs: HAS_TREE,
    facts: async (d) =>
      lines(await sh("find", [".", "-not", "-path", "./.git*"], d)).filter((p) => p !== ".").map(
        base,
      ),
  },
  {
    argv: ["diff", "-u", "src/core/config.ts", "src/core/store.ts"],
    facts: async (d) =>
      lines((await run("diff", ["-u", "src/core/config.ts", "src/core/store.ts"], { cwd: d })).out)
        .filter((l) => l.startsWith("@@")),
  },
];

for (const c of CASES) {
  Deno.test({
    name: `rtok ${c.argv.join(" ")} keeps the tool's exit code, stderr and facts`,
    ignore: c.needs === false,
    async fn() {
      using tmp = tempDir();
      const dir = `${tmp.path}/project`;
      await project(dir);
      const raw = await run(c.argv[0], c.argv.slice(1), { cwd: dir });
      const r = await rtok(`${tmp.path}/home`, c.argv, { cwd: dir });
      strictEqual(r.code, raw.code);
      strictEqual(r.err, raw.err);
      for (const fact of await c.facts(dir)) {
        ok(r.out.includes(fact), `lost ${JSON.stringify(fact)}:\n${r.out}`);
      }
      const row = ledger(`${tmp.path}/home`).at(-1)!;
      strictEqual(row.passthrough, null, `filtered, not passed through (${row.passthrough})`);
      ok(row.emitted_chars <= row.raw_chars);
    },
  });
}

Deno.test("rtok git log in the lab is filtered live too", async () => {
  using tmp = tempDir();
  await buildLab(`${tmp.path}/lab`);
  const r = await rtok(`${tmp.path}/home`, ["git", "log"], { cwd: `${tmp.path}/lab` });
  ok(r.out.includes("fix: stop the tokenizer from splitting emoji into surrogate halves\n"));
});
