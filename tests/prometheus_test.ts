import { ok, strictEqual } from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { CLI, denoDir, freePort, RTOK_PERMS, spawnDaemon, tempDir, which } from "./_helpers.ts";
import { GIT_LOG, gitLogTurns, startProxy, startUpstream, untilLedger } from "./_upstream.ts";

// Debian's package (`apt-get install -y prometheus`); the test is skipped only without it.
const PROMETHEUS = which("prometheus");

// Asks Prometheus until the query has a value the test accepts.
async function query(
  api: string,
  promql: string,
  accept: (v: number) => boolean,
  log: () => string,
): Promise<number> {
  const deadline = Date.now() + 60_000;
  let last: unknown = null;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = await res.json();
      last = body;
      const v = body?.data?.result?.[0]?.value?.[1];
      if (v !== undefined && accept(Number(v))) return Number(v);
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${promql}: no value (${JSON.stringify(last)}); prometheus said: ${log()}`);
}

Deno.test({
  name: "Prometheus scraping rtok proxy and rtok metrics gets the numbers the ledger holds",
  ignore: PROMETHEUS === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    await using proxy = await startProxy(tmp.path, up.url);
    // The official SDKs, through the proxy: each route, streamed and not.
    const anthropic = new Anthropic({ apiKey: "sk-ant-x", baseURL: proxy.url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = gitLogTurns();
    await anthropic.messages.create({ model: "claude-test-1", max_tokens: 10, messages });
    const stream = anthropic.messages.stream({ model: "claude-test-1", max_tokens: 10, messages });
    await stream.finalMessage();
    await anthropic.messages.countTokens({ model: "claude-test-1", messages });
    const openai = new OpenAI({ apiKey: "sk-x", baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    await openai.chat.completions.create({
      model: "gpt-test-1",
      messages: [
        { role: "user", content: "log?" },
        {
          role: "assistant",
          tool_calls: [{
            id: "c1",
            type: "function",
            function: { name: "bash", arguments: '{"command":"git log"}' },
          }],
        },
        { role: "tool", tool_call_id: "c1", content: GIT_LOG },
      ],
    });
    await openai.responses.create({ model: "gpt-test-2", input: "hi" });

    const ledger = await _ledger(tmp.path, 5);
    await using metrics = spawnDaemon(Deno.execPath(), [
      "run",
      ...RTOK_PERMS,
      CLI,
      "metrics",
      "--port",
      "0",
    ], { RTOK_HOME: tmp.path, NO_COLOR: "1", DENO_DIR: await denoDir() });
    const deadline = Date.now() + 30_000;
    let metricsUrl = "";
    while (!metricsUrl) {
      const m = /listening on http:\/\/(\S+)\/metrics/.exec(metrics.stderr());
      if (m) metricsUrl = m[1];
      else if (Date.now() > deadline) throw new Error(`rtok metrics: ${metrics.stderr()}`);
      else await new Promise((r) => setTimeout(r, 20));
    }

    const config = `${tmp.path}/prometheus.yml`;
    Deno.writeTextFileSync(
      config,
      `global:
  scrape_interval: 1s
scrape_configs:
  - job_name: rtok-proxy
    static_configs:
      - targets: ["${new URL(proxy.url).host}"]
  - job_name: rtok-ledger
    static_configs:
      - targets: ["${metricsUrl}"]
`,
    );
    const port = freePort();
    await using prom = spawnDaemon(PROMETHEUS!, [
      `--config.file=${config}`,
      `--storage.tsdb.path=${tmp.path}/tsdb`,
      `--web.listen-address=127.0.0.1:${port}`,
    ], {});
    const api = `http://127.0.0.1:${port}`;
    const ask = (q: string, want: number) => query(api, q, (v) => v === want, prom.stderr);

    strictEqual(await ask('sum(rtok_proxy_requests_total{job="rtok-proxy"})', 5), 5);
    strictEqual(ledger.requests, 5);
    await ask('sum(rtok_proxy_requests_total{route="count_tokens"})', 1);
    await ask('sum(rtok_proxy_requests_total{provider="openai"})', 2);
    for (const kind of ["input", "output", "cache_write", "cache_read"]) {
      await ask(`sum(rtok_proxy_tokens_total{kind="${kind}"})`, ledger[kind]);
      await ask(`sum(rtok_ledger_proxy_tokens{kind="${kind}"})`, ledger[kind]);
    }
    ok(ledger.compressed >= 2, "both git logs were compressed");
    await ask("sum(rtok_proxy_tool_results_seen_total)", ledger.seen);
    await ask("sum(rtok_proxy_tool_results_compressed_total)", ledger.compressed);
    await ask("sum(rtok_proxy_chars_saved_total)", ledger.chars_saved);
    await ask("sum(rtok_proxy_estimated_tokens_saved_total)", ledger.tokens_saved);
    await ask("sum(rtok_proxy_added_latency_seconds_count)", 5);
    await ask("sum(rtok_ledger_proxy_requests)", 5);
    await ask("sum(rtok_ledger_proxy_chars_saved)", ledger.chars_saved);
    await ask("sum(rtok_ledger_proxy_estimated_tokens_saved)", ledger.tokens_saved);
    await ask('up{job="rtok-ledger"}', 1);
  },
});

// The ledger's sums once `n` requests are in it.
function _ledger(home: string, n: number): Promise<Record<string, number>> {
  return untilLedger(home, (db) => {
    const got = db.prepare(
      `SELECT count(*) AS requests,
             (SELECT coalesce(sum(input_tokens), 0) FROM proxy_requests
               WHERE route != 'count_tokens') AS input,
             (SELECT coalesce(sum(output_tokens), 0) FROM proxy_requests
               WHERE route != 'count_tokens') AS output,
             (SELECT coalesce(sum(cache_write_tokens), 0) FROM proxy_requests
               WHERE route != 'count_tokens') AS cache_write,
             (SELECT coalesce(sum(cache_read_tokens), 0) FROM proxy_requests
               WHERE route != 'count_tokens') AS cache_read,
             sum(results_seen) AS seen, sum(results_compressed) AS compressed,
             sum(chars_saved) AS chars_saved,
             (SELECT coalesce(sum(raw_tokens - emitted_tokens), 0) FROM proxy_results)
               AS tokens_saved
           FROM proxy_requests`,
    ).get() as Record<string, number>;
    return got.requests >= n ? got : null;
  }, `${n} proxy rows`);
}
