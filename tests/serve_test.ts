import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { claudeBinary, runClaude, startScriptedStandIn } from "./_claude.ts";
import {
  buildLab,
  CLI,
  denoDir,
  drain,
  installRtok,
  ledger,
  rtok,
  RTOK_PERMS,
  run,
  stopServer,
  tempDir,
} from "./_helpers.ts";
import { storePath } from "../src/core/store.ts";
import type { ServeState } from "../src/surfaces/serve/mod.ts";
import { readServeState, type ServeHealth, serverHealth } from "../src/surfaces/_serve_state.ts";

const ROOT = new URL("../", import.meta.url).pathname;

interface Server extends AsyncDisposable {
  readonly state: ServeState;
  readonly url: string;
  post(body: BodyInit, secret?: string, host?: string): Promise<Response>;
}

// `rtok serve` in a child process, ready once serve.json names its port.
async function startServer(
  rtokHome: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<Server> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...RTOK_PERMS, "--config", `${ROOT}deno.json`, CLI, "serve", ...args],
    env: { ...env, RTOK_HOME: rtokHome, DENO_DIR: await denoDir() },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const { value } = await lines.read();
  match(value ?? "", /^rtok serve: answering on 127\.0\.0\.1:\d+/);
  const state = JSON.parse(Deno.readTextFileSync(`${rtokHome}/serve.json`)) as ServeState;
  const url = `http://127.0.0.1:${state.port}`;
  return {
    state,
    url,
    post: (body, secret = state.secret, host = "claude") =>
      fetch(`${url}/hook/${host}`, {
        method: "POST",
        body,
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      }),
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGTERM");
      } catch { /* it stopped by itself */ }
      await lines.cancel();
      await child.stderr.cancel();
      await child.status;
    },
  };
}

