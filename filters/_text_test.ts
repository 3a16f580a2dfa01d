import { strictEqual } from "node:assert/strict";
import { failureLine, pathLike } from "./_text.ts";

Deno.test("failureLine() says the exit code when it is known", () => {
  strictEqual(failureLine("pytest", 4), "pytest: failed with exit code 4");
  strictEqual(failureLine("pytest", -1), "pytest: failed");
});

Deno.test("pathLike() takes paths and refuses prose, tabs and labels", async (t) => {
  const cases: [string, boolean][] = [
    ["./src/net/new_1.py", true],
    ["My Documents/a b.txt", true],
    ["this is a sentence of prose", false],
    ["error: something", false],
    ["a\tb", false],
    ["  indented", false],
  ];
  for (const [line, want] of cases) await t.step(line, () => strictEqual(pathLike(line), want));
});
