import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { existsSync } from "node:fs";
import {
  baseSettings,
  geminiBinary,
  geminiEnv,
  type GeminiStandIn,
  runGemini,
  startGeminiStandIn,
  trustFolder,
} from "./_gemini.ts";
import {
  buildLab,
  denoDir,
  installRtok,
  ledger,
  pointerId,
  run,
  serverAnswered,
  sh,
  stopServer,
  tempDir,
} from "./_helpers.ts";

// What the model got as the shell's output: the text between Gemini CLI's "Output: " and its
// "Process Group PGID" line, in the one functionResponse of the run.
function _shellOutput(api: GeminiStandIn): { output: string; whole: string } {
  const responses = api.functionResponses();
  strictEqual(responses.length, 1, JSON.stringify(api.requests.map((q) => q.path)));
  strictEqual(responses[0].name, "run_shell_command");
  const whole = String(responses[0].response.output ?? "");
  const m = /Output: ([\s\S]*?)\nProcess Group PGID: \d+\n/.exec(whole);
  ok(m, whole.slice(0, 400));
  return { output: m[1], whole };
}

Deno.test({
  name: "Gemini CLI runs the agent's git log as rtok git log after rtok init --host gemini",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const gemini = await geminiBinary();
    using tmp = tempDir();
    const home = `${tmp.path}/home`;
    const geminiHome = `${tmp.path}/gemini-home`;
    const rtokHome = `${tmp.path}/rtok`;
    const lab = `${tmp.path}/lab`;
    Deno.mkdirSync(home);
    await buildLab(lab);
    const PATH = await installRtok(`${tmp.path}/root`);
    await using api = startGeminiStandIn();
    using _server = { [Symbol.dispose]: () => stopServer(rtokHome) };
    const env = {
      ...geminiEnv(api, geminiHome),
      HOME: home,
      PATH,
      RTOK_HOME: rtokHome,
      DENO_DIR: await denoDir(),
    };
    // The user's own settings, which rtok must keep, byte for byte after an uninstall.
    const settingsPath = `${geminiHome}/.gemini/settings.json`;
    trustFolder(geminiHome, lab);
    const userBytes = JSON.stringify(baseSettings({ ui: { theme: "GitHub" } }), null, 4) + "\n";
    Deno.writeTextFileSync(settingsPath, userBytes);
    const raw = await sh("git", ["log"], lab);
    // A named model skips Gemini CLI's routing classifier (one more request per turn).
    const ask = async () => {
      api.reset();
      const r = await runGemini(gemini, lab, env, [
        "--approval-mode",
        "yolo",
        "-m",
        "gemini-2.5-flash",
      ]);
      strictEqual(r.code, 0, r.err.slice(-2000));
      return _shellOutput(api);
    };

    await t.step("without rtok, the shell result is git's raw output", async () => {
      const { output } = await ask();
      strictEqual(output.trimEnd(), raw.trimEnd());
      strictEqual(ledger(rtokHome).length, 0);
    });

    await t.step("rtok init --host gemini adds its hooks to the user's settings", async () => {
      const r = await run("rtok", ["init", "--host", "gemini"], { env, cwd: lab });
      strictEqual(r.code, 0, r.err);
      ok(r.out.includes("cannot replace"), r.out);
      const settings = JSON.parse(Deno.readTextFileSync(settingsPath));
      strictEqual(settings.ui.theme, "GitHub");
      for (const event of ["BeforeTool", "AfterTool"]) {
        deepStrictEqual(settings.hooks[event], [{
          matcher: "run_shell_command",
          hooks: [{
            type: "command",
            name: "rtok",
            command: `bash ${rtokHome}/rtok_hook.sh hook gemini`,
            timeout: 10000,
          }],
        }]);
      }
    });

    let first = "";
    await t.step(
      "with the hooks and no server, the shell result is rtok's output, archived and recorded",
      async () => {
        ok(!existsSync(`${rtokHome}/serve.json`), "no server yet");
        const { output, whole } = await ask();
        first = output;
        ok(output.length < raw.length, `${output.length} < ${raw.length}`);
        ok(whole.length < raw.length, `the whole result too: ${whole.length} < ${raw.length}`);
        const id = pointerId(output.trimEnd());
        ok(id, output.slice(-160));
        // Every commit shown keeps its subject (older ones are cut, and counted on the pointer).
        const subjects = new Map(
          [...raw.matchAll(/^commit ([0-9a-f]{40})\n(?:.*\n)*?\n {4}(.*)$/gm)].map((m) => [
            m[1].slice(0, 10),
            m[2],
          ]),
        );
        const shown = [...output.matchAll(/^([0-9a-f]{10}) (.*)$/gm)];
        ok(shown.length >= 5, output);
        for (const [, hash, subject] of shown) strictEqual(subject, subjects.get(hash), hash);
        const expanded = await run("rtok", ["expand", id], { env, cwd: lab });
        strictEqual(expanded.code, 0, expanded.err);
        strictEqual(expanded.out.trimEnd(), raw.trimEnd(), "the raw bytes git printed");
        const rows = ledger(rtokHome).filter((row) => row.family === "git log");
        strictEqual(rows.length, 1, JSON.stringify(rows));
        strictEqual(rows[0].host, "gemini");
        strictEqual(rows[0].archive_id, id);
        console.log(
          `gemini e2e: git log ${raw.length} chars raw; rtok's output ${output.length}; ` +
            `the whole tool result ${whole.length} (with Gemini's own wrapping and notice)`,
        );
      },
    );

    await t.step(
      "the server that call started answers the next, with the same output",
      async () => {
        const before = await serverAnswered(rtokHome, "gemini");
        ok(before !== null, "the hook started rtok serve for the next calls");
        const { output } = await ask();
        strictEqual(output, first);
        strictEqual(ledger(rtokHome).filter((row) => row.family === "git log").length, 2);
        // BeforeTool and AfterTool, each answered by the server.
        strictEqual(await serverAnswered(rtokHome, "gemini"), before + 2);
      },
    );

    await t.step(
      "rtok init --host gemini --uninstall restores the settings byte for byte",
      async () => {
        const r = await run("rtok", ["init", "--host", "gemini", "--uninstall"], { env, cwd: lab });
        strictEqual(r.code, 0, r.err);
        strictEqual(Deno.readTextFileSync(settingsPath), userBytes);
        const { output } = await ask();
        strictEqual(output.trimEnd(), raw.trimEnd());
      },
    );
  },
});
