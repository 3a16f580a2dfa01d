import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { copilotBinary, runCopilot, startCopilotStandIn } from "./_copilot.ts";
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

// The files of Copilot's home a user configures (its own state files aside), path → bytes.
function _snapshot(home: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) {
        out[`${rel}${e.name}/`] = "";
        walk(path, `${rel}${e.name}/`);
      } else out[`${rel}${e.name}`] = Deno.readTextFileSync(path);
    }
  };
  out["settings.json"] = Deno.readTextFileSync(`${home}/settings.json`);
  walk(`${home}/hooks`, "hooks/");
  return out;
}

const _TRAILER = /\n<shellId: \S+ completed with exit code 0>$/;

Deno.test({
  name: "Copilot CLI gets rtok's git log output after rtok init --host copilot, and not before",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const copilot = await copilotBinary();
    using tmp = tempDir();
    const home = `${tmp.path}/home`;
    const copilotHome = `${tmp.path}/copilot`;
    const rtokHome = `${tmp.path}/rtok`;
    const lab = `${tmp.path}/lab`;
    Deno.mkdirSync(home);
    // A user's own Copilot settings and hooks, which rtok must leave as they are.
    Deno.mkdirSync(`${copilotHome}/hooks`, { recursive: true });
    const settings = '// mine\n{\n  "model": "gpt-rtok",\n  "theme": "dark",\n}\n';
    Deno.writeTextFileSync(`${copilotHome}/settings.json`, settings);
    Deno.writeTextFileSync(
      `${copilotHome}/hooks/mine.json`,
      '{"version": 1, "hooks": {"sessionEnd": [{"type": "command", "bash": "true"}]}}\n',
    );
    await buildLab(lab);
    const PATH = await installRtok(`${tmp.path}/root`);
    const env = {
      HOME: home,
      PATH,
      RTOK_HOME: rtokHome,
      COPILOT_HOME: copilotHome,
      DENO_DIR: await denoDir(),
    };
    await using api = startCopilotStandIn();
    using _server = { [Symbol.dispose]: () => stopServer(rtokHome) };
    api.command = "git log";
    const raw = (await sh("git", ["log"], lab)).trimEnd();
    // Copilot's default mode: no --allow-all-tools (it runs a git log unasked).
    const ask = async () => {
      api.reset();
      const r = await runCopilot(copilot, api, lab, env, []);
      strictEqual(r.code, 0, r.err + r.out);
      const messages = api.toolMessages();
      strictEqual(messages.length, 1, JSON.stringify(api.requests.map((q) => q.path)));
      return messages[0].text;
    };

    await t.step("without rtok, the bash result is git's raw output", async () => {
      const text = await ask();
      ok(_TRAILER.test(text), text.slice(-80));
      strictEqual(text.replace(_TRAILER, "").trimEnd(), raw);
      strictEqual(ledger(rtokHome).length, 0);
    });

    const before = _snapshot(copilotHome);

    await t.step("rtok init --host copilot --dry-run writes nothing", async () => {
      const r = await run("rtok", ["init", "--host", "copilot", "--dry-run"], { env, cwd: lab });
      strictEqual(r.code, 0, r.err);
      ok(r.out.includes(`would create ${copilotHome}/hooks/rtok.json`), r.out);
      deepStrictEqual(_snapshot(copilotHome), before);
    });

    await t.step("rtok init --host copilot adds rtok's own hooks file", async () => {
      const r = await run("rtok", ["init", "--host", "copilot"], { env, cwd: lab });
      strictEqual(r.code, 0, r.err);
      ok(r.out.includes(`created ${copilotHome}/hooks/rtok.json`), r.out);
      ok(r.out.includes("not done: rtok does not rewrite"), r.out);
      const config = JSON.parse(Deno.readTextFileSync(`${copilotHome}/hooks/rtok.json`));
      deepStrictEqual(config, {
        version: 1,
        hooks: {
          postToolUse: [{
            type: "command",
            bash: `bash ${rtokHome}/rtok_hook.sh hook copilot`,
            timeoutSec: 30,
          }],
        },
      });
      strictEqual(Deno.readTextFileSync(`${copilotHome}/settings.json`), settings);
    });

    await serverFirstSteps(t, {
      host: "copilot",
      rtokHome,
      env,
      cwd: lab,
      raw,
      ask,
      result: "bash result",
    });

    await t.step("rtok hook copilot meets a payload it does not know with exit 0", async () => {
      const before = failureRows(rtokHome).length;
      const r = await run("rtok", ["hook", "copilot"], {
        env,
        cwd: lab,
        stdin: '{"hookEventName":"nothing"}',
      });
      strictEqual(r.code, 0, r.err);
      strictEqual(r.out, "");
      const rows = failureRows(rtokHome).slice(before);
      strictEqual(rows.length, 1, JSON.stringify(rows));
      strictEqual(rows[0].family, "hook copilot");
      ok(rows[0].error.includes("toolName"), rows[0].error);
    });

    await t.step("rtok init --host copilot --uninstall restores every byte", async () => {
      const r = await run("rtok", ["init", "--host", "copilot", "--uninstall"], {
        env,
        cwd: lab,
      });
      strictEqual(r.code, 0, r.err);
      ok(r.out.includes(`removed ${copilotHome}/hooks/rtok.json`), r.out);
      deepStrictEqual(_snapshot(copilotHome), before);
      const text = await ask();
      strictEqual(text.replace(_TRAILER, "").trimEnd(), raw, "git's raw output again");
    });
  },
});
