import { ok, strictEqual } from "node:assert/strict";
import { CHARS_PER_TOKEN, estimate, estimateChars, TEXT_CLASSES } from "./tokens.ts";

Deno.test("estimate() is ceil(chars / ratio) for each class and 0 for empty text", async (t) => {
  for (const cls of TEXT_CLASSES) {
    await t.step(cls, () => {
      strictEqual(estimate("", cls), 0);
      strictEqual(estimate("x".repeat(100), cls), Math.ceil(100 / CHARS_PER_TOKEN[cls]));
      strictEqual(estimateChars(1, cls), 1);
    });
  }
});

Deno.test("estimate() counts denser classes as more tokens for the same text", () => {
  const text = "x".repeat(1000);
  ok(estimate(text, "json") > estimate(text, "prose"));
});
