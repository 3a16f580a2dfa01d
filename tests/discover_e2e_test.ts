import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { claudeBinary, runClaude, startScriptedStandIn, type Step } from "./_claude.ts";
import { buildLab, denoDir, installRtok, run, stopServer, tempDir } from "./_helpers.ts";
import { hasPointer } from "../src/core/pointer.ts";
import type { DiscoverReport } from "../src/surfaces/discover.ts";
import type { ReplayReport } from "../src/replay/report.ts";

// What the scripted session makes Claude Code do, and the filter family each Bash command is
// in: the three Bash calls are ones rtok filters; Read and Grep are not commands, and rtok's
// hook cuts their results too.
const COMMANDS: Readonly<Record<string, string>> = {
  "git log": "git log",
  "git status": "git status",
  "ls -la": "ls",
};

function steps(dir: string): Step[] {
  return [
    ...Object.keys(COMMANDS).map((command) => ({
      tool: "Bash",
      input: { command, description: "Look around" },
    })),
    { tool: "Read", input: { file_path: `${dir}/app.py` } },
    { tool: "Grep", input: { pattern: "line", output_mode: "content" } },
  ];
}

// One `claude -p` session in `dir` under `home`; the tool results the model got, by step.
async function session(
  claude: string,
  dir: string,
  env: Record<string, string>,
): Promise<string[]> {
  await using api = startScriptedStandIn(steps(dir));
  const r = await runClaude(claude, api, dir, env, ["--allowedTools", "Read,Grep,Glob,Bash"]);
  strictEqual(r.result?.is_error, false, r.err);
  const results = api.results();
  strictEqual(results.length, 5, JSON.stringify(results.map((x) => x?.slice(0, 80))));
  return results;
}

