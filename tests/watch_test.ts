import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { defaultConfig } from "../src/core/config.ts";
import { answerClaudeHook, makeHookDeps } from "../src/surfaces/_hook_answer.ts";
import { composeOutput } from "../src/pipeline/compose.ts";
import { FAMILIES } from "../filters/git_log.ts";
import { MAX_WATCHED, watchedCalls } from "../src/plugins/cmd/watch.ts";
import { ledger, pointerId, sha256, tempDir } from "./_helpers.ts";

const FIXTURE = new URL("./fixtures/git_log_history/", import.meta.url);
const shaped = Deno.readTextFileSync(new URL("shaped.out", FIXTURE));

interface Hook {
  readonly home: string;
  readonly project: string;
  pre(command: string, id?: string): Promise<string>;
  post(command: string, stdout: string, id?: string): Promise<string>;
}

function hook(root: string, resident: boolean): Hook {
  const home = `${root}/rtok`;
  const project = `${root}/project`;
  Deno.mkdirSync(project, { recursive: true });
  // An rtok on PATH, so a rewrite names it as an installed one would be named.
  Deno.mkdirSync(`${root}/bin`);
  Deno.writeTextFileSync(`${root}/bin/rtok`, "#!/bin/sh\n", { mode: 0o755 });
  const deps = makeHookDeps({
    config: defaultConfig(),
    home,
    env: { RTOK_HOME: home, PATH: `${root}/bin` },
    resident,
  });
  const send = async (event: Record<string, unknown>) => {
    const bytes = new TextEncoder().encode(JSON.stringify({
      session_id: "sess-w",
      cwd: project,
      ...event,
    }));
    const r = await answerClaudeHook(bytes, deps);
    strictEqual(r.failure, null);
    const errors = deps.registry.errors.splice(0);
    deepStrictEqual(errors, [], String(errors[0]?.error));
    return r.answer;
  };
  return {
    home,
    project,
    pre: (command, id = "toolu_1") =>
      send({
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command, description: "d" },
        tool_use_id: id,
      }),
    post: (command, stdout, id = "toolu_1") =>
      send({
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command, description: "d" },
        tool_response: { stdout, stderr: "", interrupted: false, isImage: false },
        tool_use_id: id,
      }),
  };
}

// deno-lint-ignore no-explicit-any -- the hook's JSON answer, read field by field
const parse = (a: string): any => JSON.parse(a).hookSpecificOutput;

Deno.test("the resident hook asks git log for its stage-1 flags and filters the output as rtok git log would", async () => {
  using tmp = tempDir();
  const h = hook(tmp.path, true);
  const pre = parse(await h.pre("git log"));
  strictEqual(pre.updatedInput.command, "git log -n 50", "no rtok process: git runs");
  strictEqual(pre.updatedInput.description, "d", "the rest of the input is kept");
  strictEqual(pre.permissionDecision, "allow", "read-only, as for its rtok form");

  const post = parse(await h.post("git log -n 50", shaped));
  const stdout: string = post.updatedToolOutput.stdout;
  const id = pointerId(stdout);
  ok(id, stdout.slice(-200));
  const filter = FAMILIES["git log"].filter;
  const direct = composeOutput(filter, shaped, { args: ["-n", "50"], shaped: true, exitCode: 0 });
  strictEqual(stdout, direct.text(id), "the bytes rtok git log prints for the same output");
  strictEqual(post.updatedToolOutput.stderr, "");

  const [row] = ledger(h.home).filter((r) => r.family === "git log");
  strictEqual(row.surface, "hook");
  strictEqual(row.plugin, "cmd");
  strictEqual(row.command, "git log");
  strictEqual(row.rtok_command, "git log -n 50");
  strictEqual(row.stage, "shape+filter");
  strictEqual(row.archive_id, id);
  strictEqual(row.session, "sess-w");
  // The archive keeps the raw bytes under their SHA-256, which the id begins.
  const digest = await sha256(new TextEncoder().encode(shaped));
  ok(digest.startsWith(id!), `${digest} ${id}`);
  ok(Deno.statSync(`${h.home}/archive/${digest}`).isFile);

  // Its watch is used once; the same output again is filtered by its command line alone.
  await h.post("git log -n 50", shaped);
  const stages = ledger(h.home).filter((r) => r.plugin === "cmd").map((r) => r.stage);
  deepStrictEqual(stages, ["shape+filter", "filter"]);
});