// The server serve.json names once it answers as rtok `version` (within 10 s), or `null`.
async function waitForServer(home: string, version = "0.1.0"): Promise<ServeHealth | null> {
  for (let i = 0; i < 100; i++) {
    const state = readServeState(home);
    const health = state ? await serverHealth(state, 200) : null;
    if (health?.version === version) return health;
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

function world(tmp: string) {
  const home = `${tmp}/home`;
  const bin = `${tmp}/bin`;
  Deno.mkdirSync(`${home}/.claude`, { recursive: true });
  Deno.mkdirSync(bin);
  Deno.writeTextFileSync(`${bin}/rtok`, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  Deno.writeTextFileSync(`${home}/.claude/settings.json`, "{}");
  return { HOME: home, PATH: `${bin}:${Deno.env.get("PATH") ?? ""}` };
}

function failures(home: string): string[] {
  drain(home);
  const db = new DatabaseSync(storePath(home), { readOnly: true });
  try {
    return db.prepare("SELECT error FROM failures ORDER BY id").all().map((r) => String(r.error));
  } finally {
    db.close();
  }
}

const bashEvent = (command: string, cwd: string) =>
  JSON.stringify({
    session_id: "s-serve",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "d" },
  });

Deno.test("rtok serve answers a hook event as rtok hook claude does, and only with its secret", async () => {
  using tmp = tempDir();
  const env = world(tmp.path);
  const home = `${tmp.path}/rtok`;
  await using server = await startServer(home, env);
  const health = await fetch(`${server.url}/health`, {
    headers: { authorization: `Bearer ${server.state.secret}` },
  });
  deepStrictEqual((await health.json()).version, "0.1.0");
  const event = bashEvent("git status && git log -5", tmp.path);
  const served = await (await server.post(event)).text();
  const command = await rtok(home, ["hook", "claude"], { env, cwd: tmp.path, stdin: event });
  strictEqual(served, command.out.trimEnd(), "the same answer from both transports");
  ok(JSON.parse(served).hookSpecificOutput.updatedInput.command.includes("rtok git status"));
  const wrong = await server.post(event, "not-the-secret");
  strictEqual(wrong.status, 401);
  await wrong.body?.cancel();
  const none = await fetch(`${server.url}/hook/claude`, { method: "POST", body: event });
  strictEqual(none.status, 401);
  await none.body?.cancel();
  const again = await rtok(home, ["serve"], { env });
  strictEqual(again.code, 0);
  match(again.out, /already answering on port \d+/);
});

Deno.test("rtok serve answers another host's event on /hook/<host> as rtok hook <host> does", async () => {
  using tmp = tempDir();
  const env = world(tmp.path);
  const home = `${tmp.path}/rtok`;
  await using server = await startServer(home, env);
  // An OpenCode plugin event for a finished `ls -la` of a long listing.
  const listing = Array.from(
    { length: 80 },
    (_, i) => `-rw-r--r--  1 ada  staff  ${1000 + i} Dec  3 10:00 file_${i}.ts`,
  ).join("\n") + "\n";
  const event = JSON.stringify({
    event: "tool.execute.after",
    tool: "bash",
    sessionID: "s-oc",
    callID: "c1",
    directory: tmp.path,
    args: { command: "ls -la" },
    output: `total 320\n${listing}`,
    metadata: { exit: 0, truncated: false },
  });
  const served = await (await server.post(event, undefined, "opencode")).text();
  const command = await rtok(home, ["hook", "opencode"], { env, cwd: tmp.path, stdin: event });
  const output = (answer: string) => JSON.parse(answer).output as string;
  const unpointed = (s: string) => s.replace(/rtok expand [0-9a-f]+\]\n?$/, "]");
  strictEqual(unpointed(output(served)), unpointed(output(command.out)), "the same answer");
  ok(output(served).length < listing.length, "filtered");
  const unknown = await server.post(event, undefined, "cursor");
  strictEqual(unknown.status, 404);
  match(await unknown.text(), /POST \/hook\/claude\|codex\|gemini\|opencode\|copilot/);
  const rows = ledger(home).filter((r) => r.host === "opencode");
  strictEqual(rows.length, 2, "one row for each transport, under the host");
});

Deno.test("rtok serve answers garbage and oversized bodies with no opinion, records each, and goes on", async () => {
  using tmp = tempDir();
  const env = world(tmp.path);
  const home = `${tmp.path}/rtok`;
  await using server = await startServer(home, env);
  for (const body of ["not json", "{}", new Uint8Array(1024 * 1024 + 10).fill(32)]) {
    const r = await server.post(body);
    strictEqual(r.status, 200);
    strictEqual(await r.text(), "{}");
  }
  const ok2 = await (await server.post(bashEvent("git log -3", tmp.path))).json();
  ok(ok2.hookSpecificOutput.updatedInput.command.includes("rtok git log"), "still answering");
  const rows = failures(home);
  strictEqual(rows.length, 3, rows.join("\n"));
  match(rows[0], /not valid JSON/);
  match(rows[2], /over 1048576 bytes/);
});

Deno.test({
  name: "Claude Code's HTTP hooks through rtok serve rewrite its commands and compress its reads",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const claude = await claudeBinary();
    using tmp = tempDir();
    // The rewritten command runs the installed rtok, as a user has it.
    const PATH = await installRtok(`${tmp.path}/root`);
    const env = {
      ...world(tmp.path),
      PATH,
    };
    const home = `${tmp.path}/rtok`;
    const lab = `${tmp.path}/lab`;
    await buildLab(lab);
    const module = [
      "// m",
      ...Array.from(
        { length: 40 },
        (
          _,
          i,
        ) => [
          `export function task${i}(x: number): number {`,
          ...Array(7).fill("  x = x + 1;"),
          "  return x;",
          "}",
        ],
      ).flat(),
    ].join("\n") + "\n";
    Deno.writeTextFileSync(`${lab}/tasks.ts`, module);
    await using server = await startServer(home, env);
    const hook = {
      type: "http",
      url: `${server.url}/hook/claude`,
      headers: { Authorization: `Bearer ${server.state.secret}` },
      timeout: 10,
    };
    Deno.writeTextFileSync(
      `${env.HOME}/.claude/settings.json`,
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [hook] }],
          PostToolUse: [{ matcher: "*", hooks: [hook] }],
        },
      }),
    );
    await using api = startScriptedStandIn([
      { tool: "Bash", input: { command: "git log", description: "log" } },
      { tool: "Read", input: { file_path: `${lab}/tasks.ts` } },
    ]);
    const r = await runClaude(claude, api, lab, {
      ...env,
      RTOK_HOME: home,
      DENO_DIR: await denoDir(),
    }, ["--allowedTools", "Read,Bash"]);
    strictEqual(r.result?.is_error, false, r.err);
    const [log, read] = api.results();
    match(log, /\[rtok: cut .*; raw: rtok expand [0-9a-f]+\]/, "git log ran as rtok git log");
    const shown = read.split("\n");
    ok(shown.length <= 30, `${shown.length} lines shown`);
    const lines = module.split("\n");
    for (const line of shown) {
      const m = /^(\d+)\t(.*)$/s.exec(line);
      ok(m && m[2] === lines[Number(m[1]) - 1], `true line: ${line}`);
    }
    const context = api.contexts().join("\n");
    for (let i = 0; i < 40; i++) {
      ok(context.includes(`function task${i} L${2 + i * 10}-${11 + i * 10}`), `task${i}`);
    }
  },
});

