import { ok, strictEqual } from "node:assert/strict";
import { buildLab, CLI, ledger, RTOK_PERMS, run, tempDir } from "./_helpers.ts";

Deno.test("8 rtok processes at once, 25 runs each, on one RTOK_HOME: 200 rows, no error", async () => {
  using tmp = tempDir();
  const repo = `${tmp.path}/repo`;
  const home = `${tmp.path}/home`;
  await buildLab(repo);
  // A tiny spool limit: runs drain the spool into the store while others append to it.
  await Deno.mkdir(home);
  await Deno.writeTextFile(`${home}/config.toml`, "[ledger]\nspool_kb = 1\n");
  const rtok = [Deno.execPath(), "run", ...RTOK_PERMS, CLI].map((w) => `'${w}'`).join(" ");
  // Each worker alternates a filtered, archived run with a passthrough, so ledger and
  // archive writes interleave across processes.
  const loop = `for i in $(seq 25); do
    if [ $((i % 2)) -eq 0 ]; then ${rtok} git log >/dev/null || exit 1
    else ${rtok} echo "$W-$i" >/dev/null || exit 1; fi
  done`;
  const workers = Array.from(
    { length: 8 },
    (_, w) => run("sh", ["-c", loop], { cwd: repo, env: { RTOK_HOME: home, W: String(w) } }),
  );
  const results = await Promise.all(workers);
  for (const r of results) {
    strictEqual(r.code, 0, r.err);
    strictEqual(r.err, "", "no warnings, no locked database");
  }
  const rows = ledger(home);
  strictEqual(rows.length, 200);
  strictEqual(rows.filter((r) => r.family === "git log").length, 8 * 12);
  ok(rows.filter((r) => r.family === "git log").every((r) => r.archive_id !== null));
});
