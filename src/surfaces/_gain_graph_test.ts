import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import type { Measurement } from "../core/plugin.ts";
import { Store, storePath } from "../core/store.ts";
import { insertRun } from "../plugins/measure/ledger.ts";
import { measurement, rtok, tempDir } from "../../tests/_helpers.ts";
import {
  type GainGraph,
  gainGraph,
  GRAPH_DAYS,
  GRAPH_FAMILIES,
  renderGainGraph,
} from "./_gain_graph.ts";

const GOLDENS = new URL("./testdata/gain_graph/", import.meta.url);

// A fixed month of savings: every surface, a quiet stretch, a day that only cost, eleven
// families (one past the ten drawn), one name too long for its column.
function fixture(): GainGraph {
  const days = Array.from({ length: GRAPH_DAYS }, (_, i) => {
    const d = new Date(Date.UTC(2026, 10, 5 + i)).toISOString().slice(0, 10);
    const quiet = i >= 8 && i <= 11;
    const cli = quiet ? 0 : (i * 7919) % 5200;
    const hook = quiet ? 0 : i < 15 ? (i * 104_729) % 21_000 : 14_000 + i * 900;
    const mcp = i % 6 === 0 ? 1_800 : 0;
    const proxy = i >= 20 ? 9_000 + i * 350 : 0;
    const day = i === 10 ? { cli: -40, hook: 0, mcp: 0, proxy: 0 } : { cli, hook, mcp, proxy };
    return { day: d, ...day, total: day.cli + day.hook + day.mcp + day.proxy };
  });
  const families = [
    ["git log", 40_000, 120_000, 0, 30_000],
    ["cargo test --workspace --all-features", 2_000, 95_000, 0, 0],
    ["grep", 12_000, 60_000, 4_000, 0],
    ["json", 0, 0, 0, 52_000],
    ["ls", 8_000, 21_000, 0, 0],
    ["git diff", 3_500, 18_000, 2_000, 4_000],
    ["text", 0, 0, 0, 9_000],
    ["pytest", 0, 7_500, 0, 0],
    ["find", 1_200, 3_100, 0, 0],
    ["tsc", 0, 950, 0, 0],
    ["echo", -12, 0, 0, 0],
  ].map(([family, cli, hook, mcp, proxy]) => ({
    family: family as string,
    cli: cli as number,
    hook: hook as number,
    mcp: mcp as number,
    proxy: proxy as number,
    total: (cli as number) + (hook as number) + (mcp as number) + (proxy as number),
  }));
  return {
    estimated: true,
    project: null,
    from: days[0].day,
    to: days[days.length - 1].day,
    days,
    families,
  };
}

function empty(): GainGraph {
  const g = fixture();
  return {
    ...g,
    days: g.days.map((d) => ({ ...d, cli: 0, hook: 0, mcp: 0, proxy: 0, total: 0 })),
    families: [],
  };
}

