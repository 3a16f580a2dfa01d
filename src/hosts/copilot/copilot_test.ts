import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import { defaultConfig } from "../../core/config.ts";
import { rtokEnv } from "../../core/env.ts";
import { answerHostHook, makeHookDeps } from "../../surfaces/_hook_answer.ts";
import type { HostEvent } from "../host.ts";
import { HOSTS } from "../hosts.ts";
import {
  ADAPTER,
  copilotPostToolAnswer,
  copilotPreToolAnswer,
  readCopilotEvent,
} from "./adapter.ts";
import { copilotDoctor } from "./doctor.ts";
import {
  copilotHome,
  copilotHooksConfig,
  INSTALLER,
  isRtokCopilotEntry,
  jsonErrorReason,
} from "./install.ts";

const _enc = (v: unknown) =>
  new TextEncoder().encode(typeof v === "string" ? v : JSON.stringify(v));
const _pre = {
  sessionId: "s-1",
  timestamp: 1796404925875,
  cwd: "/lab",
  toolName: "bash",
  toolArgs: { command: "git log", description: "Run the command" },
};
const _post = (text: string, extra: Record<string, unknown> = {}) => ({
  ..._pre,
  toolResult: { resultType: "success", textResultForLlm: text },
  ...extra,
});
const _done = (code: number) => `\n<shellId: 0 completed with exit code ${code}>`;

Deno.test("readCopilotEvent reads a preToolUse bash payload", () => {
  deepStrictEqual(readCopilotEvent(_enc(_pre), "/here"), {
    event: "PreToolUse",
    command: "git log",
    input: _pre.toolArgs,
    session: "s-1",
    cwd: "/lab",
  });
});

Deno.test("readCopilotEvent reads toolArgs given as a JSON string", () => {
  const ev = readCopilotEvent(_enc({ ..._pre, toolArgs: JSON.stringify(_pre.toolArgs) }), "/");
  strictEqual(ev.event === "PreToolUse" && ev.command, "git log");
});

Deno.test("readCopilotEvent falls back to the hook's cwd and no session", () => {
  const ev = readCopilotEvent(_enc({ toolName: "bash", toolArgs: { command: "ls" } }), "/here");
  strictEqual(ev.cwd, "/here");
  strictEqual(ev.session, null);
});

Deno.test("readCopilotEvent reads a bash result without Copilot's trailer, with its exit code", () => {
  const ev = readCopilotEvent(_enc(_post("commit abc\n" + _done(0))), "/");
  strictEqual(ev.event, "PostToolUse");
  deepStrictEqual((ev as HostEvent & { event: "PostToolUse" }).result, {
    kind: "shell",
    tool: "bash",
    text: "commit abc\n",
    command: "git log",
    exitCode: 0,
  });
  const failed = readCopilotEvent(_enc(_post("fatal: no" + _done(128))), "/");
  strictEqual((failed as HostEvent & { event: "PostToolUse" }).result?.exitCode, 128);
});

Deno.test("readCopilotEvent leaves alone a result that is not a finished synchronous call", () => {
  const cases = [
    _post("still running"),
    _post("x" + _done(0), { toolArgs: { command: "sleep 9", mode: "async" } }),
    { ..._pre, toolResult: { resultType: "failure", textResultForLlm: "x" + _done(1) } },
    { ..._pre, toolResult: { resultType: "success" } },
  ];
  for (const payload of cases) {
    const ev = readCopilotEvent(_enc(payload), "/");
    strictEqual(ev.event, "PostToolUse");
    strictEqual((ev as HostEvent & { event: "PostToolUse" }).result, null, JSON.stringify(payload));
  }
});

Deno.test("readCopilotEvent reads other tools and a failure payload as Other", () => {
  const view = { ..._pre, toolName: "view", toolArgs: { path: "a" } };
  strictEqual(readCopilotEvent(_enc(view), "/").event, "Other");
  strictEqual(readCopilotEvent(_enc({ ...view, toolResult: {} }), "/").event, "Other");
  const failure = { ..._pre, error: "boom" };
  deepStrictEqual(readCopilotEvent(_enc(failure), "/"), {
    event: "Other",
    name: "postToolUseFailure:bash",
    session: "s-1",
    cwd: "/lab",
  });
});

