import { deepStrictEqual, strictEqual } from "node:assert/strict";
import type { Measurement } from "../../core/plugin.ts";
import { Store, storePath } from "../../core/store.ts";
import { gainHistory, gainPeriods, gainSessions, gainSummary } from "./gain.ts";
import { CLAIM_WINDOW_MS, ingestLedger, insertRun } from "./ledger.ts";
import { measurement } from "../../../tests/_helpers.ts";

const perms = { read: true, write: true } as const;

// The shared test measurement, with this file's own defaults.
const run = (over: Partial<Measurement> = {}): Measurement => measurement({ ...{}, ...over });

function withStore(fn: (store: Store) => void): void {
  const home = Deno.makeTempDirSync();
  const store = Store.open(storePath(home));
  try {
    fn(store);
  } finally {
    store.close();
    Deno.removeSync(home, { recursive: true });
  }
}

Deno.test({
  name: "gainSummary() weights the percentage by tokens and sorts commands by tokens saved",
  permissions: perms,
  fn: () =>
    withStore((store) => {
      insertRun(store, run({}), 90);
      insertRun(
        store,
        run({ family: "ls", rawChars: 260, emittedChars: 26, textClass: "paths" }),
        90,
      );
      insertRun(
        store,
        run({
          family: "echo",
          rawChars: 31,
          emittedChars: 31,
          passthrough: "no filter",
          lossy: false,
        }),
        90,
      );
      const s = gainSummary(store, { project: null });
      // git log 1000 → 100, ls 100 → 10, echo 10 → 10: 990 saved of 1110.
      strictEqual(s.rawTokens, 1110);
      strictEqual(s.savedTokens, 990);
      strictEqual(s.savedPct, 89.2);
      deepStrictEqual(s.commands.map((c) => c.command), ["git log", "ls", "echo"]);
      strictEqual(s.filtered, 2);
      strictEqual(s.passedThrough, 1);
      strictEqual(s.lossy, 2);
    }),
});

Deno.test({
  name: "gainSummary() scopes to a project subtree without treating _ or % as wildcards",
  permissions: perms,
  fn: () =>
    withStore((store) => {
      for (const project of ["/w/a_b", "/w/a_b/sub", "/w/axb", "/w/a_bc", "/w/[x]"]) {
        insertRun(store, run({ project }), 90);
      }
      strictEqual(gainSummary(store, { project: "/w/a_b" }).runs, 2);
      strictEqual(gainSummary(store, { project: "/w/[x]" }).runs, 1);
      strictEqual(gainSummary(store, { project: "/w" }).runs, 5);
    }),
});

Deno.test({
  name: "insertRun() sweeps rows past the retention window in the same write",
  permissions: perms,
  fn: () =>
    withStore((store) => {
      const day = 86_400_000;
      insertRun(store, run({ command: "old" }), 90, 0);
      insertRun(store, run({ command: "new" }), 90, 91 * day);
      deepStrictEqual(gainHistory(store, { project: null }, 10).map((r) => r.command), ["new"]);
    }),
});

Deno.test({
  name: "gainPeriods() buckets by day, week and month",
  permissions: perms,
  fn: () =>
    withStore((store) => {
      const now = Date.now();
      insertRun(store, run({}), 90, now);
      insertRun(store, run({}), 90, now - 40 * 86_400_000);
      strictEqual(gainPeriods(store, { project: null }, "daily").length, 2);
      strictEqual(gainPeriods(store, { project: null }, "monthly").length, 2);
      const weeks = gainPeriods(store, { project: null }, "weekly");
      strictEqual(weeks.reduce((n, w) => n + w.runs, 0), 2);
    }),
});

