import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { columns, decodeText, plural, splitLines, stripAnsi } from "./text.ts";

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

Deno.test("decodeText() reads UTF-8 and refuses NUL bytes and invalid sequences", () => {
  deepStrictEqual(decodeText(new TextEncoder().encode("\ufeffé ok")), "\ufeffé ok");
  deepStrictEqual(decodeText(new Uint8Array([0x61, 0x00, 0x62])), null);
  deepStrictEqual(decodeText(new Uint8Array([0xc3, 0x28])), null);
});

Deno.test("columns() aligns the first column left and the others right", () => {
  strictEqual(
    columns([["tool", "calls"], ["Read", "1,204"], ["Bash", "7"]], "  "),
    "  tool  calls\n  Read  1,204\n  Bash      7\n",
  );
});