Deno.test("readCopilotEvent throws a one-line TypeError for a payload of a shape it does not know", () => {
  const bad: [string, RegExp][] = [
    ["", /empty/],
    ["{nope", /not valid JSON/],
    ["[1]", /not a JSON object/],
    ['{"hookEventName":"x"}', /no toolName/],
    [JSON.stringify({ ..._pre, toolName: 3 }), /no toolName/],
    [JSON.stringify({ ..._pre, toolArgs: 3 }), /toolArgs is not an object/],
    [JSON.stringify({ ..._pre, toolArgs: "{nope" }), /toolArgs is a string that is not JSON/],
    [JSON.stringify({ ..._pre, toolArgs: { description: "x" } }), /no command string/],
    [JSON.stringify({ ..._pre, toolResult: "text" }), /toolResult is not an object/],
  ];
  for (const [input, message] of bad) {
    throws(() => readCopilotEvent(_enc(input), "/"), (e: Error) => {
      ok(e instanceof TypeError, input);
      ok(message.test(e.message), `${input}: ${e.message}`);
      ok(!e.message.includes("\n"), e.message);
      return true;
    });
  }
});

Deno.test("copilotPreToolAnswer passes a deny and never a rewrite or an allow", () => {
  const rewrite = {
    kind: "rewrite" as const,
    input: { command: "rtok git log" },
    reason: "r",
    allow: true,
  };
  strictEqual(copilotPreToolAnswer(rewrite), "");
  strictEqual(copilotPreToolAnswer({ ...rewrite, allow: false }), "");
  strictEqual(copilotPreToolAnswer(null), "");
  deepStrictEqual(JSON.parse(copilotPreToolAnswer({ kind: "deny", reason: "no" })), {
    permissionDecision: "deny",
    permissionDecisionReason: "no",
  });
});

Deno.test("copilotPostToolAnswer writes the replacement as modifiedResult", () => {
  const ev = readCopilotEvent(_enc(_post("raw" + _done(0))), "/") as HostEvent & {
    event: "PostToolUse";
  };
  deepStrictEqual(JSON.parse(copilotPostToolAnswer({ text: "short\n" }, ev)), {
    modifiedResult: { resultType: "success", textResultForLlm: "short\n" },
  });
  strictEqual(copilotPostToolAnswer(null, ev), "");
  strictEqual(copilotPostToolAnswer({ keep: true }, ev), "");
  deepStrictEqual(JSON.parse(copilotPostToolAnswer({ context: "outline" }, ev)), {
    additionalContext: "outline",
  });
});

Deno.test("copilotPostToolAnswer keeps a failed call's exit-code trailer after the text", () => {
  const ev = readCopilotEvent(_enc(_post("FAILED 3 tests" + _done(1))), "/") as HostEvent & {
    event: "PostToolUse";
  };
  const answer = JSON.parse(copilotPostToolAnswer({ text: "3 failed" }, ev));
  strictEqual(answer.modifiedResult.textResultForLlm, "3 failed" + _done(1));
});

Deno.test("copilotPostToolAnswer replaces nothing for a result rtok did not read", () => {
  const ev = readCopilotEvent(_enc(_post("running")), "/") as HostEvent & {
    event: "PostToolUse";
  };
  strictEqual(copilotPostToolAnswer({ text: "x" }, ev), "");
});

Deno.test("ADAPTER through the shared handler: a bad payload gets no answer and a failure", async () => {
  const deps = makeHookDeps({ config: defaultConfig(), home: "", env: rtokEnv(), plugins: [] });
  const r = await answerHostHook(ADAPTER, _enc('{"x":1}'), deps);
  strictEqual(r.answer, "");
  ok(r.failure?.includes("no toolName"), String(r.failure));
});

Deno.test("isRtokCopilotEntry knows rtok's hook command and nothing else", () => {
  const entry = (bash: string) => ({ type: "command", bash });
  ok(isRtokCopilotEntry(entry("rtok hook copilot")));
  ok(isRtokCopilotEntry(entry("/home/u/.deno/bin/rtok hook copilot")));
  ok(isRtokCopilotEntry(entry("'/a b/rtok' hook copilot")));
  ok(isRtokCopilotEntry(entry("/usr/bin/deno run -q --allow-read /src/cli.ts hook copilot")));
  ok(!isRtokCopilotEntry(entry("rtok hook claude")));
  ok(!isRtokCopilotEntry(entry("myrtok hook copilot")));
  ok(!isRtokCopilotEntry({ type: "prompt", bash: "rtok hook copilot" }));
  ok(!isRtokCopilotEntry("rtok hook copilot"));
});

