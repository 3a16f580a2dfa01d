import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import { ADAPTER, openCodePostAnswer, readOpenCodeEvent } from "./adapter.ts";
import { DOCTOR } from "./doctor.ts";
import { INSTALLER, jsoncError, openCodeConfigDir } from "./install.ts";
import { PLUGIN_MARK, pluginSource, readPluginFile } from "./plugin.ts";
import type { HostEvent } from "../host.ts";
import { HOSTS } from "../hosts.ts";
import type { InstallOptions } from "../install.ts";
import {
  buildLab,
  failureRows,
  pointerId,
  rtok,
  sh,
  snapshotDir,
  tempDir,
} from "../../../tests/_helpers.ts";

const enc = (v: unknown) => new TextEncoder().encode(typeof v === "string" ? v : JSON.stringify(v));

function after(more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event: "tool.execute.after",
    tool: "bash",
    sessionID: "ses_1",
    callID: "call_1",
    directory: "/work/p",
    args: { command: "git log", description: "d" },
    output: "commit abc\n",
    metadata: { exit: 0, truncated: false },
    ...more,
  };
}

type Post = HostEvent & { event: "PostToolUse" };

Deno.test("readOpenCodeEvent reads a finished bash call as a shell result", () => {
  const ev = readOpenCodeEvent(enc(after()), "/elsewhere") as Post;
  strictEqual(ev.event, "PostToolUse");
  strictEqual(ev.session, "ses_1");
  strictEqual(ev.callId, "call_1");
  strictEqual(ev.cwd, "/work/p");
  strictEqual(ev.tool, "bash");
  deepStrictEqual(ev.result, {
    kind: "shell",
    tool: "bash",
    text: "commit abc\n",
    command: "git log",
    exitCode: 0,
  });
});

Deno.test("readOpenCodeEvent resolves the call's workdir and falls back to the hook's cwd", () => {
  const rel = readOpenCodeEvent(
    enc(after({ args: { command: "ls", workdir: "sub/dir" } })),
    "/x",
  ) as Post;
  strictEqual(rel.cwd, "/work/p/sub/dir");
  const abs = readOpenCodeEvent(enc(after({ args: { command: "ls", workdir: "/abs" } })), "/x");
  strictEqual(abs.cwd, "/abs");
  const none = readOpenCodeEvent(enc(after({ directory: null, sessionID: 5 })), "/x");
  strictEqual(none.cwd, "/x");
  strictEqual(none.session, null);
});

Deno.test("readOpenCodeEvent leaves alone what it must not cut", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["a truncated output", { metadata: { exit: 0, truncated: true } }],
    ["a timed-out call", { metadata: { exit: null, truncated: false } }],
    ["another tool", { tool: "read", args: { filePath: "/a" } }],
    ["a bash call with no command", { args: { description: "d" } }],
    ["shell metadata", {
      output: "x\n<shell_metadata>\nUser aborted the command\n</shell_metadata>",
    }],
  ];
  for (const [name, more] of cases) {
    const ev = readOpenCodeEvent(enc(after(more)), "/x") as Post;
    strictEqual(ev.event, "PostToolUse", name);
    strictEqual(ev.result, null, name);
  }
  const failed = readOpenCodeEvent(enc(after({ metadata: { exit: 2 } })), "/x") as Post;
  strictEqual(failed.result?.exitCode, 2);
});

Deno.test("readOpenCodeEvent reads tool.execute.before as an event rtok does not answer", () => {
  const ev = readOpenCodeEvent(enc({ event: "tool.execute.before", sessionID: "s" }), "/x");
  strictEqual(ev.event, "Other");
  strictEqual(
    ADAPTER.preToolAnswer({ kind: "rewrite", input: {}, reason: "r", allow: true }, {
      event: "PreToolUse",
      session: null,
      cwd: "/x",
      command: "git log",
      input: { command: "git log" },
    }),
    "",
  );
});

