import { HOOK_EVENTS } from "../src/claude/hook_protocol.ts";
import { deepStrictEqual, match, notStrictEqual, ok, strictEqual } from "node:assert/strict";
import { type Ran, rtok, tempDir } from "./_helpers.ts";

/** A user's own settings, formatted the way rtok writes JSON. */
const USER_SETTINGS = {
  model: "opus",
  permissions: { allow: ["Bash(git status)"], deny: ["Read(./.env)"] },
  hooks: {
    PreToolUse: [
      { matcher: "Bash", hooks: [{ type: "command", command: "~/bin/audit.sh", timeout: 3 }] },
    ],
    Notification: [{ hooks: [{ type: "command", command: "notify-send done" }] }],
  },
  env: { FOO: "1" },
};
const USER_TEXT = JSON.stringify(USER_SETTINGS, null, 2) + "\n";
const RTK = "~/.claude/hooks/rtk-rewrite.sh";

type Settings = { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };

/** A temp HOME (no rtok on PATH, no Claude or Deno overrides), a project dir and RTOK_HOME. */
function sandbox() {
  const dir = tempDir("rtok-init-");
  const home = `${dir.path}/home`;
  const cwd = `${dir.path}/project`;
  const bin = `${dir.path}/bin`;
  for (const d of [home, cwd, bin]) Deno.mkdirSync(d);
  const env = { HOME: home, PATH: bin, CLAUDE_CONFIG_DIR: "", DENO_INSTALL_ROOT: "" };
  return {
    dir,
    home,
    cwd,
    bin,
    settings: `${home}/.claude/settings.json`,
    init: (args: string[] = [], extra: Record<string, string> = {}): Promise<Ran> =>
      // Command hooks: the resident server's hooks are tests/serve_test.ts's.
      rtok(`${dir.path}/rtok-home`, ["init", "--no-serve", ...args], {
        env: { ...env, ...extra },
        cwd,
      }),
    [Symbol.dispose]: () => dir[Symbol.dispose](),
  };
}

function writeSettings(path: string, text: string): void {
  Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  Deno.writeTextFileSync(path, text);
}

