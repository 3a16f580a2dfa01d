import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { findPointers, hasPointer, parsePointer, pointerLine } from "./pointer.ts";

Deno.test("pointerLine() names what was cut and the command that brings it back", () => {
  strictEqual(
    pointerLine(["3 older commits", "2 trailer lines"], "0123456789ab"),
    "[rtok: cut 3 older commits, 2 trailer lines; raw: rtok expand 0123456789ab]",
  );
});

Deno.test("parsePointer() reads back what pointerLine() writes, and nothing else", async (t) => {
  const cases: [string, string, ReturnType<typeof parsePointer>][] = [
    ["a written line", pointerLine(["4 lines"], "abcdef012345"), {
      cut: "4 lines",
      id: "abcdef012345",
    }],
    ["a CRLF line", "[rtok: cut 1 line; raw: rtok expand abcdef]\r", {
      cut: "1 line",
      id: "abcdef",
    }],
    ["an id too short", "[rtok: cut 1 line; raw: rtok expand abcde]", null],
    ["an id not hex", "[rtok: cut 1 line; raw: rtok expand abcdeg]", null],
    ["text after it", "[rtok: cut 1 line; raw: rtok expand abcdef] and more", null],
    ["no cut", "[rtok: cut ; raw: rtok expand abcdef]", null],
    ["too long", `[rtok: cut ${"x".repeat(5000)}; raw: rtok expand abcdef]`, null],
  ];
  for (const [name, line, want] of cases) {
    await t.step(name, () => deepStrictEqual(parsePointer(line), want));
  }
});

Deno.test("findPointers() finds whole pointer lines only, in order", () => {
  const a = pointerLine(["2 lines"], "aaaaaa");
  const b = pointerLine(["9 hits"], "bbbbbbbbbbbb");
  const text = `out\n${a}\nquoted: ${b}\n${b}`;
  deepStrictEqual(findPointers(text).map((p) => p.id), ["aaaaaa", "bbbbbbbbbbbb"]);
  strictEqual(hasPointer(text), true);
  strictEqual(hasPointer(`quoted: ${b}`), false);
  strictEqual(hasPointer("plain output\n"), false);
});
