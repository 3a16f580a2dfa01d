import { match, ok, strictEqual } from "node:assert/strict";
import { CLI, denoDir, type Ran, rtok, RTOK_PERMS, run, tempDir } from "./_helpers.ts";

const RTK = "~/.claude/hooks/rtk-rewrite.sh";

/** A temp HOME (no rtok on PATH, no Claude or Deno overrides), a project dir and RTOK_HOME. */
function sandbox() {
  const dir = tempDir("rtok-doctor-");
  const home = `${dir.path}/home`;
  const cwd = `${dir.path}/project`;
  const bin = `${dir.path}/bin`;
  const rtokHome = `${dir.path}/rtok-home`;
  for (const d of [home, cwd, bin]) Deno.mkdirSync(d);
  const env = { HOME: home, PATH: bin, CLAUDE_CONFIG_DIR: "", DENO_INSTALL_ROOT: "" };
  const cli = (args: string[]): Promise<Ran> => rtok(rtokHome, args, { env, cwd });
  return {
    dir,
    home,
    rtokHome,
    settings: `${home}/.claude/settings.json`,
    init: (args: string[] = []) => cli(["init", "--no-serve", ...args]),
    doctor: () => cli(["doctor"]),
    [Symbol.dispose]: () => dir[Symbol.dispose](),
  };
}

/**
 * True when a 0500 directory refuses a new file. Not for root, which ignores modes; probed
 * rather than asking `Deno.uid()`, which needs `--allow-sys`.
 */
function modesEnforced(): boolean {
  const dir = Deno.makeTempDirSync({ prefix: "rtok-mode-" });
  Deno.chmodSync(dir, 0o500);
  try {
    Deno.writeTextFileSync(`${dir}/probe`, "");
    return false;
  } catch {
    return true;
  } finally {
    Deno.chmodSync(dir, 0o700);
    Deno.removeSync(dir, { recursive: true });
  }
}

/** The report line for `label`, e.g. `ok   store  /x/rtok.db opens…`. */
function line(r: Ran, label: string): string {
  const found = r.out.split("\n").find((l) => new RegExp(`^(ok|warn|FAIL) +${label}  `).test(l));
  ok(found, `no "${label}" line in:\n${r.out}${r.err}`);
  return found;
}

Deno.test("rtok doctor with nothing installed exits 1 and says the hook is not installed", async () => {
  using box = sandbox();
  const r = await box.doctor();
  strictEqual(r.code, 1, r.out + r.err);
  match(line(r, "installed"), /^FAIL .*the hook is not installed/);
  match(line(r, "user settings"), /^ok .*: absent$/);
  line(r, "hook answers");
  match(line(r, "version"), /^ok +version +rtok \d+\.\d+\.\d+ /);
  match(line(r, "path"), /^warn .*not on PATH/);
  match(r.out, /\d+ ok, \d+ warn, [1-9]\d* FAIL\n$/);
});

Deno.test("rtok doctor names its Deno binary and warns when it sits in npx's cache", async (t) => {
  using box = sandbox();
  const cases: [string, RegExp][] = [
    [
      "cache/_npx/0a1b2c/node_modules/deno/deno",
      /^warn .*: it lives in npx's cache, .*npm install -g deno@/,
    ],
    ["opt/deno/bin/deno", /^ok +deno +Deno \d+\.\d+\.\d+, binary \S+$/],
  ];
  for (const [where, want] of cases) {
    await t.step(where, async () => {
      // The same binary under another path: Deno reports the path it was started by.
      const deno = `${box.dir.path}/${where}`;
      Deno.mkdirSync(deno.slice(0, deno.lastIndexOf("/")), { recursive: true });
      try {
        Deno.linkSync(Deno.execPath(), deno);
      } catch {
        Deno.copyFileSync(Deno.execPath(), deno);
        Deno.chmodSync(deno, 0o755);
      }
      const r = await run(deno, ["run", ...RTOK_PERMS, CLI, "doctor"], {
        cwd: `${box.dir.path}/project`,
        env: {
          HOME: box.home,
          PATH: `${box.dir.path}/bin`,
          RTOK_HOME: box.rtokHome,
          DENO_DIR: await denoDir(),
        },
      });
      const found = line(r, "deno");
      match(found, want);
      match(found, new RegExp(`, binary ${RegExp.escape(deno)}`));
    });
  }
});

Deno.test("rtok doctor lists the events rtok hooks after rtok init", async () => {
  using box = sandbox();
  strictEqual((await box.init()).code, 0);
  const r = await box.doctor();
  match(
    line(r, "user settings"),
    /^ok .*rtok hooks on PreToolUse, PostToolUse, SessionStart, UserPromptSubmit, PreCompact, Stop$/,
  );
  ok(!r.out.includes("the hook is not installed"), r.out);
  line(r, "hook answers");
  match(line(r, "rivals"), /^ok .*no other PreToolUse hook on Bash/);
});

