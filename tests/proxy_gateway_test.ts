import { equal, match, ok, rejects } from "node:assert/strict";
import { freePort, rtok, tempDir } from "./_helpers.ts";
import { gitLogTurns, proxyRows, sse, startProxy, startUpstream } from "./_upstream.ts";

// A streamed answer of `events` events, one every `ms` milliseconds.
function slowStream(events: number, ms: number): Response {
  let i = 0;
  const enc = new TextEncoder();
  return new Response(
    new ReadableStream<Uint8Array>({
      async pull(c) {
        if (i === events) return c.close();
        await new Promise((r) => setTimeout(r, ms));
        c.enqueue(enc.encode(sse([{ type: "ping", n: i++ }])));
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
}

const BODY = JSON.stringify({ model: "m", stream: true, max_tokens: 1, messages: [] });

Deno.test({
  name: "rtok proxy on SIGTERM finishes a stream in flight, refuses to be ready, writes its row",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream(() => slowStream(10, 60));
    const proxy = await startProxy(tmp.path, up.url);
    try {
      const res = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body: BODY });
      const reading = res.text();
      await new Promise((r) => setTimeout(r, 150));
      const stopped = proxy.stop("SIGTERM");
      const text = await reading;
      equal(text.split("event: ping").length - 1, 10, "every event arrived");
      equal((await stopped).code, 0);
      const rows = await proxyRows(tmp.path, 1);
      equal(rows.length, 1);
      equal(rows[0].note, null);
      equal(rows[0].streamed, 1);
    } finally {
      await proxy.stop();
    }
  },
});

Deno.test({
  name: "rtok proxy on SIGTERM cuts a stream still going at --drain-ms, and still writes its row",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream(() => slowStream(100, 50));
    const proxy = await startProxy(tmp.path, up.url, ["--drain-ms", "300"]);
    try {
      const res = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body: BODY });
      const reading = res.text();
      await new Promise((r) => setTimeout(r, 100));
      const t0 = performance.now();
      const stopped = proxy.stop("SIGTERM");
      await rejects(reading, "the client sees the stream cut, not a clean end");
      equal((await stopped).code, 0);
      // Cut at the deadline, not after the 5 s the whole answer would take.
      ok(performance.now() - t0 < 4000);
      const rows = await proxyRows(tmp.path, 1);
      match(rows[0].note ?? "", /upstream stream failed/);
    } finally {
      await proxy.stop();
    }
  },
});

Deno.test({
  name: "rtok proxy GET /readyz says not ready while an upstream is down; /healthz stays ok",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    const down = `http://127.0.0.1:${freePort()}`;
    await using proxy = await startProxy(tmp.path, down, [], { RTOK_PROXY_TOKEN: "t" });
    const health = await fetch(`${proxy.url}/healthz`);
    equal(health.status, 200);
    equal((await health.json()).status, "ok");
    const ready = await fetch(`${proxy.url}/readyz`);
    equal(ready.status, 503);
    const body = await ready.json();
    equal(body.ready, false);
    equal(body.checks.store, "ok");
    match(body.checks.upstream_anthropic, /unreachable/);
  },
});

Deno.test({
  name: "rtok gain --by caller splits the proxy's requests, usage and savings by caller",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    const proxy = await startProxy(tmp.path, up.url, [], { RTOK_PROXY_TOKEN: "t" });
    const send = async (headers: Record<string, string>) => {
      const r = await fetch(`${proxy.url}/v1/messages`, {
        method: "POST",
        headers: { "x-rtok-token": "t", "content-type": "application/json", ...headers },
        body: JSON.stringify({
          model: "claude-sonnet-4-5",
          max_tokens: 5,
          messages: gitLogTurns(),
        }),
      });
      await r.body?.cancel();
    };
    await send({ "x-rtok-caller": "alice", "x-api-key": "k1" });
    await send({ "x-rtok-caller": "alice", "x-api-key": "k2" });
    await send({ "x-rtok-caller": "bob" });
    await send({ "x-api-key": "k1" });
    equal((await proxy.stop()).code, 0);
    const r = await rtok(tmp.path, ["gain", "--by", "caller", "--format", "json"]);
    equal(r.code, 0, r.err);
    const rows = JSON.parse(r.out) as Record<string, unknown>[];
    const by = Object.fromEntries(rows.map((x) => [x.caller, x]));
    equal(rows.length, 3);
    equal(by.alice.requests, 2);
    equal(by.bob.requests, 1);
    const hashed = rows.find((x) => String(x.caller).startsWith("key-"))!;
    equal(hashed.requests, 1);
    // The stand-in reports 1,500 input tokens a request; each git log result was cut.
    equal(by.alice.inputTokens, 3000);
    ok((by.alice.estimatedTokensSaved as number) > 0);
    equal(by.alice.estimatedTokensSaved, 2 * (by.bob.estimatedTokensSaved as number));
    ok((by.alice.spentUsd as number) > 0);
    const text = await rtok(tmp.path, ["gain", "--by", "caller"]);
    match(text.out, /^alice\s+2\s+0\s+3\.0K\s/m);
    const bad = await rtok(tmp.path, ["gain", "--by", "model"]);
    equal(bad.code, 1);
    equal(bad.err, 'rtok: --by "model": expected caller\n');
  },
});

Deno.test({
  name: "two rtok proxies sharing one RTOK_HOME count every request once, under one salt",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    const a = await startProxy(tmp.path, up.url);
    const b = await startProxy(tmp.path, up.url);
    try {
      const body = JSON.stringify({ model: "m", max_tokens: 1, messages: gitLogTurns() });
      const statuses = await Promise.all(
        Array.from({ length: 120 }, async (_, i) => {
          const r = await fetch(`${(i % 2 ? a : b).url}/v1/messages`, {
            method: "POST",
            headers: { "x-api-key": `sk-${i % 3}`, "content-type": "application/json" },
            body,
          });
          await r.arrayBuffer();
          return r.status;
        }),
      );
      ok(statuses.every((s) => s === 200));
      equal((await a.stop()).code, 0);
      equal((await b.stop()).code, 0);
      const rows = await proxyRows(tmp.path, 120);
      equal(rows.length, 120, "each request once, none lost to the shared ledger's lock");
      const callers = new Set(rows.map((r) => (r as unknown as { caller: string }).caller));
      equal(callers.size, 3, "three keys, three callers, whichever instance served them");
    } finally {
      await a.stop();
      await b.stop();
    }
  },
});
