import { deepStrictEqual, match, ok, strictEqual, throws } from "node:assert/strict";
import { Store, storePath } from "../../core/store.ts";
import { rtok, tempDir } from "../../../tests/_helpers.ts";
import { formatUsd, proxyCost } from "./cost.ts";
import { BUILTIN_PRICES, priceFor, priceOf, pricesFromJson, priceTable } from "./prices.ts";

const perms = { read: true, write: true } as const;

type Req = {
  ts: number;
  provider: string;
  route: string;
  model: string | null;
  status: number;
  usage: [number | null, number | null, number | null, number | null];
  results: [string | null, number, number][]; // archive id, raw tokens, emitted tokens
};

// A recorded usage set; the expected figures below are worked out by hand from it.
const RECORDED: readonly Req[] = [
  {
    ts: 1,
    provider: "anthropic",
    route: "messages",
    model: "claude-sonnet-4-5-20250929",
    status: 200,
    usage: [1000, 500, 2000, 0],
    results: [["aaaaaaaaaaaa", 3000, 1000]],
  },
  {
    ts: 2,
    provider: "anthropic",
    route: "messages",
    model: "claude-sonnet-4-5-20250929",
    status: 200,
    usage: [200, 300, 100, 3000],
    results: [["aaaaaaaaaaaa", 3000, 1000], ["bbbbbbbbbbbb", 500, 100]],
  },
  {
    ts: 3,
    provider: "openai",
    route: "chat",
    model: "gpt-4o-2024-08-06",
    status: 200,
    usage: [10000, 1000, null, 2000],
    results: [[null, 1500, 500]],
  },
  {
    ts: 4,
    provider: "anthropic",
    route: "messages",
    model: "claude-mystery-9",
    status: 200,
    usage: [5000, 100, 0, 0],
    results: [["dddddddddddd", 700, 200]],
  },
  {
    ts: 5,
    provider: "anthropic",
    route: "count_tokens",
    model: "claude-sonnet-4-5-20250929",
    status: 200,
    usage: [999, null, null, null],
    results: [["eeeeeeeeeeee", 10500, 500]],
  },
  {
    ts: 6,
    provider: "anthropic",
    route: "messages",
    model: "claude-sonnet-4-5-20250929",
    status: 529,
    usage: [null, null, null, null],
    results: [["ffffffffffff", 400, 100]],
  },
];

function fill(store: Store, reqs: readonly Req[]): void {
  store.write((db) => {
    const req = db.prepare(
      `INSERT INTO proxy_requests (ts, provider, route, model, status, streamed, latency_ms,
         duration_ms, input_tokens, output_tokens, cache_write_tokens, cache_read_tokens,
         results_seen, results_compressed, chars_seen, chars_saved)
       VALUES (?, ?, ?, ?, ?, 0, 1, 1, ?, ?, ?, ?, ?, ?, 0, 0)`,
    );
    const res = db.prepare(
      `INSERT INTO proxy_results (request_id, shape, raw_chars, emitted_chars, raw_tokens,
         emitted_tokens, text_class, archive_id) VALUES (?, 'text', 0, 0, ?, ?, 'prose', ?)`,
    );
    for (const r of reqs) {
      const id = req.run(
        r.ts,
        r.provider,
        r.route,
        r.model,
        r.status,
        ...r.usage,
        r.results.length,
        r.results.length,
      ).lastInsertRowid;
      for (const [archive, raw, emitted] of r.results) res.run(id, raw, emitted, archive);
    }
  });
}

function withStore(fn: (store: Store) => void): () => void {
  return () => {
    using home = tempDir();
    const store = Store.open(storePath(home.path));
    try {
      fn(store);
    } finally {
      store.close();
    }
  };
}

