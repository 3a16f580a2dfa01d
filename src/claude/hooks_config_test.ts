import { HOOK_EVENTS } from "./hook_protocol.ts";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  HOOK_TIMEOUT_S,
  installHooks,
  isRivalRewriter,
  isRtokEnsureCommand,
  isRtokHookCommand,
  isRtokHttpHook,
  isRtokListed,
  listHooks,
  matcherMatchesBash,
  parseSettings,
  retireRivals,
  type Settings,
  settingsPaths,
  uninstallHooks,
} from "./hooks_config.ts";
import { hookCommand } from "../core/self.ts";

const DENO_FORM = "/usr/bin/deno run -q --allow-read --allow-write --allow-run " +
  "--allow-env=RTOK_HOME,HOME,PATH --config /x/deno.json /x/cli.ts hook claude";
const C = "rtok hook claude";
const RTK = "~/.claude/hooks/rtk-rewrite.sh";

/** A user's settings with keys and a hook of their own. */
function userSettings(): Settings {
  return {
    model: "opus",
    permissions: { allow: ["Bash(git status)"], deny: ["Read(.env)"] },
    hooks: {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: "~/bin/audit.sh", timeout: 3 }] },
      ],
      Notification: [{ hooks: [{ type: "command", command: "notify-send hi" }] }],
    },
    env: { FOO: "1" },
  };
}

Deno.test("isRtokHookCommand() accepts every form rtokInvocation() produces", () => {
  for (
    const c of [
      "rtok hook claude",
      "'/home/u/.deno/bin/rtok' hook claude",
      "/home/u/.deno/bin/rtok hook claude",
      "'/home/my user/.deno/bin/rtok' hook claude",
      DENO_FORM,
      "'/opt/my deno/deno' run -q --allow-read '/x y/cli.ts' hook claude",
      "  rtok hook claude  ",
      hookCommand({
        path: "/nowhere",
        home: "/nohome",
        mainModule: "file:///x/y%20z/cli.ts",
        isExecutable: () => false,
      }),
      hookCommand({ path: "/bin", isExecutable: (p) => p === "/bin/rtok" }),
      hookCommand({ path: "", home: "/h", isExecutable: (p) => p === "/h/.deno/bin/rtok" }),
    ]
  ) strictEqual(isRtokHookCommand(c), true, c);
});

Deno.test("isRtokHookCommand() rejects other tools, other subcommands and compound lines", () => {
  for (
    const c of [
      "rtk hook claude",
      "rtok-other hook claude",
      "/x/rtok-other hook claude",
      "rtok hook claude; rm -rf ~",
      "rm -rf ~; rtok hook claude",
      "rtok hook claude && x",
      "$(curl evil) rtok hook claude",
      "rtok x hook claude",
      "rtok hook cursor",
      "rtok hook 'claude'x",
      "/usr/bin/deno run /x/other.ts hook claude",
      "/usr/bin/deno run /x/cli.ts; rtok hook claude",
      "node /x/cli.ts hook claude",
      "",
    ]
  ) strictEqual(isRtokHookCommand(c), false, c);
});

Deno.test("isRivalRewriter() names rtk and snip hooks, never rtok's own", () => {
  const cases: [string, string | null][] = [
    [RTK, "rtk"],
    ["rtk hook claude", "rtk"],
    ["/usr/local/bin/rtk rewrite", "rtk"],
    ['"$HOME/.claude/hooks/rtk-rewrite.sh"', "rtk"],
    ["bash ~/.claude/hooks/rtk_hook.sh", "rtk"],
    ["snip hook", "snip"],
    ["/opt/snip/bin/snip-claude --pre", "snip"],
    ["rtok hook claude", null],
    [DENO_FORM, null],
    ["rtkit-daemon", null],
    ["~/bin/snippets.sh", null],
    ["~/bin/audit.sh", null],
    ["/x/rtok hook claude", null],
  ];
  for (const [c, name] of cases) strictEqual(isRivalRewriter(c), name, c);
});

