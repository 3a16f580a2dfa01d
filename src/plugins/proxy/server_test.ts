import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { ProxyReport } from "../../core/plugin.ts";
import { proxyHandler, type ProxyRow } from "./server.ts";

// A stand-in upstream and the handler in front of it, in this process.
async function withProxy(
  limit: number,
  fn: (url: string, got: { body: Uint8Array; path: string }[], rows: ProxyRow[]) => Promise<void>,
): Promise<void> {
  const got: { body: Uint8Array; path: string }[] = [];
  const rows: ProxyRow[] = [];
  const up = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    got.push({
      body: new Uint8Array(await req.arrayBuffer()),
      path: new URL(req.url).pathname + new URL(req.url).search,
    });
    return Response.json({ usage: { input_tokens: 3, output_tokens: 4 } });
  });
  const upstream = `http://127.0.0.1:${(up.addr as Deno.NetAddr).port}`;
  const handler = proxyHandler({
    upstreams: { anthropic: upstream, openai: upstream, gemini: upstream },
    maxBodyBytes: limit,
    transform: (req) => {
      const report: ProxyReport = {
        resultsSeen: 1,
        charsSeen: req.body.length,
        charsSaved: 1,
        results: [],
      };
      req.body = req.body.replace("RAW", "RW");
      return Promise.resolve([report]);
    },
    record: (row) => rows.push(row),
  });
  const px = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    await fn(`http://127.0.0.1:${(px.addr as Deno.NetAddr).port}`, got, rows);
  } finally {
    await px.shutdown();
    await up.shutdown();
  }
}

Deno.test("proxyHandler() forwards a body over the limit untouched, declared or streamed", async (t) => {
  const big = new TextEncoder().encode(JSON.stringify({ messages: [], pad: "RAW".repeat(2000) }));
  await withProxy(1000, async (url, got, rows) => {
    await t.step("with a content-length", async () => {
      const r = await fetch(`${url}/v1/messages`, { method: "POST", body: big });
      await r.arrayBuffer();
      deepStrictEqual(got.at(-1)!.body, big);
      strictEqual(rows.at(-1)!.note, "body over 1000 bytes");
    });
    await t.step("chunked, without a length", async () => {
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < big.length; i += 700) c.enqueue(big.slice(i, i + 700));
          c.close();
        },
      });
      const r = await fetch(`${url}/v1/messages`, { method: "POST", body: stream });
      await r.arrayBuffer();
      deepStrictEqual(got.at(-1)!.body, big);
      strictEqual(rows.at(-1)!.note, "body over 1000 bytes");
    });
  });
});

Deno.test("proxyHandler() compresses a body within the limit, on the beta route too", async () => {
  await withProxy(1 << 20, async (url, got, rows) => {
    const r = await fetch(`${url}/v1/messages?beta=true`, { method: "POST", body: '{"x":"RAW"}' });
    deepStrictEqual(await r.json(), { usage: { input_tokens: 3, output_tokens: 4 } });
    strictEqual(got[0].path, "/v1/messages?beta=true");
    strictEqual(new TextDecoder().decode(got[0].body), '{"x":"RW"}');
    deepStrictEqual(
      [rows[0].route, rows[0].charsSaved, rows[0].usage.input, rows[0].usage.output, rows[0].note],
      ["messages", 1, 3, 4, null],
    );
  });
});

Deno.test("proxyHandler() forwards a body that is not UTF-8 untouched", async () => {
  await withProxy(1 << 20, async (url, got, rows) => {
    const bad = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]);
    const r = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: bad });
    await r.arrayBuffer();
    deepStrictEqual(got[0].body, bad);
    strictEqual(rows[0].note, "body not UTF-8");
  });
});

Deno.test("proxyHandler() takes the request's model from its first 4096 chars, multi-byte ones too", async (t) => {
  const cases = [
    { name: "after 4000 three-byte chars", pad: "日".repeat(4000), want: "m1" },
    { name: "after 2000 astral chars (4000 UTF-16 units)", pad: "🎉".repeat(2000), want: "m1" },
    { name: "past the first 4096 chars", pad: "日".repeat(4090), want: null },
  ];
  await withProxy(1 << 20, async (url, got, rows) => {
    for (const c of cases) {
      await t.step(c.name, async () => {
        const body = new TextEncoder().encode(JSON.stringify({ system: c.pad, model: "m1" }));
        const r = await fetch(`${url}/v1/messages`, { method: "POST", body });
        await r.arrayBuffer();
        deepStrictEqual(got.at(-1)!.body, body);
        strictEqual(rows.at(-1)!.usage.model, c.want);
      });
    }
  });
});