Deno.test({
  name: "proxyCost() prices a recorded usage set to hand-computed dollars",
  permissions: perms,
  fn: withStore((store) => {
    fill(store, RECORDED);
    const c = proxyCost(store, BUILTIN_PRICES);
    // gpt-4o ($2.50 in, $10 out, $1.25 cache read):
    //   spent (10000×2.5 + 1000×10 + 2000×1.25) / 1e6 = 0.0375; saved 1000×2.5 / 1e6 = 0.0025.
    // claude-sonnet-4-5 ($3 in, $15 out, $3.75 cache write, $0.30 cache read), the 529 counted
    // as a request with no usage, count_tokens not at all:
    //   spent (1200×3 + 800×15 + 2100×3.75 + 3000×0.3) / 1e6 = 0.024375;
    //   saved: aaaa first sent (2000) and bbbb (400) at $3, aaaa re-sent from cache (2000) at
    //   $0.30 → (2400×3 + 2000×0.3) / 1e6 = 0.0078.
    deepStrictEqual(
      c.models.map((m) => [
        m.model,
        m.requests,
        m.spentUsd,
        m.savedInputTokens,
        m.savedCacheReadTokens,
        m.savedUsd,
      ]),
      [
        ["gpt-4o-2024-08-06", 1, 0.0375, 1000, 0, 0.0025],
        ["claude-sonnet-4-5-20250929", 3, 0.024375, 2400, 2000, 0.0078],
        ["claude-mystery-9", 1, null, 500, 0, null],
      ],
    );
    strictEqual(c.spentUsd, 0.061875);
    strictEqual(c.savedUsd, 0.0103);
    deepStrictEqual(c.unpriced, ["claude-mystery-9"]);
    const mystery = c.models[2];
    deepStrictEqual(
      [mystery.inputTokens, mystery.outputTokens, mystery.price, mystery.priceFrom],
      [5000, 100, null, null],
    );
    deepStrictEqual(c.sources.map((s) => s.provider), ["anthropic", "openai"]);
  }),
});

Deno.test({
  name: "proxyCost() prices a re-sent result at the input price when its request read no cache",
  permissions: perms,
  fn: withStore((store) => {
    const base = RECORDED[0];
    fill(store, [base, { ...base, ts: 2, usage: [4000, 10, 0, 0] }]);
    const [m] = proxyCost(store, BUILTIN_PRICES).models;
    deepStrictEqual([m.savedInputTokens, m.savedCacheReadTokens, m.savedUsd], [4000, 0, 0.012]);
  }),
});

Deno.test({
  name: "proxyCost() bills a request over a prompt band at the band's rates for every token",
  permissions: perms,
  fn: withStore((store) => {
    const haiku = (ts: number, usage: Req["usage"], results: Req["results"]): Req => ({
      ts,
      provider: "anthropic",
      route: "messages",
      model: "claude-haiku-5-5-20261007",
      status: 200,
      usage,
      results,
    });
    fill(store, [
      haiku(1, [40000, 2000, 10000, 50000], [["hhhhhhhhhhhh", 5000, 1000]]),
      haiku(2, [60000, 3000, 0, 90000], [["hhhhhhhhhhhh", 5000, 1000], [null, 2500, 500]]),
    ]);
    const c = proxyCost(store, BUILTIN_PRICES);
    // claude-haiku-5-5: up to 100,000 prompt tokens $0.10 in, $0.50 out, $0.125 cache write,
    // $0.01 cache read; over 100,000: $0.50, $2.50, $0.625, $0.05.
    // Request 1, prompt 40000 + 10000 + 50000 = 100000 (not over): spent
    //   (40000×0.1 + 2000×0.5 + 10000×0.125 + 50000×0.01) / 1e6 = 0.00675;
    //   saved hhhh first sent, 4000 at $0.10 = 0.0004.
    // Request 2, prompt 60000 + 0 + 90000 = 150000 (over): spent
    //   (60000×0.5 + 3000×2.5 + 90000×0.05) / 1e6 = 0.042;
    //   saved hhhh re-sent from cache, 4000 at $0.05 = 0.0002, the unarchived 2000 at $0.50 = 0.001.
    // Totals: spent 0.04875, saved 0.0016.
    const [m] = c.models;
    deepStrictEqual(
      [m.requests, m.overRequests, m.spentUsd, m.savedInputTokens, m.savedCacheReadTokens],
      [2, 1, 0.04875, 6000, 4000],
    );
    strictEqual(m.savedUsd, 0.0016);
    deepStrictEqual([c.spentUsd, c.savedUsd, c.unpriced], [0.04875, 0.0016, []]);
    deepStrictEqual(m.priceOver, {
      prompt: 100000,
      price: { input: 0.5, output: 2.5, cacheWrite: 0.625, cacheRead: 0.05 },
    });
  }),
});

