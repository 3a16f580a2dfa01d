import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { claudeBinary, runClaude, startScriptedStandIn } from "./_claude.ts";
import { denoDir, drain, installRtok, rtok, run, stopServer, tempDir } from "./_helpers.ts";
import { storePath } from "../src/core/store.ts";

// A project whose searches would walk node_modules and .git, with one long file.
function project(dir: string): void {
  const put = (path: string, text: string) => {
    Deno.mkdirSync(`${dir}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    Deno.writeTextFileSync(`${dir}/${path}`, text);
  };
  for (let i = 0; i < 40; i++) put(`node_modules/dep${i}/index.js`, `// needle in dep${i}\n`);
  put(".git/HEAD", "ref: refs/heads/main needle\n");
  for (let i = 0; i < 4; i++) put(`src/mod${i}.ts`, `export const needle${i} = ${i};\n`);
  put("src/parse.ts", "export function parseThing(s: string): number {\n  return s.length;\n}\n");
  put(
    "src/big.ts",
    Array.from({ length: 600 }, (_, i) => `export const value${i} = ${i};`).join("\n") + "\n",
  );
}

interface Intervention {
  readonly rule: string;
  readonly command: string;
  readonly action: string;
  readonly session: string;
  readonly false_block: number;
}

function interventions(home: string): Intervention[] {
  drain(home);
  const db = new DatabaseSync(storePath(home), { readOnly: true });
  try {
    return db.prepare(
      "SELECT rule, command, action, session, false_block FROM interventions ORDER BY id",
    ).all().map((x) => ({ ...x })) as unknown as Intervention[];
  } finally {
    db.close();
  }
}

function preTool(command: string, cwd: string, session: string): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: "/tmp/t.jsonl",
    cwd,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "d" },
    tool_use_id: "toolu_1",
  });
}

Deno.test("rtok hook claude: the guard rewrites, explains, and stands down after a false block", async (t) => {
  using tmp = tempDir();
  const dir = `${tmp.path}/project`;
  project(dir);
  const home = `${tmp.path}/rtok`;
  Deno.mkdirSync(`${tmp.path}/home/.claude`, { recursive: true });
  // cat-large is off by default (a long cat becomes its view in PostToolUse): on here.
  const config = "[plugins.guard]\ncat-large = true\n";
  Deno.mkdirSync(home, { recursive: true });
  Deno.writeTextFileSync(`${home}/config.toml`, config);
  const env = {
    HOME: `${tmp.path}/home`,
    PATH: Deno.env.get("PATH") ?? "",
    CLAUDE_PROJECT_DIR: dir,
    DENO_DIR: await denoDir(),
  };
  const hook = async (command: string, session: string) => {
    const r = await rtok(home, ["hook", "claude"], {
      env,
      cwd: dir,
      stdin: preTool(command, dir, session),
    });
    strictEqual(r.code, 0, r.err);
    return r.out.trim() ? JSON.parse(r.out).hookSpecificOutput : null;
  };

  await t.step(
    "grep -r: the same search without node_modules and .git, in its rtok form",
    async () => {
      const out = await hook("grep -rn needle .", "s1");
      strictEqual(out.permissionDecision, "allow");
      const command = out.updatedInput.command as string;
      ok(
        command.includes("grep --exclude-dir=node_modules --exclude-dir=.git -rn needle ."),
        command,
      );
      ok(out.permissionDecisionReason.startsWith("rtok guard: "), out.permissionDecisionReason);
      // The final command runs, and finds every match outside the vendor directories.
      const ran = await run("bash", ["-c", command], {
        cwd: dir,
        env: { ...env, RTOK_HOME: home },
      });
      strictEqual(ran.code, 0, ran.err);
      for (let i = 0; i < 4; i++) ok(ran.out.includes(`needle${i}`), ran.out);
      ok(!ran.out.includes("node_modules") && !ran.out.includes(".git/"), ran.out);
    },
  );
  await t.step("cat of a long file: denied with a reason naming the cheaper forms", async () => {
    const out = await hook("cat src/big.ts", "s2");
    strictEqual(out.permissionDecision, "deny");
    ok(
      out.permissionDecisionReason.includes("src/big.ts is long (600 lines"),
      out.permissionDecisionReason,
    );
    ok(out.permissionDecisionReason.includes("read src/big.ts"), out.permissionDecisionReason);
  });
  await t.step("the same cat at once: let through, and the rule stops in the project", async () => {
    strictEqual(await hook("cat src/big.ts", "s2"), null);
    strictEqual(await hook("cat src/big.ts", "s3"), null);
  });
  await t.step("another command in between: the intervention stands, no false block", async () => {
    strictEqual(
      (await hook("tree", "s6")).updatedInput.command.includes("-I 'node_modules'"),
      true,
    );
    await hook("git status", "s6");
    ok((await hook("tree", "s6")).updatedInput.command.includes("-I 'node_modules'"));
  });
  await t.step("each intervention is a ledger row; the overridden one a false block", () => {
    deepStrictEqual(interventions(home).filter((x) => x.rule !== "tree-vendor"), [
      {
        rule: "grep-vendor",
        command: "grep -rn needle .",
        action: "rewrite",
        session: "s1",
        false_block: 0,
      },
      {
        rule: "cat-large",
        command: "cat src/big.ts",
        action: "reason",
        session: "s2",
        false_block: 1,
      },
    ]);
  });
  await t.step("the tree rows: two, neither a false block", () => {
    const rows = interventions(home).filter((x) => x.rule === "tree-vendor");
    deepStrictEqual(rows.map((x) => [x.session, x.false_block]), [["s6", 0], ["s6", 0]]);
  });
  await t.step("a rule set to false in config.toml is off; cmd's rewrite stands", async () => {
    Deno.writeTextFileSync(`${home}/config.toml`, `${config}tree-vendor = false\n`);
    const out = await hook("tree", "s7");
    ok(!out.updatedInput.command.includes("-I"), out.updatedInput.command);
    ok(out.updatedInput.command.endsWith(" tree"), out.updatedInput.command);
    Deno.writeTextFileSync(`${home}/config.toml`, config);
  });
  await t.step("an explicit allow rule of the user's is respected", async () => {
    Deno.mkdirSync(`${dir}/.claude`);
    Deno.writeTextFileSync(
      `${dir}/.claude/settings.json`,
      JSON.stringify({ permissions: { allow: ["Bash(find:*)"] } }),
    );
    const out = await hook("find . -name '*.ts'", "s4");
    ok(out === null || !String(out.updatedInput?.command).includes("-prune"), JSON.stringify(out));
    Deno.removeSync(`${dir}/.claude`, { recursive: true });
    const guarded = await hook("find . -name '*.ts'", "s5");
    ok(String(guarded.updatedInput.command).includes("-prune"), JSON.stringify(guarded));
  });
});

