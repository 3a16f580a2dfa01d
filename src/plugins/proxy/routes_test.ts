import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { routeOf, upstreamUrl } from "./routes.ts";

Deno.test("routeOf() sends each API path to its provider and format", async (t) => {
  const none = new Headers();
  const cases: [string, string, string, string, string | null][] = [
    ["POST", "/v1/messages", "anthropic", "messages", "anthropic"],
    ["POST", "/v1/messages/count_tokens", "anthropic", "count_tokens", "anthropic"],
    ["POST", "/v1/chat/completions", "openai", "chat", "openai-chat"],
    ["POST", "/chat/completions", "openai", "chat", "openai-chat"],
    ["POST", "/v1/responses", "openai", "responses", "openai-responses"],
    ["GET", "/v1/messages", "anthropic", "other", null],
    ["POST", "/v1/messages/batches", "openai", "other", null],
    ["GET", "/v1/models", "openai", "other", null],
  ];
  for (const [method, path, provider, name, api] of cases) {
    await t.step(`${method} ${path}`, () => {
      deepStrictEqual(routeOf(method, path, none), { provider, name, api });
    });
  }
});

Deno.test("routeOf() sends an unknown path to Anthropic when the client is Anthropic's", () => {
  strictEqual(
    routeOf("GET", "/v1/models", new Headers({ "anthropic-version": "x" })).provider,
    "anthropic",
  );
  strictEqual(
    routeOf("POST", "/v1/files", new Headers({ "x-api-key": "k" })).provider,
    "anthropic",
  );
});

Deno.test("routeOf() sends Gemini's model methods to Gemini, with the path's model", async (t) => {
  const none = new Headers();
  const cases: [string, string, string, string | null, string | undefined][] = [
    [
      "POST",
      "/v1beta/models/gemini-2.5-flash:generateContent",
      "generate",
      "gemini",
      "gemini-2.5-flash",
    ],
    [
      "POST",
      "/v1beta/models/gemini-2.5-pro:streamGenerateContent",
      "stream_generate",
      "gemini",
      "gemini-2.5-pro",
    ],
    [
      "POST",
      "/v1/models/gemini-2.5-flash:countTokens",
      "count_tokens",
      "gemini",
      "gemini-2.5-flash",
    ],
    ["POST", "/v1alpha/models/my%20model:generateContent", "generate", "gemini", "my model"],
    ["POST", "/v1beta/models/gemini-2.5-flash:embedContent", "other", null, undefined],
    ["GET", "/v1beta/models/gemini-2.5-flash:generateContent", "other", null, undefined],
    ["GET", "/v1beta/models", "other", null, undefined],
    ["POST", "/v1beta/models/a/b:generateContent", "other", null, undefined],
  ];
  for (const [method, path, name, api, model] of cases) {
    await t.step(`${method} ${path}`, () => {
      const want = model === undefined
        ? { provider: "gemini", name, api }
        : { provider: "gemini", name, api, model };
      deepStrictEqual(routeOf(method, path, none), want);
    });
  }
});

Deno.test("routeOf() sends an unknown path to Gemini when the client is Gemini's", () => {
  const key = new Headers({ "x-goog-api-key": "k" });
  strictEqual(routeOf("GET", "/v1/models", key).provider, "gemini");
  strictEqual(
    routeOf("GET", "/v1/models", new Headers(), new URLSearchParams("key=k")).provider,
    "gemini",
  );
  strictEqual(
    routeOf("GET", "/v1/models", new Headers(), new URLSearchParams("k=1")).provider,
    "openai",
  );
  // Anthropic's and OpenAI's own paths stay theirs, whatever the headers.
  strictEqual(routeOf("POST", "/v1/messages", key).provider, "anthropic");
  strictEqual(routeOf("POST", "/v1/chat/completions", key).provider, "openai");
});

Deno.test("upstreamUrl() keeps the base's path prefix and the request's query", () => {
  const url = new URL("http://127.0.0.1:8787/v1/messages?beta=true");
  strictEqual(
    upstreamUrl("https://api.anthropic.com", url),
    "https://api.anthropic.com/v1/messages?beta=true",
  );
  strictEqual(upstreamUrl("http://h:1/prefix/", url), "http://h:1/prefix/v1/messages?beta=true");
  const gemini = new URL(
    "http://127.0.0.1:8787/v1beta/models/m:streamGenerateContent?alt=sse&key=k",
  );
  strictEqual(
    upstreamUrl("https://generativelanguage.googleapis.com", gemini),
    "https://generativelanguage.googleapis.com/v1beta/models/m:streamGenerateContent?alt=sse&key=k",
  );
});
