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

Deno.test("upstreamUrl() keeps the base's path prefix and the request's query", () => {
  const url = new URL("http://127.0.0.1:8787/v1/messages?beta=true");
  strictEqual(
    upstreamUrl("https://api.anthropic.com", url),
    "https://api.anthropic.com/v1/messages?beta=true",
  );
  strictEqual(upstreamUrl("http://h:1/prefix/", url), "http://h:1/prefix/v1/messages?beta=true");
});