Deno.test("installHooks() adds all six events to empty settings", () => {
  const { settings, added, updated } = installHooks({}, C);
  strictEqual(added, 6);
  strictEqual(updated, 0);
  deepStrictEqual(settings, {
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: C, timeout: 10 }] }],
      PostToolUse: [{ matcher: "*", hooks: [{ type: "command", command: C, timeout: 10 }] }],
      SessionStart: [{ hooks: [{ type: "command", command: C, timeout: 10 }] }],
      UserPromptSubmit: [{ hooks: [{ type: "command", command: C, timeout: 10 }] }],
      PreCompact: [{ hooks: [{ type: "command", command: C, timeout: 10 }] }],
      Stop: [{ hooks: [{ type: "command", command: C, timeout: 10 }] }],
    },
  });
  deepStrictEqual(HOOK_EVENTS.map((e) => e.event), Object.keys(settings.hooks as object));
});

Deno.test("installHooks() keeps every other key and hook in place and order", () => {
  const before = userSettings();
  const snapshot = structuredClone(before);
  const { settings } = installHooks(before, C);
  deepStrictEqual(before, snapshot, "input not mutated");
  deepStrictEqual(Object.keys(settings), ["model", "permissions", "hooks", "env"]);
  deepStrictEqual(settings.permissions, snapshot.permissions);
  const hooks = settings.hooks as Record<string, unknown[]>;
  deepStrictEqual(Object.keys(hooks), [
    "PreToolUse",
    "Notification",
    "PostToolUse",
    "SessionStart",
    "UserPromptSubmit",
    "PreCompact",
    "Stop",
  ]);
  deepStrictEqual(hooks.PreToolUse[0], (snapshot.hooks as Record<string, unknown[]>).PreToolUse[0]);
  deepStrictEqual(hooks.PreToolUse[1], {
    matcher: "Bash",
    hooks: [{ type: "command", command: C, timeout: 10 }],
  });
  deepStrictEqual(hooks.Notification, (snapshot.hooks as Record<string, unknown[]>).Notification);
});

Deno.test("installHooks() twice gives the same settings and adds nothing", () => {
  const once = installHooks(userSettings(), DENO_FORM);
  const twice = installHooks(once.settings, DENO_FORM);
  strictEqual(twice.added, 0);
  strictEqual(twice.updated, 0);
  deepStrictEqual(twice.settings, once.settings);
});

Deno.test("installHooks() updates a moved install's command in place instead of adding", () => {
  const old = installHooks(userSettings(), "'/old/.deno/bin/rtok' hook claude").settings;
  const { settings, added, updated } = installHooks(old, C);
  strictEqual(added, 0);
  strictEqual(updated, 6);
  const list = listHooks(settings).filter((h) => isRtokHookCommand(h.command));
  strictEqual(list.length, 6);
  for (const h of list) strictEqual(h.command, C);
  deepStrictEqual(
    JSON.stringify(Object.keys(settings.hooks as object)),
    JSON.stringify(Object.keys(old.hooks as object)),
  );
});

Deno.test("uninstallHooks() removes only rtok's hooks and restores the user's settings", () => {
  const before = userSettings();
  const installed = installHooks(before, C).settings;
  const { settings, removed } = uninstallHooks(installed);
  strictEqual(removed, 6);
  deepStrictEqual(settings, before);
  strictEqual(JSON.stringify(settings), JSON.stringify(before), "same key order");
});

Deno.test("uninstallHooks() drops hooks only when rtok's removal empties it", () => {
  const { settings, removed } = uninstallHooks(installHooks({ a: 1 }, C).settings);
  strictEqual(removed, 6);
  deepStrictEqual(settings, { a: 1 });
  const kept = uninstallHooks({ hooks: {}, x: 1 });
  strictEqual(kept.removed, 0);
  deepStrictEqual(kept.settings, { hooks: {}, x: 1 });
});

