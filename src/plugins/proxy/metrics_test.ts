import { deepStrictEqual, match, ok, strictEqual, throws } from "node:assert/strict";
import { BUILTIN_PRICES, priceOf } from "./prices.ts";
import {
  CounterVec,
  escapeHelp,
  escapeLabelValue,
  formatValue,
  Histogram,
  ProxyMetrics,
  renderFamilies,
} from "./metrics.ts";
import type { ProxyRow } from "./server.ts";

function row(over: Partial<ProxyRow>): ProxyRow {
  return {
    ts: 0,
    provider: "anthropic",
    route: "messages",
    status: 200,
    streamed: false,
    latencyMs: 100,
    durationMs: 120,
    usage: { model: "claude-x", input: 1500, output: 42, cacheWrite: 300, cacheRead: 7000 },
    resultsSeen: 4,
    charsSeen: 10_000,
    charsSaved: 6200,
    results: [
      { shape: "git log", rawChars: 6200, emittedChars: 620, textClass: "log", archiveId: "a" },
      { shape: "text", rawChars: 3100, emittedChars: 2480, textClass: "prose", archiveId: null },
    ],
    note: null,
    style: null,
    addedMs: 3,
    ...over,
  } as ProxyRow;
}

// The sample lines of `text` as name{labels} → value.
function samples(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), line.slice(at + 1));
  }
  return out;
}

Deno.test("escapeLabelValue() escapes backslash, double quote and line feed only", async (t) => {
  const cases: [string, string][] = [
    ["plain", "plain"],
    ['say "hi"', 'say \\"hi\\"'],
    ["C:\\path", "C:\\\\path"],
    ["two\nlines", "two\\nlines"],
    ['\\"\n', '\\\\\\"\\n'],
    ["tab\tand ünïcode", "tab\tand ünïcode"],
  ];
  for (const [input, want] of cases) {
    await t.step(JSON.stringify(input), () => strictEqual(escapeLabelValue(input), want));
  }
});

Deno.test("escapeHelp() escapes backslash and line feed, leaves quotes", () => {
  strictEqual(escapeHelp('a\\b\n"c"'), 'a\\\\b\\n"c"');
});

Deno.test("formatValue() writes infinities and NaN the Prometheus way", async (t) => {
  const cases: [number, string][] = [
    [Infinity, "+Inf"],
    [-Infinity, "-Inf"],
    [NaN, "NaN"],
    [0.0005, "0.0005"],
    [42, "42"],
  ];
  for (const [input, want] of cases) {
    await t.step(want, () => strictEqual(formatValue(input), want));
  }
});

Deno.test("renderFamilies() writes HELP and TYPE before the samples, labels escaped", () => {
  const c = new CounterVec("rtok_x_total", "Things.\nCounted.", ["model"]);
  c.inc(['a"b'], 2);
  c.inc(['a"b']);
  strictEqual(
    renderFamilies([c.family()]),
    '# HELP rtok_x_total Things.\\nCounted.\n# TYPE rtok_x_total counter\nrtok_x_total{model="a\\"b"} 3\n',
  );
});

Deno.test("renderFamilies() rejects invalid metric and label names", () => {
  throws(
    () => renderFamilies([{ name: "rtok-x", help: "h", type: "gauge", samples: [] }]),
    TypeError,
  );
  const bad = new CounterVec("rtok_y", "h", ["1bad"], "gauge");
  bad.inc(["v"]);
  throws(() => renderFamilies([bad.family()]), TypeError);
});

Deno.test("CounterVec.inc() refuses to decrease a counter and a wrong label count", () => {
  const c = new CounterVec("rtok_z_total", "h", ["a"]);
  throws(() => c.inc(["x"], -1), RangeError);
  throws(() => c.inc(["x", "y"]), RangeError);
  const g = new CounterVec("rtok_g", "h", ["a"], "gauge");
  g.inc(["x"], -1);
  strictEqual(g.family().samples[0].value, -1);
});

