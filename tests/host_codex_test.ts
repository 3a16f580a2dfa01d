import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { codexBinary, codexUserConfig, runCodex, startCodexStandIn } from "./_codex.ts";
import {
  buildLab,
  denoDir,
  failureRows,
  installRtok,
  ledger,
  run,
  serverFirstSteps,
  sh,
  stopServer,
  tempDir,
} from "./_helpers.ts";

// The files of Codex's home a user configures (its own state files aside), name → bytes.
function _snapshot(home: string): Record<string, string | null> {
  const read = (name: string) => {
    try {
      return Deno.readTextFileSync(`${home}/${name}`);
    } catch {
      return null;
    }
  };
  return { "config.toml": read("config.toml"), "hooks.json": read("hooks.json") };
}

// Codex's own header before a command's output (exec_command's result format).
const _HEADER =
  /^Chunk ID: \S+\nWall time: [^\n]*\nProcess exited with code 0\n(?:[^\n]*\n)*?Output:\n/;

// A user's own hooks: one PostToolUse group, so rtok's group is the second (trust keys count).
const _USER_HOOKS = JSON.stringify(
  {
    hooks: {
      PostToolUse: [{ matcher: "apply_patch", hooks: [{ type: "command", command: "true" }] }],
    },
  },
  null,
  4,
) + "\n";

Deno.test({
  name: "Codex CLI gets rtok's git log output after rtok init --host codex, and not before",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const codex = await codexBinary();
    using tmp = tempDir();
    const home = `${tmp.path}/home`;
    const codexHome = `${tmp.path}/codex`;
    const rtokHome = `${tmp.path}/rtok`;
    const lab = `${tmp.path}/lab`;
    Deno.mkdirSync(home);
    Deno.mkdirSync(codexHome);
    await buildLab(lab);
    const PATH = await installRtok(`${tmp.path}/root`);
    const env = {
      HOME: home,
      PATH,
      RTOK_HOME: rtokHome,
      CODEX_HOME: codexHome,
      DENO_DIR: await denoDir(),
    };
    await using api = startCodexStandIn();
    using _server = { [Symbol.dispose]: () => stopServer(rtokHome) };
    // The user's own settings (the stand-in as provider) and hooks, which rtok must keep.
    Deno.writeTextFileSync(`${codexHome}/config.toml`, codexUserConfig(api));
    Deno.writeTextFileSync(`${codexHome}/hooks.json`, _USER_HOOKS);
    api.command = "git log";
    const raw = (await sh("git", ["log"], lab)).trimEnd();
    // Codex's default mode: `codex exec` with no flag (read-only sandbox, no approvals).
    const ask = async () => {
      api.reset();
      const r = await runCodex(codex, lab, env);
      strictEqual(r.code, 0, r.err.slice(-2000) + r.out);
      const outputs = api.toolOutputs();
      strictEqual(outputs.length, 1, JSON.stringify(api.requests.map((q) => q.path)));
      return outputs[0].text;
    };

    await t.step("without rtok, the shell result is git's raw output", async () => {
      const text = await ask();
      ok(_HEADER.test(text), text.slice(0, 200));
      strictEqual(text.replace(_HEADER, "").trimEnd(), raw);
      strictEqual(ledger(rtokHome).length, 0);
    });

    const before = _snapshot(codexHome);

    await t.step("rtok init --host codex --dry-run writes nothing", async () => {
      const r = await run("rtok", ["init", "--host", "codex", "--dry-run"], { env, cwd: lab });
      strictEqual(r.code, 0, r.err);
      ok(r.out.includes(`would change ${codexHome}/hooks.json`), r.out);
      ok(r.out.includes(`would change ${codexHome}/config.toml`), r.out);
      deepStrictEqual(_snapshot(codexHome), before);
    });

    await t.step("rtok init --host codex adds the hook and trusts it", async () => {
      const r = await run("rtok", ["init", "--host", "codex"], { env, cwd: lab });
      strictEqual(r.code, 0, r.err);
      ok(r.out.includes(`changed ${codexHome}/hooks.json`), r.out);
      ok(r.out.includes(`changed ${codexHome}/config.toml`), r.out);
      ok(r.out.includes("not done: rtok does not rewrite"), r.out);
      const hooks = JSON.parse(Deno.readTextFileSync(`${codexHome}/hooks.json`));
      deepStrictEqual(hooks.hooks.PostToolUse[1], {
        matcher: "Bash",
        hooks: [{
          type: "command",
          command: `bash ${rtokHome}/rtok_hook.sh hook codex`,
          timeout: 30,
        }],
      });
      const config = Deno.readTextFileSync(`${codexHome}/config.toml`);
      ok(config.startsWith(before["config.toml"]!), "the user's bytes come first, unchanged");
      const key = `${Deno.realPathSync(codexHome)}/hooks.json:post_tool_use:1:0`;
      ok(config.includes(`[hooks.state.${JSON.stringify(key)}]`), config);
    });

    await t.step("rtok doctor says the hook is installed and trusted", async () => {
      const r = await run("rtok", ["doctor"], { env, cwd: lab });
      const line = r.out.split("\n").find((l) => l.includes("codex hooks")) ?? "";
      ok(line.startsWith("ok"), r.out);
    });

    await serverFirstSteps(t, {
      host: "codex",
      rtokHome,
      env,
      cwd: lab,
      raw,
      ask,
      result: "shell result",
      body: (x) => x.replace(_HEADER, ""),
    });

    await t.step("rtok hook codex meets a payload it does not know with exit 0", async () => {
      const before = failureRows(rtokHome).length;
      const r = await run("rtok", ["hook", "codex"], {
        env,
        cwd: lab,
        stdin: '{"toolName":"nothing"}',
      });
      strictEqual(r.code, 0, r.err);
      strictEqual(r.out, "");
      const rows = failureRows(rtokHome).slice(before);
      strictEqual(rows.length, 1, JSON.stringify(rows));
      strictEqual(rows[0].family, "hook codex");
      ok(rows[0].error.includes("hook_event_name"), rows[0].error);
    });

    await t.step("rtok init --host codex --uninstall restores every byte", async () => {
      const r = await run("rtok", ["init", "--host", "codex", "--uninstall"], {
        env,
        cwd: lab,
      });
      strictEqual(r.code, 0, r.err);
      ok(r.out.includes(`changed ${codexHome}/hooks.json`), r.out);
      deepStrictEqual(_snapshot(codexHome), before);
      const text = await ask();
      strictEqual(text.replace(_HEADER, "").trimEnd(), raw, "git's raw output again");
    });
  },
});
