import { ok, strictEqual } from "node:assert/strict";
import { claudeBinary, runClaude, startStandIn } from "./_claude.ts";
import {
  buildLab,
  CLI,
  denoDir,
  installRtok,
  ledger,
  pointerId,
  RTOK_PERMS,
  run,
  sh,
  stopServer,
  tempDir,
} from "./_helpers.ts";

Deno.test({
  name: "Claude Code runs the agent's git log through rtok after rtok init, and not before",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const claude = await claudeBinary();
    using tmp = tempDir();
    const home = `${tmp.path}/home`;
    const rtokHome = `${tmp.path}/rtok`;
    const lab = `${tmp.path}/lab`;
    Deno.mkdirSync(home);
    await buildLab(lab);
    const PATH = await installRtok(`${tmp.path}/root`);
    // The test's Deno cache, or the installed rtok would first fetch its npm packages anew.
    const env = { HOME: home, PATH, RTOK_HOME: rtokHome, DENO_DIR: await denoDir() };
    await using api = startStandIn();
    // rtok init starts a server for this RTOK_HOME: it goes with the test.
    using _server = { [Symbol.dispose]: () => stopServer(rtokHome) };
    api.command = "git log";
    const raw = (await sh("git", ["log"], lab)).trimEnd();
    const ask = async () => {
      api.reset();
      const r = await runClaude(claude, api, lab, env);
      strictEqual(r.result?.is_error, false, r.err);
      const results = api.toolResults();
      strictEqual(results.length, 1, JSON.stringify(api.requests.map((q) => q.path)));
      return { result: results[0], denials: r.result?.permission_denials as unknown[] };
    };

    await t.step("without the hook, the tool result is git's raw output", async () => {
      const { result } = await ask();
      strictEqual(result.text.trimEnd(), raw);
      strictEqual(ledger(rtokHome).length, 0);
    });

    await t.step("every read-only command the hook allows, Claude Code runs unasked", async () => {
      // The hook says "allow" without a rule only for commands Claude Code itself would run
      // without asking; here Claude Code, with no rules and no hook, confirms each one.
      const lines = [
        "git log --oneline -5",
        "git status -s",
        "git diff HEAD~1 --stat",
        "git show HEAD",
        "git branch -a",
        "ls -la",
        "ls -R",
        "git branch -vv",
        "find . -type f -name '*.ts'",
        "grep -rn parser .",
        "rg -n parser",
        "tree -L 2",
        "diff README.md README.md",
      ];
      for (const line of lines) {
        const verdict = await run(Deno.execPath(), [
          "run",
          ...RTOK_PERMS,
          CLI,
          "rewrite",
          "--json",
          line,
        ], {
          env,
          cwd: lab,
        });
        strictEqual(JSON.parse(verdict.out).verdict, "allow", `${line}: ${verdict.out}`);
        api.command = line;
        const { denials } = await ask();
        strictEqual(denials.length, 0, `Claude Code asks before ${line}`);
      }
      api.command = "git log";
    });

    await t.step(
      "rtok init installs the hooks into the temp HOME, served by rtok serve",
      async () => {
        const r = await run("rtok", ["init"], { env, cwd: lab });
        strictEqual(r.code, 0, r.err);
        const settings = JSON.parse(Deno.readTextFileSync(`${home}/.claude/settings.json`));
        const pre = settings.hooks.PreToolUse.flatMap((g: { hooks: unknown[] }) => g.hooks);
        ok(
          pre.some((h: { type?: string; url?: string }) =>
            h.type === "http" && /^http:\/\/127\.0\.0\.1:\d+\/hook\/claude$/.test(h.url ?? "")
          ),
          JSON.stringify(pre),
        );
      },
    );

    await t.step("with the hook, the tool result is rtok's filtered output", async () => {
      const { result } = await ask();
      const direct = await run("rtok", ["git", "log"], { env, cwd: lab });
      strictEqual(result.isError, false);
      // The server filters what Claude Code got from git (its trailing newline trimmed), so
      // the archive id differs from a direct run's; every other byte is the same.
      const unpointed = (s: string) => s.trimEnd().replace(/rtok expand [0-9a-f]+\]$/, "]");
      strictEqual(unpointed(result.text), unpointed(direct.out));
      const id = pointerId(result.text.trimEnd());
      ok(id, result.text.slice(-120));
      const expanded = await run("rtok", ["expand", id], { env, cwd: lab });
      strictEqual(expanded.code, 0, expanded.err);
      const fetched = (await sh("git", ["log", "-n", "50"], lab)).trimEnd();
      strictEqual(expanded.out.trimEnd(), fetched, "the raw output git printed, kept whole");
      ok(result.text.length < raw.length, `${result.text.length} < ${raw.length}`);
      ok(result.text.includes("[rtok: "), "the recovery pointer arrives");
      const runs = ledger(rtokHome).filter((row) => row.family === "git log");
      ok(runs.length >= 2, "the hooked run and the direct run are in the ledger");
      const gain = await run("rtok", ["gain", "--format", "json"], { env, cwd: lab });
      const sessions = JSON.parse(gain.out).sessions;
      ok(sessions.toolCalls >= 1, `the hook counted the tool call: ${gain.out}`);
      strictEqual(sessions.runs, 1, "the hooked run is tied to its session");
      ok(sessions.contextTokenTurns > 0);
    });

    await t.step("with a deny rule for git log, the command is not rewritten", async () => {
      const path = `${home}/.claude/settings.json`;
      const settings = JSON.parse(Deno.readTextFileSync(path));
      settings.permissions = { deny: ["Bash(git log:*)"] };
      Deno.writeTextFileSync(path, JSON.stringify(settings, null, 2));
      const before = ledger(rtokHome).length;
      const { result, denials } = await ask();
      strictEqual(result.isError, true);
      ok(result.text.includes("git log"), result.text);
      ok(
        !result.text.includes("rtok"),
        `Claude's own deny names the agent's command: ${result.text}`,
      );
      strictEqual(denials.length, 1);
      strictEqual(ledger(rtokHome).length, before);
    });
  },
});