Deno.test("rtok serve warms up after it listens, answering meanwhile, and says so on /health", async () => {
  using tmp = tempDir();
  const env = world(tmp.path);
  await using server = await startServer(`${tmp.path}/rtok`, env);
  const headers = { authorization: `Bearer ${server.state.secret}` };
  // Asked at once, while it warms: answered as always.
  const answer = await (await server.post(bashEvent("git status && git log -5", tmp.path))).json();
  ok(answer.hookSpecificOutput.updatedInput.command.includes("rtok git status"));
  let health: ServeHealth = {};
  for (let i = 0; i < 200 && !health.warm; i++) {
    health = await (await fetch(`${server.url}/health`, { headers })).json();
    if (!health.warm) await new Promise((r) => setTimeout(r, 50));
  }
  strictEqual(health.warm, true, "warm within 10 s");
  deepStrictEqual(health.warmFailures, []);
  ok(typeof health.warmMs === "number" && health.warmMs > 0);
  // Nothing of the warm-up reached the ledger or the archive: the one row is the request's.
  deepStrictEqual(
    [...Deno.readDirSync(`${tmp.path}/rtok`)].map((e) => e.name).sort(),
    ["serve.curl", "serve.json", "spool.jsonl"],
  );
  const rows = Deno.readTextFileSync(`${tmp.path}/rtok/spool.jsonl`).trim().split("\n");
  strictEqual(rows.length, 1, rows.join("\n"));
  ok(!rows[0].includes("rtok-warm"));
});

Deno.test("rtok serve --ensure starts one server, detached, and returns at once; again, it starts none", async () => {
  using tmp = tempDir();
  const env = world(tmp.path);
  const home = `${tmp.path}/rtok`;
  const first = await rtok(home, ["serve", "--ensure"], { env });
  strictEqual(first.code, 0, first.err);
  const state = await waitForServer(home);
  ok(state?.pid, "a server answers after --ensure");
  try {
    const again = await rtok(home, ["serve", "--ensure"], { env });
    strictEqual(again.code, 0, again.err);
    await new Promise((r) => setTimeout(r, 300));
    strictEqual(
      JSON.parse(Deno.readTextFileSync(`${home}/serve.json`)).pid,
      state.pid,
      "the same one",
    );
  } finally {
    stopServer(home);
  }
});

