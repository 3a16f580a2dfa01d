import { strictEqual } from "node:assert/strict";
import { joinPath, parentDir } from "./paths.ts";

Deno.test("joinPath() puts exactly one slash between directory and name", () => {
  strictEqual(joinPath("/home/ada/.rtok", "rtok.db"), "/home/ada/.rtok/rtok.db");
  strictEqual(joinPath("/home/ada/.rtok/", "rtok.db"), "/home/ada/.rtok/rtok.db");
});

Deno.test("parentDir() returns the directory part of a path", async (t) => {
  const cases: [string, string][] = [
    ["/a/b/c.db", "/a/b"],
    ["/a/b/", "/a"],
    ["/c.db", "/"],
    ["c.db", "."],
    ["/", "/"],
  ];
  for (const [path, dir] of cases) await t.step(path, () => strictEqual(parentDir(path), dir));
});
