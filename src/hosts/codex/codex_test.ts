import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import type { HostEvent } from "../host.ts";
import { HOSTS } from "../hosts.ts";
import {
  ADAPTER,
  codexPostToolAnswer,
  codexPreToolAnswer,
  readCodexEvent,
  transcriptExitCode,
} from "./adapter.ts";
import { codexDoctor } from "./doctor.ts";
import {
  appendCodexBlock,
  CODEX_BLOCK_BEGIN,
  codexHome,
  codexHookGroup,
  codexHookHash,
  INSTALLER,
  isRtokCodexHandler,
  removeCodexBlock,
} from "./install.ts";

const _enc = (v: unknown) =>
  new TextEncoder().encode(typeof v === "string" ? v : JSON.stringify(v));

const _base = {
  session_id: "s-1",
  turn_id: "t-1",
  transcript_path: null as string | null,
  cwd: "/lab",
  model: "gpt-rtok",
  permission_mode: "bypassPermissions",
  tool_name: "Bash",
  tool_input: { command: "git log" },
  tool_use_id: "call_1",
};
const _pre = { ..._base, hook_event_name: "PreToolUse" };
const _post = (extra: Record<string, unknown> = {}) => ({
  ..._base,
  hook_event_name: "PostToolUse",
  tool_response: "commit abc\n",
  ...extra,
});

// A session transcript whose last line records call `id` finishing with `code`.
function _transcript(dir: string, id: string, code: number | null, pad = 0): string {
  const path = `${dir}/rollout.jsonl`;
  const item = {
    type: "event_msg",
    payload: {
      type: "item_completed",
      item: { type: "CommandExecution", id, status: "completed", exit_code: code },
    },
  };
  const filler = JSON.stringify({ type: "response_item", payload: { text: "x".repeat(pad) } });
  Deno.writeTextFileSync(path, `${filler}\n${JSON.stringify(item)}\n`);
  return path;
}

function _tmp(): { path: string } & Disposable {
  const path = Deno.makeTempDirSync({ prefix: "rtok-codex-" });
  return { path, [Symbol.dispose]: () => Deno.removeSync(path, { recursive: true }) };
}

Deno.test("readCodexEvent reads a PreToolUse Bash payload", () => {
  deepStrictEqual(readCodexEvent(_enc(_pre), "/here"), {
    event: "PreToolUse",
    command: "git log",
    input: { command: "git log" },
    session: "s-1",
    cwd: "/lab",
    callId: "call_1",
  });
});

Deno.test("readCodexEvent reads a PostToolUse result with the transcript's exit code", () => {
  using tmp = _tmp();
  const transcript = _transcript(tmp.path, "call_1", 0);
  const ev = readCodexEvent(_enc(_post({ transcript_path: transcript })), "/here");
  strictEqual(ev.event, "PostToolUse");
  deepStrictEqual((ev as HostEvent & { event: "PostToolUse" }).result, {
    kind: "shell",
    tool: "Bash",
    text: "commit abc\n",
    command: "git log",
    exitCode: 0,
  });
});

Deno.test("readCodexEvent leaves a result alone when the exit code is unknown", () => {
  using tmp = _tmp();
  const other = _transcript(tmp.path, "call_9", 0);
  for (const p of [_post(), _post({ transcript_path: other }), _post({ transcript_path: "/no" })]) {
    const ev = readCodexEvent(_enc(p), "/here") as HostEvent & { event: "PostToolUse" };
    strictEqual(ev.event, "PostToolUse");
    strictEqual(ev.result, null);
  }
});

Deno.test("readCodexEvent leaves a non-text tool_response alone", () => {
  using tmp = _tmp();
  const transcript = _transcript(tmp.path, "call_1", 0);
  const p = _post({ transcript_path: transcript, tool_response: { output: "x" } });
  const ev = readCodexEvent(_enc(p), "/here") as HostEvent & { event: "PostToolUse" };
  strictEqual(ev.result, null);
});

Deno.test("readCodexEvent reads other tools and events as Other", () => {
  const patch = readCodexEvent(_enc({ ..._pre, tool_name: "apply_patch" }), "/here");
  deepStrictEqual(patch, {
    event: "Other",
    name: "PreToolUse:apply_patch",
    session: "s-1",
    cwd: "/lab",
    callId: "call_1",
  });
  const start = readCodexEvent(_enc({ hook_event_name: "SessionStart", cwd: "" }), "/here");
  deepStrictEqual(start, { event: "Other", name: "SessionStart", session: null, cwd: "/here" });
});

