import { strictEqual, throws } from "node:assert/strict";
import { isPartial, parseRange, selectLines } from "./expand.ts";

const TEXT = new TextEncoder().encode(
  ["alpha", "beta", "gamma", "delta", "epsilon"].join("\n") + "\n",
);

Deno.test("selectLines() applies lines, grep, head and tail in that order", async (t) => {
  const cases: [string, Parameters<typeof selectLines>[1], string][] = [
    ["lines", { lines: [2, 3] }, "beta\ngamma\n"],
    ["lines to the end", { lines: [4, Number.MAX_SAFE_INTEGER] }, "delta\nepsilon\n"],
    ["grep numbers each line", { grep: "ta$" }, "2:beta\n4:delta\n"],
    ["grep that is not a regex is plain text", { grep: "(" }, ""],
    ["head", { head: 2 }, "alpha\nbeta\n"],
    ["tail", { tail: 1 }, "epsilon\n"],
    ["tail 0", { tail: 0 }, ""],
    ["grep then head", { grep: "a", head: 1 }, "1:alpha\n"],
    [
      "lines then grep keeps true line numbers",
      { lines: [3, 5], grep: "l" },
      "4:delta\n5:epsilon\n",
    ],
  ];
  for (const [name, sel, expected] of cases) {
    await t.step(name, () => strictEqual(selectLines(TEXT, sel), expected));
  }
});

Deno.test("selectLines() refuses binary bytes with a clear message", () => {
  throws(
    () => selectLines(new Uint8Array([0xff, 0xfe, 0x0a]), { head: 1 }),
    /binary: expand it whole/,
  );
});

Deno.test("parseRange() reads A:B and A: and names a malformed range", () => {
  strictEqual(parseRange("3:7").join(), "3,7");
  strictEqual(parseRange("3:")[1], Number.MAX_SAFE_INTEGER);
  for (const bad of ["0:3", "5:2", "a:b", "3"]) throws(() => parseRange(bad), /expected A:B/);
});

Deno.test("isPartial() is false only for an empty selection", () => {
  strictEqual(isPartial({}), false);
  strictEqual(isPartial({ head: 0 }), true);
});