Deno.test("readOpenCodeEvent throws a one-line TypeError for a payload of an unknown shape", () => {
  const cases: [string, string][] = [
    ["empty", ""],
    ["not JSON", "{nope"],
    ["an array", "[]"],
    ["no event name", JSON.stringify({ tool: "bash" })],
    ["an unknown event", JSON.stringify(after({ event: "tool.execute.during" }))],
    ["no tool", JSON.stringify(after({ tool: 3 }))],
    ["no args", JSON.stringify(after({ args: "git log" }))],
    ["an output that is not text", JSON.stringify(after({ output: { text: "x" } }))],
    ["no metadata", JSON.stringify(after({ metadata: null }))],
    ["no exit in the metadata", JSON.stringify(after({ metadata: { status: 0 } }))],
  ];
  for (const [name, text] of cases) {
    throws(() => readOpenCodeEvent(enc(text), "/x"), (e: Error) => {
      ok(e instanceof TypeError, name);
      ok(e.message.startsWith("opencode: "), `${name}: ${e.message}`);
      ok(!e.message.includes("\n"), `${name}: one line`);
      return true;
    });
  }
});

Deno.test("openCodePostAnswer answers a replacement as {output} and nothing otherwise", () => {
  const ev = readOpenCodeEvent(enc(after()), "/x") as Post;
  strictEqual(openCodePostAnswer({ text: "short\n" }, ev), JSON.stringify({ output: "short\n" }));
  strictEqual(openCodePostAnswer(null, ev), "");
  strictEqual(openCodePostAnswer({ keep: true }, ev), "");
  strictEqual(openCodePostAnswer({}, ev), "");
  strictEqual(
    openCodePostAnswer({ context: "outline" }, ev),
    JSON.stringify({ output: "commit abc\n\n\noutline" }),
  );
  const other = readOpenCodeEvent(enc(after({ tool: "read", args: {} })), "/x") as Post;
  strictEqual(openCodePostAnswer({ text: "x" }, other), "");
});

Deno.test("openCodeConfigDir follows XDG_CONFIG_HOME, then HOME", () => {
  strictEqual(openCodeConfigDir({ XDG_CONFIG_HOME: "/c", HOME: "/h" }), "/c/opencode");
  strictEqual(openCodeConfigDir({ XDG_CONFIG_HOME: "rel", HOME: "/h" }), "/h/.config/opencode");
  throws(() => openCodeConfigDir({}), TypeError);
});

Deno.test("jsoncError accepts comments and trailing commas and names the bad line", () => {
  strictEqual(jsoncError('{\n  // a comment\n  "a": [1, 2,],\n  /* b */ "b": "//x",\n}\n'), null);
  strictEqual(jsoncError(""), null);
  const e = jsoncError('{\n  "a": 1,\n  "b" 2\n}\n');
  ok(e?.startsWith("line 3: "), String(e));
});

Deno.test("pluginSource is rtok's plain-JS plugin and readPluginFile reads its marks", () => {
  const text = pluginSource("rtok hook opencode", ["/c/opencode/plugins"], "/r/serve.json");
  ok(text.startsWith(PLUGIN_MARK));
  ok(!text.includes("@opencode-ai/plugin"), "no import of OpenCode's package");
  ok(text.includes('"tool.execute.after"'));
  ok(!text.includes('"tool.execute.before"'), "no rewrite");
  deepStrictEqual(readPluginFile(text), {
    command: "rtok hook opencode",
    createdDirs: ["/c/opencode/plugins"],
  });
  strictEqual(readPluginFile("export const X = 1;\n"), null);
});

function opts(env: Record<string, string>, more: Partial<InstallOptions> = {}): InstallOptions {
  return { rtok: "rtok", env, cwd: "/", uninstall: false, dryRun: false, ...more };
}