// Columns as a terminal shows them: escapes take none, every other code point one.
function columns(line: string): number {
  // deno-lint-ignore no-control-regex
  return [...line.replace(/\x1b\[[0-9;]*m/g, "")].length;
}

async function golden(name: string, actual: string): Promise<void> {
  const url = new URL(name, GOLDENS);
  if (Deno.env.get("RTOK_WRITE_GOLDENS") === "1") await Deno.writeTextFile(url, actual);
  strictEqual(actual, await Deno.readTextFile(url), `golden ${name}`);
}

Deno.test({
  name: "renderGainGraph() matches its goldens at 80 columns, with and without colour",
  permissions: { read: true, write: true, env: ["RTOK_WRITE_GOLDENS"] },
  fn: async (t) => {
    const cases: [string, GainGraph, boolean][] = [
      ["plain.txt", fixture(), false],
      ["color.txt", fixture(), true],
      ["empty.txt", empty(), false],
    ];
    for (const [name, g, color] of cases) {
      await t.step(name, async () => {
        const text = renderGainGraph(g, { width: 80, color });
        for (const line of text.split("\n")) ok(columns(line) <= 80, `${columns(line)}: ${line}`);
        strictEqual(text.includes("\x1b["), color);
        await golden(name, text);
      });
    }
  },
});

Deno.test({
  name: "renderGainGraph() without colour tells the surfaces apart by glyph, stacked in order",
  fn: () => {
    const text = renderGainGraph(fixture(), { width: 80, color: false });
    // 2026-11-29: cli 2856, hook 35600, mcp 1800, proxy 17400; the widest day (12-03) is 61332
    // over 65 columns: the running sums end at 3.03, 40.76, 42.66, 61.10 → 3, 41, 43, 61.
    const line = text.split("\n").find((l) => l.startsWith("11-29 "))!;
    match(line, /^11-29 │█+▓+▒+░+ +57\.7K$/);
    deepStrictEqual(
      ["█", "▓", "▒", "░"].map((c) => [...line].filter((x) => x === c).length),
      [3, 38, 2, 18],
    );
    ok(text.includes("█ cli  ▓ hook (PostToolUse)  ▒ mcp  ░ proxy"));
    // A day that only cost draws no bar and keeps its figure; a quiet day shows nothing.
    match(text, /\n11-15 │ {70}-40\n/);
    match(text, /\n11-14 │\n/);
  },
});

Deno.test({
  name: "renderGainGraph() draws the ten families that saved most and counts the rest",
  fn: () => {
    const text = renderGainGraph(fixture(), { width: 80, color: false });
    const after = text.slice(text.indexOf("by family"));
    strictEqual(after.split("\n").filter((l) => l.includes("│")).length, GRAPH_FAMILIES);
    match(after, /\ncargo test --wo… │/);
    match(after, /… and 1 more family \(rtok gain\)\n$/);
  },
});

Deno.test({
  name: "renderGainGraph() on an empty window says there is nothing yet and how to start",
  fn: () => {
    const text = renderGainGraph(empty(), { width: 80, color: true });
    match(text, /Nothing saved in the last 30 days yet/);
    match(text, /`rtok git status`/);
    match(text, /`rtok init`/);
    ok(!text.includes("│"));
  },
});

// The shared test measurement, with this file's own defaults.
const _mine = (over: Partial<Measurement> = {}): Measurement =>
  measurement({
    ...{
      rawChars: 4000,
      emittedChars: 400,
      textClass: "prose",
      stage: "filter",
      archiveId: null,
      elapsedMs: 5,
    },
    ...over,
  });

Deno.test({
  name: "gainGraph() sums the ledger per local day by surface and family over 30 days",
  permissions: { read: true, write: true },
  fn: () => {
    using home = tempDir();
    const store = Store.open(storePath(home.path));
    try {
      const now = new Date(2026, 11, 4, 15, 0);
      const at = (daysAgo: number, hour = 10) => new Date(2026, 11, 4 - daysAgo, hour, 0).getTime();
      const runs: [number, Partial<Measurement>][] = [
        [at(30), {}], // the day before the window
        [at(29), { surface: "hook" }],
        [at(3), {}],
        [at(3, 23), { surface: "mcp", family: "grep", project: "/elsewhere" }],
        [at(0), { surface: "hook", family: "grep" }],
      ];
      for (const [ts, m] of runs) insertRun(store, _mine(m), 400, ts);
      const one = insertedSaving(store);
      ok(2 * one > 380, `one run saves ${one}`);
      store.write((db) => {
        db.prepare(
          `INSERT INTO proxy_requests (ts, provider, route, status, streamed, latency_ms,
             duration_ms, results_seen, results_compressed, chars_seen, chars_saved)
           VALUES (?, 'anthropic', ?, 200, 0, 1, 1, 1, 1, 0, 0)`,
        ).run(at(0, 9), "messages");
        db.prepare(
          `INSERT INTO proxy_requests (ts, provider, route, status, streamed, latency_ms,
             duration_ms, results_seen, results_compressed, chars_seen, chars_saved)
           VALUES (?, 'anthropic', ?, 200, 0, 1, 1, 1, 1, 0, 0)`,
        ).run(at(0, 9), "count_tokens");
        const res = db.prepare(
          `INSERT INTO proxy_results (request_id, shape, raw_chars, emitted_chars, raw_tokens,
             emitted_tokens, text_class) VALUES (?, 'json', 0, 0, 500, 120, 'json')`,
        );
        res.run(1);
        res.run(2);
      });
      const g = gainGraph(store, { project: null }, now);
      strictEqual(g.days.length, GRAPH_DAYS);
      deepStrictEqual([g.from, g.to], ["2026-11-05", "2026-12-04"]);
      const pick = (day: string) => {
        const d = g.days.find((x) => x.day === day)!;
        return [d.cli, d.hook, d.mcp, d.proxy, d.total];
      };
      deepStrictEqual(pick("2026-11-05"), [0, one, 0, 0, one]);
      deepStrictEqual(pick("2026-12-01"), [one, 0, one, 0, 2 * one]);
      deepStrictEqual(pick("2026-12-04"), [0, one, 0, 380, one + 380]);
      deepStrictEqual(
        g.families.map((f) => [f.family, f.cli, f.hook, f.mcp, f.proxy]),
        // git log and grep tie on 2 × one and go by name; the proxy's json saved 500 − 120.
        [["git log", one, one, 0, 0], ["grep", 0, one, one, 0], ["json", 0, 0, 0, 380]],
      );
      const scoped = gainGraph(store, { project: "/work/p" }, now);
      deepStrictEqual(scoped.days.find((d) => d.day === "2026-12-01")!.mcp, 0);
      strictEqual(scoped.days.at(-1)!.proxy, 0);
    } finally {
      store.close();
    }
  },
});

// The tokens one run of `_mine({})` saves, as the ledger estimated them.
function insertedSaving(store: Store): number {
  const r = store.db.prepare(
    "SELECT raw_tokens - emitted_tokens AS saved FROM runs LIMIT 1",
  ).get() as { saved: number };
  return Number(r.saved);
}

Deno.test({
  name: "rtok gain --graph says how to start on an empty store, with no colour when piped",
  permissions: { read: true, write: true, run: true, env: true },
  fn: async () => {
    using home = tempDir();
    const text = await rtok(home.path, ["gain", "--graph"], { env: { NO_COLOR: "" } });
    strictEqual(text.code, 0, text.err);
    match(text.out, /Nothing saved in the last 30 days yet/);
    ok(!text.out.includes("\x1b["));
    const json = await rtok(home.path, ["gain", "--graph", "--format", "json"]);
    const g = JSON.parse(json.out) as GainGraph;
    strictEqual(g.days.length, GRAPH_DAYS);
    strictEqual(g.estimated, true);
    const both = await rtok(home.path, ["gain", "--graph", "--daily"]);
    strictEqual(both.code !== 0, true);
    match(both.err, /choose one of .*--graph/);
  },
});
