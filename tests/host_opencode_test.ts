import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  labConfig,
  opencodeBinary,
  openCodeEnv,
  runOpenCode,
  startOpenCodeStandIn,
} from "./_opencode.ts";
import {
  buildLab,
  denoDir,
  installRtok,
  ledger,
  pointerId,
  run,
  sh,
  snapshotDir,
  stopServer,
  tempDir,
} from "./_helpers.ts";

Deno.test({
  name: "OpenCode's bash output is rtok's after rtok init --host opencode, raw before and after " +
    "--uninstall, which restores the config folder byte for byte",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const opencode = await opencodeBinary();
    using tmp = tempDir();
    const rtokHome = `${tmp.path}/rtok`;
    const lab = `${tmp.path}/lab`;
    const configDir = `${tmp.path}/config/opencode`;
    await buildLab(lab);
    const PATH = await installRtok(`${tmp.path}/root`);
    await using api = startOpenCodeStandIn();
    const env = {
      ...openCodeEnv(tmp.path, api),
      PATH,
      RTOK_HOME: rtokHome,
      DENO_DIR: await denoDir(),
      // OpenCode takes its project folder from PWD, not from the process's cwd.
      PWD: lab,
    };
    Deno.mkdirSync(`${tmp.path}/home`);
    Deno.mkdirSync(configDir, { recursive: true });
    // The user's own config, with settings of theirs that must survive.
    const userConfig = JSON.stringify(
      { ...labConfig(api), theme: "tokyonight", username: "ada", autoshare: false },
      null,
      2,
    ) + "\n";
    Deno.writeTextFileSync(`${configDir}/opencode.json`, userConfig);
    api.command = "git log";
    const raw = await sh("git", ["log"], lab);
    const ask = async (runEnv: Record<string, string> = env) => {
      api.reset();
      const r = await runOpenCode(opencode, lab, runEnv);
      strictEqual(r.code, 0, r.err);
      const results = api.toolResults();
      strictEqual(results.length, 1, JSON.stringify(api.requests.map((q) => q.path)));
      // Nothing left the machine: every request came to the stand-in itself, none as a proxy.
      for (const q of api.requests) ok(q.path.startsWith("/"), `a request for ${q.path}`);
      return results[0].text;
    };

    let before: Record<string, string | null> = {};
    await t.step(
      "without rtok, the shell result OpenCode sends back is git's raw output",
      async () => {
        const text = await ask();
        strictEqual(text.trimEnd(), raw.trimEnd());
        strictEqual(ledger(rtokHome).length, 0);
        // OpenCode's own files (its .gitignore) are made by now: the folder as the user has it.
        before = snapshotDir(configDir);
        strictEqual(before["opencode.json"], userConfig);
      },
    );

    await t.step("rtok init --host opencode --dry-run writes nothing", async () => {
      const r = await run("rtok", ["init", "--host", "opencode", "--dry-run"], { env, cwd: lab });
      strictEqual(r.code, 0, r.err);
      ok(r.out.includes(`would create ${configDir}/plugins/rtok.js`), r.out);
      deepStrictEqual(snapshotDir(configDir), before);
    });

    let pluginText = "";
    await t.step("rtok init --host opencode writes one plugin file", async () => {
      const r = await run("rtok", ["init", "--host", "opencode"], { env, cwd: lab });
      strictEqual(r.code, 0, r.err);
      ok(r.out.includes(`created ${configDir}/plugins/rtok.js`), r.out);
      pluginText = Deno.readTextFileSync(`${configDir}/plugins/rtok.js`);
      ok(pluginText.includes('"rtok hook opencode"'), pluginText.slice(0, 400));
      strictEqual(Deno.readTextFileSync(`${configDir}/opencode.json`), userConfig);
    });

    await t.step("with rtok, the shell result is rtok's filtered output", async () => {
      const text = await ask();
      ok(text.length < raw.length, `${text.length} < ${raw.length}`);
      const id = pointerId(text);
      ok(id, text.slice(-160));
      const subjects = (await sh("git", ["log", "--format=%s"], lab)).trim().split("\n");
      for (const s of subjects) ok(text.includes(s), `the subject "${s}" is kept`);
      const rows = ledger(rtokHome).filter((row) => row.family === "git log");
      strictEqual(rows.length, 1, JSON.stringify(ledger(rtokHome)));
      strictEqual(rows[0].host, "opencode");
      strictEqual(rows[0].archive_id, id);
      strictEqual(rows[0].raw_chars, raw.length);
      const expanded = await run("rtok", ["expand", id!], { env, cwd: lab });
      strictEqual(expanded.code, 0, expanded.err);
      strictEqual(expanded.out, raw, "rtok expand prints git's raw bytes");
      console.log(
        `opencode git log: ${raw.length} chars raw, ${text.length} sent to the model ` +
          `(${Math.round(100 - (100 * text.length) / raw.length)}% less)`,
      );
    });

    await t.step(
      "with rtok serve running, the plugin asks the server: filtered with no rtok on PATH",
      async () => {
        const started = await run("rtok", ["serve", "--ensure"], { env, cwd: lab });
        strictEqual(started.code, 0, started.err);
        try {
          // OpenCode's PATH without rtok: only the server can answer the plugin.
          const PATH = env.PATH.split(":").filter((d) => !d.startsWith(`${tmp.path}/root`))
            .join(":");
          const text = await ask({ ...env, PATH });
          ok(text.length < raw.length, `${text.length} < ${raw.length}`);
          ok(pointerId(text), text.slice(-160));
          const rows = ledger(rtokHome).filter((row) => row.host === "opencode");
          strictEqual(rows.length, 2, JSON.stringify(rows));
        } finally {
          stopServer(rtokHome);
        }
      },
    );

    await t.step(
      "rtok init --host opencode --uninstall restores the folder byte for byte",
      async () => {
        const r = await run("rtok", ["init", "--host", "opencode", "--uninstall"], {
          env,
          cwd: lab,
        });
        strictEqual(r.code, 0, r.err);
        ok(r.out.includes(`removed ${configDir}/plugins/rtok.js`), r.out);
        deepStrictEqual(snapshotDir(configDir), before);
        const text = await ask();
        strictEqual(text.trimEnd(), raw.trimEnd(), "the output is git's again");
      },
    );
  },
});
