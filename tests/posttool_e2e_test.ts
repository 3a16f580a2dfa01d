import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { claudeBinary, runClaude, startScriptedStandIn } from "./_claude.ts";
import { denoDir, installRtok, ledger, run, stopServer, tempDir } from "./_helpers.ts";
import { project, steps } from "./_scripted_project.ts";
import { hasPointer } from "../src/core/pointer.ts";
import type { ReplayReport } from "../src/replay/report.ts";

async function session(
  claude: string,
  dir: string,
  env: Record<string, string>,
): Promise<{ results: string[]; contexts: string[]; resent: number }> {
  // The script ends with an Edit: the module and its time go back as they were, so the next
  // session sees (and its Glob lists, by time) the same project.
  const module = `${dir}/src/service.ts`;
  const text = Deno.readTextFileSync(module);
  const { mtime } = Deno.statSync(module);
  using _restore = {
    [Symbol.dispose]: () => {
      Deno.writeTextFileSync(module, text);
      Deno.utimeSync(module, mtime!, mtime!);
    },
  };
  await using api = startScriptedStandIn(steps(dir));
  const r = await runClaude(claude, api, dir, env, [
    "--allowedTools",
    "Read,Grep,Glob,Bash,Edit",
  ]);
  strictEqual(r.result?.is_error, false, r.err);
  const results = api.results();
  strictEqual(results.length, 9, JSON.stringify(results.map((x) => x?.slice(0, 80))));
  return { results, contexts: api.contexts(), resent: api.resentChars() };
}

