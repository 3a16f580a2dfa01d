import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { hiddenSpans, parseSpans, spansPhrase, withHiddenSpans } from "./hidden_lines.ts";
import { pointerLine } from "./pointer.ts";

const raw = Array.from({ length: 20 }, (_, i) => `row_${i + 1} value ${100 + i}`).join("\n") + "\n";
const keep = (lines: number[]) =>
  raw.split("\n").filter((_, i) => lines.includes(i + 1)).join("\n") + "\n";

Deno.test("hiddenSpans() names the runs of raw lines a view leaves out, 1-based", () => {
  deepStrictEqual(hiddenSpans(raw, keep([1, 2, 3, 10, 11, 12, 20])), [
    { from: 4, to: 9 },
    { from: 13, to: 19 },
  ]);
  // Two shown lines or fewer between hidden runs make one span.
  deepStrictEqual(hiddenSpans(raw, keep([1, 2, 3, 10, 11, 20])), [{ from: 4, to: 19 }]);
  deepStrictEqual(hiddenSpans(raw, raw), []);
});

Deno.test("hiddenSpans() joins the closest spans past the maximum", () => {
  const spans = hiddenSpans(raw, keep([3, 4, 5, 9, 10, 11, 15, 16, 17]), 2);
  // Hidden: 1–2, 6–8, 12–14, 18–20; the gaps are equal, so the first ones join first.
  deepStrictEqual(spans, [{ from: 1, to: 14 }, { from: 18, to: 20 }]);
});

Deno.test("hiddenSpans() takes a reworded line as shown and lets a line with no fact join a span", () => {
  const text = "Cloning into 'repo'...\nremote: counting\n----\nremote: done pkg_a\n";
  deepStrictEqual(hiddenSpans(text, "Cloning into 'repo'...\n"), [{ from: 4, to: 4 }]);
  deepStrictEqual(hiddenSpans("pkg_a 1\n====\npkg_b 2\n", "x\n"), [{ from: 1, to: 3 }]);
});

Deno.test("spansPhrase() and parseSpans() write and read the same spans", () => {
  const spans = [{ from: 4, to: 9 }, { from: 30, to: 30 }];
  strictEqual(spansPhrase(spans), "at lines 4–9, 30");
  const line = pointerLine(["3 older commits", spansPhrase(spans)], "3f92250eebe8");
  strictEqual(line, "[rtok: cut 3 older commits at lines 4–9, 30; raw: rtok expand 3f92250eebe8]");
  deepStrictEqual(parseSpans("3 older commits at lines 4–9, 30"), spans);
  deepStrictEqual(parseSpans("3 older commits"), []);
});

Deno.test("withHiddenSpans() adds the spans once, and only to a lossy view", () => {
  const view = { text: keep([1]), cut: ["19 rows"] };
  const once = withHiddenSpans(raw, view);
  deepStrictEqual(once.cut, ["19 rows", "at lines 2–20"]);
  strictEqual(withHiddenSpans(raw, once), once);
  const lossless = { text: "x", cut: [] };
  strictEqual(withHiddenSpans(raw, lossless), lossless);
});
