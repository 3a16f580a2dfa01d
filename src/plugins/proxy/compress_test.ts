import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Ctx, ProxyRequest } from "../../core/plugin.ts";
import { ToolResultCompressor } from "./compress.ts";
import { BodyRequest } from "./request.ts";
import type { Api } from "./routes.ts";

const enc = new TextEncoder();
const FIXTURES = new URL("../../../tests/fixtures/", import.meta.url);
const READ = { read: [FIXTURES] };

// Real tool outputs, long enough to be compressed.
async function outputs(n: number): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(FIXTURES)) if (e.isDirectory) names.push(e.name);
  names.sort();
  const out: string[] = [];
  for (const name of names) {
    const raw = await Deno.readTextFile(new URL(`${name}/raw.out`, FIXTURES)).catch(() => "");
    if (raw.length > 2000) out.push(raw);
    if (out.length === n) break;
  }
  return out;
}

// A keepRaw that counts its calls and can be made to fail.
function archive(): { ctx: Pick<Ctx, "keepRaw">; calls: string[]; fail: boolean } {
  const a = {
    calls: [] as string[],
    fail: false,
    ctx: {
      keepRaw: (raw: Uint8Array) => {
        a.calls.push(new TextDecoder().decode(raw));
        return Promise.resolve(a.fail ? null : `id${raw.length}`);
      },
    },
  };
  return a;
}

// The same text spelled with an escape: the first ASCII letter as \u00XX.
function escaped(text: string): string {
  const json = JSON.stringify(text);
  const k = json.search(/[a-z]/);
  return json.slice(0, k) + "\\u00" + json.charCodeAt(k).toString(16) + json.slice(k + 1);
}

// An Anthropic body carrying `texts` as results, with a short one, an error and the first text
// again under another spelling, in odd but valid JSON.
function anthropicBody(texts: readonly string[]): string {
  const blocks = texts.map((t, i) =>
    `{"type":"tool_result","tool_use_id":"t${i}","content":${JSON.stringify(t)}}`
  );
  blocks.push(`{"type":"tool_result","content":"short é"}`);
  blocks.push(`{"type":"tool_result","is_error":true,"content":${JSON.stringify(texts[0])}}`);
  blocks.push(`{"content": ${escaped(texts[0])} , "type":"tool_result"}`);
  return `{"model":"m", "n": 1.50, "messages":[{"role":"user","content":[ ${
    blocks.join(",\n")
  } ]}]}`;
}

function chatBody(texts: readonly string[]): string {
  return JSON.stringify({
    model: "m",
    messages: [
      ...texts.map((t) => ({ role: "tool", content: t })),
      { role: "tool", content: [{ type: "text", text: texts[1] + " é🎉" }] },
    ],
  });
}

// Compresses `body` through the text path (a plain request) and through the byte path (a
// BodyRequest), `rounds` times each, and asserts the two agree every time.
async function sameBothWays(
  api: Api,
  body: string,
  rounds: number,
  cacheChars?: number,
): Promise<
  { text: ReturnType<typeof archive>; bytes: ReturnType<typeof archive>; results: number }
> {
  const byText = new ToolResultCompressor(cacheChars),
    byBytes = new ToolResultCompressor(cacheChars);
  const text = archive(), bytes = archive();
  let results = 0;
  for (let round = 0; round < rounds; round++) {
    const plain: ProxyRequest = { api, body };
    const want = await byText.compress(plain, text.ctx);
    const req = new BodyRequest(api, enc.encode(body));
    const got = await byBytes.compress(req, bytes.ctx);
    deepStrictEqual(got, want, `round ${round}`);
    ok(req.bytes, "the body stays bytes");
    deepStrictEqual(req.encoded(), enc.encode(plain.body), `round ${round}`);
    results = got.results.length;
  }
  return { text, bytes, results };
}

Deno.test({
  name:
    "ToolResultCompressor.compress() sends the same bytes and report from a body held as bytes as from its text, request after request",
  permissions: READ,
  async fn(t) {
    const texts = await outputs(6);
    strictEqual(texts.length, 6);
    for (
      const [api, body] of [["anthropic", anthropicBody(texts)], [
        "openai-chat",
        chatBody(texts),
      ]] as const
    ) {
      await t.step(api, async () => {
        const { text, bytes, results } = await sameBothWays(api, body, 3);
        ok(results >= 5, `only ${results} results compressed`);
        // Repeats are cache hits: archived on the first request only. A text spelled two ways
        // is two tokens, archived under the same id twice.
        deepStrictEqual(new Set(bytes.calls), new Set(text.calls));
        ok(bytes.calls.length <= text.calls.length + 1, `${bytes.calls.length} archive calls`);
      });
    }
  },
});

Deno.test({
  name:
    "ToolResultCompressor.compress() gives the same answers with a cache too small to hold them",
  permissions: READ,
  async fn() {
    const texts = await outputs(6);
    // Room for any one result, not for all.
    const limit = Math.max(...texts.map((t) => enc.encode(JSON.stringify(t)).length)) + 10;
    const { bytes } = await sameBothWays("anthropic", anthropicBody(texts), 3, limit);
    // Evicted results are compressed (and archived) again: more calls than the 7 long tokens.
    ok(bytes.calls.length > 7, `${bytes.calls.length} archive calls`);
  },
});

Deno.test({
  name: "ToolResultCompressor.compress() retries a result whose archive failed, from bytes",
  permissions: READ,
  async fn() {
    const [text] = await outputs(1);
    const body = JSON.stringify({ messages: [{ role: "tool", content: text }] });
    const c = new ToolResultCompressor();
    const a = archive();
    a.fail = true;
    const first = new BodyRequest("openai-chat", enc.encode(body));
    const r1 = await c.compress(first, a.ctx);
    strictEqual(r1.results.length, 0);
    deepStrictEqual(first.encoded(), enc.encode(body));
    strictEqual(a.calls.length, 1, "the result needs an archive");
    a.fail = false;
    const second = new BodyRequest("openai-chat", enc.encode(body));
    const r2 = await c.compress(second, a.ctx);
    strictEqual(r2.results.length, 1);
    strictEqual(r2.results[0].archiveId, `id${enc.encode(text).length}`);
    ok(second.encoded().length < enc.encode(body).length);
  },
});

Deno.test("ToolResultCompressor.compress() leaves bytes that are not JSON as they are, archiving nothing", async (t) => {
  const long = "x".repeat(3000);
  const cases = [
    { name: "not JSON at all", body: "messages: []" },
    {
      name: "a raw control char inside a long tool string",
      body:
        `{"messages":[{"role":"tool","content":"${long}"},{"role":"tool","content":"${long}\u0001"}]}`,
    },
    { name: "trailing garbage", body: `{"messages":[{"role":"tool","content":"${long}"}]} x` },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const bytes = enc.encode(c.body);
      const req = new BodyRequest("openai-chat", bytes);
      const a = archive();
      const report = await new ToolResultCompressor().compress(req, a.ctx);
      deepStrictEqual(report, {
        resultsSeen: 0,
        charsSeen: 0,
        charsSaved: 0,
        results: [],
        note: "not JSON",
      });
      strictEqual(req.encoded(), bytes);
      strictEqual(a.calls.length, 0);
    });
  }
});