Deno.test({
  name: "proxyCost() leaves a model's cost unknown when a request falls in a band of no rates",
  permissions: perms,
  fn: withStore((store) => {
    const base = RECORDED[0];
    fill(store, [
      base,
      { ...base, ts: 2, usage: [250000, 100, 0, 0], results: [] },
      { ...base, ts: 3, model: "claude-opus-5-5", usage: [1000, 100, 0, 0], results: [] },
    ]);
    const c = proxyCost(store, BUILTIN_PRICES);
    // claude-opus-5-5 ($4 in, $20 out): (1000×4 + 100×20) / 1e6 = 0.006, the only known spend.
    // claude-sonnet-4-5's second request has a 250,000-token prompt, over its 200,000 band,
    // whose rates no source in the table states: its tokens stay, its cost is unknown.
    deepStrictEqual(
      c.models.map((m) => [m.model, m.overRequests, m.inputTokens, m.spentUsd, m.savedUsd]),
      [
        ["claude-opus-5-5", 0, 1000, 0.006, 0],
        ["claude-sonnet-4-5-20250929", 1, 251000, null, null],
      ],
    );
    deepStrictEqual([c.spentUsd, c.unpriced], [0.006, ["claude-sonnet-4-5-20250929"]]);
  }),
});

Deno.test({
  name: "priceFor() switches to the band's rates only for a prompt over the threshold",
  fn: async (t) => {
    const haiku = priceOf(BUILTIN_PRICES, "claude-haiku-5-5")!;
    const sonnet = priceOf(BUILTIN_PRICES, "claude-sonnet-4-5")!;
    const sol = priceOf(BUILTIN_PRICES, "gpt-6.1-sol")!;
    const cases: [string, number | null][] = [
      ["claude-haiku-5-5 at 99999", priceFor(haiku, 99999)?.input ?? null],
      ["claude-haiku-5-5 at 100000", priceFor(haiku, 100000)?.input ?? null],
      ["claude-haiku-5-5 at 100001", priceFor(haiku, 100001)?.input ?? null],
      ["claude-sonnet-4-5 at 200000", priceFor(sonnet, 200000)?.input ?? null],
      ["claude-sonnet-4-5 at 200001", priceFor(sonnet, 200001)?.input ?? null],
      ["gpt-6.1-sol at 272000", priceFor(sol, 272000)?.output ?? null],
      ["gpt-6.1-sol at 272001", priceFor(sol, 272001)?.output ?? null],
    ];
    const expected = [0.1, 0.1, 0.5, 3, null, 10, 15];
    for (const [i, [what, got]] of cases.entries()) {
      await t.step(`${what} → ${expected[i]}`, () => strictEqual(got, expected[i]));
    }
  },
});

Deno.test({
  name: "pricesFromJson() rejects a prompt band with only some rates or no threshold",
  fn: async (t) => {
    const table = (over: unknown) => ({
      providers: {
        p: {
          source: "https://example.invalid/",
          asOf: "2026-12-04",
          models: { m: { input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1, over } },
        },
      },
    });
    const cases: [string, unknown][] = [
      ["some rates", { prompt: 10, input: 2 }],
      ["no threshold", { input: 2, output: 4, cacheWrite: 2.5, cacheRead: 0.2 }],
      ["zero threshold", { prompt: 0 }],
    ];
    for (const [what, over] of cases) {
      await t.step(what, () => {
        throws(
          () => pricesFromJson(table(over)),
          (e: Error) =>
            e instanceof TypeError && /^prices\.json p m over: expected/.test(e.message),
        );
      });
    }
    strictEqual(pricesFromJson(table({ prompt: 10 })).models.m.over?.price, null);
  },
});

