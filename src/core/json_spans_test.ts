import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { elements, member, members, skipWs } from "./json_spans.ts";
import { prng } from "../../tests/_prng.ts";

const ATOMS = [
  '"a\\"b\\\\"',
  '"\\u00e9🎉"',
  "12345678901234567890",
  "-0.5e3",
  "true",
  "null",
  '"}]"',
];

function gen(rand: () => number, depth: number): string {
  const ws = () => [" ", "", "\n\t", ""][Math.floor(rand() * 4)];
  const r = rand();
  if (depth > 3 || r < 0.4) return ATOMS[Math.floor(rand() * ATOMS.length)];
  const n = Math.floor(rand() * 4);
  if (r < 0.7) {
    const items = Array.from({ length: n }, () => ws() + gen(rand, depth + 1) + ws());
    return `[${items.join(",")}${n ? "" : ws()}]`;
  }
  const items = Array.from(
    { length: n },
    (_, i) => `${ws()}"k${i % 2}\\n"${ws()}:${ws()}${gen(rand, depth + 1)}${ws()}`,
  );
  return `{${items.join(",")}${n ? "" : ws()}}`;
}

Deno.test("members() and elements() find spans that parse to the values JSON.parse builds", () => {
  const rand = prng(7);
  for (let n = 0; n < 2000; n++) {
    const text = " " + gen(rand, 0) + "\n";
    const value = JSON.parse(text);
    const open = skipWs(text, 0);
    if (Array.isArray(value)) {
      const spans = elements(text, open);
      deepStrictEqual(spans.map((s) => JSON.parse(text.slice(s.start, s.end))), value);
    } else if (value !== null && typeof value === "object") {
      const list = members(text, open);
      for (const key of Object.keys(value)) {
        const m = member(list, key)!;
        deepStrictEqual(JSON.parse(text.slice(m.start, m.end)), value[key]);
      }
      strictEqual(new Set(list.map((m) => m.key)).size, Object.keys(value).length);
    }
  }
});