Deno.test("INSTALLER.install writes one plugin file; --uninstall restores the folder byte for byte", async () => {
  using tmp = tempDir();
  const env = { HOME: `${tmp.path}/home`, XDG_CONFIG_HOME: `${tmp.path}/xdg` };
  const dir = `${tmp.path}/xdg/opencode`;
  Deno.mkdirSync(dir, { recursive: true });
  const config = '{\n  // mine\n  "theme": "tokyonight",\n  "plugin": ["x"],\n}\n';
  Deno.writeTextFileSync(`${dir}/opencode.jsonc`, config);
  Deno.writeTextFileSync(`${dir}/AGENTS.md`, "be brief\n");
  const before = snapshotDir(tmp.path);

  const dry = await INSTALLER.install(opts(env, { dryRun: true }));
  strictEqual(dry.changes.length, 1);
  strictEqual(dry.changes[0].path, `${dir}/plugins/rtok.js`);
  deepStrictEqual(snapshotDir(tmp.path), before, "a dry run writes nothing");

  const r = await INSTALLER.install(opts(env));
  strictEqual(r.changes[0].before, null);
  const text = Deno.readTextFileSync(`${dir}/plugins/rtok.js`);
  strictEqual(text, r.changes[0].after);
  deepStrictEqual(readPluginFile(text)?.createdDirs, [`${dir}/plugins`]);
  strictEqual(Deno.readTextFileSync(`${dir}/opencode.jsonc`), config);
  ok(r.notes.every((n) => !n.includes("\n")));

  const again = await INSTALLER.install(opts(env));
  strictEqual(again.changes.length, 0, "installing twice changes nothing");

  const dryOff = await INSTALLER.install(opts(env, { uninstall: true, dryRun: true }));
  strictEqual(dryOff.changes[0].after, null);
  ok(Deno.statSync(`${dir}/plugins/rtok.js`).isFile, "a dry uninstall removes nothing");

  const off = await INSTALLER.install(opts(env, { uninstall: true }));
  strictEqual(off.changes.length, 1);
  deepStrictEqual(snapshotDir(tmp.path), before);
  const none = await INSTALLER.install(opts(env, { uninstall: true }));
  strictEqual(none.changes.length, 0);
});

Deno.test("INSTALLER.install into a missing config folder removes it again on uninstall", async () => {
  using tmp = tempDir();
  const env = { HOME: `${tmp.path}/home` };
  Deno.mkdirSync(`${tmp.path}/home`);
  await INSTALLER.install(opts(env));
  ok(Deno.statSync(`${tmp.path}/home/.config/opencode/plugins/rtok.js`).isFile);
  await INSTALLER.install(opts(env, { uninstall: true }));
  deepStrictEqual(snapshotDir(`${tmp.path}/home`), { ".config/": null });
});

Deno.test("INSTALLER.install uses an existing plugin/ folder and keeps the user's plugins", async () => {
  using tmp = tempDir();
  const env = { XDG_CONFIG_HOME: tmp.path, HOME: "/nonexistent" };
  const dir = `${tmp.path}/opencode/plugin`;
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(`${dir}/mine.js`, "export const Mine = async () => ({});\n");
  const before = snapshotDir(tmp.path);
  const r = await INSTALLER.install(opts(env));
  strictEqual(r.changes[0].path, `${dir}/rtok.js`);
  deepStrictEqual(readPluginFile(r.changes[0].after!)?.createdDirs, []);
  await INSTALLER.install(opts(env, { uninstall: true }));
  deepStrictEqual(snapshotDir(tmp.path), before);
});

Deno.test("INSTALLER.install leaves a rtok.js that is not rtok's alone", async () => {
  using tmp = tempDir();
  const env = { XDG_CONFIG_HOME: tmp.path };
  Deno.mkdirSync(`${tmp.path}/opencode/plugins`, { recursive: true });
  Deno.writeTextFileSync(`${tmp.path}/opencode/plugins/rtok.js`, "// mine\n");
  const before = snapshotDir(tmp.path);
  for (const uninstall of [false, true]) {
    const r = await INSTALLER.install(opts(env, { uninstall }));
    strictEqual(r.changes.length, 0);
    ok(r.notes[0].includes("is not rtok's"), r.notes[0]);
  }
  deepStrictEqual(snapshotDir(tmp.path), before);
});

