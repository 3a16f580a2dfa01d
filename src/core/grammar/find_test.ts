import { deepStrictEqual } from "node:assert/strict";
import { FIND_MUTATING, readFind } from "./find.ts";

const names = (args: string[]) => readFind(args).primaries.map((p) => p.name);

Deno.test("readFind skips the values of tests, so a value is never an action", () => {
  deepStrictEqual(names([".", "-name", "-delete", "-o", "-path", "-print"]), [
    "-name",
    "-o",
    "-path",
  ]);
  deepStrictEqual(names([".", "-newermt", "-exec"]), ["-newermt"]);
  deepStrictEqual(names([".", "-fprintf", "out", "-exec", "-ls"]), ["-fprintf", "-ls"]);
});

Deno.test("readFind reads -exec up to its ; or {} + and the lead options before the paths", () => {
  const args = [
    "-L",
    "-D",
    "stat",
    "-O3",
    "a",
    "b",
    "-maxdepth",
    "2",
    "-exec",
    "rm",
    "-print",
    ";",
    "-ls",
  ];
  const f = readFind(args);
  deepStrictEqual(args.slice(f.pathsFrom, f.exprFrom), ["a", "b"]);
  deepStrictEqual(f.primaries.map((p) => [p.name, p.values]), [["-maxdepth", 1], ["-exec", 3], [
    "-ls",
    0,
  ]]);
  deepStrictEqual(names([".", "-exec", "grep", "-l", "x", "{}", "+", "-print0"]), [
    "-exec",
    "-print0",
  ]);
  deepStrictEqual(names(["(", "-name", "x", ")", "!", "-type", "d"]), [
    "(",
    "-name",
    ")",
    "!",
    "-type",
  ]);
});

Deno.test("FIND_MUTATING holds the actions that write a file or run a program", () => {
  deepStrictEqual(FIND_MUTATING, [
    "-exec",
    "-execdir",
    "-ok",
    "-okdir",
    "-delete",
    "-fprint",
    "-fprint0",
    "-fprintf",
    "-fls",
  ]);
});