Deno.test({
  name:
    "gainSummary() ties a run to the session whose rtok shell call followed it, and weighs it by later calls",
  permissions: perms,
  fn: () =>
    withStore((store) => {
      const t0 = 1_800_000_000_000;
      const call = (ts: number, session: string, project: string, viaRtok: boolean) => ({
        kind: "measure.call",
        ts,
        data: { session, tool: viaRtok ? "Bash" : "Read", project, viaRtok },
      });
      const runAt = (ts: number, project: string) => ({
        kind: "measure.run",
        ts,
        data: { ...run({ project }) },
      });
      store.write((db) =>
        ingestLedger(
          db,
          [
            runAt(t0, "/work/p"), // tied to s1 by the call 2 s later
            runAt(t0, "/work/q"), // another project: left alone
            runAt(t0 - CLAIM_WINDOW_MS - 5_000, "/work/p"), // too long before: left alone
            call(t0 + 2_000, "s1", "/work/p", true),
            call(t0 + 4_000, "s1", "/work/p", false),
            call(t0 + 6_000, "s1", "/work/p", false),
            call(t0 + 8_000, "s2", "/work/p", false),
          ],
          3650,
          t0 + 10_000,
        )
      );
      const s = gainSummary(store, { project: null }).sessions;
      strictEqual(s.sessions, 2);
      strictEqual(s.toolCalls, 4);
      strictEqual(s.runs, 1);
      // log: 3100 chars → 1000 tokens, 310 → 100; 900 saved × s1's 3 calls from the run on.
      strictEqual(s.contextTokenTurns, 900 * 3);
    }),
});

Deno.test({
  name: "gainSummary() totals runs per host: a hook's own rows and the CLI runs its calls claim",
  permissions: perms,
  fn: () =>
    withStore((store) => {
      const t0 = 1_800_000_000_000;
      store.write((db) =>
        ingestLedger(
          db,
          [
            // A CLI run a Codex shell call claims, and a row a Gemini hook wrote itself.
            { kind: "measure.run", ts: t0, data: { ...run({}) } },
            {
              kind: "measure.call",
              ts: t0 + 1_000,
              data: {
                session: "c1",
                tool: "Bash",
                project: "/work/p",
                viaRtok: true,
                host: "codex",
              },
            },
            {
              kind: "measure.run",
              ts: t0 + 2_000,
              data: { ...run({ surface: "hook", session: "g1", host: "gemini", rawChars: 620 }) },
            },
            // A run no host saw: not in the table.
            { kind: "measure.run", ts: t0 + 3_000, data: { ...run({ project: "/work/q" }) } },
          ],
          3650,
          t0 + 10_000,
        )
      );
      const hosts = gainSummary(store, { project: null }).hosts;
      deepStrictEqual(hosts.map((h) => [h.host, h.runs, h.savedTokens]), [
        ["codex", 1, 900],
        ["gemini", 1, 100],
      ]);
    }),
});

Deno.test({
  name: "gainSessions() lists sessions newest first, and their turns add up to the summary's",
  permissions: perms,
  fn: () =>
    withStore((store) => {
      const t0 = 1_800_000_000_000;
      const call = (ts: number, session: string) => ({
        kind: "measure.call",
        ts,
        data: { session, tool: "Bash", project: "/work/p", viaRtok: true },
      });
      store.write((db) =>
        ingestLedger(
          db,
          [
            { kind: "measure.run", ts: t0, data: { ...run({}) } }, // claimed by s1
            call(t0 + 1_000, "s1"),
            call(t0 + 2_000, "s1"),
            { kind: "measure.run", ts: t0 + 3_000, data: { ...run({ rawChars: 620 }) } }, // s2
            call(t0 + 4_000, "s2"),
            call(t0 + 5_000, "s3"),
          ],
          3650,
          t0 + 10_000,
        )
      );
      const rows = gainSessions(store, { project: null }, 10);
      deepStrictEqual(
        rows.map((r) => [r.session, r.toolCalls, r.runs, r.savedTokens, r.contextTokenTurns]),
        [["s3", 1, 0, 0, 0], ["s2", 1, 1, 100, 100], ["s1", 2, 1, 900, 1800]],
      );
      strictEqual(rows[2].first, new Date(t0).toISOString());
      strictEqual(rows[2].last, new Date(t0 + 2_000).toISOString());
      strictEqual(
        rows.reduce((n, r) => n + r.contextTokenTurns, 0),
        gainSummary(store, { project: null }).sessions.contextTokenTurns,
      );
      deepStrictEqual(gainSessions(store, { project: null }, 1).map((r) => r.session), ["s3"]);
      deepStrictEqual(gainSessions(store, { project: "/work/q" }, 10), []);
    }),
});