Deno.test({
  name: "Claude Code's own tool results arrive compressed through rtok's PostToolUse, facts whole",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const claude = await claudeBinary();
    using tmp = tempDir();
    const PATH = await installRtok(`${tmp.path}/root`);
    const p = project(`${tmp.path}/project`);
    const base = { PATH, DENO_DIR: await denoDir(), RTOK_HOME: `${tmp.path}/rtok` };
    Deno.mkdirSync(`${tmp.path}/plain`);
    Deno.mkdirSync(`${tmp.path}/hooked`);
    const plain = await session(claude, p.dir, { ...base, HOME: `${tmp.path}/plain` });
    // rtok init starts a server for this RTOK_HOME: it goes with the test.
    using _server = { [Symbol.dispose]: () => stopServer(base.RTOK_HOME) };
    const init = await run("rtok", ["init"], {
      env: { ...base, HOME: `${tmp.path}/hooked` },
      cwd: p.dir,
    });
    strictEqual(init.code, 0, init.err);
    const hooked = await session(claude, p.dir, { ...base, HOME: `${tmp.path}/hooked` });
    if (Deno.env.get("RTOK_E2E_DUMP")) {
      Deno.writeTextFileSync(
        Deno.env.get("RTOK_E2E_DUMP")!,
        JSON.stringify({ plain, hooked }, null, 1),
      );
    }
    const seen = (i: number) => hooked.results[i] + "\n" + hooked.contexts.join("\n");
    const file = Deno.readTextFileSync(`${p.dir}/src/service.ts`).split("\n");

    await t.step("Glob: every path it listed, whole", () => {
      const listed = plain.results[0].split("\n").filter((l) => l.endsWith(".ts"));
      ok(listed.length >= 50, `${listed.length} paths listed`);
      for (const path of listed) {
        const dir = path.slice(0, path.lastIndexOf("/") + 1);
        const name = path.slice(dir.length);
        ok(
          hooked.results[0].split("\n").some((l) => l.includes(dir) && l.includes(name)),
          path,
        );
      }
    });
    await t.step("Grep: every file with hits named whole", () => {
      for (const f of p.grepFiles) ok(hooked.results[1].includes(f), f);
      ok(hooked.results[1].length < plain.results[1].length);
    });
    await t.step("whole Read: true line numbers, and every class and function", () => {
      const shown = hooked.results[2].split("\n");
      ok(shown.length <= 31 && shown.length < file.length, `${shown.length} lines shown`);
      for (const line of shown) {
        const m = /^(\d+)\t(.*)$/s.exec(line);
        ok(m, `numbered: ${JSON.stringify(line)}`);
        strictEqual(m[2], file[Number(m[1]) - 1], `line ${m[1]} is that line of the file`);
      }
      for (const name of p.names) ok(seen(2).includes(name), name);
    });
    await t.step("ranged Read and second whole Read: byte for byte the plain run's", () => {
      strictEqual(hooked.results[3], plain.results[3]);
      strictEqual(hooked.results[7], plain.results[7]);
    });
    await t.step("JSON Read: every record id", () => {
      for (const id of p.ids) ok(seen(4).includes(id), id);
    });
    await t.step("piped test run: the failing tests and the counts", () => {
      for (const name of ["adds case 7", "adds case 23"]) {
        ok(hooked.results[5].includes(name), name);
      }
      ok(/\bfail\w*\D{0,3}2\b|\b2 fail/i.test(hooked.results[5]), hooked.results[5].slice(-400));
      ok(hooked.results[5].length < plain.results[5].length);
    });
    await t.step("cat of a long log: every ERROR line", () => {
      for (const line of p.errors) ok(hooked.results[6].includes(line), line);
    });
    await t.step("the session re-sends at most half the tool-result chars", () => {
      ok(
        hooked.resent <= plain.resent / 2,
        `${hooked.resent} chars re-sent with rtok, ${plain.resent} without`,
      );
    });
    // rtok replay, on the transcripts the two sessions wrote.
    const replay = async (home: string) => {
      const r = await run("rtok", ["replay", "--format", "json", "--calls"], {
        env: { ...base, HOME: home },
      });
      strictEqual(r.code, 0, r.err);
      return JSON.parse(r.out) as ReplayReport;
    };
    const sum = (xs: readonly string[]) => xs.reduce((n, x) => n + x.length, 0);
    const plainReplay = await replay(`${tmp.path}/plain`);
    const hookedReplay = await replay(`${tmp.path}/hooked`);
    await t.step(
      "rtok replay of the plain session: call for call, what the hooked one was sent",
      () => {
        const r = plainReplay;
        strictEqual(r.sessions, 1);
        strictEqual(r.totals.calls, 9);
        strictEqual(r.totals.errors, 0, r.errorMessages.join("\n"));
        strictEqual(r.totals.rawChars, sum(plain.results));
        // What the hooked session's transcript says the model got: its results and hook contexts.
        const got = hookedReplay.calls!.map((c) => c.rtokChars);
        deepStrictEqual(r.calls!.map((c) => c.rtokChars), got);
        hooked.results.forEach((text, i) => ok(got[i] >= text.length, `call ${i + 1}`));
        // The Edit used a method the outline showed with its lines: hidden, but located.
        ok(r.totals.facts.used >= 1, JSON.stringify(r.totals.facts));
        strictEqual(r.totals.facts.unlocated, 0, JSON.stringify(r.worst, null, 1));
        strictEqual(r.totals.readViews.editedAfter, 1);
      },
    );
    await t.step("rtok replay of the hooked session agrees with the ledger", () => {
      const r = hookedReplay;
      const rec = r.totals.recordedThroughRtok;
      const pointed = hooked.results.filter(hasPointer).length +
        hooked.contexts.filter(hasPointer).length;
      strictEqual(rec.calls, pointed);
      strictEqual(rec.replayed, rec.calls, "every raw output is in the archive");
      strictEqual(rec.agree, rec.calls, "the replay answers what the session got");
      // Each lossy ledger row is one replayed call: the same raw text and the same view.
      const rows = ledger(base.RTOK_HOME).filter((row) => row.surface === "hook" && row.archive_id);
      strictEqual(rows.length, rec.calls);
      for (const row of rows) {
        const c = r.calls!.find((x) => x.archiveId === row.archive_id);
        ok(c, `a replayed call points at ${row.archive_id}`);
        deepStrictEqual(
          [c.rawTextChars, c.viewTextChars],
          [row.raw_chars, row.emitted_chars],
          row.family,
        );
      }
    });
    await t.step("each replacement is a ledger row of the hook", () => {
      const rows = ledger(base.RTOK_HOME).filter((row) => row.command !== "");
      const families = new Set(rows.map((row) => row.family));
      for (const f of ["Glob", "Grep", "Read", "cat"]) {
        ok(families.has(f), `${f} in ${[...families]}`);
      }
    });
  },
});