Deno.test("the command hook, not resident, rewrites git log to its rtok form as before", async () => {
  using tmp = tempDir();
  const h = hook(tmp.path, false);
  const pre = parse(await h.pre("git log"));
  ok(/(^|\/)rtok git log$/.test(pre.updatedInput.command), pre.updatedInput.command);
  strictEqual(await h.post("git log", "x\n".repeat(10)), "");
});

Deno.test("the resident hook rewrites to rtok whatever it cannot watch to the end", async (t) => {
  using tmp = tempDir();
  const h = hook(tmp.path, true);
  Deno.writeTextFileSync(`${h.project}/a.txt`, "a\n");
  const rewritten: [string, string][] = [
    ["git status && git log", "two commands share one output"],
    ["diff a.txt b.txt", "diff exits 1 when the files differ"],
    ["git diff --exit-code", "exits 1 on a difference"],
    ["GIT_PAGER=cat git log", "a prefix"],
    ["npm test", "a test run may fail"],
  ];
  for (const [line, why] of rewritten) {
    await t.step(`${line} (${why})`, async () => {
      const before = watchedCalls();
      const answer = parse(await h.pre(line, `toolu_${line}`));
      ok(/(^|[\s/])rtok /.test(answer.updatedInput.command), answer.updatedInput.command);
      strictEqual(watchedCalls(), before, "nothing is left waiting for a PostToolUse");
    });
  }
  for (const line of ["git log | head -3", "git log > log.txt"]) {
    await t.step(`${line}: neither rewritten nor watched`, async () => {
      strictEqual(await h.pre(line, `toolu_${line}`), "");
      strictEqual(watchedCalls(), 0);
    });
  }
  await t.step(
    "a format the caller chose runs as written and reaches the agent as it is",
    async () => {
      strictEqual(await h.pre("git log --oneline", "toolu_oneline"), "");
      // Long enough for the content engine, which must not cut it either.
      strictEqual(await h.post("git log --oneline", shaped, "toolu_oneline"), "");
      const row = ledger(h.home).find((r) => r.command === "git log --oneline");
      strictEqual(row?.passthrough, "the caller chose the output format (--oneline)");
      strictEqual(row?.plugin, "cmd");
    },
  );
  await t.step("a call without its own flags to add runs as written and is filtered", async () => {
    strictEqual(await h.pre("git log -12", "toolu_12"), "");
    const post = parse(await h.post("git log -12", shaped, "toolu_12"));
    ok(pointerId(post.updatedToolOutput.stdout), "filtered on its return");
  });
  await t.step("a project's own filter file sends the call to rtok", async () => {
    Deno.mkdirSync(`${h.project}/.rtok`);
    Deno.writeTextFileSync(`${h.project}/.rtok/filters.toml`, "");
    const answer = parse(await h.pre("git log", "toolu_own"));
    ok(/(^|[\s/])rtok git log$/.test(answer.updatedInput.command), answer.updatedInput.command);
  });
});

Deno.test("the resident hook forgets the oldest calls past MAX_WATCHED", async () => {
  using tmp = tempDir();
  const h = hook(tmp.path, true);
  for (let i = 0; i <= MAX_WATCHED + 5; i++) await h.pre("git log -3", `toolu_many_${i}`);
  ok(watchedCalls() <= MAX_WATCHED, `${watchedCalls()}`);
  const rows = () => ledger(h.home).filter((r) => r.plugin === "cmd");
  await h.post("git log -3", shaped, "toolu_many_0");
  strictEqual(watchedCalls(), MAX_WATCHED, "the oldest was not waiting any more");
  ok(parse(await h.post("git log -3", shaped, `toolu_many_${MAX_WATCHED + 5}`)).updatedToolOutput);
  strictEqual(watchedCalls(), MAX_WATCHED - 1, "the newest was, and is taken");
  strictEqual(rows().length, 2);
});
