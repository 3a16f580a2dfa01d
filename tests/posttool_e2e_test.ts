import { ok, strictEqual } from "node:assert/strict";
import { claudeBinary, runClaude, startScriptedStandIn } from "./_claude.ts";
import { denoDir, installRtok, ledger, run, stopServer, tempDir } from "./_helpers.ts";
import { project, steps } from "./_scripted_project.ts";

async function session(
  claude: string,
  dir: string,
  env: Record<string, string>,
): Promise<{ results: string[]; contexts: string[]; resent: number }> {
  await using api = startScriptedStandIn(steps(dir));
  const r = await runClaude(claude, api, dir, env, ["--allowedTools", "Read,Grep,Glob,Bash"]);
  strictEqual(r.result?.is_error, false, r.err);
  const results = api.results();
  strictEqual(results.length, 8, JSON.stringify(results.map((x) => x?.slice(0, 80))));
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
    await t.step("each replacement is a ledger row of the hook", () => {
      const rows = ledger(base.RTOK_HOME).filter((row) => row.command !== "");
      const families = new Set(rows.map((row) => row.family));
      for (const f of ["Glob", "Grep", "Read", "cat"]) {
        ok(families.has(f), `${f} in ${[...families]}`);
      }
    });
  },
});