Deno.test("proxyHandler() forwards a Gemini request with its query and key, and records the path's model", async () => {
  const got: { path: string; key: string | null; body: string }[] = [];
  const sse = 'data: {"candidates":[],"usageMetadata":{"promptTokenCount":30}}\r\n\r\n' +
    'data: {"candidates":[],"usageMetadata":{"promptTokenCount":30,' +
    '"cachedContentTokenCount":20,"candidatesTokenCount":5},"modelVersion":"gemini-x-001"}\r\n\r\n';
  const up = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    got.push({
      path: url.pathname + url.search,
      key: req.headers.get("x-goog-api-key"),
      body: await req.text(),
    });
    return new Response(sse, { headers: { "content-type": "text/event-stream" } });
  });
  const upstream = `http://127.0.0.1:${(up.addr as Deno.NetAddr).port}`;
  const rows: ProxyRow[] = [];
  const apis: string[] = [];
  const handler = proxyHandler({
    upstreams: { anthropic: "http://127.0.0.1:9", openai: "http://127.0.0.1:9", gemini: upstream },
    transform: (req) => {
      apis.push(req.api);
      return Promise.resolve([]);
    },
    record: (row) => rows.push(row),
  });
  const px = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    const base = `http://127.0.0.1:${(px.addr as Deno.NetAddr).port}`;
    const body = '{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}';
    const r = await fetch(`${base}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, {
      method: "POST",
      headers: { "x-goog-api-key": "secret-key-1" },
      body,
    });
    strictEqual(await r.text(), sse, "the answer byte for byte");
    deepStrictEqual(got, [{
      path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      key: "secret-key-1",
      body,
    }]);
    deepStrictEqual(apis, ["gemini"]);
    const row = rows[0];
    deepStrictEqual(
      [row.provider, row.route, row.status, row.streamed, row.usage],
      ["gemini", "stream_generate", 200, true, {
        model: "gemini-2.5-flash",
        input: 10,
        output: 5,
        cacheWrite: null,
        cacheRead: 20,
      }],
    );
    ok(!JSON.stringify(row).includes("secret-key-1"), "no credential in the row");
  } finally {
    await px.shutdown();
    await up.shutdown();
  }
});

Deno.test("proxyHandler() answers 502 in Gemini's error shape, without the query's key", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const dead = `http://127.0.0.1:${(l.addr as Deno.NetAddr).port}`;
  l.close();
  const rows: ProxyRow[] = [];
  const handler = proxyHandler({
    upstreams: { anthropic: dead, openai: dead, gemini: dead },
    transform: () => Promise.resolve([]),
    record: (row) => rows.push(row),
  });
  const res = await handler(
    new Request("http://127.0.0.1/v1beta/models/gemini-2.5-pro:generateContent?key=secret-key-2", {
      method: "POST",
      body: "{}",
    }),
  );
  strictEqual(res.status, 502);
  const text = await res.text();
  const err = JSON.parse(text).error;
  deepStrictEqual([err.code, err.status], [502, "UNAVAILABLE"]);
  ok(err.message.startsWith(`rtok proxy: upstream ${dead} unreachable`), err.message);
  ok(!text.includes("secret-key-2"));
  deepStrictEqual([rows[0].provider, rows[0].route, rows[0].status], ["gemini", "generate", 502]);
  ok(!JSON.stringify(rows[0]).includes("secret-key-2"));
});

Deno.test("proxyHandler() compresses at most maxPreparing bodies at once, and answers them all", async () => {
  const up = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => Response.json({ echo: await req.text() }),
  );
  const upstream = `http://127.0.0.1:${(up.addr as Deno.NetAddr).port}`;
  let running = 0, most = 0;
  const handler = proxyHandler({
    upstreams: { anthropic: upstream, openai: upstream, gemini: upstream },
    maxPreparing: 2,
    async transform() {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
      return [];
    },
    record: () => {},
  });
  try {
    const answers = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        handler(
          new Request("http://gw/v1/messages", {
            method: "POST",
            body: JSON.stringify({ messages: [], n: i }),
          }),
        ).then((r) => r.json())),
    );
    strictEqual(most, 2);
    deepStrictEqual(answers.map((a) => JSON.parse(a.echo).n), [0, 1, 2, 3, 4, 5, 6]);
  } finally {
    await up.shutdown();
  }
});
