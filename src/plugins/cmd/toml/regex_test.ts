import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { isAnchored, starHeight, topAlternatives } from "./regex.ts";

Deno.test("topAlternatives splits only at top-level bars", () => {
  deepStrictEqual(topAlternatives("^a|^b"), ["^a", "^b"]);
  deepStrictEqual(topAlternatives("^(a|b)"), ["^(a|b)"]);
  deepStrictEqual(topAlternatives("^[|]x|\\|y"), ["^[|]x", "\\|y"]);
});

Deno.test("isAnchored: every alternative must start at ^", async (t) => {
  const cases: [string, boolean][] = [
    ["^make(\\s|$)", true],
    ["^(make|gmake)(\\s|$)", true],
    ["^make|^gmake", true],
    ["(?:^make|^gmake)\\b", true],
    ["(?<tool>^make)", true],
    ["make", false],
    ["^make|gmake", false],
    ["(^make)?", false],
    ["(^make)*x", false],
    ["(?=^make)", false],
    ["\\^make", false],
    ["[^]make", false],
    ["", false],
  ];
  for (const [pattern, want] of cases) {
    await t.step(JSON.stringify(pattern), () => strictEqual(isAnchored(pattern), want));
  }
});

Deno.test("starHeight counts nested repetition, not optional parts", async (t) => {
  const cases: [string, number][] = [
    ["abc", 0],
    ["a+b*", 1],
    ["a{2,}", 1],
    ["a{1}", 0],
    ["a?", 0],
    ["(a+)?", 1],
    ["(a+)+$", 2],
    ["(?:ab*)*", 2],
    ["(a|b+){2,5}", 2],
    ["((a+)b)*", 2],
    ["(a*(b+)*)*", 3],
    ["[(+*]+", 1],
    ["\\(a+\\)+", 1],
    ["\\p{L}+", 1],
    ["x{", 0],
    ["(?!.* [^-])", 1],
    ["(?<n>a)\\k<n>+", 1],
    ["a+?", 1],
  ];
  for (const [pattern, want] of cases) {
    await t.step(JSON.stringify(pattern), () => strictEqual(starHeight(pattern), want));
  }
});