Deno.test("Histogram.family() gives cumulative buckets, +Inf, sum and count", () => {
  const h = new Histogram("rtok_h_seconds", "h", [0.001, 0.01, 0.1]);
  for (const v of [0.0005, 0.001, 0.005, 0.05, 2]) h.observe(v);
  const text = renderFamilies([h.family()]);
  deepStrictEqual(
    [...samples(text)],
    [
      ['rtok_h_seconds_bucket{le="0.001"}', "2"],
      ['rtok_h_seconds_bucket{le="0.01"}', "3"],
      ['rtok_h_seconds_bucket{le="0.1"}', "4"],
      ['rtok_h_seconds_bucket{le="+Inf"}', "5"],
      ["rtok_h_seconds_sum", String(0.0005 + 0.001 + 0.005 + 0.05 + 2)],
      ["rtok_h_seconds_count", "5"],
    ],
  );
  match(text, /^# TYPE rtok_h_seconds histogram$/m);
  throws(() => new Histogram("rtok_bad", "h", [0.1, 0.01]), RangeError);
});

Deno.test("ProxyMetrics.observe() counts requests, tokens by kind, results and savings", () => {
  const m = new ProxyMetrics();
  m.observe(row({}));
  m.observe(row({ status: 529, results: [], resultsSeen: 1, charsSeen: 50, charsSaved: 0 }));
  m.observe(row({
    route: "count_tokens",
    usage: { model: "claude-x", input: 1234, output: null, cacheWrite: null, cacheRead: null },
    resultsSeen: 0,
    charsSeen: 0,
    charsSaved: 0,
    results: [],
    addedMs: 700,
  }));
  m.observe(row({
    provider: "openai",
    route: "chat",
    usage: { model: null, input: 2000, output: 17, cacheWrite: null, cacheRead: 1024 },
    resultsSeen: 0,
    charsSeen: 0,
    charsSaved: 0,
    results: [],
    addedMs: undefined,
  }));
  const s = samples(m.render());
  const at = (k: string) => s.get(k);
  strictEqual(
    at(
      'rtok_proxy_requests_total{provider="anthropic",model="claude-x",route="messages",status="200",caller="anonymous"}',
    ),
    "1",
  );
  strictEqual(
    at(
      'rtok_proxy_requests_total{provider="anthropic",model="claude-x",route="messages",status="529",caller="anonymous"}',
    ),
    "1",
  );
  strictEqual(
    at(
      'rtok_proxy_requests_total{provider="openai",model="",route="chat",status="200",caller="anonymous"}',
    ),
    "1",
  );
  // Two messages requests' usage; count_tokens is not consumption.
  strictEqual(
    at(
      'rtok_proxy_tokens_total{provider="anthropic",model="claude-x",kind="input",caller="anonymous"}',
    ),
    "3000",
  );
  strictEqual(
    at(
      'rtok_proxy_tokens_total{provider="anthropic",model="claude-x",kind="cache_read",caller="anonymous"}',
    ),
    "14000",
  );
  strictEqual(
    at('rtok_proxy_tokens_total{provider="openai",model="",kind="cache_write",caller="anonymous"}'),
    undefined,
  );
  strictEqual(
    at('rtok_proxy_tokens_total{provider="openai",model="",kind="cache_read",caller="anonymous"}'),
    "1024",
  );
  strictEqual(
    at('rtok_proxy_tool_results_seen_total{provider="anthropic",caller="anonymous"}'),
    "5",
  );
  strictEqual(
    at('rtok_proxy_tool_results_compressed_total{provider="anthropic",caller="anonymous"}'),
    "2",
  );
  strictEqual(
    at('rtok_proxy_tool_result_chars_seen_total{provider="anthropic",caller="anonymous"}'),
    "10050",
  );
  strictEqual(at('rtok_proxy_chars_saved_total{provider="anthropic",caller="anonymous"}'), "6200");
  // log: ceil(6200/3.1) − ceil(620/3.1) = 2000 − 200; prose: ceil(3100/4.2) − ceil(2480/4.2)
  // = 739 − 591.
  strictEqual(
    at('rtok_proxy_estimated_tokens_saved_total{provider="anthropic",caller="anonymous"}'),
    "1948",
  );
  // Added latency: 3 ms, 3 ms and 700 ms; the row without it is not observed.
  strictEqual(at('rtok_proxy_added_latency_seconds_bucket{le="0.0025"}'), "0");
  strictEqual(at('rtok_proxy_added_latency_seconds_bucket{le="0.005"}'), "2");
  strictEqual(at('rtok_proxy_added_latency_seconds_bucket{le="0.5"}'), "2");
  strictEqual(at('rtok_proxy_added_latency_seconds_bucket{le="1"}'), "3");
  strictEqual(at("rtok_proxy_added_latency_seconds_count"), "3");
});

Deno.test("ProxyMetrics.render() gives every rtok_ family a HELP and a TYPE line, before use", () => {
  const m = new ProxyMetrics();
  m.observe(row({}));
  const text = m.render();
  const declared = new Set<string>();
  for (const line of text.trimEnd().split("\n")) {
    const t = /^# TYPE (\S+) (counter|gauge|histogram)$/.exec(line);
    if (t) {
      declared.add(t[1]);
      continue;
    }
    if (line.startsWith("# HELP ")) continue;
    const name = line.split(/[{ ]/)[0];
    const base = name.replace(/_(bucket|sum|count)$/, "");
    const family = declared.has(name) ? name : base;
    match(family, /^rtok_/);
    strictEqual(declared.has(family), true, `${line} follows its TYPE line`);
  }
  strictEqual(declared.size, 11);
  match(text, /^# HELP rtok_proxy_added_latency_seconds /m);
});

Deno.test("ProxyMetrics.observe() labels each caller, past the bound as other, and prices usage", () => {
  const m = new ProxyMetrics({ maxCallers: 2, prices: BUILTIN_PRICES });
  const model = "claude-sonnet-4-5";
  const usage = { model, input: 100_000, output: 0, cacheWrite: 0, cacheRead: 0 };
  for (const caller of ["alice", "bob", "carol", "alice", "dave"]) {
    m.observe(row({ caller, usage, results: [], charsSaved: 0 }));
  }
  const s = samples(m.render());
  const requests = (c: string) =>
    s.get(
      `rtok_proxy_requests_total{provider="anthropic",model="${model}",route="messages",` +
        `status="200",caller="${c}"}`,
    );
  strictEqual(requests("alice"), "2");
  strictEqual(requests("bob"), "1");
  strictEqual(requests("carol"), undefined);
  strictEqual(requests("other"), "2", "carol and dave are past the bound of 2");
  // 100,000 input tokens at the model's input price (dollars per million), twice for alice.
  const price = priceOf(BUILTIN_PRICES, model)!.input;
  strictEqual(
    s.get(`rtok_proxy_spent_usd_total{provider="anthropic",model="${model}",caller="alice"}`),
    String(2 * 100_000 * price / 1_000_000),
  );
  const unpriced = new ProxyMetrics({ prices: BUILTIN_PRICES });
  unpriced.observe(row({ usage: { ...usage, model: "no-such-model" } }));
  ok(!unpriced.render().includes("rtok_proxy_spent_usd_total{"), "no price, no dollars");
});

Deno.test("ProxyMetrics.response() is the text format's content type", async () => {
  const res = new ProxyMetrics().response();
  strictEqual(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  match(await res.text(), /^# HELP rtok_proxy_start_time_seconds /);
});