Deno.test("readCodexEvent throws a one-line TypeError for payloads of unknown shape", () => {
  const bad: [unknown, RegExp][] = [
    ["", /empty/],
    ["{nope", /not valid JSON/],
    [[1], /not a JSON object/],
    [{ toolName: "bash" }, /no hook_event_name/],
    [{ ..._pre, tool_name: 3 }, /no tool_name/],
    [{ ..._pre, tool_input: "git log" }, /tool_input is not an object/],
    [{ ..._pre, tool_input: { cmd: "git log" } }, /no command string/],
    [{ ..._pre, hook_event_name: "PostToolUse" }, /no tool_response/],
  ];
  for (const [payload, re] of bad) {
    throws(() => readCodexEvent(_enc(payload), "/here"), (e: Error) => {
      ok(e instanceof TypeError, String(e));
      ok(re.test(e.message) && !e.message.includes("\n"), e.message);
      return true;
    });
  }
});

Deno.test("transcriptExitCode reads the call's exit code from a long transcript's end", () => {
  using tmp = _tmp();
  strictEqual(transcriptExitCode(_transcript(tmp.path, "call_7", 128, 700_000), "call_7"), 128);
  strictEqual(transcriptExitCode(_transcript(tmp.path, "call_7", null), "call_7"), null);
  strictEqual(transcriptExitCode(`${tmp.path}/missing.jsonl`, "call_7"), null);
});

Deno.test("codexPreToolAnswer passes a deny and never a rewrite", () => {
  deepStrictEqual(JSON.parse(codexPreToolAnswer({ kind: "deny", reason: "no" })), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "no",
    },
  });
  const rewrite = { kind: "rewrite" as const, input: { command: "rtok git log" }, reason: "r" };
  strictEqual(codexPreToolAnswer(rewrite), "");
  strictEqual(codexPreToolAnswer({ ...rewrite, allow: true }), "");
  strictEqual(codexPreToolAnswer(null), "");
});

Deno.test("codexPostToolAnswer blocks with rtok's text, the exit code kept for a failure", () => {
  using tmp = _tmp();
  const read = (code: number) =>
    readCodexEvent(
      _enc(_post({ transcript_path: _transcript(tmp.path, "call_1", code) })),
      "/here",
    ) as HostEvent & { event: "PostToolUse" };
  deepStrictEqual(JSON.parse(codexPostToolAnswer({ text: "short\n" }, read(0))), {
    decision: "block",
    reason: "short\n",
  });
  deepStrictEqual(JSON.parse(codexPostToolAnswer({ text: "short\n" }, read(2))), {
    decision: "block",
    reason: "Process exited with code 2\nOutput:\nshort\n",
  });
  deepStrictEqual(JSON.parse(codexPostToolAnswer({ context: "note" }, read(0))), {
    hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "note" },
  });
  strictEqual(codexPostToolAnswer({ text: "  \n" }, read(0)), "");
  strictEqual(codexPostToolAnswer({ keep: true }, read(0)), "");
  strictEqual(codexPostToolAnswer(null, read(0)), "");
  const unknown = readCodexEvent(_enc(_post()), "/here") as HostEvent & { event: "PostToolUse" };
  strictEqual(codexPostToolAnswer({ text: "x" }, unknown), "");
});

Deno.test("ADAPTER is codex's", () => {
  strictEqual(ADAPTER.id, "codex");
});

Deno.test("codexHookHash gives the trusted_hash the verified Codex release accepted for a hook", async () => {
  const group = {
    matcher: "Bash",
    hooks: [{ type: "command", command: "/tmp/cxp/hook.sh post", timeout: 30 }],
  };
  strictEqual(
    await codexHookHash("post_tool_use", group),
    "sha256:aece6bdc976d3e675fb6f9fc790d498a429e491c18329524cd33f49b19a36541",
  );
  strictEqual(
    await codexHookHash("post_tool_use", codexHookGroup("rtok")),
    "sha256:ac6f1e446c110b84feb5b0a98a05ce2c7e99af5e2088b5de343960d716bbf984",
  );
});

