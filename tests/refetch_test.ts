import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { buildLab, pointerId, rtok, sh, tempDir } from "./_helpers.ts";

Deno.test({
  name:
    "a family agents fetch again in 2 of 20 cut outputs is served raw in that project only, said once, until reset",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    const home = `${tmp.path}/rtok`;
    const p = `${tmp.path}/p`;
    const q = `${tmp.path}/q`;
    await buildLab(p);
    await buildLab(q);
    const raw = await sh("git", ["log", "-n", "50"], p);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await rtok(home, ["git", "log"], { cwd: p });
      ids.push(pointerId(r.out.trimEnd())!);
      // The agent asks for two of the cut outputs back, right after seeing them.
      if (i === 4 || i === 14) {
        const x = await rtok(home, ["expand", ids[i]], { cwd: p });
        strictEqual(x.code, 0, x.err);
      }
      await rtok(home, ["git", "log"], { cwd: q });
    }
    ok(ids.every((id) => id), "every run was cut");
    const gain = JSON.parse((await rtok(home, ["gain", "--format", "json"], { cwd: p })).out);
    const served = gain.servedRaw.map((
      r: { project: string; family: string; ratePct: number },
    ) => [r.project, r.family, r.ratePct]);
    deepStrictEqual(served, [[Deno.realPathSync(p), "git log", 10]]);
    const gainText = (await rtok(home, ["gain"], { cwd: p })).out;
    match(gainText, /served raw \(agents fetched again too much/);
    match(gainText, /git log in .*: re-fetch rate 10\.0%/);

    const first = await rtok(home, ["git", "log"], { cwd: p });
    strictEqual(first.out, raw, "served raw: the output git printed");
    match(first.err, /git log output is served raw in this project: agents fetched again 2 of 20/);
    const second = await rtok(home, ["git", "log"], { cwd: p });
    strictEqual(second.out, raw);
    strictEqual(second.err, "", "said once");
    const other = await rtok(home, ["git", "log"], { cwd: q });
    ok(pointerId(other.out.trimEnd()), "another project is still filtered");

    const reset = await rtok(home, ["filters", "reset", "git", "log"], { cwd: p });
    strictEqual(reset.code, 0, reset.err);
    match(reset.out, /^git log is filtered again in .*; its re-fetch rate counts from now/);
    const again = await rtok(home, ["git", "log"], { cwd: p });
    ok(pointerId(again.out.trimEnd()), "filtered again after the reset");
  },
});
