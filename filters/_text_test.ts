import { deepStrictEqual } from "node:assert/strict";
import { groupPaths } from "./_text.ts";

Deno.test("groupPaths() writes each directory once and keeps every path", () => {
  deepStrictEqual(
    groupPaths(["src/a.ts", "README.md", "src/b.ts", "src/core/c.ts", "tests/"]),
    ["src/{a.ts,b.ts}", "README.md", "tests/", "src/core/c.ts"],
  );
});