Deno.test("uninstallHooks() leaves groups and events that were already empty", () => {
  const input: Settings = {
    hooks: {
      Stop: [],
      PreToolUse: [
        { matcher: "Edit", hooks: [] },
        { matcher: "Bash", hooks: [{ type: "command", command: C }, { type: "prompt" }] },
      ],
      SessionStart: [{ hooks: [{ type: "command", command: C }] }],
    },
  };
  const { settings, removed } = uninstallHooks(input);
  strictEqual(removed, 2);
  deepStrictEqual(settings, {
    hooks: {
      Stop: [],
      PreToolUse: [{ matcher: "Edit", hooks: [] }, {
        matcher: "Bash",
        hooks: [{ type: "prompt" }],
      }],
    },
  });
});

Deno.test("retireRivals() removes rtk and snip hooks on any event and reports each", () => {
  const input: Settings = {
    hooks: {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: RTK }] },
        {
          matcher: "Bash",
          hooks: [{ type: "command", command: C }, { type: "command", command: "snip pre" }],
        },
      ],
      PostToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "rtk hook post" }] }],
    },
  };
  const { settings, retired } = retireRivals(input);
  deepStrictEqual(retired, [
    { event: "PreToolUse", command: RTK, name: "rtk" },
    { event: "PreToolUse", command: "snip pre", name: "snip" },
    { event: "PostToolUse", command: "rtk hook post", name: "rtk" },
  ]);
  deepStrictEqual(settings, {
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: C }] }] },
  });
});

Deno.test("listHooks() flattens command hooks with their event and matcher", () => {
  deepStrictEqual(listHooks(userSettings()), [
    { event: "PreToolUse", matcher: "Bash", command: "~/bin/audit.sh" },
    { event: "Notification", matcher: null, command: "notify-send hi" },
  ]);
  deepStrictEqual(listHooks({}), []);
});

Deno.test("installHooks() and friends refuse shapes they do not understand, naming the key", () => {
  const cases: [Settings, string][] = [
    [{ hooks: [] }, `"hooks" is not an object`],
    [{ hooks: null }, `"hooks" is not an object`],
    [{ hooks: { PreToolUse: {} } }, `"hooks.PreToolUse" is not a list`],
    [{ hooks: { Stop: ["x"] } }, `"hooks.Stop[0]" is not an object`],
    [{ hooks: { Stop: [{ matcher: 3, hooks: [] }] } }, `"hooks.Stop[0].matcher" is not a string`],
    [{ hooks: { Stop: [{}] } }, `"hooks.Stop[0].hooks" is not a list`],
    [{ hooks: { Stop: [{ hooks: [1] }] } }, `"hooks.Stop[0].hooks[0]" is not an object`],
    [
      { hooks: { Stop: [{ hooks: [{ command: ["rtok"] }] }] } },
      `"hooks.Stop[0].hooks[0].command" is not a string`,
    ],
  ];
  for (const [input, message] of cases) {
    for (const f of [() => installHooks(input, C), () => uninstallHooks(input)]) {
      throws(f, (e: unknown) => e instanceof TypeError && e.message === message);
    }
    throws(() => retireRivals(input), TypeError);
    throws(() => listHooks(input), TypeError);
  }
});

Deno.test("parseSettings() reads an object, takes an empty file as {}, refuses the rest", () => {
  deepStrictEqual(parseSettings('{"a": 1}', "/s.json"), { a: 1 });
  deepStrictEqual(parseSettings(" \n", "/s.json"), {});
  throws(
    () => parseSettings('{"a":\n 1,\n}', "/s.json"),
    (e: unknown) =>
      e instanceof SyntaxError && e.message.startsWith(`"/s.json" is not valid JSON (`) &&
      !e.message.includes("\n"),
  );
  throws(() => parseSettings("[1]", "/s.json"), /does not hold a JSON object/);
});