for (const served of [false, true]) {
  Deno.test({
    name: `Claude Code${served ? " (hook served by rtok serve)" : ""}: a guard reason reaches ` +
      "the model, and a re-issued command goes through",
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const claude = await claudeBinary();
      using tmp = tempDir();
      const dir = `${tmp.path}/project`;
      project(dir);
      const PATH = await installRtok(`${tmp.path}/root`);
      const base = {
        PATH,
        DENO_DIR: await denoDir(),
        RTOK_HOME: `${tmp.path}/rtok`,
        HOME: `${tmp.path}/home`,
      };
      Deno.mkdirSync(base.HOME);
      Deno.mkdirSync(base.RTOK_HOME);
      Deno.writeTextFileSync(
        `${base.RTOK_HOME}/config.toml`,
        "[plugins.guard]\ncat-large = true\n",
      );
      // rtok init starts a server for this RTOK_HOME when it serves: it goes with the test.
      using _server = { [Symbol.dispose]: () => served && stopServer(base.RTOK_HOME) };
      const init = await run("rtok", served ? ["init"] : ["init", "--no-serve"], {
        env: base,
        cwd: dir,
      });
      strictEqual(init.code, 0, init.err);
      // The project's symbol index, as a first `rtok where` builds it.
      const indexed = await run("rtok", ["where", "parseThing"], { env: base, cwd: dir });
      strictEqual(indexed.code, 0, indexed.err);
      const steps = [
        { tool: "Bash", input: { command: "cat src/big.ts", description: "Show the file" } },
        { tool: "Bash", input: { command: "cat src/big.ts", description: "Show the file" } },
        { tool: "Bash", input: { command: "grep -rn needle .", description: "Search" } },
        {
          tool: "Bash",
          input: { command: "grep -rn 'function parseThing' src", description: "Find it" },
        },
        { tool: "Bash", input: { command: "rtok where parseThing", description: "Find it" } },
      ];
      await using api = startScriptedStandIn(steps);
      const r = await runClaude(claude, api, dir, base, ["--allowedTools", "Bash"]);
      strictEqual(r.result?.is_error, false, r.err);
      const results = api.results();
      const dump = Deno.env.get("RTOK_E2E_DUMP");
      if (dump) Deno.writeTextFileSync(dump, JSON.stringify(results, null, 1));
      await t.step("the first cat: the model reads the guard's reason instead", () => {
        ok(results[0].includes("rtok guard: src/big.ts is long"), results[0]);
        ok(!results[0].includes("value599"), "the file itself did not come back");
      });
      await t.step("the same cat again: it ran", () => {
        ok(results[1].includes("value0"), results[1].slice(0, 300));
      });
      await t.step("grep -r: matches outside node_modules and .git only", () => {
        for (let i = 0; i < 4; i++) ok(results[2].includes(`needle${i}`), results[2]);
        ok(!results[2].includes("node_modules"), results[2]);
      });
      await t.step("a grep for a definition: the model is told rtok where answers it", () => {
        ok(results[3].includes("`rtok where parseThing` answers in 1 line"), results[3]);
      });
      await t.step("rtok where, as suggested: the definition with its true line range", () => {
        ok(results[4].includes("function parseThing src/parse.ts:1-3"), results[4]);
      });
      await t.step("the ledger: three interventions, the cat a false block", () => {
        const rows = interventions(base.RTOK_HOME);
        deepStrictEqual(rows.map((x) => [x.rule, x.action, x.false_block]), [
          ["cat-large", "reason", 1],
          ["grep-vendor", "rewrite", 0],
          ["grep-definition", "reason", 0],
        ]);
      });
    },
  });
}