Deno.test("copilotHome is COPILOT_HOME, else ~/.copilot", () => {
  strictEqual(copilotHome({ COPILOT_HOME: "/c/", HOME: "/h" }), "/c");
  strictEqual(copilotHome({ HOME: "/h" }), "/h/.copilot");
  throws(() => copilotHome({}), TypeError);
});

Deno.test("jsonErrorReason() names the line a JSON text breaks on, and why", () => {
  const text = '{\n  "a": 1,\n  "b": tru\n}\n';
  let error: Error | null = null;
  try {
    JSON.parse(text);
  } catch (e) {
    error = e as Error;
  }
  ok(/^line 3: /.test(jsonErrorReason(text, error!)), jsonErrorReason(text, error!));
});

// ---------------------------------------------------------------------------------------
// The installer, on temp dirs

function _opts(home: string, extra: { uninstall?: boolean; dryRun?: boolean } = {}) {
  return {
    rtok: "rtok",
    env: { HOME: "/nonexistent", COPILOT_HOME: home },
    cwd: "/",
    uninstall: extra.uninstall ?? false,
    dryRun: extra.dryRun ?? false,
  };
}

function _exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("INSTALLER.install creates rtok's hooks file, once, and uninstall removes it and its dir", async () => {
  const home = Deno.makeTempDirSync();
  try {
    const path = `${home}/hooks/rtok.json`;
    const installer = INSTALLER;
    const dry = await installer.install(_opts(home, { dryRun: true }));
    deepStrictEqual(dry.changes.map((c) => [c.path, c.before]), [[path, null]]);
    ok(!_exists(`${home}/hooks`), "a dry run writes nothing");
    const first = await installer.install(_opts(home));
    strictEqual(first.changes.length, 1);
    deepStrictEqual(JSON.parse(Deno.readTextFileSync(path)), copilotHooksConfig("rtok"));
    ok(first.notes.some((n) => n.startsWith("not done: ")), first.notes.join("\n"));
    ok(first.notes.every((n) => !n.includes("\n")));
    const again = await installer.install(_opts(home));
    strictEqual(again.changes.length, 0);
    ok(again.notes[0].includes("already installed"), again.notes[0]);
    const dryOff = await installer.install(_opts(home, { uninstall: true, dryRun: true }));
    strictEqual(dryOff.changes[0].after, null);
    ok(_exists(path), "a dry run removes nothing");
    const off = await installer.install(_opts(home, { uninstall: true }));
    strictEqual(off.changes[0].after, null);
    ok(!_exists(`${home}/hooks`), "the hooks dir rtok made is gone");
    const none = await installer.install(_opts(home, { uninstall: true }));
    strictEqual(none.changes.length, 0);
    ok(none.notes[0].includes("nothing to remove"), none.notes[0]);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("INSTALLER.install leaves the user's other hooks files and settings byte for byte", async () => {
  const home = Deno.makeTempDirSync();
  try {
    Deno.mkdirSync(`${home}/hooks`);
    const mine = '{ "hooks": { "sessionEnd": [ { "type": "command", "bash": "true" } ] } }';
    const settings = '// mine\n{ "theme": "dark", }\n';
    Deno.writeTextFileSync(`${home}/hooks/mine.json`, mine);
    Deno.writeTextFileSync(`${home}/settings.json`, settings);
    await INSTALLER.install(_opts(home));
    await INSTALLER.install(_opts(home, { uninstall: true }));
    deepStrictEqual([...Deno.readDirSync(`${home}/hooks`)].map((e) => e.name), ["mine.json"]);
    strictEqual(Deno.readTextFileSync(`${home}/hooks/mine.json`), mine);
    strictEqual(Deno.readTextFileSync(`${home}/settings.json`), settings);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("INSTALLER.install adds to a user's rtok.json and uninstall restores its bytes", async () => {
  const home = Deno.makeTempDirSync();
  try {
    Deno.mkdirSync(`${home}/hooks`);
    const path = `${home}/hooks/rtok.json`;
    const original = '{"hooks":{"postToolUse":[{"type":"command","bash":"logger x"}]}}';
    Deno.writeTextFileSync(path, original);
    const r = await INSTALLER.install(_opts(home));
    ok(r.notes.some((n) => n.startsWith("backed up ")), r.notes.join("\n"));
    const config = JSON.parse(Deno.readTextFileSync(path));
    strictEqual(config.hooks.postToolUse.length, 2);
    strictEqual(config.hooks.postToolUse[1].bash, "rtok hook copilot");
    await INSTALLER.install(_opts(home, { uninstall: true }));
    strictEqual(Deno.readTextFileSync(path), original);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("INSTALLER.install replaces an rtok hook that runs another rtok", async () => {
  const home = Deno.makeTempDirSync();
  try {
    await INSTALLER.install({ ..._opts(home), rtok: "/old/rtok" });
    await INSTALLER.install(_opts(home));
    const config = JSON.parse(Deno.readTextFileSync(`${home}/hooks/rtok.json`));
    deepStrictEqual(config, copilotHooksConfig("rtok"));
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("INSTALLER.install leaves an unparsable rtok.json untouched, naming it and the line", async () => {
  const home = Deno.makeTempDirSync();
  try {
    Deno.mkdirSync(`${home}/hooks`);
    const path = `${home}/hooks/rtok.json`;
    const broken = '{\n  "hooks": {\n    "postToolUse": [,]\n  }\n}\n';
    Deno.writeTextFileSync(path, broken);
    for (const uninstall of [false, true]) {
      await rejects(INSTALLER.install(_opts(home, { uninstall })), (e: Error) => {
        ok(e instanceof SyntaxError);
        ok(e.message.includes(`"${path}"`), e.message);
        ok(e.message.includes("line 3"), e.message);
        ok(!e.message.includes("\n"), e.message);
        return true;
      });
    }
    strictEqual(Deno.readTextFileSync(path), broken);
    deepStrictEqual([...Deno.readDirSync(`${home}/hooks`)].map((e) => e.name), ["rtok.json"]);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("copilotDoctor says nothing when Copilot is neither installed nor configured", async () => {
  const home = Deno.makeTempDirSync();
  try {
    deepStrictEqual(
      await copilotDoctor({ version: () => Promise.resolve(null) }).check({
        host: HOSTS.copilot,
        rtok: "rtok",
        env: _opts(home).env,
        cwd: "/",
      }),
      [],
    );
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("copilotDoctor reports the hooks and the installed version against the verified one", async () => {
  const home = Deno.makeTempDirSync();
  const doctor = (version: string | null) =>
    copilotDoctor({ version: () => Promise.resolve(version) }).check({
      host: HOSTS.copilot,
      rtok: "rtok",
      env: _opts(home).env,
      cwd: "/",
    });
  const statuses = async (version: string | null) =>
    (await doctor(version)).map((c) => `${c.status} ${c.label}`);
  try {
    deepStrictEqual(await statuses(HOSTS.copilot.verifiedVersion), [
      "warn copilot hooks",
      "ok copilot version",
    ]);
    await INSTALLER.install(_opts(home));
    deepStrictEqual(await statuses(HOSTS.copilot.verifiedVersion), [
      "ok copilot hooks",
      "ok copilot version",
    ]);
    const newer = await doctor("1.0.200");
    strictEqual(newer[1].status, "warn");
    ok(newer[1].detail.includes(HOSTS.copilot.verifiedVersion), newer[1].detail);
    deepStrictEqual(await statuses(null), ["ok copilot hooks", "warn copilot version"]);
    const path = `${home}/hooks/rtok.json`;
    const config = copilotHooksConfig("rtok") as { version: number };
    Deno.writeTextFileSync(path, JSON.stringify({ ...config, version: 2 }));
    const differs = await doctor(HOSTS.copilot.verifiedVersion);
    strictEqual(differs[0].status, "warn");
    ok(differs[0].detail.includes("differs from the format"), differs[0].detail);
    Deno.writeTextFileSync(path, JSON.stringify(copilotHooksConfig("/elsewhere/rtok")));
    ok((await doctor(HOSTS.copilot.verifiedVersion))[0].detail.includes("/elsewhere/rtok"));
    Deno.writeTextFileSync(path, "{\n  nope\n}\n");
    const broken = await doctor(null);
    strictEqual(broken[0].status, "FAIL");
    ok(broken[0].detail.includes("line 2"), broken[0].detail);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