Deno.test("settingsPaths() prefers CLAUDE_CONFIG_DIR and puts project files under cwd", () => {
  deepStrictEqual(settingsPaths({ home: "/h" }, "/p"), {
    user: "/h/.claude/settings.json",
    project: "/p/.claude/settings.json",
    local: "/p/.claude/settings.local.json",
  });
  strictEqual(settingsPaths({ home: "/h", claudeConfigDir: "/c" }, "/p").user, "/c/settings.json");
  strictEqual(
    settingsPaths({ home: "/h", claudeConfigDir: "" }, "/p").user,
    "/h/.claude/settings.json",
  );
  throws(() => settingsPaths({}, "/p"), /set HOME or CLAUDE_CONFIG_DIR/);
});

Deno.test("matcherMatchesBash() matches the way Claude Code does", () => {
  for (const m of [null, "", "*", "Bash", "Edit|Bash", ".*", "Ba.*"]) {
    strictEqual(matcherMatchesBash(m), true, String(m));
  }
  for (const m of ["Edit", "Edit|Write", "bash", "Bas", "mcp__.*", "("]) {
    strictEqual(matcherMatchesBash(m), false, m);
  }
});

const SERVE = {
  url: "http://127.0.0.1:41234/hook/claude",
  secret: "0a1b2c",
  ensure: "rtok serve --ensure",
};

Deno.test("installHooks() with a server points every event but SessionStart at it; SessionStart starts it and runs the command hook", () => {
  const user = { matcher: "Bash", hooks: [{ type: "command", command: "my-audit.sh" }] };
  const before: Settings = { model: "x", hooks: { PreToolUse: [user] } };
  const { settings, added } = installHooks(before, "rtok hook claude", SERVE);
  strictEqual(added, HOOK_EVENTS.length);
  const table = settings.hooks as Record<
    string,
    { matcher?: string; hooks: Record<string, unknown>[] }[]
  >;
  deepStrictEqual(table.PreToolUse[0], user, "the user's own hook stays first, as it was");
  for (const { event } of HOOK_EVENTS) {
    const mine = table[event].flatMap((g) => g.hooks).filter((h) => h.command !== "my-audit.sh");
    const http = {
      type: "http",
      url: SERVE.url,
      headers: { Authorization: "Bearer 0a1b2c" },
      timeout: HOOK_TIMEOUT_S,
    };
    const ensure = { type: "command", command: "rtok serve --ensure", timeout: HOOK_TIMEOUT_S };
    // Claude Code runs no HTTP hook on SessionStart.
    const hook = { type: "command", command: "rtok hook claude", timeout: HOOK_TIMEOUT_S };
    deepStrictEqual(mine, event === "SessionStart" ? [ensure, hook] : [http], event);
  }
  const again = installHooks(settings, "rtok hook claude", SERVE);
  deepStrictEqual([again.added, again.updated], [0, 0]);
  deepStrictEqual(again.settings, settings);
  ok(listHooks(settings).filter(isRtokListed).length === HOOK_EVENTS.length + 1);
});

Deno.test("installHooks() moves between command hooks and the server, and uninstallHooks() removes both", () => {
  const served = installHooks({}, "rtok hook claude", SERVE).settings;
  const back = installHooks(served, "rtok hook claude");
  deepStrictEqual(back.settings, installHooks({}, "rtok hook claude").settings);
  strictEqual(back.updated, HOOK_EVENTS.length);
  const moved = installHooks(served, "rtok hook claude", { ...SERVE, secret: "new" });
  strictEqual(moved.updated, HOOK_EVENTS.length - 1, "a new secret is written to every HTTP hook");
  deepStrictEqual(uninstallHooks(served).settings, {});
  strictEqual(uninstallHooks(served).removed, HOOK_EVENTS.length + 1);
  strictEqual(isRtokEnsureCommand("/home/u/.deno/bin/rtok serve --ensure"), true);
  strictEqual(isRtokEnsureCommand("rtok serve --ensure; rm -rf /"), false);
  strictEqual(isRtokHttpHook({ type: "http", url: "http://127.0.0.1:9/hook/claude" }), true);
  strictEqual(isRtokHttpHook({ type: "http", url: "http://example.com:9/hook/claude" }), false);
});