Deno.test("codexHome prefers CODEX_HOME, else ~/.codex", () => {
  strictEqual(codexHome({ CODEX_HOME: "/c/", HOME: "/h" }), "/c");
  strictEqual(codexHome({ HOME: "/h" }), "/h/.codex");
  throws(() => codexHome({}), TypeError);
});

Deno.test("isRtokCodexHandler knows rtok's command and nothing else", () => {
  ok(isRtokCodexHandler({ type: "command", command: "rtok hook codex" }));
  ok(isRtokCodexHandler({ type: "command", command: "deno run -A /x/cli.ts hook codex" }));
  ok(!isRtokCodexHandler({ type: "command", command: "rtok hook claude" }));
  ok(!isRtokCodexHandler({ type: "command", command: "myrtok-hook codex-ish" }));
});

Deno.test("appendCodexBlock and removeCodexBlock give back the bytes", () => {
  for (const text of ["a = 1\n", "a = 1", "a = 1\n\n", "", "# only\n"]) {
    const added = appendCodexBlock(text, "/h/hooks.json:post_tool_use:0:0", "sha256:00");
    ok(added.includes(CODEX_BLOCK_BEGIN), added);
    strictEqual(removeCodexBlock(added), text);
  }
  strictEqual(removeCodexBlock(appendCodexBlock(null, "k", "sha256:00")), null);
});

const _installer = () => INSTALLER;
const _doctor = (version: string | null = HOSTS.codex.verifiedVersion) =>
  codexDoctor({ version: () => Promise.resolve(version) });

function _opts(home: string, extra: { uninstall?: boolean; dryRun?: boolean } = {}) {
  return {
    rtok: "rtok",
    env: { CODEX_HOME: home, HOME: "/nonexistent" },
    host: HOSTS.codex,
    cwd: "/",
    uninstall: false,
    dryRun: false,
    ...extra,
  };
}

function _files(home: string): Record<string, string | null> {
  const read = (n: string) => {
    try {
      return Deno.readTextFileSync(`${home}/${n}`);
    } catch {
      return null;
    }
  };
  return { config: read("config.toml"), hooks: read("hooks.json") };
}

Deno.test("codexInstaller installs into an empty home and uninstalls to nothing", async () => {
  using tmp = _tmp();
  const home = `${tmp.path}/codex`;
  const r = await _installer().install(_opts(home));
  strictEqual(r.changes.length, 2);
  const files = _files(home);
  deepStrictEqual(JSON.parse(files.hooks!), { hooks: { PostToolUse: [codexHookGroup("rtok")] } });
  const key = `${Deno.realPathSync(home)}/hooks.json:post_tool_use:0:0`;
  ok(files.config!.includes(`[hooks.state.${JSON.stringify(key)}]`), files.config!);
  ok(r.notes.some((n) => n.startsWith("not done: rtok does not rewrite")), r.notes.join("\n"));
  const again = await _installer().install(_opts(home));
  strictEqual(again.changes.length, 0);
  ok(again.notes.some((n) => n.includes("already installed")), again.notes.join("\n"));
  await _installer().install(_opts(home, { uninstall: true }));
  deepStrictEqual(_files(home), { config: null, hooks: null });
});

Deno.test("codexInstaller keeps a user's config and hooks and restores them byte for byte", async () => {
  using tmp = _tmp();
  const home = tmp.path;
  const config = '# mine\nmodel = "o3"\n\n[projects."/x"]\ntrust_level = "trusted"';
  const hooks = '{ "hooks": { "PostToolUse": [ { "hooks": [ { "type": "command", ' +
    '"command": "true" } ] } ] }, "x": 1 }';
  Deno.writeTextFileSync(`${home}/config.toml`, config);
  Deno.writeTextFileSync(`${home}/hooks.json`, hooks);
  const dry = await _installer().install(_opts(home, { dryRun: true }));
  strictEqual(dry.changes.length, 2);
  deepStrictEqual(_files(home), { config, hooks });
  await _installer().install(_opts(home));
  const after = _files(home);
  ok(after.config!.startsWith(`${config}\n${CODEX_BLOCK_BEGIN}`), after.config!);
  ok(after.config!.includes(":post_tool_use:1:0"), after.config!);
  const parsed = JSON.parse(after.hooks!);
  strictEqual(parsed.x, 1);
  deepStrictEqual(parsed.hooks.PostToolUse[1], codexHookGroup("rtok"));
  const checks = await _doctor().check(_opts(home));
  strictEqual(checks[0].status, "ok", JSON.stringify(checks));
  const dryOut = await _installer().install(_opts(home, { uninstall: true, dryRun: true }));
  strictEqual(dryOut.changes.length, 2);
  deepStrictEqual(_files(home), after);
  await _installer().install(_opts(home, { uninstall: true }));
  deepStrictEqual(_files(home), { config, hooks });
  const none = await _installer().install(_opts(home, { uninstall: true }));
  strictEqual(none.changes.length, 0);
});

