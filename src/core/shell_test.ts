import { strictEqual } from "node:assert/strict";
import { quoteArgv, quoteWord } from "./shell.ts";

Deno.test("quoteWord() leaves plain words and quotes the rest", async (t) => {
  const cases: [string, string][] = [
    ["src/a.ts", "src/a.ts"],
    ["--max-count=5", "--max-count=5"],
    ["", "''"],
    ["two words", "'two words'"],
    ["it's", `'it'\\''s'`],
    ["$HOME", "'$HOME'"],
    ["a*b", "'a*b'"],
  ];
  for (const [word, quoted] of cases) {
    await t.step(word || "(empty)", () => strictEqual(quoteWord(word), quoted));
  }
});

Deno.test("quoteArgv() joins quoted words with spaces", () => {
  strictEqual(quoteArgv(["grep", "-rn", "a b", "src"]), "grep -rn 'a b' src");
});