Deno.test("rtok doctor reports the resident server answering, then down once it stops", async () => {
  using tmp = tempDir();
  const env = world(tmp.path);
  const home = `${tmp.path}/rtok`;
  const before = await rtok(home, ["doctor"], { env, cwd: tmp.path });
  match(before.out, /^ok +serve +not in use \(no serve\.json\)$/m);
  {
    await using server = await startServer(home, env);
    const up = await rtok(home, ["doctor"], { env, cwd: tmp.path });
    match(
      up.out,
      new RegExp(
        `^ok +serve +rtok serve answers on 127\\.0\\.0\\.1:${server.state.port} \\(pid \\d+, rtok 0\\.1\\.0, [\\d.]+ ms\\)$`,
        "m",
      ),
    );
  }
  const down = await rtok(home, ["doctor"], { env, cwd: tmp.path });
  match(down.out, /^warn +serve +no server answers on 127\.0\.0\.1:\d+: .*rtok serve --ensure$/m);
});

Deno.test("rtok serve --ensure stops a server of another version and starts its own", async () => {
  using tmp = tempDir();
  const env = world(tmp.path);
  const home = `${tmp.path}/rtok`;
  Deno.mkdirSync(home);
  // An "old" server: another process answering health as rtok 0.0.1 on the recorded port.
  const old = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `Deno.serve({ hostname: "127.0.0.1", port: 0, onListen(a) { console.log(a.port); } },
        () => Response.json({ version: "0.0.1", pid: Deno.pid }));`,
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = old.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const port = Number((await reader.read()).value);
  Deno.writeTextFileSync(
    `${home}/serve.json`,
    JSON.stringify({ port, secret: "s3cret", pid: old.pid, version: "0.0.1" }),
  );
  const r = await rtok(home, ["serve", "--ensure"], { env });
  strictEqual(r.code, 0, r.err);
  const status = await old.status;
  strictEqual(status.signal, "SIGTERM", "the old server was stopped");
  await reader.cancel();
  const pid = (await waitForServer(home))?.pid;
  ok(pid, "a server of this version answers");
  strictEqual(
    JSON.parse(Deno.readTextFileSync(`${home}/serve.json`)).port,
    port,
    "on the same port",
  );
  stopServer(home);
});

Deno.test({
  name:
    "rtok init --serve: the session start starts the server, tools go through it, and a killed server costs only the saving",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const claude = await claudeBinary();
    using tmp = tempDir();
    const PATH = await installRtok(`${tmp.path}/root`);
    const home = `${tmp.path}/rtok`;
    const env = {
      ...world(tmp.path),
      PATH,
      RTOK_HOME: home,
      DENO_DIR: await denoDir(),
    };
    const lab = `${tmp.path}/lab`;
    await buildLab(lab);
    const init = await run("rtok", ["init", "--serve"], { env, cwd: lab });
    strictEqual(init.code, 0, init.err);
    match(
      init.out,
      /hooks: http:\/\/127\.0\.0\.1:\d+\/hook\/claude \(rtok serve\); kept running by: .*rtok serve --ensure/,
    );
    const state = () => JSON.parse(Deno.readTextFileSync(`${home}/serve.json`)) as ServeState;
    const rawLog = (await run("git", ["log"], { cwd: lab })).out;
    try {
      {
        await using api = startScriptedStandIn([
          { tool: "Bash", input: { command: "git log", description: "log" } },
        ]);
        const r = await runClaude(claude, api, lab, env, ["--allowedTools", "Bash"]);
        strictEqual(r.result?.is_error, false, r.err);
        match(
          api.results()[0],
          /\[rtok: cut .*; raw: rtok expand [0-9a-f]+\]/,
          "through the server",
        );
        ok(state().pid > 0, "a server answered (rtok init started it)");
      }
      const doctor = await run("rtok", ["doctor"], { env, cwd: lab });
      match(doctor.out, /^ok +hook answers +"git status" → ".*rtok git status"/m);
      match(doctor.out, /^ok +serve +rtok serve answers/m);
      match(
        doctor.out,
        /^ok +rivals +no other PreToolUse hook on Bash/m,
        "its own hook is no rival",
      );
      {
        // The server dies between the session's two calls: the second runs unchanged.
        await using api = startScriptedStandIn([
          { tool: "Bash", input: { command: "git log", description: "log" } },
          { tool: "Bash", input: { command: "git log", description: "log again" } },
        ], async (i) => {
          if (i !== 1) return;
          const pid = state().pid;
          Deno.kill(pid, "SIGTERM");
          for (let k = 0; k < 50; k++) {
            try {
              Deno.kill(pid, "SIGCONT");
            } catch {
              break;
            }
            await new Promise((res) => setTimeout(res, 50));
          }
        });
        const r = await runClaude(claude, api, lab, env, ["--allowedTools", "Bash"]);
        strictEqual(r.result?.is_error, false, r.err);
        const [first, second] = api.results();
        match(first, /\[rtok: cut /);
        strictEqual(second.trimEnd(), rawLog.trimEnd(), "git's own output, unchanged");
      }
    } finally {
      stopServer(home);
    }
  },
});

