import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import { ADAPTER, geminiSettingsPath, geminiShellRules } from "./adapter.ts";
import { DOCTOR } from "./doctor.ts";
import { geminiHookGroup, INSTALLER, isRtokGeminiHook } from "./install.ts";
import type { HostEvent } from "../host.ts";
import { HOSTS } from "../hosts.ts";

const _enc = (v: unknown) =>
  new TextEncoder().encode(typeof v === "string" ? v : JSON.stringify(v));

const _BASE = {
  session_id: "s1",
  transcript_path: "/t.jsonl",
  cwd: "/lab",
  timestamp: "2026-12-04T17:24:21.864Z",
};

Deno.test("ADAPTER.readEvent reads a BeforeTool shell call as PreToolUse", () => {
  const ev = ADAPTER.readEvent(
    _enc({
      ..._BASE,
      hook_event_name: "BeforeTool",
      tool_name: "run_shell_command",
      tool_input: { command: "git log", description: "d" },
    }),
    "/elsewhere",
  );
  deepStrictEqual(ev, {
    event: "PreToolUse",
    command: "git log",
    input: { command: "git log", description: "d" },
    session: "s1",
    cwd: "/lab",
  });
});

Deno.test("ADAPTER.readEvent reads AfterTool as PostToolUse with no result to cut", () => {
  const ev = ADAPTER.readEvent(
    _enc({
      ..._BASE,
      hook_event_name: "AfterTool",
      tool_name: "run_shell_command",
      tool_input: { command: "rtok git log" },
      tool_response: { llmContent: "Output: x", returnDisplay: "x" },
    }),
    "/elsewhere",
  );
  deepStrictEqual(ev, {
    event: "PostToolUse",
    tool: "run_shell_command",
    input: { command: "rtok git log" },
    result: null,
    session: "s1",
    cwd: "/lab",
  });
});

Deno.test("ADAPTER.readEvent reads other events and tools as Other, cwd defaulting", () => {
  const start = ADAPTER.readEvent(_enc({ hook_event_name: "SessionStart" }), "/here");
  deepStrictEqual(start, { event: "Other", name: "SessionStart", session: null, cwd: "/here" });
  const read = ADAPTER.readEvent(
    _enc({ ..._BASE, hook_event_name: "BeforeTool", tool_name: "read_file", tool_input: {} }),
    "/here",
  );
  strictEqual(read.event, "Other");
});

Deno.test("ADAPTER.readEvent throws a one-line TypeError for payloads of unknown shape", () => {
  const bad: unknown[] = [
    "",
    "not json",
    "[1]",
    { cwd: "/x" },
    { hook_event_name: 3 },
    { hook_event_name: "BeforeTool", tool_input: {} },
    { hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: "git log" },
    { hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: {} },
    { hook_event_name: "AfterTool", tool_name: "x", tool_input: {}, tool_response: "s" },
    { hook_event_name: "AfterTool", session_id: 5, tool_name: "x", tool_input: {} },
  ];
  for (const p of bad) {
    throws(() => ADAPTER.readEvent(_enc(p), "/"), (e: Error) => {
      ok(e instanceof TypeError, String(e));
      ok(!e.message.includes("\n") && e.message.startsWith("gemini: "), e.message);
      return true;
    }, JSON.stringify(p));
  }
});

const _PRE: HostEvent & { event: "PreToolUse" } = {
  event: "PreToolUse",
  command: "git log",
  input: { command: "git log", description: "d" },
  session: "s1",
  cwd: "/lab",
};

Deno.test("ADAPTER.preToolAnswer rewrites the whole tool_input and never answers allow", () => {
  const answer = ADAPTER.preToolAnswer(
    { kind: "rewrite", input: { command: "rtok git log" }, reason: "r", allow: true },
    _PRE,
  );
  deepStrictEqual(JSON.parse(answer), {
    hookSpecificOutput: {
      hookEventName: "BeforeTool",
      tool_input: { command: "rtok git log", description: "d" },
    },
  });
  ok(!answer.includes("decision"));
  strictEqual(ADAPTER.preToolAnswer(null, _PRE), "");
  strictEqual(
    ADAPTER.preToolAnswer({ kind: "rewrite", input: { command: "git log" }, reason: "r" }, _PRE),
    "",
  );
  deepStrictEqual(JSON.parse(ADAPTER.preToolAnswer({ kind: "deny", reason: "no" }, _PRE)), {
    decision: "deny",
    reason: "no",
  });
});

