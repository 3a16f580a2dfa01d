import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { rtok, tempDir } from "./_helpers.ts";
import type { ReplayReport } from "../src/replay/report.ts";

const DATA = new URL("../src/replay/testdata/", import.meta.url).pathname;

function homeFiles(home: string): string[] {
  const out: string[] = [];
  try {
    for (const e of Deno.readDirSync(home)) out.push(e.name);
  } catch { /* no home at all: nothing written */ }
  return out.sort();
}

Deno.test("rtok replay reads every layout and version through the real hook, and stores nothing", async () => {
  using tmp = tempDir();
  const home = `${tmp.path}/rtok`;
  const r = await rtok(home, ["replay", "--format", "json", DATA]);
  strictEqual(r.code, 0, r.err);
  const report = JSON.parse(r.out) as ReplayReport;
  strictEqual(report.version, 1);
  strictEqual(report.sessions, 3, "sessions counted by id, subagents under theirs");
  strictEqual(report.files, 5);
  deepStrictEqual(report.versions, ["1.0.65", "2.0.76", "2.1.220"]);
  strictEqual(report.totals.calls, 11);
  strictEqual(report.totals.errors, 0, report.errorMessages.join("\n"));
  // Every call with a result goes through the hook, as rtok's PostToolUse runs on every tool;
  // the Edit's and the Task's results only tell it what the session did.
  strictEqual(report.totals.replayed, 11);
  strictEqual(report.byTool.Edit.changed + report.byTool.Task.changed, 0);
  ok(report.totals.changed >= 5, `${report.totals.changed} changed`);
  ok(report.totals.rtokChars < report.totals.rawChars / 2);
  strictEqual(report.skipped.badLines, 1);
  // A dry run: no ledger, no archive, no spool, no session notes left behind.
  deepStrictEqual(homeFiles(home), []);
});

Deno.test("rtok replay prints no file content but the hidden lines it reports", async () => {
  using tmp = tempDir();
  const r = await rtok(`${tmp.path}/rtok`, ["replay", DATA]);
  strictEqual(r.code, 0, r.err);
  for (const line of ["  const part4 = rows[4] * 17;", "step 17 ok", "src/pkg_0/mod_3.ts"]) {
    ok(!r.out.includes(line), `printed: ${line}`);
  }
  ok(r.out.includes("Facts the agent used later:"), r.out);
});

Deno.test("rtok replay narrows to a project and a period, and says what is wrong with a flag", async () => {
  using tmp = tempDir();
  const home = `${tmp.path}/rtok`;
  const json = async (args: string[]) => {
    const r = await rtok(home, ["replay", "--format", "json", ...args, DATA]);
    strictEqual(r.code, 0, r.err);
    return JSON.parse(r.out) as ReplayReport;
  };
  strictEqual((await json(["--project", "/elsewhere"])).sessions, 0);
  strictEqual((await json(["--project", "/home/dev/shop"])).sessions, 3);
  // The fixtures' files are as old as this checkout: every call is older than a future date.
  strictEqual((await json(["--since", "2099-01-01"])).totals.calls, 0);
  const bad = await rtok(home, ["replay", "--format", "yaml", DATA]);
  strictEqual(bad.code, 1);
  strictEqual(bad.err.trim(), 'rtok: --format "yaml": expected text or json');
});