Deno.test({
  name: "priceOf() finds a dated release under its undated name and guesses nothing else",
  fn: async (t) => {
    const cases: [string, number | null][] = [
      ["claude-sonnet-4-5", 3],
      ["claude-sonnet-4-5-20250929", 3],
      ["gpt-4o-2024-08-06", 2.5],
      ["gpt-4o-mini-2024-07-18", 0.15],
      ["gpt-4.1", 2],
      ["claude-opus-5-5", 4],
      ["claude-opus-5-20260724", 5],
      ["claude-sonnet-5-5", 2],
      ["claude-haiku-5-5-20261007", 0.1],
      ["claude-fable-5-2", 8],
      ["claude-mythos-5-1", 10],
      ["gpt-6.1-sol-2026-09-29", 2],
      ["gpt-6-luna", 0.1],
      ["gpt-6", null],
      ["claude-sonnet-4-5-preview", null],
      ["gpt-4o-audio", null],
      ["claude-sonnet", null],
      ["", null],
    ];
    for (const [model, input] of cases) {
      await t.step(`${model || '""'} → ${input}`, () => {
        strictEqual(priceOf(BUILTIN_PRICES, model)?.input ?? null, input);
      });
    }
  },
});

Deno.test({
  name: "BUILTIN_PRICES has a source page and a date for every provider and sane prices",
  fn: () => {
    for (const s of BUILTIN_PRICES.sources) {
      match(s.source, /^https:\/\//);
      match(s.asOf ?? "", /^\d{4}-\d{2}-\d{2}$/);
    }
    deepStrictEqual(BUILTIN_PRICES.sources.map((s) => s.provider), ["anthropic", "openai"]);
    for (const [name, p] of Object.entries(BUILTIN_PRICES.models)) {
      ok(p.cacheRead < p.input && p.input < p.output, name);
      ok(p.cacheWrite >= p.input, name);
      const over = p.over?.price;
      if (over) {
        ok(over.cacheRead < over.input && over.input < over.output, `${name} over`);
        ok(over.input > p.input && over.output > p.output && over.cacheRead > p.cacheRead, name);
      }
    }
  },
});

Deno.test({
  name:
    "priceTable() overlays config prices: a label with model =, a partial override, a new model",
  fn: () => {
    const t = priceTable({
      "gpt4-1": { model: "gpt-4.1", input: 1 },
      "claude-sonnet-4-5": { output: 20 },
      "my-local": { input: 0, output: 0, cache_write: 0, cache_read: 0 },
    });
    deepStrictEqual(priceOf(t, "gpt-4.1"), {
      input: 1,
      output: 8,
      cacheWrite: 2,
      cacheRead: 0.5,
      from: "config",
    });
    strictEqual(priceOf(t, "claude-sonnet-4-5-20250929")?.output, 20);
    strictEqual(priceOf(t, "my-local")?.input, 0);
    // A config price is flat: it drops the built-in prompt band.
    const flat = priceTable({ "claude-haiku-5-5": { output: 0.6 } });
    deepStrictEqual(priceFor(priceOf(flat, "claude-haiku-5-5")!, 150000), {
      input: 0.1,
      output: 0.6,
      cacheWrite: 0.125,
      cacheRead: 0.01,
    });
    strictEqual(priceOf(BUILTIN_PRICES, "gpt-4.1")?.input, 2);
    deepStrictEqual(t.sources.at(-1), { provider: "config", source: "config.toml", asOf: null });
  },
});

Deno.test({
  name: "priceTable() rejects bad config prices with one line naming the key",
  fn: async (t) => {
    const cases: [string, unknown, RegExp][] = [
      ["not a table", 3, /^\[plugins\.proxy\] prices: expected/],
      ["negative", { "gpt-4o": { input: -1 } }, /prices\.gpt-4o\] input: expected a number ≥ 0/],
      ["a string", { "gpt-4o": { output: "3" } }, /output: expected a number ≥ 0, got "3"/],
      ["unknown key", { "gpt-4o": { inptu: 3 } }, /inptu: unknown key/],
      ["new model partly", { x: { input: 1 } }, /\[plugins\.proxy\.prices\.x\] output: missing/],
      ["empty model", { x: { model: "" } }, /model: expected a model name/],
    ];
    for (const [what, prices, message] of cases) {
      await t.step(what, () => {
        throws(
          () => priceTable(prices),
          (e: Error) => e instanceof TypeError && message.test(e.message),
        );
      });
    }
  },
});

