import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  BUILTIN_PLUGINS,
  CATALOGUE,
  defaultConfig,
  makeCtx,
  type Plugin,
  Registry,
} from "../mod.ts";
import {
  commitAll,
  denoDir,
  gitInit,
  ledger,
  pointerId,
  rtok,
  RTOK_PERMS,
  run,
  sh,
  tempDir,
} from "./_helpers.ts";

const REGISTRY_OF = new URL("./_registry_of.ts", import.meta.url).pathname;

// A repository whose `git log` the built-in filter cuts (40 commits: older ones are dropped).
async function _repo(dir: string): Promise<string> {
  await gitInit(dir);
  for (let i = 1; i <= 40; i++) {
    await Deno.writeTextFile(`${dir}/f.txt`, `${i}\n`, { append: true });
    await commitAll(dir, `feat: change number ${i} of the parser`);
  }
  return await sh("git", ["log"], dir);
}

async function _through(ids: readonly string[], home: string, cwd: string) {
  return await run(Deno.execPath(), [
    "run",
    ...RTOK_PERMS,
    REGISTRY_OF,
    ids.join(","),
    "git",
    "log",
  ], {
    cwd,
    env: { RTOK_HOME: home, DENO_DIR: await denoDir() },
  });
}

Deno.test("a registry of measure alone runs a command unfiltered and records it", async () => {
  using repo = tempDir();
  using home = tempDir();
  const raw = await _repo(repo.path);
  const r = await _through(["measure"], home.path, repo.path);
  strictEqual(r.code, 0, r.err);
  strictEqual(r.err, "");
  strictEqual(r.out, raw);
  const rows = ledger(home.path);
  strictEqual(rows.length, 1);
  strictEqual(rows[0].family, "git log");
  strictEqual(rows[0].raw_chars, raw.length);
  strictEqual(rows[0].emitted_chars, raw.length);
  strictEqual(rows[0].lossy, 0);
  strictEqual(rows[0].passthrough, "no filter");
});

Deno.test("each built-in plugin beside measure alone runs a command and records it", async (t) => {
  using repo = tempDir();
  const raw = await _repo(repo.path);
  for (const { id } of CATALOGUE.filter((c) => c.id !== "measure")) {
    await t.step(id, async () => {
      using home = tempDir();
      const r = await _through(["measure", id], home.path, repo.path);
      strictEqual(r.code, 0, r.err);
      const rows = ledger(home.path);
      strictEqual(rows.length, 1, `${id}: one ledger row`);
      strictEqual(rows[0].raw_chars, raw.length);
      if (id === "cmd") {
        // The filter cuts, but no plugin keeps raw bytes: nothing is cut, and rtok says why.
        strictEqual(r.out, raw);
        match(r.err, /^rtok: the raw output could not be archived \(no enabled plugin keeps raw/);
        strictEqual(r.err.trim().split("\n").length, 1, r.err);
        strictEqual(rows[0].passthrough, "the raw output could not be archived");
        strictEqual(rows[0].lossy, 0);
      } else {
        strictEqual(r.err, "", `${id}: ${r.err}`);
        strictEqual(r.out, raw);
        strictEqual(rows[0].passthrough, "no filter");
      }
    });
  }
});

Deno.test("a registry of measure, cmd and archive cuts, archives and records", async () => {
  using repo = tempDir();
  using home = tempDir();
  const raw = await _repo(repo.path);
  const r = await _through(["measure", "cmd", "archive"], home.path, repo.path);
  strictEqual(r.code, 0, r.err);
  ok(r.out.length < raw.length, `${r.out.length} < ${raw.length}`);
  ok(r.out.includes("feat: change number 40 of the parser"), r.out);
  const id = pointerId(r.out);
  ok(id !== null, r.out);
  const rows = ledger(home.path);
  strictEqual(rows[0].archive_id, id);
  strictEqual(rows[0].lossy, 1);
  strictEqual(rows[0].emitted_chars, r.out.length);
});

Deno.test("Registry.preTool() over third-party plugins: a deny wins, a throwing plugin is dropped", async () => {
  const noForcePush: Plugin = {
    manifest: { id: "no-force", surfaces: ["hook"], defaultOn: true, description: "Denies force." },
    preTool(ev) {
      const command = String(ev.input.command ?? "");
      return /\bgit push\b.*(--force|-f\b)/.test(command)
        ? { kind: "deny", reason: "force-push is not allowed here" }
        : null;
    },
  };
  const broken: Plugin = {
    manifest: { id: "broken", surfaces: ["hook"], defaultOn: true, description: "Throws." },
    preTool() {
      throw new RangeError("broken on purpose");
    },
  };
  const config = defaultConfig();
  const registry = new Registry([broken, noForcePush], config);
  const ctx = makeCtx(registry, { config, store: null, home: "" });
  const ask = (command: string) =>
    registry.preTool({ tool: "Bash", input: { command }, cwd: "/tmp" }, ctx);
  deepStrictEqual(await ask("git push -f origin main"), {
    kind: "deny",
    reason: "force-push is not allowed here",
  });
  strictEqual(await ask("git push origin main"), null);
  deepStrictEqual(registry.errors.map((e) => [e.plugin, e.event]), [
    ["broken", "preTool"],
    ["broken", "preTool"],
  ]);
});

Deno.test("Registry keeps a third-party plugin out when its config turns it off", () => {
  const mine: Plugin = {
    manifest: { id: "mine", surfaces: ["cli"], defaultOn: true, description: "Mine." },
  };
  const config = defaultConfig();
  const off = { ...config, plugins: { ...config.plugins, mine: { enabled: false } } };
  deepStrictEqual(new Registry([...BUILTIN_PLUGINS, mine], config).has("mine"), true);
  deepStrictEqual(new Registry([...BUILTIN_PLUGINS, mine], off).has("mine"), false);
});

Deno.test("a registry of measure alone drains every built-in's spooled rows: nothing the hook deferred is lost", async () => {
  using repo = tempDir();
  using home = tempDir();
  await _repo(repo.path);
  Deno.mkdirSync(`${repo.path}/node_modules/dep`, { recursive: true });
  Deno.writeTextFileSync(`${repo.path}/node_modules/dep/a.js`, "needle\n");
  // Each run drains the spool at once.
  Deno.writeTextFileSync(`${home.path}/config.toml`, "[ledger]\nspool_kb = 0\n");
  // The hook's guard defers an intervention row to the spool.
  const event = JSON.stringify({
    session_id: "s1",
    transcript_path: "/nonexistent",
    cwd: repo.path,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "grep -rn needle ." },
    tool_use_id: "t1",
  });
  const hook = await rtok(home.path, ["hook", "claude"], { cwd: repo.path, stdin: event });
  strictEqual(hook.code, 0, hook.err);
  ok(hook.out.includes("node_modules"), hook.out);
  const r = await _through(["measure"], home.path, repo.path);
  strictEqual(r.code, 0, r.err);
  strictEqual(Deno.statSync(`${home.path}/spool.jsonl`).size, 0, "the run drained the spool");
  const db = new DatabaseSync(`${home.path}/rtok.db`, { readOnly: true });
  try {
    const rows = db.prepare("SELECT rule, command FROM interventions").all();
    deepStrictEqual(rows.map((x) => ({ ...x })), [
      { rule: "grep-vendor", command: "grep -rn needle ." },
    ]);
  } finally {
    db.close();
  }
});
