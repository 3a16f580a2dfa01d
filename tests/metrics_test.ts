import { match, ok, strictEqual } from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import type { Measurement } from "../src/core/plugin.ts";
import { Store, storePath } from "../src/core/store.ts";
import { insertRun } from "../src/plugins/measure/ledger.ts";
import { insertProxyRows } from "../src/plugins/proxy/ledger.ts";
import { ProxyMetrics } from "../src/plugins/proxy/metrics.ts";
import type { ProxyRow } from "../src/plugins/proxy/server.ts";
import { ledgerMetrics } from "../src/surfaces/metrics.ts";
import { measurement, rtok, type RunningRtok, startRtok, tempDir } from "./_helpers.ts";
import { gitLogTurns, startProxy, startUpstream, untilLedger } from "./_upstream.ts";

// Sample lines as name{labels} → number.
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

// Σ of the samples of `name` whose labels contain every `has` (`kind="input"`).
function total(s: Map<string, number>, name: string, ...has: string[]): number {
  let n = 0;
  for (const [k, v] of s) {
    if ((k === name || k.startsWith(`${name}{`)) && has.every((h) => k.includes(h))) n += v;
  }
  return n;
}

function proxySums(home: string, n: number): Promise<Record<string, number>> {
  return untilLedger(home, (db) => {
    const got = db.prepare(
      `SELECT count(*) AS requests, sum(input_tokens) AS input,
         sum(output_tokens) AS output, sum(cache_read_tokens) AS cache_read,
         sum(results_compressed) AS compressed, sum(chars_saved) AS chars_saved,
         (SELECT sum(raw_tokens - emitted_tokens) FROM proxy_results) AS tokens_saved
       FROM proxy_requests`,
    ).get() as Record<string, number>;
    return got.requests >= n ? got : null;
  }, `${n} proxy rows`);
}

/** `rtok metrics` as a running process on a free port. */
function startMetrics(home: string): Promise<RunningRtok> {
  return startRtok(home, ["metrics", "--port", "0"], /listening on (http:\/\/\S+)\/metrics/);
}

// The shared test measurement, with this file's own defaults.
const _mine = (over: Partial<Measurement> = {}): Measurement =>
  measurement({ ...{ archiveId: null }, ...over });

function proxyRow(over: Partial<ProxyRow>): ProxyRow {
  return {
    ts: Date.now(),
    provider: "anthropic",
    route: "messages",
    status: 200,
    streamed: false,
    latencyMs: 10,
    durationMs: 12,
    usage: { model: 'm"1', input: 100, output: 7, cacheWrite: null, cacheRead: 50 },
    resultsSeen: 2,
    charsSeen: 4000,
    charsSaved: 2790,
    results: [{
      shape: "git log",
      rawChars: 3100,
      emittedChars: 310,
      textClass: "log",
      archiveId: null,
    }],
    note: null,
    style: null,
    ...over,
  };
}

