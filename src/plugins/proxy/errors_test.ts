import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { errorResponse, withoutQueryKeys } from "./errors.ts";

Deno.test("withoutQueryKeys() cuts the value of every key-like query parameter, nothing else", async (t) => {
  const cases: [string, string][] = [
    [
      "error sending request for url (http://h/v1beta/models/m:generateContent?key=AIza-1&alt=sse)",
      "error sending request for url (http://h/v1beta/models/m:generateContent?key=…&alt=sse)",
    ],
    ["http://h/x?alt=sse&KEY=abc", "http://h/x?alt=sse&KEY=…"],
    ["http://h/x?api_key=abc#f", "http://h/x?api_key=…#f"],
    ["http://h/x?access_token=abc def", "http://h/x?access_token=… def"],
    ["http://h/x?monkey=1&keys=2", "http://h/x?monkey=1&keys=2"],
    ["no url at all: key=value", "no url at all: key=value"],
  ];
  for (const [text, want] of cases) {
    await t.step(text, () => strictEqual(withoutQueryKeys(text), want));
  }
});

Deno.test("errorResponse() answers in each provider's own error shape", async () => {
  const body = async (p: "anthropic" | "openai" | "gemini") =>
    await errorResponse(p, 502, "down").json();
  deepStrictEqual(await body("anthropic"), {
    type: "error",
    error: { type: "api_error", message: "down" },
  });
  deepStrictEqual(await body("openai"), {
    error: { message: "down", type: "server_error", param: null, code: null },
  });
  deepStrictEqual(await body("gemini"), {
    error: { code: 502, message: "down", status: "UNAVAILABLE" },
  });
});
