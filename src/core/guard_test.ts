import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { estimate } from "./tokens.ts";
import { neverWorse } from "./guard.ts";

Deno.test("neverWorse() keeps a candidate that is fewer tokens", () => {
  deepStrictEqual(neverWorse("a".repeat(400), "a".repeat(100), "log"), {
    text: "a".repeat(100),
    kept: true,
  });
});

Deno.test("neverWorse() returns the raw text when the candidate is not smaller", async (t) => {
  const cases: [string, string, string][] = [
    ["longer", "short raw", "a much longer candidate than the raw text"],
    ["same tokens", "a".repeat(40), "a".repeat(39)],
    ["identical", "same", "same"],
  ];
  for (const [name, raw, candidate] of cases) {
    await t.step(name, () => {
      if (name === "same tokens") strictEqual(estimate(raw, "prose"), estimate(candidate, "prose"));
      deepStrictEqual(neverWorse(raw, candidate, "prose"), { text: raw, kept: false });
    });
  }
});
