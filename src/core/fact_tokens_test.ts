import { deepStrictEqual, ok } from "node:assert/strict";
import { factSet, factWords, isFactWord } from "./fact_tokens.ts";

Deno.test("factWords() takes paths, names, numbers and test ids, and leaves plain words", async (t) => {
  const cases: [string, string[]][] = [
    [
      "src/app.ts:12:5: error TS2304: Cannot find name 'parseArgs'.",
      ["src/app.ts", "TS2304", "parseArgs"],
    ],
    ["+  const MAX_SIZE = 4096; // v8Flags", ["MAX_SIZE", "4096", "v8Flags"]],
    ["Please manually install OpenSSL and try installing Prisma again.", ["OpenSSL"]],
    ["e.g. the README.md and package.json at 1.20.3", ["README.md", "package.json", "1.20.3"]],
    [
      "tests/test_io.py::TestRead::test_empty PASSED",
      ["tests/test_io.py::TestRead::test_empty", "tests/test_io.py", "TestRead", "test_empty"],
    ],
    ["commit 3f92250eebe8 of Vec::new and os.path.join", [
      "3f92250eebe8",
      "Vec::new",
      "os.path.join",
    ]],
    ["Return the value, then ERROR: it is done in 12 ms", []],
  ];
  for (const [line, want] of cases) {
    await t.step(line, () => deepStrictEqual(factWords(line), want));
  }
});

Deno.test("isFactWord() tells hashes from words and short numbers from long ones", () => {
  ok(isFactWord("deadbeef1"));
  ok(!isFactWord("deadbeef"), "hex letters alone are a word");
  ok(isFactWord("404") && !isFactWord("42"));
  ok(!isFactWord("i.e") && !isFactWord("Please"));
});

Deno.test("factSet() gathers every line's facts once", () => {
  deepStrictEqual([...factSet("a src/x.ts\nsrc/x.ts and parseArgs\n")], ["src/x.ts", "parseArgs"]);
});
