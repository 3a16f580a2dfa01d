import { deepStrictEqual } from "node:assert/strict";
import { groupPaths, plural, splitLines, stripAnsi } from "./_text.ts";

Deno.test("stripAnsi() removes colour and hyperlink sequences and keeps the text", () => {
  deepStrictEqual(stripAnsi("\x1b[31mred\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x07"), "red link");
  deepStrictEqual(stripAnsi("plain"), "plain");
});

Deno.test("splitLines() drops only the empty line after a final newline", () => {
  deepStrictEqual(splitLines("a\nb\n"), ["a", "b"]);
  deepStrictEqual(splitLines("a\n\nb"), ["a", "", "b"]);
  deepStrictEqual(splitLines(""), []);
});

Deno.test("plural() picks the noun by count", () => {
  deepStrictEqual(plural(1, "line"), "1 line");
  deepStrictEqual(plural(3, "entry", "entries"), "3 entries");
});

Deno.test("groupPaths() writes each directory once and keeps every path", () => {
  deepStrictEqual(
    groupPaths(["src/a.ts", "README.md", "src/b.ts", "src/core/c.ts", "tests/"]),
    ["src/{a.ts,b.ts}", "README.md", "tests/", "src/core/c.ts"],
  );
});
