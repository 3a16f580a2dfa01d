import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { GREP, readSearch, RG, searchGrammar } from "./grep.ts";

// [args, patterns, paths]: what the tool itself searches for, and where.
const RG_CASES: [string[], string[], string[]][] = [
  [["-r", "X", "pat", "dir"], ["pat"], ["dir"]],
  [["-rX", "pat", "dir"], ["pat"], ["dir"]],
  [["--replace", "X", "pat", "dir"], ["pat"], ["dir"]],
  [["--replace=X", "pat", "dir"], ["pat"], ["dir"]],
  [["--max-depth", "2", "pat"], ["pat"], []],
  [["-d", "2", "pat", "src"], ["pat"], ["src"]],
  [["--pre", "cmd", "pat"], ["pat"], []],
  [["--ignore-file", "f", "pat", "a", "b"], ["pat"], ["a", "b"]],
  [["-e", "one", "-e", "two", "src"], ["one", "two"], ["src"]],
  [["-f", "pats.txt", "src"], [], ["src"]],
  [["-t", "ts", "pat", "--", "-odd"], ["pat"], ["-odd"]],
];

Deno.test("readSearch reads rg's valued options as values, never as the pattern or a path", async (t) => {
  for (const [args, patterns, paths] of RG_CASES) {
    await t.step(args.join(" "), () => {
      const s = readSearch(args, RG);
      deepStrictEqual([s.patterns, s.paths], [patterns, paths]);
      deepStrictEqual(s.pathAt.map((k) => args[k]), paths);
    });
  }
});

const GREP_CASES: [string[], string[], string[], boolean][] = [
  [["-X", "egrep", "a|b", "src"], ["a|b"], ["src"], false],
  [["-rXegrep", "a|b"], ["a|b"], [], true],
  [["-d", "recurse", "pat", "."], ["pat"], ["."], true],
  [["--directories=recurse", "pat"], ["pat"], [], true],
  [["-R", "--exclude-dir", "x", "pat", "a"], ["pat"], ["a"], true],
  [["-m", "3", "pat", "f"], ["pat"], ["f"], false],
  [["--regexp=-v", "f"], ["-v"], ["f"], false],
];

Deno.test("readSearch reads grep's -X, -d recurse and pattern options as grep does", async (t) => {
  for (const [args, patterns, paths, recursive] of GREP_CASES) {
    await t.step(args.join(" "), () => {
      const s = readSearch(args, GREP);
      deepStrictEqual([s.patterns, s.paths, s.recursive], [patterns, paths, recursive]);
    });
  }
});

Deno.test("readSearch says when an exclude option leaves part of the walk out", () => {
  strictEqual(readSearch(["-r", "--exclude-dir=x", "p"], GREP).excludes, true);
  strictEqual(readSearch(["-r", "--include=*.ts", "p"], GREP).excludes, false);
  strictEqual(readSearch(["-g", "!x", "p"], RG).excludes, false);
});

Deno.test("searchGrammar names the grammar of grep, egrep, fgrep and rg only", () => {
  strictEqual(searchGrammar("rg"), RG);
  strictEqual(searchGrammar("egrep"), GREP);
  strictEqual(searchGrammar("fgrep"), GREP);
  strictEqual(searchGrammar("ag"), null);
});