async function discover(
  env: Record<string, string>,
  args: readonly string[],
): Promise<{ text: string; report: DiscoverReport | null }> {
  const r = await run("rtok", ["discover", ...args], { env });
  strictEqual(r.code, 0, r.err);
  let report: DiscoverReport | null = null;
  if (args.includes("json")) report = JSON.parse(r.out);
  return { text: r.out, report };
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

Deno.test({
  name: "rtok discover counts what the real Claude Code did, with and without rtok's hook",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const claude = await claudeBinary();
    using tmp = tempDir();
    const PATH = await installRtok(`${tmp.path}/root`);
    const project = `${tmp.path}/project`;
    Deno.mkdirSync(project);
    await buildLab(project);
    const base = { PATH, DENO_DIR: await denoDir(), RTOK_HOME: `${tmp.path}/rtok` };
    const plainEnv = { ...base, HOME: `${tmp.path}/plain` };
    const hookedEnv = { ...base, HOME: `${tmp.path}/hooked` };
    Deno.mkdirSync(plainEnv.HOME);
    Deno.mkdirSync(hookedEnv.HOME);
    const plain = await session(claude, project, plainEnv);
    // rtok init starts a server for this RTOK_HOME: it goes with the test.
    using _server = { [Symbol.dispose]: () => stopServer(base.RTOK_HOME) };
    const init = await run("rtok", ["init"], { env: hookedEnv, cwd: project });
    strictEqual(init.code, 0, init.err);
    const hooked = await session(claude, project, hookedEnv);

    await t.step(
      "without the hook: every call counted, none through rtok, the cut one missed",
      async () => {
        const { report } = await discover(plainEnv, ["--format", "json"]);
        const r = report!;
        strictEqual(r.totals.sessions, 1);
        strictEqual(r.projects.length, 1);
        strictEqual(r.projects[0].project, project);
        const tt = r.totals;
        deepStrictEqual(
          Object.fromEntries(Object.entries(tt.byTool).map(([k, v]) => [k, v.calls])),
          { Bash: 3, Read: 1, Grep: 1 },
        );
        strictEqual(tt.byTool.Read.chars, plain[3].length);
        strictEqual(tt.byTool.Grep.chars, plain[4].length);
        for (const [i, command] of Object.keys(COMMANDS).entries()) {
          const fam = tt.byFamily[COMMANDS[command]];
          strictEqual(fam.calls, 1, command);
          strictEqual(fam.chars, plain[i].length, command);
          strictEqual(fam.filtered, true, command);
        }
        strictEqual(tt.all.chars, sum(plain.map((x) => x.length)));
        deepStrictEqual(tt.through, { calls: 0, chars: 0 });
        deepStrictEqual(tt.notThrough, { calls: 5, chars: tt.all.chars });
        strictEqual(tt.hooked.calls, 0);
        // What rtok's hook would have cut, every tool's, replayed through the hook: the same
        // figures rtok replay gives for the session.
        const rep = await run("rtok", ["replay", "--format", "json"], { env: plainEnv });
        strictEqual(rep.code, 0, rep.err);
        const replayed = JSON.parse(rep.out) as ReplayReport;
        strictEqual(replayed.totals.calls, 5);
        strictEqual(tt.wouldFilter.calls, replayed.totals.changed);
        // The lab's git log is long enough to cut; its status, listing, file and hits are not.
        deepStrictEqual(tt.commands.map((c) => [c.command, c.family]), [["git log", "git log"]]);
        strictEqual(
          tt.wouldFilter.missedChars,
          replayed.totals.rawChars - replayed.totals.rtokChars,
        );
        ok(tt.wouldFilter.missedChars > 0);
        deepStrictEqual(tt.unfiltered, []);
        strictEqual(r.skipped.badLines + r.skipped.unknownLines, 0);
      },
    );

    await t.step("with the hook: pointer-lined results through rtok, nothing missed", async () => {
      const { report } = await discover(hookedEnv, ["--format", "json"]);
      const tt = report!.totals;
      const cut = hooked.filter(hasPointer);
      ok(cut.length >= 1, "the hooked session cut something");
      strictEqual(tt.all.calls, 5);
      strictEqual(tt.through.calls, cut.length);
      strictEqual(tt.through.chars, sum(cut.map((x) => x.length)));
      strictEqual(tt.notThrough.calls, 5 - cut.length);
      strictEqual(tt.all.chars, sum(hooked.map((x) => x.length)));
      // rtok's hook (PostToolUse on every tool) answered for every call.
      strictEqual(tt.hooked.calls, 5);
      strictEqual(tt.wouldFilter.calls, 0);
      strictEqual(tt.wouldFilter.missedChars, 0);
      for (const [i, command] of Object.keys(COMMANDS).entries()) {
        strictEqual(
          tt.byFamily[COMMANDS[command]].throughCalls,
          hasPointer(hooked[i]) ? 1 : 0,
          command,
        );
      }
    });

    await t.step("--project and --since narrow; text names no transcript content", async () => {
      const other = await discover(plainEnv, ["--format", "json", "--project", tmp.path + "/x"]);
      strictEqual(other.report!.totals.sessions, 0);
      const here = await discover(plainEnv, ["--format", "json", "--project", project]);
      strictEqual(here.report!.totals.all.calls, 5);
      const future = await discover(plainEnv, ["--format", "json", "--since", "2999-01-01"]);
      strictEqual(future.report!.totals.sessions, 0);
      const week = await discover(plainEnv, ["--format", "json", "--since", "7d"]);
      strictEqual(week.report!.totals.all.calls, 5);
      const { text } = await discover(plainEnv, []);
      ok(text.includes(`Project ${project}`), text);
      ok(text.includes("git status"), text);
      for (const fact of ["surrogate halves", "Co-authored-by", "line 12", "nothing to commit"]) {
        ok(!text.includes(fact), `the text output holds "${fact}"`);
      }
    });

    await t.step("bad input: skipped and counted, the rest still read", async () => {
      const dir = `${plainEnv.HOME}/.claude/projects`;
      const [sub] = [...Deno.readDirSync(dir)].map((e) => e.name);
      const [file] = [...Deno.readDirSync(`${dir}/${sub}`)].filter((e) => e.name.endsWith(".jsonl"))
        .map((e) => `${dir}/${sub}/${e.name}`);
      Deno.writeTextFileSync(file, '{"type":"user","message":{"content":[{"type":"tool_u', {
        append: true,
      });
      Deno.writeTextFileSync(`${dir}/${sub}/other.jsonl`, '{"kind":"x"}\n{"type":"fancy"}\n');
      const r = await run("rtok", ["discover", "--format", "json", dir, `${tmp.path}/gone`], {
        env: plainEnv,
      });
      strictEqual(r.code, 0, r.err);
      const report = JSON.parse(r.out) as DiscoverReport;
      strictEqual(report.totals.all.calls, 5);
      deepStrictEqual(report.skipped, {
        badLines: 1,
        unknownLines: 2,
        unknownTranscripts: 1,
        missingPaths: 1,
        unreadable: 0,
      });
      const text = await run("rtok", ["discover", dir, `${tmp.path}/gone`], { env: plainEnv });
      ok(
        text.out.includes(
          "Skipped: 1 line not JSON, 2 lines of an unknown shape, 1 file of an unknown format, " +
            "1 missing path",
        ),
        text.out,
      );
    });
  },
});