Deno.test("ADAPTER.postToolAnswer answers nothing: Gemini CLI cannot replace a result", () => {
  const ev: HostEvent & { event: "PostToolUse" } = {
    event: "PostToolUse",
    tool: "run_shell_command",
    input: {},
    result: null,
    session: null,
    cwd: "/",
  };
  strictEqual(ADAPTER.postToolAnswer({ text: "short" }, ev), "");
  strictEqual(ADAPTER.postToolAnswer(null, ev), "");
});

Deno.test("geminiSettingsPath prefers GEMINI_CLI_HOME over HOME, and needs one", () => {
  strictEqual(
    geminiSettingsPath({ GEMINI_CLI_HOME: "/g", HOME: "/h" }),
    "/g/.gemini/settings.json",
  );
  strictEqual(geminiSettingsPath({ HOME: "/h" }), "/h/.gemini/settings.json");
  throws(() => geminiSettingsPath({}), Error);
});

Deno.test("isRtokGeminiHook knows rtok's entries by name or by command", () => {
  ok(isRtokGeminiHook({ type: "command", name: "rtok", command: "x" }));
  ok(isRtokGeminiHook({ type: "command", command: "/opt/bin/rtok hook gemini" }));
  ok(isRtokGeminiHook({ type: "command", command: "deno run -A /r/cli.ts hook gemini" }));
  ok(!isRtokGeminiHook({ type: "command", command: "rtok hook claude" }));
  ok(!isRtokGeminiHook({ type: "command", command: "echo hi" }));
});

function _home(): { env: Record<string, string>; path: string; dir: string } & Disposable {
  const dir = Deno.makeTempDirSync({ prefix: "rtok-gemini-" });
  return {
    env: { GEMINI_CLI_HOME: dir, HOME: "/nonexistent" },
    path: `${dir}/.gemini/settings.json`,
    dir,
    [Symbol.dispose]: () => Deno.removeSync(dir, { recursive: true }),
  };
}

const _opts = (env: Record<string, string>, more: { uninstall?: boolean; dryRun?: boolean }) => ({
  rtok: "rtok",
  env,
  cwd: "/",
  uninstall: more.uninstall ?? false,
  dryRun: more.dryRun ?? false,
});

Deno.test("INSTALLER.install adds both hooks, keeps the rest, and uninstall restores the bytes", async () => {
  using h = _home();
  Deno.mkdirSync(`${h.dir}/.gemini`);
  const user =
    '{\n    "ui": {"theme": "GitHub"},\n  "hooks": {"BeforeTool": [{"matcher": "write_file",' +
    ' "hooks": [{"type": "command", "command": "echo hi"}]}]}\n}\n';
  Deno.writeTextFileSync(h.path, user);
  const r = await INSTALLER.install(_opts(h.env, {}));
  strictEqual(r.changes.length, 1);
  const s = JSON.parse(Deno.readTextFileSync(h.path));
  strictEqual(s.ui.theme, "GitHub");
  strictEqual(s.hooks.BeforeTool.length, 2);
  deepStrictEqual(s.hooks.BeforeTool[1], geminiHookGroup("rtok"));
  deepStrictEqual(s.hooks.AfterTool, [geminiHookGroup("rtok")]);
  ok(r.notes.some((n) => n.includes("cannot replace")), r.notes.join("\n"));
  // Installing again changes nothing.
  strictEqual((await INSTALLER.install(_opts(h.env, {}))).changes.length, 0);
  await INSTALLER.install(_opts(h.env, { uninstall: true }));
  strictEqual(Deno.readTextFileSync(h.path), user);
  strictEqual((await INSTALLER.install(_opts(h.env, { uninstall: true }))).changes.length, 0);
});

Deno.test("INSTALLER.install creates the file, and uninstall removes what it created", async () => {
  using h = _home();
  await INSTALLER.install(_opts(h.env, {}));
  ok(JSON.parse(Deno.readTextFileSync(h.path)).hooks.AfterTool);
  await INSTALLER.install(_opts(h.env, { uninstall: true }));
  throws(() => Deno.statSync(h.path), Deno.errors.NotFound);
});

Deno.test("INSTALLER.install on a dry run says what would change and writes nothing", async () => {
  using h = _home();
  const r = await INSTALLER.install(_opts(h.env, { dryRun: true }));
  strictEqual(r.changes.length, 1);
  strictEqual(r.changes[0].before, null);
  ok(r.changes[0].after?.includes('"rtok hook gemini"'));
  ok(r.notes.includes("dry run: nothing written"));
  throws(() => Deno.statSync(h.path), Deno.errors.NotFound);
});