Deno.test({
  name:
    "two Claude Code sessions and a CLI run at once against one server and one store: every event answered, every row written",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const claude = await claudeBinary();
    using tmp = tempDir();
    const PATH = await installRtok(`${tmp.path}/root`);
    const home = `${tmp.path}/rtok`;
    const env = {
      ...world(tmp.path),
      PATH,
      RTOK_HOME: home,
      DENO_DIR: await denoDir(),
    };
    const lab = `${tmp.path}/lab`;
    await buildLab(lab);
    const module = Array.from({ length: 60 }, (_, i) =>
      [
        `export function job${i}(x: number): number {`,
        "  x = x * 2;",
        "  x = x + 1;",
        "  return x;",
        "}",
      ]
        .join("\n")).join("\n") + "\n";
    Deno.writeTextFileSync(`${lab}/jobs.ts`, module);
    strictEqual((await run("rtok", ["init", "--serve"], { env, cwd: lab })).code, 0);
    try {
      // A server up before both sessions start, so neither waits on the other's start.
      strictEqual((await run("rtok", ["serve", "--ensure"], { env, cwd: lab })).code, 0);
      const session = async () => {
        await using api = startScriptedStandIn([
          { tool: "Bash", input: { command: "git log", description: "a" } },
          { tool: "Read", input: { file_path: `${lab}/jobs.ts` } },
          { tool: "Bash", input: { command: "git log -12", description: "b" } },
          { tool: "Bash", input: { command: "git log", description: "c" } },
        ]);
        const r = await runClaude(claude, api, lab, env, ["--allowedTools", "Bash,Read"]);
        strictEqual(r.result?.is_error, false, r.err);
        return { results: api.results(), contexts: api.contexts() };
      };
      const cli = async () => {
        for (let i = 0; i < 4; i++) {
          const r = await run("rtok", ["git", "log"], { env, cwd: lab });
          strictEqual(r.code, 0, r.err);
        }
      };
      const [a, b] = await Promise.all([session(), session(), cli()]);
      for (const s of [a, b]) {
        for (const i of [0, 2, 3]) {
          match(s.results[i], /\[rtok: cut .*; raw: rtok expand/, `step ${i}`);
        }
        ok(s.results[1].split("\n").length <= 30, "the Read was answered");
        ok(
          s.contexts.some((c) => c.includes("function job59 L")),
          "with its outline",
        );
      }
      const rows = ledger(home);
      const logs = rows.filter((r) => r.family === "git log");
      strictEqual(
        logs.length,
        2 * 3 + 4,
        "every git log run recorded: 3 per session, 4 on the CLI",
      );
      strictEqual(rows.filter((r) => r.family === "Read").length, 2, "both Reads recorded");
      strictEqual(failures(home).length, 0);
    } finally {
      stopServer(home);
    }
  },
});