Deno.test({
  name: "formatUsd() shows cents from a dollar up and four places below",
  fn: () => {
    deepStrictEqual(
      [0, 12.345, 0.061875, 0.00001, -0.5].map(formatUsd),
      ["$0.00", "$12.35", "$0.0619", "$<0.0001", "-$0.5000"],
    );
  },
});

Deno.test({
  name: "rtok gain shows the money figures of a recorded usage set, real and estimated apart",
  permissions: { read: true, write: true, run: true, env: true },
  fn: async () => {
    using home = tempDir();
    const store = Store.open(storePath(home.path));
    try {
      fill(store, RECORDED);
    } finally {
      store.close();
    }
    const before = await rtok(home.path, ["gain"]);
    strictEqual(before.code, 0, before.err);
    match(before.out, /spent\s+\$0\.0619 \(real usage × list prices; the priced models only\)/);
    match(
      before.out,
      /raw\s+\$0\.0103 more had the compressed results gone raw \(estimated; the priced models only\)/,
    );
    match(before.out, /claude-mystery-9\s+1\s+unknown\s+500\s+0\s+unknown\s+-\n/);
    match(before.out, /no price for claude-mystery-9: its tokens are above, its cost unknown/);
    Deno.writeTextFileSync(
      `${home.path}/config.toml`,
      '[plugins.proxy.prices.mystery]\nmodel = "claude-mystery-9"\n' +
        "input = 2\noutput = 10\ncache_write = 2.5\ncache_read = 0.2\n",
    );
    const text = await rtok(home.path, ["gain"]);
    strictEqual(text.code, 0, text.err);
    // claude-mystery-9 at the config's price: spent (5000×2 + 100×10) / 1e6 = 0.011,
    // saved 500×2 / 1e6 = 0.001; totals 0.072875 and 0.0113.
    match(text.out, /spent\s+\$0\.0729 \(real usage × list prices\)/);
    match(text.out, /raw\s+\$0\.0113 more had the compressed results gone raw \(estimated\)/);
    match(text.out, /claude-mystery-9\s+1\s+\$0\.0110\s+500\s+0\s+\$0\.0010\s+config\n/);
    const json = JSON.parse((await rtok(home.path, ["gain", "--format", "json"])).out);
    strictEqual(json.money.spentUsd, 0.072875);
    strictEqual(json.money.savedUsd, 0.0113);
    strictEqual(json.money.real, true);
    deepStrictEqual(json.money.unpriced, []);
    Deno.writeTextFileSync(
      `${home.path}/config.toml`,
      "[plugins.proxy.prices.gpt-4o]\ninput = -2\n",
    );
    const bad = await rtok(home.path, ["gain"]);
    strictEqual(bad.code, 0, bad.err);
    match(
      bad.err,
      /\[plugins\.proxy\.prices\.gpt-4o\] input: expected a number ≥ 0.*built-in prices/,
    );
    match(bad.out, /spent\s+\$0\.0619 /);
  },
});

Deno.test({
  name: "rtok gain says spent unknown, not $0.00, when no model recorded has a price",
  permissions: { read: true, write: true, run: true, env: true },
  fn: async () => {
    using home = tempDir();
    const store = Store.open(storePath(home.path));
    try {
      fill(store, RECORDED.filter((r) => r.model === "claude-mystery-9"));
      const c = proxyCost(store, BUILTIN_PRICES);
      strictEqual(c.spentUsd, null);
      strictEqual(c.savedUsd, null);
      deepStrictEqual(c.unpriced, ["claude-mystery-9"]);
    } finally {
      store.close();
    }
    const text = await rtok(home.path, ["gain"]);
    strictEqual(text.code, 0, text.err);
    match(text.out, /spent\s+unknown \(no model above has a price\)/);
    ok(!/\$0\.00/.test(text.out), text.out);
    const json = JSON.parse((await rtok(home.path, ["gain", "--format", "json"])).out);
    strictEqual(json.money.spentUsd, null);
  },
});