Deno.test({
  name: "rtok proxy GET /metrics answers itself with the ledger's numbers, never upstream",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    await using proxy = await startProxy(tmp.path, up.url);
    const client = new Anthropic({ apiKey: "sk-ant-x", baseURL: proxy.url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = gitLogTurns();
    await client.messages.create({ model: "claude-test-1", max_tokens: 10, messages });
    await client.messages.create({ model: "claude-test-1", max_tokens: 10, messages });
    const ledger = await proxySums(tmp.path, 2);
    // The caller is the salted hash of the key the ledger keeps too, never the key.
    const callerHash = await untilLedger(
      tmp.path,
      (db) => (db.prepare("SELECT caller FROM proxy_requests").get() as { caller: string }).caller,
      "a caller",
    ).then((c) => /^key-([0-9a-f]{12})$/.exec(c)![1]);
    const forwarded = up.received.length;
    const res = await fetch(`${proxy.url}/metrics`);
    strictEqual(res.status, 200);
    strictEqual(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const s = samples(await res.text());
    strictEqual(up.received.length, forwarded, "/metrics is not forwarded");
    strictEqual(
      s.get(
        'rtok_proxy_requests_total{provider="anthropic",model="claude-test-1",route="messages",status="200",caller="key-' +
          callerHash +
          '"}',
      ),
      2,
    );
    strictEqual(total(s, "rtok_proxy_requests_total"), ledger.requests);
    strictEqual(total(s, "rtok_proxy_tokens_total", 'kind="input"'), ledger.input);
    strictEqual(total(s, "rtok_proxy_tokens_total", 'kind="output"'), ledger.output);
    strictEqual(total(s, "rtok_proxy_tokens_total", 'kind="cache_read"'), ledger.cache_read);
    strictEqual(total(s, "rtok_proxy_tool_results_compressed_total"), ledger.compressed);
    ok(ledger.compressed >= 2, "the git log was compressed in both requests");
    strictEqual(total(s, "rtok_proxy_chars_saved_total"), ledger.chars_saved);
    strictEqual(total(s, "rtok_proxy_estimated_tokens_saved_total"), ledger.tokens_saved);
    strictEqual(s.get("rtok_proxy_added_latency_seconds_count"), 2);
    strictEqual(s.get('rtok_proxy_added_latency_seconds_bucket{le="+Inf"}'), 2);
  },
});

Deno.test({
  name: "rtok metrics serves the ledger's totals per surface and the proxy's, as gauges",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    const store = Store.open(storePath(tmp.path));
    try {
      insertRun(store, _mine({}), 90);
      insertRun(store, _mine({ surface: "hook" }), 90);
      insertRun(store, _mine({ surface: "hook", family: "ls", textClass: "paths" }), 90);
      insertRun(
        store,
        _mine({ family: "echo", rawChars: 31, emittedChars: 31, passthrough: "no filter" }),
        90,
      );
      insertProxyRows(store, [proxyRow({}), proxyRow({ status: 529, results: [] })], 90);
    } finally {
      store.close();
    }
    await using m = await startMetrics(tmp.path);
    const res = await fetch(`${m.url}/metrics`);
    strictEqual(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const text = await res.text();
    const s = samples(text);
    match(text, /^# TYPE rtok_ledger_runs gauge$/m);
    strictEqual(s.get("rtok_ledger_readable"), 1);
    strictEqual(s.get('rtok_ledger_runs{surface="cli"}'), 2);
    strictEqual(s.get('rtok_ledger_runs{surface="hook"}'), 2);
    // log: ceil(3100/3.1) − ceil(310/3.1) = 1000 − 100; paths: ceil(3100/2.6) − ceil(310/2.6)
    // = 1193 − 120; echo: 10 − 10.
    strictEqual(s.get('rtok_ledger_saved_tokens{surface="cli"}'), 900);
    strictEqual(s.get('rtok_ledger_saved_tokens{surface="hook"}'), 900 + 1073);
    strictEqual(s.get('rtok_ledger_family_saved_tokens{family="git log"}'), 1800);
    strictEqual(s.get('rtok_ledger_family_saved_tokens{family="echo"}'), undefined);
    strictEqual(
      s.get(
        'rtok_ledger_proxy_requests{provider="anthropic",model="m\\"1",route="messages",status="529"}',
      ),
      1,
    );
    strictEqual(
      s.get('rtok_ledger_proxy_tokens{provider="anthropic",model="m\\"1",kind="input"}'),
      200,
    );
    strictEqual(total(s, "rtok_ledger_proxy_tokens", 'kind="cache_write"'), 0);
    strictEqual(s.get('rtok_ledger_proxy_tool_results_compressed{provider="anthropic"}'), 1);
    strictEqual(s.get('rtok_ledger_proxy_chars_saved{provider="anthropic"}'), 5580);
    strictEqual(s.get('rtok_ledger_proxy_estimated_tokens_saved{provider="anthropic"}'), 900);
    strictEqual((await fetch(`${m.url}/other`)).status, 404);
    await (await fetch(`${m.url}/other`)).body?.cancel();
  },
});

Deno.test({
  name: "rtok metrics without a ledger says rtok_ledger_readable 0 and creates none",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using m = await startMetrics(tmp.path);
    const s = samples(await (await fetch(`${m.url}/metrics`)).text());
    strictEqual(s.get("rtok_ledger_readable"), 0);
    strictEqual(s.has('rtok_ledger_runs{surface="cli"}'), false);
    strictEqual(
      [...Deno.readDirSync(tmp.path)].some((e) => e.name.startsWith("rtok.db")),
      false,
    );
  },
});

Deno.test("rtok metrics refuses bad input in one line", async (t) => {
  using tmp = tempDir();
  await t.step("a port in use is named", async () => {
    using busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (busy.addr as Deno.NetAddr).port;
    const r = await rtok(tmp.path, ["metrics", "--port", String(port)]);
    strictEqual(r.code, 1);
    strictEqual(r.err.trim().split("\n").length, 1, r.err);
    match(r.err, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use`));
  });
  await t.step("a non-loopback --host needs --allow-remote", async () => {
    const r = await rtok(tmp.path, ["metrics", "--host", "0.0.0.0", "--port", "0"]);
    strictEqual(r.code, 1);
    strictEqual(r.err.trim().split("\n").length, 1, r.err);
    match(r.err, /--host "0\.0\.0\.0" is not a loopback address; add --allow-remote/);
  });
  await t.step("a port out of range", async () => {
    const r = await rtok(tmp.path, ["metrics", "--port", "70000"]);
    strictEqual(r.code, 1);
    strictEqual(r.err.trim().split("\n").length, 1, r.err);
    match(r.err, /--port/);
  });
});

Deno.test("examples/grafana-dashboard.json and prometheus.yml use only the names rtok serves", () => {
  using tmp = tempDir();
  Store.open(storePath(tmp.path)).close();
  const served = new Set<string>();
  const text = new ProxyMetrics().render() + ledgerMetrics(storePath(tmp.path)).text;
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    served.add(m[1]);
    if (m[2] === "histogram") {
      for (const s of ["_bucket", "_sum", "_count"]) served.add(m[1] + s);
    }
  }
  const dashboard = JSON.parse(
    Deno.readTextFileSync(new URL("../examples/grafana-dashboard.json", import.meta.url)),
  );
  const exprs: string[] = dashboard.panels.flatMap((p: { targets?: { expr: string }[] }) =>
    (p.targets ?? []).map((t) => t.expr)
  );
  ok(exprs.length >= 10, "the dashboard has its queries");
  const used = new Set(exprs.flatMap((e) => e.match(/\brtok_[a-z_]+/g) ?? []));
  for (const name of used) ok(served.has(name), `${name} is served`);
  for (const family of ["rtok_proxy_requests_total", "rtok_proxy_tokens_total"]) {
    ok(used.has(family), `the dashboard charts ${family}`);
  }
  ok(used.has("rtok_proxy_added_latency_seconds_bucket"), "the dashboard charts the latency");
  ok([...used].some((n) => n.startsWith("rtok_ledger_")), "the dashboard charts the ledger");
  const scrape = Deno.readTextFileSync(new URL("../examples/prometheus.yml", import.meta.url));
  match(scrape, /targets: \["127\.0\.0\.1:8787"\]/);
  match(scrape, /targets: \["127\.0\.0\.1:8788"\]/);
});