Deno.test("rtok serve records a cut answered past the hooks' timeout as not delivered, and rtok gain leaves it out", async () => {
  using tmp = tempDir();
  const home = `${tmp.path}/rtok`;
  const module = Array.from(
    { length: 400 },
    (_, i) => `export function step${i}(x: number): number {\n  return x + ${i};\n}`,
  ).join("\n") + "\n";
  const read = (id: string) =>
    JSON.stringify({
      session_id: "s-deliver",
      cwd: tmp.path,
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_use_id: id,
      tool_input: { file_path: `${tmp.path}/${id}.ts` },
      tool_response: {
        type: "text",
        file: {
          filePath: `${tmp.path}/${id}.ts`,
          content: module,
          numLines: 1201,
          startLine: 1,
          totalLines: 1201,
        },
      },
    });
  const env = world(tmp.path);
  {
    // Hooks that give up after a millisecond: the host has gone on with the raw output before
    // any outline is made.
    await using late = await startServer(home, env, ["--timeout", "0.001"]);
    ok((await (await late.post(read("toolu_late"))).text()).includes("updatedToolOutput"));
  }
  {
    await using server = await startServer(home, env);
    ok((await (await server.post(read("toolu_kept"))).text()).includes("updatedToolOutput"));
  }
  drain(home);
  const db = new DatabaseSync(storePath(home), { readOnly: true });
  const got = db.prepare("SELECT call_id, delivered FROM runs ORDER BY call_id").all();
  db.close();
  deepStrictEqual(got.map((r) => [r.call_id, r.delivered]), [["toolu_kept", 1], ["toolu_late", 0]]);
  const gain = await rtok(home, ["gain", "--format", "json"]);
  strictEqual(gain.code, 0, gain.err);
  const g = JSON.parse(gain.out);
  strictEqual(g.runs, 1, "the undelivered row is in no total");
  strictEqual(g.undelivered.runs, 1);
  ok(g.undelivered.savedTokens > 0);
  const text = await rtok(home, ["gain"]);
  match(text.out, /^lost {5}1 hook answer the host gave up on before it arrived/m);
});

Deno.test("rtok serve --stop stops the server serve.json names; a second says none answers", async () => {
  using tmp = tempDir();
  const home = `${tmp.path}/rtok`;
  const server = await startServer(home, world(tmp.path));
  try {
    const r = await rtok(home, ["serve", "--stop"]);
    strictEqual(r.code, 0, r.err);
    strictEqual(r.out, `stopped rtok serve (pid ${server.state.pid})\n`);
    strictEqual(await serverHealth(server.state, 300), null);
    const again = await rtok(home, ["serve", "--stop"]);
    strictEqual(again.out, "rtok serve: none answering\n");
  } finally {
    await server[Symbol.asyncDispose]();
  }
});

Deno.test("rtok serve exits once its serve.json is gone or names another process", async (t) => {
  for (
    const [name, change] of [
      [
        "serve.json removed (RTOK_HOME deleted)",
        (home: string) => Deno.removeSync(home, { recursive: true }),
      ],
      ["serve.json names another process", (home: string) => {
        const s = JSON.parse(Deno.readTextFileSync(`${home}/serve.json`));
        Deno.writeTextFileSync(`${home}/serve.json`, JSON.stringify({ ...s, pid: s.pid + 1 }));
      }],
    ] as const
  ) {
    await t.step(name, async () => {
      using tmp = tempDir();
      const home = `${tmp.path}/rtok`;
      const server = await startServer(home, world(tmp.path));
      try {
        ok(await serverHealth(server.state, 500));
        change(home);
        let gone = false;
        for (let i = 0; i < 50 && !gone; i++) {
          await new Promise((r) => setTimeout(r, 100));
          gone = (await serverHealth(server.state, 200)) === null;
        }
        ok(gone, "the server still answers");
      } finally {
        await server[Symbol.asyncDispose]();
      }
    });
  }
});