Deno.test("rtok doctor warns that an rtk hook rewrites Bash commands too", async () => {
  using box = sandbox();
  strictEqual((await box.init()).code, 0);
  const s = JSON.parse(Deno.readTextFileSync(box.settings));
  s.hooks.PreToolUse.push({ matcher: "Bash", hooks: [{ type: "command", command: RTK }] });
  s.hooks.PreToolUse.push({ hooks: [{ type: "command", command: "~/bin/audit.sh" }] });
  s.hooks.PreToolUse.push({
    matcher: "Edit",
    hooks: [{ type: "command", command: "~/bin/lint.sh" }],
  });
  Deno.writeTextFileSync(box.settings, JSON.stringify(s));
  const r = await box.doctor();
  const rivals = r.out.split("\n").filter((l) => /^warn +rivals /.test(l));
  strictEqual(rivals.length, 2, r.out);
  ok(
    rivals[0].includes(
      `rtk also rewrites Bash commands on PreToolUse in ${box.settings}; hooks run in parallel ` +
        "and the last rewrite wins — run rtok init --replace to retire it",
    ),
    rivals[0],
  );
  match(rivals[1], /another PreToolUse hook on Bash \(~\/bin\/audit\.sh\)/);
  ok(!r.out.includes("lint.sh"), "an Edit-only hook is not a rival");
});

Deno.test("rtok doctor fails a settings file that is not valid JSON", async () => {
  using box = sandbox();
  Deno.mkdirSync(`${box.home}/.claude`);
  Deno.writeTextFileSync(box.settings, "{ nope");
  const r = await box.doctor();
  strictEqual(r.code, 1);
  match(line(r, "user settings"), /^FAIL .*is not valid JSON/);
});

Deno.test("rtok doctor says the store is ok when RTOK_HOME is writable", async () => {
  using box = sandbox();
  const r = await box.doctor();
  match(line(r, "store"), /^ok .*rtok\.db opens and takes a write$/);
  match(line(r, "home"), /^ok .*is writable$/);
});

Deno.test({
  name: "rtok doctor fails the store check when RTOK_HOME is not writable",
  // root ignores file modes, so the directory would still be writable.
  ignore: !modesEnforced(),
  fn: async () => {
    using box = sandbox();
    Deno.mkdirSync(box.rtokHome, { mode: 0o500 });
    Deno.chmodSync(box.rtokHome, 0o500);
    try {
      const r = await box.doctor();
      strictEqual(r.code, 1);
      match(line(r, "store"), /^FAIL .*Cannot open store/);
      match(line(r, "home"), /^FAIL .*is not writable/);
    } finally {
      Deno.chmodSync(box.rtokHome, 0o700);
    }
  },
});

Deno.test("rtok doctor says when the hooks' port or secret no longer match serve.json", async () => {
  using box = sandbox();
  Deno.mkdirSync(`${box.home}/.claude`, { recursive: true });
  Deno.mkdirSync(box.rtokHome, { recursive: true });
  const hook = (port: number, secret: string) => ({
    type: "http",
    url: `http://127.0.0.1:${port}/hook/claude`,
    headers: { Authorization: `Bearer ${secret}` },
  });
  const write = (port: number, secret: string) =>
    Deno.writeTextFileSync(
      box.settings,
      JSON.stringify({ hooks: { PostToolUse: [{ matcher: "*", hooks: [hook(port, secret)] }] } }),
    );
  Deno.writeTextFileSync(
    `${box.rtokHome}/serve.json`,
    JSON.stringify({ port: 40123, secret: "right", pid: 0, version: "0.1.0" }),
  );
  write(40123, "right");
  match(line(await box.doctor(), "serve hooks"), /^ok .*port and secret match serve\.json$/);
  write(40999, "right");
  match(
    line(await box.doctor(), "serve hooks"),
    /^warn .*name port 40999, the server 40123: rtok init again$/,
  );
  write(40123, "stale");
  match(
    line(await box.doctor(), "serve hooks"),
    /^warn .*a secret the server does not take: rtok init again$/,
  );
});

Deno.test("rtok doctor checks the command hooks' script: there, current, or missing while used", async () => {
  using s = sandbox();
  const gemini = `${s.dir.path}/gemini-home`;
  Deno.mkdirSync(`${gemini}/.gemini`, { recursive: true });
  const env = { HOME: s.home, PATH: "/usr/bin:/bin", GEMINI_CLI_HOME: gemini };
  const cli = (args: string[]) => rtok(s.rtokHome, args, { env, cwd: s.home });
  const line = (r: Ran) => r.out.split("\n").find((l) => l.includes("command hook script")) ?? "";
  strictEqual(line(await cli(["doctor"])), "", "no script, no hook: no line");
  const init = await cli(["init", "--host", "gemini"]);
  strictEqual(init.code, 0, init.err);
  match(init.out, /wrote .*rtok_hook\.sh: it asks rtok serve first/);
  match(line(await cli(["doctor"])), /^ok .*rtok_hook\.sh asks rtok serve first/);
  Deno.writeTextFileSync(`${s.rtokHome}/rtok_hook.sh`, "#!/bin/sh\n# an older one\n");
  match(line(await cli(["doctor"])), /^warn .*written for another rtok install/);
  Deno.removeSync(`${s.rtokHome}/rtok_hook.sh`);
  match(line(await cli(["doctor"])), /^FAIL .*is missing, and hooks run it/);
});
