import { deepStrictEqual, strictEqual } from "node:assert/strict";
import type { Measurement } from "../../core/plugin.ts";
import { Store, storePath } from "../../core/store.ts";
import { readServedRaw, writeServedRaw } from "./served_raw.ts";
import { insertRun } from "./ledger.ts";
import { REFETCH_MIN_RUNS, refetchRates, updateServedRaw, widens } from "./refetch.ts";
import { measurement } from "../../../tests/_helpers.ts";

const perms = { read: true, write: true } as const;

Deno.test("widens() tells a command that asks for more from one that asks for the same or less", async (t) => {
  const cases: [string, string, boolean][] = [
    ["-n 5", "-n 50", true],
    ["-n 50", "-n 5", false],
    ["-5", "-50", true],
    ["--max-count=5", "--max-count=20", true],
    ["-n 5", "", true],
    ["", "--stat", true],
    ["--oneline", "--oneline --stat", true],
    ["--stat", "--oneline", false],
    ["", "", false],
    ["-C 2 foo", "-C 8 foo", true],
    ["foo src", "foo src", false],
    ["foo src", "bar src", false],
  ];
  for (const [prev, next, want] of cases) {
    await t.step(`"${prev}" → "${next}"`, () => {
      const words = (s: string) => s.split(" ").filter((w) => w !== "");
      strictEqual(widens(words(prev), words(next)), want);
    });
  }
});

// The shared test measurement, with this file's own defaults.
const run = (over: Partial<Measurement> = {}): Measurement =>
  measurement({ ...{ archiveId: "a00000000001" }, ...over });

function withStore(fn: (store: Store, home: string) => void): void {
  const home = Deno.makeTempDirSync();
  const store = Store.open(storePath(home));
  try {
    fn(store, home);
  } finally {
    store.close();
    Deno.removeSync(home, { recursive: true });
  }
}

const expand = (store: Store, id: string, ts: number) =>
  store.write((db) =>
    db.prepare("INSERT INTO expands (ts, archive_id, surface) VALUES (?, ?, 'cli')").run(ts, id)
  );

Deno.test({
  name:
    "updateServedRaw() serves a family raw in the project where 2 of its 20 lossy runs were expanded, and nowhere else",
  permissions: perms,
  fn: () =>
    withStore((store, home) => {
      const t0 = 1_800_000_000_000;
      for (let i = 0; i < REFETCH_MIN_RUNS; i++) {
        // Every run archives the same output: one id, as identical outputs do.
        insertRun(store, run({}), 90, t0 + i * 1000);
        insertRun(store, run({ project: "/work/q", archiveId: "b00000000002" }), 90, t0 + i * 1000);
      }
      // Each expand counts for the run the agent had just seen, not for all twenty.
      expand(store, "a00000000001", t0 + 2500);
      expand(store, "a00000000001", t0 + 9500);
      const rates = refetchRates(store, null);
      deepStrictEqual(rates.map((r) => [r.project, r.lossyRuns, r.refetched, r.ratePct]), [
        ["/work/p", 20, 2, 10],
        ["/work/q", 20, 0, 0],
      ]);
      const next = updateServedRaw(store, home);
      deepStrictEqual(Object.keys(next.projects), ["/work/p"]);
      deepStrictEqual(next.projects["/work/p"]["git log"], {
        lossyRuns: 20,
        refetched: 2,
        ratePct: 10,
        told: false,
      });
      deepStrictEqual(readServedRaw(home), next, "written");
      // Reset: only runs after it count, so the family is filtered again.
      writeServedRaw(home, { projects: {}, resets: { "/work/p": { "git log": t0 + 19_500 } } });
      deepStrictEqual(updateServedRaw(store, home).projects, {});
    }),
});

Deno.test({
  name: "refetchRates() counts a lossy run re-run wider within 3 runs, not one re-run the same",
  permissions: perms,
  fn: () =>
    withStore((store) => {
      const t0 = 1_800_000_000_000;
      insertRun(store, run({ command: "git log -n 5", archiveId: "c1" }), 90, t0);
      insertRun(
        store,
        run({ family: "ls", command: "ls", lossy: false, archiveId: null }),
        90,
        t0 + 1,
      );
      insertRun(store, run({ command: "rtok git log -n 50", archiveId: "c2" }), 90, t0 + 2);
      insertRun(store, run({ command: "git log -n 50", archiveId: "c3" }), 90, t0 + 3);
      const [r] = refetchRates(store, "/work/p");
      deepStrictEqual([r.lossyRuns, r.refetched], [3, 1], "only the first was fetched again wider");
    }),
});
