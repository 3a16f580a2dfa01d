import { deepStrictEqual } from "node:assert/strict";
import type { Provider } from "./routes.ts";
import { UsageReader } from "./usage.ts";

const enc = (s: string) => new TextEncoder().encode(s);

// Feeds `text` in chunks of `size` bytes, so events and even characters split across chunks.
function read(provider: Provider, streamed: boolean, text: string, size: number) {
  const r = new UsageReader(provider, streamed);
  const bytes = enc(text);
  for (let i = 0; i < bytes.length; i += size) r.push(bytes.slice(i, i + size));
  return r.finish();
}

const ANTHROPIC_SSE = [
  'event: message_start\ndata: {"type":"message_start","message":{"model":"claude-x",' +
  '"usage":{"input_tokens":10,"cache_creation_input_tokens":20,"cache_read_input_tokens":30,' +
  '"output_tokens":1}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,' +
  '"delta":{"type":"text_delta","text":"héllo \\"usage\\" 🎉"}}\n\n',
  'event: message_delta\r\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},' +
  '"usage":{"output_tokens":55}}\r\n\r\n',
].join("");

Deno.test("UsageReader reads Anthropic message_start and message_delta, in any chunking", async (t) => {
  for (const size of [1, 3, 7, 64, 100_000]) {
    await t.step(`chunks of ${size} bytes`, () => {
      deepStrictEqual(read("anthropic", true, ANTHROPIC_SSE, size), {
        model: "claude-x",
        input: 10,
        output: 55,
        cacheWrite: 20,
        cacheRead: 30,
      });
    });
  }
});

Deno.test("UsageReader takes the cumulative counts a later message_delta carries", () => {
  const text = ANTHROPIC_SSE +
    'data: {"type":"message_delta","usage":{"input_tokens":11,"output_tokens":60,' +
    '"cache_read_input_tokens":31}}\n\n';
  deepStrictEqual(read("anthropic", true, text, 5), {
    model: "claude-x",
    input: 11,
    output: 60,
    cacheWrite: 20,
    cacheRead: 31,
  });
});

Deno.test("UsageReader reads OpenAI chat and Responses usage, streamed and not", async (t) => {
  await t.step("chat JSON", () => {
    const body = JSON.stringify({
      model: "gpt-x",
      usage: {
        prompt_tokens: 100,
        completion_tokens: 7,
        prompt_tokens_details: { cached_tokens: 64 },
      },
    });
    deepStrictEqual(read("openai", false, body, 4), {
      model: "gpt-x",
      input: 36,
      output: 7,
      cacheWrite: null,
      cacheRead: 64,
    });
  });
  await t.step("chat stream with a final usage chunk and [DONE]", () => {
    const text = 'data: {"model":"gpt-x","choices":[{"delta":{"content":"hi"}}]}\n\n' +
      'data: {"model":"gpt-x","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2}}\n\n' +
      "data: [DONE]\n\n";
    deepStrictEqual(read("openai", true, text, 2), {
      model: "gpt-x",
      input: 9,
      output: 2,
      cacheWrite: null,
      cacheRead: null,
    });
  });
  await t.step("responses stream: response.completed", () => {
    const text = 'event: response.created\ndata: {"type":"response.created","response":' +
      '{"model":"gpt-r","usage":null}}\n\n' +
      'event: response.completed\ndata: {"type":"response.completed","response":{"model":"gpt-r",' +
      '"usage":{"input_tokens":50,"input_tokens_details":{"cached_tokens":10},"output_tokens":5}}}\n\n';
    deepStrictEqual(read("openai", true, text, 9), {
      model: "gpt-r",
      input: 40,
      output: 5,
      cacheWrite: null,
      cacheRead: 10,
    });
  });
});

Deno.test("UsageReader reports nothing for bodies without usage, and never throws", () => {
  const none = { model: null, input: null, output: null, cacheWrite: null, cacheRead: null };
  deepStrictEqual(read("anthropic", false, "<html>bad gateway</html>", 3), none);
  deepStrictEqual(read("anthropic", true, 'data: {"usage": broken\n\n', 3), none);
  deepStrictEqual(read("openai", false, "", 3), none);
  deepStrictEqual(read("openai", true, 'data: [1,2,3]\n\ndata: "model"\n\n', 3), none);
});

// Gemini's chunks as `alt=sse` sends them: `data: {…}` and a blank line, CRLF.
const geminiChunk = (v: unknown) => `data: ${JSON.stringify(v)}\r\n\r\n`;
const candidate = (text: string) => ({
  candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0 }],
});

Deno.test("UsageReader reads Gemini's usageMetadata from the last chunk that carries it", async (t) => {
  const text = [
    geminiChunk({ ...candidate("hé"), usageMetadata: { promptTokenCount: 900 } }),
    geminiChunk(candidate('"usageMetadata" 🎉 said in text')),
    geminiChunk({
      ...candidate("done"),
      usageMetadata: {
        promptTokenCount: 1000,
        cachedContentTokenCount: 600,
        candidatesTokenCount: 40,
        thoughtsTokenCount: 2,
        totalTokenCount: 1042,
      },
      modelVersion: "gemini-2.5-flash-preview-05-20",
    }),
    geminiChunk(candidate("after the last usage")),
  ].join("");
  for (const size of [1, 5, 64, 100_000]) {
    await t.step(`chunks of ${size} bytes`, () => {
      // Input is the prompt not read from the cache; output counts the thinking too. The model
      // is not read here: the path names it.
      deepStrictEqual(read("gemini", true, text, size), {
        model: null,
        input: 400,
        output: 42,
        cacheWrite: null,
        cacheRead: 600,
      });
    });
  }
  await t.step("a later chunk's usage replaces an earlier one's, whole", () => {
    const later = text + geminiChunk({ usageMetadata: { promptTokenCount: 7 } });
    deepStrictEqual(read("gemini", true, later, 9), {
      model: null,
      input: 7,
      output: null,
      cacheWrite: null,
      cacheRead: null,
    });
  });
});

Deno.test("UsageReader reads Gemini's usage from a JSON response and a JSON array stream", async (t) => {
  await t.step("generateContent", () => {
    const body = JSON.stringify({
      ...candidate("ok"),
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 6, totalTokenCount: 18 },
      modelVersion: "gemini-2.5-pro",
    });
    deepStrictEqual(read("gemini", false, body, 3), {
      model: null,
      input: 12,
      output: 6,
      cacheWrite: null,
      cacheRead: null,
    });
  });
  await t.step("streamGenerateContent without alt=sse: one JSON array", () => {
    const body = JSON.stringify([
      { ...candidate("a"), usageMetadata: { promptTokenCount: 5 } },
      { ...candidate("b"), usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 3 } },
      candidate("c"),
    ]);
    deepStrictEqual(read("gemini", false, body, 4), {
      model: null,
      input: 50,
      output: 3,
      cacheWrite: null,
      cacheRead: null,
    });
  });
  await t.step("an error body, and Anthropic's usage shape, give nothing", () => {
    const none = { model: null, input: null, output: null, cacheWrite: null, cacheRead: null };
    const error = '{"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT"}}';
    deepStrictEqual(read("gemini", false, error, 8), none);
    deepStrictEqual(read("gemini", false, '{"usage":{"input_tokens":3}}', 8), none);
    deepStrictEqual(read("gemini", true, 'data: {"usageMetadata": nope\n\n', 2), none);
  });
});
