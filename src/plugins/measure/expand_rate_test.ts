import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { Store, storePath } from "../../core/store.ts";
import type { Measurement } from "../../core/plugin.ts";
import { recordExpand } from "../archive/archive.ts";
import { expandRates } from "./expand_rate.ts";
import { insertRun } from "./ledger.ts";

const perms = { read: true, write: true } as const;

function run(family: string, archiveId: string | null, project = "/repo"): Measurement {
  return {
    surface: "cli",
    plugin: "cmd",
    family,
    command: family,
    rtokCommand: `rtok ${family}`,
    project,
    session: null,
    turn: null,
    rawChars: 1000,
    emittedChars: 100,
    textClass: "log",
    stage: "filter",
    lossy: archiveId !== null,
    archiveId,
    exitCode: 0,
    elapsedMs: 1,
    passthrough: null,
  };
}

function setup(): Store & Disposable {
  const home = Deno.makeTempDirSync();
  const store = Store.open(storePath(home));
  return Object.assign(store, {
    [Symbol.dispose]() {
      store.close();
      Deno.removeSync(home, { recursive: true });
    },
  });
}

Deno.test({
  name: "expandRates() divides a family's expands by its lossy runs and flags it above 5 %",
  permissions: perms,
  fn() {
    using store = setup();
    for (let i = 0; i < 10; i++) insertRun(store, run("git log", `a${i}`), 90);
    for (let i = 0; i < 40; i++) insertRun(store, run("grep", `b${i}`), 90);
    insertRun(store, run("git status", null), 90);
    recordExpand(store, "a1", "cli");
    recordExpand(store, "a2", "mcp");
    recordExpand(store, "b7", "hook");
    recordExpand(store, "zzz", "cli");
    deepStrictEqual(expandRates(store, null), [
      { family: "git log", lossyRuns: 10, expands: 2, ratePct: 20, flagged: true },
      { family: "grep", lossyRuns: 40, expands: 1, ratePct: 2.5, flagged: false },
    ]);
  },
});

Deno.test({
  name:
    "expandRates() counts an output archived by two runs once per expand, for its latest family",
  permissions: perms,
  fn() {
    using store = setup();
    insertRun(store, run("git log", "same"), 90, Date.now() - 1000);
    insertRun(store, run("git show", "same"), 90, Date.now());
    recordExpand(store, "same", "cli");
    deepStrictEqual(
      expandRates(store, null).map((r) => [r.family, r.lossyRuns, r.expands]),
      [["git show", 1, 1], ["git log", 1, 0]],
    );
  },
});

Deno.test({
  name: "expandRates() keeps to a project's runs when given one",
  permissions: perms,
  fn() {
    using store = setup();
    insertRun(store, run("grep", "in1", "/repo/sub"), 90);
    insertRun(store, run("grep", "out1", "/repo-other"), 90);
    recordExpand(store, "out1", "cli");
    const rates = expandRates(store, "/repo");
    strictEqual(rates.length, 1);
    deepStrictEqual([rates[0].lossyRuns, rates[0].expands], [1, 0]);
  },
});