Deno.test("INSTALLER.install leaves an unparsable file untouched, naming it and the line", async () => {
  using h = _home();
  Deno.mkdirSync(`${h.dir}/.gemini`);
  const broken = '{\n  "ui": {},\n  "a": ,\n}\n';
  Deno.writeTextFileSync(h.path, broken);
  await rejects(INSTALLER.install(_opts(h.env, {})), (e: Error) => {
    ok(e.message.startsWith(`${h.path}:3 `), e.message);
    ok(!e.message.includes("\n"), e.message);
    return true;
  });
  strictEqual(Deno.readTextFileSync(h.path), broken);
  strictEqual([...Deno.readDirSync(`${h.dir}/.gemini`)].length, 1, "no backup either");
});

Deno.test("INSTALLER.install refuses a settings file with comments, untouched", async () => {
  using h = _home();
  Deno.mkdirSync(`${h.dir}/.gemini`);
  const commented = '{\n  // mine\n  "ui": {}\n}\n';
  Deno.writeTextFileSync(h.path, commented);
  await rejects(INSTALLER.install(_opts(h.env, {})), /has comments/);
  strictEqual(Deno.readTextFileSync(h.path), commented);
});

Deno.test("DOCTOR.check is silent with no Gemini CLI and no settings, and checks hooks", async () => {
  using h = _home();
  const path = Deno.env.get("PATH");
  Deno.env.set("PATH", "/nonexistent");
  try {
    deepStrictEqual(
      await DOCTOR.check({ host: HOSTS.gemini, rtok: "rtok", env: h.env, cwd: "/" }),
      [],
    );
    await INSTALLER.install(_opts(h.env, {}));
    const checks = await DOCTOR.check({ host: HOSTS.gemini, rtok: "rtok", env: h.env, cwd: "/" });
    deepStrictEqual(checks.map((c) => [c.label, c.status]), [
      ["gemini hooks", "ok"],
      ["gemini version", "warn"],
    ]);
    const s = JSON.parse(Deno.readTextFileSync(h.path));
    s.hooks.AfterTool[0].hooks[0].timeout = 10;
    s.hooksConfig = { enabled: false };
    Deno.writeTextFileSync(h.path, JSON.stringify(s));
    const [hooks] = await DOCTOR.check({ host: HOSTS.gemini, rtok: "rtok", env: h.env, cwd: "/" });
    strictEqual(hooks.status, "FAIL");
    ok(hooks.detail.includes("AfterTool"), hooks.detail);
  } finally {
    if (path === undefined) Deno.env.delete("PATH");
    else Deno.env.set("PATH", path);
  }
});

Deno.test("geminiShellRules() finds a policy or a tool list naming shell commands, and the adapter then rewrites nothing", () => {
  const home = Deno.makeTempDirSync();
  const admin = `${home}/admin`;
  try {
    const env = { GEMINI_CLI_HOME: home };
    strictEqual(geminiShellRules(env, admin), null, "no rules: rewrites go ahead");
    Deno.mkdirSync(`${home}/.gemini/policies`, { recursive: true });
    Deno.writeTextFileSync(
      `${home}/.gemini/policies/other.toml`,
      '[[rule]]\ntoolName = "read_file"\n',
    );
    strictEqual(geminiShellRules(env, admin), null, "a rule about another tool is not one");
    const deny = `${home}/.gemini/policies/deny.toml`;
    Deno.writeTextFileSync(
      deny,
      '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git log"\ndecision = "deny"\n',
    );
    strictEqual(geminiShellRules(env, admin), deny);
    // The hook reads the same place from its environment.
    const before = Deno.env.get("GEMINI_CLI_HOME");
    const ev = {
      event: "PreToolUse" as const,
      command: "git log",
      input: { command: "git log" },
      session: null,
      cwd: home,
    };
    const d = { kind: "rewrite" as const, input: { command: "rtok git log" }, reason: "r" };
    try {
      Deno.env.set("GEMINI_CLI_HOME", home);
      strictEqual(ADAPTER.preToolAnswer(d, ev), "", "a deny rule for git log keeps git log");
      Deno.removeSync(deny);
      ok(ADAPTER.preToolAnswer(d, ev).includes("rtok git log"), "without it, the rewrite");
    } finally {
      if (before === undefined) Deno.env.delete("GEMINI_CLI_HOME");
      else Deno.env.set("GEMINI_CLI_HOME", before);
    }
    Deno.writeTextFileSync(
      `${home}/.gemini/settings.json`,
      JSON.stringify({ tools: { exclude: ["run_shell_command(git log)"] } }),
    );
    strictEqual(geminiShellRules(env, admin), `${home}/.gemini/settings.json`);
    Deno.removeSync(`${home}/.gemini/settings.json`);
    Deno.mkdirSync(admin);
    Deno.writeTextFileSync(`${admin}/org.toml`, 'toolName = "run_shell_command"\n');
    strictEqual(geminiShellRules(env, admin), `${admin}/org.toml`);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
