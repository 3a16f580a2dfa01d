import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { claudeBinary, runClaude, startScriptedStandIn } from "./_claude.ts";
import { denoDir, installRtok, run, tempDir } from "./_helpers.ts";
import { realisticSession } from "./_realistic_session.ts";
import type { ReplayReport } from "../src/replay/report.ts";

// The real Claude Code works through the cases a replay of published sessions found rtok hiding
// what agents used next; rtok replay then says what rtok would have done to that session.
Deno.test({
  name:
    "rtok replay of a real Claude Code session: saves a third or more, hides nothing used without a location",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const claude = await claudeBinary();
    using tmp = tempDir();
    const dir = `${tmp.path}/project`;
    const steps = realisticSession(dir);
    const env = {
      PATH: await installRtok(`${tmp.path}/root`),
      DENO_DIR: await denoDir(),
      RTOK_HOME: `${tmp.path}/rtok`,
      HOME: `${tmp.path}/home`,
    };
    Deno.mkdirSync(env.HOME);
    await using api = startScriptedStandIn(steps);
    const r = await runClaude(claude, api, dir, env, [
      "--allowedTools",
      "Read,Grep,Glob,Bash,Edit",
    ]);
    strictEqual(r.result?.is_error, false, r.err);
    strictEqual(api.results().length, steps.length);
    const out = await run("rtok", ["replay", "--format", "json", "--calls"], { env });
    strictEqual(out.code, 0, out.err);
    const report = JSON.parse(out.out) as ReplayReport;
    const t = report.totals;
    strictEqual(t.calls, steps.length);
    strictEqual(t.errors, 0, report.errorMessages.join("\n"));
    ok(t.rtokChars <= t.rawChars * 0.7, `${t.rtokChars} of ${t.rawChars} chars`);
    // The build's OpenSSL line, the diff's edited line, the test file read next, the Grep hit
    // edited next: used later, and kept; the outlined method edited next: located.
    ok(t.facts.used >= 5, JSON.stringify(t.facts));
    strictEqual(t.facts.unlocated, 0, JSON.stringify(report.worst, null, 1));
    ok(t.facts.kept >= t.facts.used - 1, JSON.stringify(t.facts));
    // The module read again after its edit comes whole.
    const reads = report.calls!.filter((c) =>
      c.tool === "Read" && c.subject.endsWith("/src/service.ts")
    );
    deepStrictEqual(reads.map((c) => c.changed), [true, false]);
    strictEqual(t.readViews.editedAfter, t.readViews.views);
  },
});