Deno.test("codexInstaller leaves an unparsable config.toml untouched, naming it and the line", async () => {
  using tmp = _tmp();
  const config = 'model = "o3"\nbroken = = 1\n';
  Deno.writeTextFileSync(`${tmp.path}/config.toml`, config);
  await rejects(_installer().install(_opts(tmp.path)), (e: Error) => {
    ok(e instanceof SyntaxError, String(e));
    ok(e.message.includes(`${tmp.path}/config.toml`) && e.message.includes("line 2"), e.message);
    ok(!e.message.includes("\n"), e.message);
    return true;
  });
  deepStrictEqual(_files(tmp.path), { config, hooks: null });
  const checks = await _doctor().check(_opts(tmp.path));
  strictEqual(checks[0].status, "FAIL");
});

Deno.test("codexInstaller leaves an unparsable hooks.json untouched, naming it and the line", async () => {
  using tmp = _tmp();
  const hooks = '{\n  "hooks": {},\n}\n';
  Deno.writeTextFileSync(`${tmp.path}/hooks.json`, hooks);
  await rejects(_installer().install(_opts(tmp.path)), (e: Error) => {
    ok(e.message.includes(`${tmp.path}/hooks.json`) && e.message.includes("line 3"), e.message);
    ok(!e.message.includes("\n"), e.message);
    return true;
  });
  deepStrictEqual(_files(tmp.path), { config: null, hooks });
});

Deno.test("codexInstaller says what it could not do: hooks off, a trust entry of the user's", async () => {
  using tmp = _tmp();
  const key = `${Deno.realPathSync(tmp.path)}/hooks.json:post_tool_use:0:0`;
  const config = `[features]\nhooks = false\n\n[hooks.state.${JSON.stringify(key)}]\n` +
    'trusted_hash = "sha256:old"\n';
  Deno.writeTextFileSync(`${tmp.path}/config.toml`, config);
  const r = await _installer().install(_opts(tmp.path));
  ok(r.notes.some((n) => n.includes("hooks = false")), r.notes.join("\n"));
  ok(r.notes.some((n) => n.includes("already has its own")), r.notes.join("\n"));
  strictEqual(_files(tmp.path).config, config);
});

Deno.test("codexDoctor is silent without Codex, and flags a changed hook", async () => {
  using tmp = _tmp();
  deepStrictEqual(await _doctor(null).check(_opts(`${tmp.path}/none`)), []);
  await _installer().install(_opts(tmp.path));
  const path = `${tmp.path}/hooks.json`;
  const hooks = JSON.parse(Deno.readTextFileSync(path));
  hooks.hooks.PostToolUse[0].hooks[0].timeout = 5;
  Deno.writeTextFileSync(path, JSON.stringify(hooks));
  const checks = await _doctor("0.170.0").check(_opts(tmp.path));
  strictEqual(checks[0].status, "warn");
  ok(checks[0].detail.includes("differs from the format"), checks[0].detail);
  strictEqual(checks[1].status, "warn");
  ok(checks[1].detail.includes("0.170.0"), checks[1].detail);
  hooks.hooks.PostToolUse[0].hooks[0].timeout = 30;
  hooks.hooks.PostToolUse.unshift({ hooks: [{ type: "command", command: "true" }] });
  Deno.writeTextFileSync(path, JSON.stringify(hooks));
  const moved = await _doctor().check(_opts(tmp.path));
  ok(moved[0].detail.includes("not trusted"), moved[0].detail);
});