Deno.test("INSTALLER.install refuses a config that does not parse, naming it and the line", async () => {
  using tmp = tempDir();
  const env = { XDG_CONFIG_HOME: tmp.path };
  Deno.mkdirSync(`${tmp.path}/opencode`);
  Deno.writeTextFileSync(
    `${tmp.path}/opencode/opencode.json`,
    '{\n  "theme": "x"\n  "model": 1\n}\n',
  );
  const before = snapshotDir(tmp.path);
  await rejects(INSTALLER.install(opts(env)), (e: Error) => {
    ok(e instanceof SyntaxError);
    ok(e.message.includes(`"${tmp.path}/opencode/opencode.json"`), e.message);
    ok(e.message.includes("line 3"), e.message);
    ok(!e.message.includes("\n"), "one line");
    return true;
  });
  deepStrictEqual(snapshotDir(tmp.path), before, "nothing touched");
});

Deno.test("DOCTOR.check says nothing of an OpenCode neither installed nor configured", async () => {
  using tmp = tempDir();
  deepStrictEqual(
    await DOCTOR.check({
      host: HOSTS.opencode,
      rtok: "rtok",
      env: { HOME: tmp.path, PATH: "" },
      cwd: tmp.path,
    }),
    [],
  );
});

Deno.test("DOCTOR.check reports the plugin, its command and the OpenCode version", async () => {
  using tmp = tempDir();
  const bin = `${tmp.path}/bin`;
  Deno.mkdirSync(bin);
  const fake = (v: string) => {
    Deno.writeTextFileSync(`${bin}/opencode`, `#!/bin/sh\necho ${v}\n`);
    Deno.chmodSync(`${bin}/opencode`, 0o755);
  };
  const env = { XDG_CONFIG_HOME: tmp.path, PATH: bin };
  fake(HOSTS.opencode.verifiedVersion);
  let checks = await DOCTOR.check({ host: HOSTS.opencode, rtok: "rtok", env, cwd: tmp.path });
  deepStrictEqual(checks.map((c) => c.status), ["warn", "ok"]);
  ok(checks[0].detail.includes("not installed"), checks[0].detail);

  await INSTALLER.install(opts(env));
  checks = await DOCTOR.check({ host: HOSTS.opencode, rtok: "rtok", env, cwd: tmp.path });
  deepStrictEqual(checks.map((c) => c.status), ["ok", "ok"], JSON.stringify(checks));

  fake("9.0.0");
  checks = await DOCTOR.check({ host: HOSTS.opencode, rtok: "/other/rtok", env, cwd: tmp.path });
  deepStrictEqual(checks.map((c) => c.status), ["warn", "warn"], JSON.stringify(checks));
  ok(checks[1].detail.includes(HOSTS.opencode.verifiedVersion), checks[1].detail);
  ok(checks[0].detail.includes("rtok hook opencode"), checks[0].detail);

  fake(HOSTS.opencode.verifiedVersion);
  Deno.writeTextFileSync(`${tmp.path}/opencode/opencode.json`, '{"a" 1}');
  checks = await DOCTOR.check({ host: HOSTS.opencode, rtok: "rtok", env, cwd: tmp.path });
  strictEqual(checks[0].status, "FAIL", JSON.stringify(checks));
  ok(checks[0].detail.includes("opencode.json line 1"), checks[0].detail);
});

Deno.test("rtok hook opencode filters a git log result and exits 0 with no answer on a bad payload", async () => {
  using tmp = tempDir();
  const home = `${tmp.path}/rtok`;
  const lab = `${tmp.path}/lab`;
  await buildLab(lab);
  const raw = await sh("git", ["log"], lab);
  const env = { HOME: tmp.path };
  const good = await rtok(home, ["hook", "opencode"], {
    env,
    cwd: lab,
    stdin: JSON.stringify(after({ directory: lab, output: raw })),
  });
  strictEqual(good.code, 0, good.err);
  const answer = JSON.parse(good.out);
  ok(answer.output.length < raw.length);
  ok(pointerId(answer.output), answer.output.slice(-120));
  deepStrictEqual(failureRows(home), []);

  const bad = await rtok(home, ["hook", "opencode"], { env, cwd: lab, stdin: '{"event":7}' });
  strictEqual(bad.code, 0, bad.err);
  strictEqual(bad.out, "");
  const rows = failureRows(home);
  strictEqual(rows.length, 1);
  strictEqual(rows[0].family, "hook opencode");
  ok(rows[0].error.startsWith("opencode: "), rows[0].error);
});