function backups(path: string): string[] {
  const dir = path.slice(0, path.lastIndexOf("/"));
  const name = path.slice(path.lastIndexOf("/") + 1);
  return [...Deno.readDirSync(dir)].map((e) => e.name)
    .filter((n) => n.startsWith(`${name}.rtok-backup-`)).map((n) => `${dir}/${n}`);
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function rtokCommand(s: Settings): string {
  return s.hooks.PreToolUse.at(-1)!.hooks[0].command;
}

Deno.test("rtok init installs all six events into an empty HOME", async () => {
  using box = sandbox();
  const r = await box.init();
  strictEqual(r.code, 0, r.err);
  const s = JSON.parse(Deno.readTextFileSync(box.settings)) as Settings;
  deepStrictEqual(Object.keys(s.hooks), HOOK_EVENTS.map((e) => e.event));
  const command = rtokCommand(s);
  for (const { event, matcher } of HOOK_EVENTS) {
    const want = { type: "command", command, timeout: 10 };
    deepStrictEqual(s.hooks[event], [
      matcher === null ? { hooks: [want] } : { matcher, hooks: [want] },
    ]);
  }
  strictEqual(Deno.statSync(`${box.home}/.claude`).mode! & 0o777, 0o700);
  ok(Deno.readTextFileSync(box.settings).endsWith("}\n"));
  deepStrictEqual(backups(box.settings), [], "nothing to back up");
  ok(r.out.includes(box.settings), r.out);
  ok(r.out.includes(`hook command: ${command}`), r.out);
  match(r.out, /restart/);
});

Deno.test("rtok init run twice changes nothing and makes no second backup", async () => {
  using box = sandbox();
  writeSettings(box.settings, USER_TEXT);
  strictEqual((await box.init()).code, 0);
  const after = Deno.readTextFileSync(box.settings);
  strictEqual(backups(box.settings).length, 1);
  const r = await box.init();
  strictEqual(r.code, 0, r.err);
  strictEqual(r.out, `rtok hooks already installed in ${box.settings}\n`);
  strictEqual(Deno.readTextFileSync(box.settings), after);
  strictEqual(backups(box.settings).length, 1);
});

Deno.test("rtok init keeps every other setting and hook", async () => {
  using box = sandbox();
  writeSettings(box.settings, USER_TEXT);
  strictEqual((await box.init()).code, 0);
  const s = JSON.parse(Deno.readTextFileSync(box.settings));
  deepStrictEqual(Object.keys(s), ["model", "permissions", "hooks", "env"]);
  strictEqual(s.model, "opus");
  deepStrictEqual(s.permissions, USER_SETTINGS.permissions);
  deepStrictEqual(s.env, USER_SETTINGS.env);
  deepStrictEqual(s.hooks.PreToolUse[0], USER_SETTINGS.hooks.PreToolUse[0], "user's hook first");
  strictEqual(s.hooks.PreToolUse.length, 2);
  deepStrictEqual(s.hooks.Notification, USER_SETTINGS.hooks.Notification);
});

Deno.test("rtok init backs up the old file, owner-only, before changing it", async () => {
  using box = sandbox();
  writeSettings(box.settings, USER_TEXT);
  const r = await box.init();
  strictEqual(r.code, 0, r.err);
  const [backup] = backups(box.settings);
  match(backup, /\.rtok-backup-\d{8}T\d{6}$/);
  strictEqual(Deno.readTextFileSync(backup), USER_TEXT);
  strictEqual(Deno.statSync(backup).mode! & 0o777, 0o600);
  ok(r.out.includes(`backed up ${box.settings} to ${backup}`), r.out);
  notStrictEqual(Deno.readTextFileSync(box.settings), USER_TEXT);
});

Deno.test("rtok init --dry-run lists the + lines and writes nothing", async () => {
  using box = sandbox();
  writeSettings(box.settings, USER_TEXT);
  const r = await box.init(["--dry-run"]);
  strictEqual(r.code, 0, r.err);
  match(r.out, /^\+ PreToolUse \[Bash\] \S.* hook claude$/m);
  match(r.out, /^\+ PostToolUse \[\*\] \S.* hook claude$/m);
  match(r.out, /^\+ Stop \S.* hook claude$/m);
  strictEqual(r.out.split("\n").filter((l) => l.startsWith("+ ")).length, 6);
  strictEqual(Deno.readTextFileSync(box.settings), USER_TEXT);
  deepStrictEqual(backups(box.settings), []);
});

Deno.test("rtok init --dry-run in an empty HOME creates nothing", async () => {
  using box = sandbox();
  strictEqual((await box.init(["--dry-run"])).code, 0);
  ok(!exists(`${box.home}/.claude`));
});

Deno.test("rtok init --uninstall removes only rtok's hooks, leaving the rest byte for byte", async () => {
  using box = sandbox();
  writeSettings(box.settings, USER_TEXT);
  strictEqual((await box.init()).code, 0);
  const r = await box.init(["--uninstall"]);
  strictEqual(r.code, 0, r.err);
  strictEqual(Deno.readTextFileSync(box.settings), USER_TEXT);
  strictEqual(r.out.split("\n").filter((l) => l.startsWith("- ")).length, 6);
  strictEqual(backups(box.settings).length, 2, "one backup per change");
  const again = await box.init(["--uninstall"]);
  strictEqual(again.code, 0);
  match(again.out, /nothing to remove/);
  strictEqual(backups(box.settings).length, 2);
});

Deno.test("rtok init refuses invalid JSON with one line and leaves the file as it was", async () => {
  using box = sandbox();
  const text = '{\n  "model": "opus",\n  "hooks": {\n}\n';
  writeSettings(box.settings, text);
  const r = await box.init();
  strictEqual(r.code, 1);
  strictEqual(r.out, "");
  strictEqual(r.err.split("\n").length, 2, r.err);
  match(r.err, /^rtok: Cannot edit ".*settings\.json": it is not valid JSON \(.+\); fix it/);
  strictEqual(Deno.readTextFileSync(box.settings), text);
  deepStrictEqual(backups(box.settings), []);
});

Deno.test("rtok init refuses a hooks table it does not understand, naming the key", async () => {
  using box = sandbox();
  const text = '{"hooks": {"PreToolUse": {"matcher": "Bash"}}}\n';
  writeSettings(box.settings, text);
  const r = await box.init();
  strictEqual(r.code, 1);
  match(r.err, /^rtok: Cannot edit ".*": "hooks\.PreToolUse" is not a list; fix it/);
  strictEqual(Deno.readTextFileSync(box.settings), text);
});

Deno.test("rtok init --project writes <cwd>/.claude/settings.json only", async () => {
  using box = sandbox();
  const r = await box.init(["--project"]);
  strictEqual(r.code, 0, r.err);
  const s = JSON.parse(Deno.readTextFileSync(`${box.cwd}/.claude/settings.json`)) as Settings;
  strictEqual(Object.keys(s.hooks).length, 6);
  ok(!exists(`${box.home}/.claude`), "user settings untouched");
});

Deno.test("rtok init writes $CLAUDE_CONFIG_DIR/settings.json when it is set", async () => {
  using box = sandbox();
  const config = `${box.dir.path}/claude-config`;
  strictEqual((await box.init([], { CLAUDE_CONFIG_DIR: config })).code, 0);
  ok(Deno.statSync(`${config}/settings.json`).isFile);
  ok(!exists(`${box.home}/.claude`));
});

Deno.test("rtok init --replace retires an rtk hook and keeps it in the backup", async () => {
  using box = sandbox();
  const text = JSON.stringify(
    {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: RTK }] },
          { matcher: "Bash", hooks: [{ type: "command", command: "~/bin/audit.sh" }] },
        ],
      },
    },
    null,
    2,
  ) + "\n";
  writeSettings(box.settings, text);
  const plain = await box.init(["--dry-run"]);
  ok(!plain.out.includes(RTK), "without --replace the rival stays");
  const r = await box.init(["--replace"]);
  strictEqual(r.code, 0, r.err);
  ok(r.out.includes(`retired rtk's hook on PreToolUse: ${RTK}`), r.out);
  match(r.out, /^- PreToolUse \[Bash\] ~\/\.claude\/hooks\/rtk-rewrite\.sh/m);
  const s = JSON.parse(Deno.readTextFileSync(box.settings)) as Settings;
  const commands = s.hooks.PreToolUse.flatMap((g) => g.hooks.map((h) => h.command));
  strictEqual(commands.length, 2);
  strictEqual(commands[0], "~/bin/audit.sh");
  match(commands[1], / hook claude$/);
  const [backup] = backups(box.settings);
  strictEqual(Deno.readTextFileSync(backup), text);
});

Deno.test("rtok init names rtok by absolute path when rtok is not on PATH", async () => {
  using box = sandbox();
  strictEqual((await box.init()).code, 0);
  const command = rtokCommand(JSON.parse(Deno.readTextFileSync(box.settings)));
  notStrictEqual(command, "rtok hook claude");
  match(command, /^'?\//);
  match(command, /(cli\.ts|\/bin\/rtok'?) hook claude$/);
});

Deno.test("rtok init names rtok by its bare name when rtok is on PATH", async () => {
  using box = sandbox();
  Deno.writeTextFileSync(`${box.bin}/rtok`, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  strictEqual((await box.init()).code, 0);
  strictEqual(rtokCommand(JSON.parse(Deno.readTextFileSync(box.settings))), "rtok hook claude");
});

Deno.test("rtok init updates a moved install's command instead of adding a second hook", async () => {
  using box = sandbox();
  strictEqual((await box.init()).code, 0);
  Deno.writeTextFileSync(`${box.bin}/rtok`, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const r = await box.init();
  strictEqual(r.code, 0, r.err);
  const s = JSON.parse(Deno.readTextFileSync(box.settings)) as Settings;
  for (const event of Object.keys(s.hooks)) {
    deepStrictEqual(s.hooks[event].map((g) => g.hooks[0].command), ["rtok hook claude"]);
  }
});

Deno.test("rtok init rejects an unknown flag, naming it and pointing to --help", async () => {
  using box = sandbox();
  const r = await box.init(["--force"]);
  strictEqual(r.code, 1);
  match(r.err, /^rtok: unknown option "--force".*rtok init --help\n$/);
  const help = await box.init(["--help"]);
  strictEqual(help.code, 0);
  match(help.out, /--uninstall/);
});
