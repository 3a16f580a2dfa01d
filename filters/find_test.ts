import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Filtered } from "../src/core/filter.ts";
import { FIND_DIRS_COUNTED, FIND_NAMES_SHOWN, findFilter } from "./find.ts";

function run(raw: string, args: readonly string[] = ["."]): Filtered {
  return findFilter.filter(raw, { args, shaped: false, exitCode: 0 });
}

Deno.test("findFilter.passthrough defers to actions and formats wherever they stand", async (t) => {
  const cases: [string[], boolean][] = [
    [[".", "-print0"], true],
    [[".", "-name", "*.ts", "-printf", "%p\\n"], true],
    [[".", "-fprint", "out.txt"], true],
    [[".", "-fprint0", "out.txt"], true],
    [[".", "-fprintf", "out.txt", "%p"], true],
    [[".", "-ls"], true],
    [[".", "-fls", "out.txt"], true],
    [[".", "-exec", "rm", "{}", ";"], true],
    [[".", "-execdir", "true", "{}", "+"], true],
    [[".", "-ok", "rm", "{}", ";"], true],
    [[".", "-okdir", "rm", "{}", ";"], true],
    [[".", "-type", "f", "-delete"], true],
    [["--help"], true],
    [[".", "-name", "*.js"], false],
    [[".", "-name", "-ls"], false],
    [[".", "-path", "-delete", "-o", "-iname", "-print0"], false],
    [[".", "-newermt", "-exec"], false],
    [[".", "-type", "f", "-print"], false],
  ];
  for (const [args, expected] of cases) {
    await t.step(
      args.join(" "),
      () => strictEqual(findFilter.passthrough?.(args) !== null, expected),
    );
  }
});

Deno.test("findFilter groups paths by directory in order of first appearance", () => {
  const raw = [
    ".",
    "./README.md",
    "./src",
    "./src/core",
    "./src/core/config.ts",
    "./src/cli.ts",
    "./src/core/store.ts",
    "./empty",
    "./deno.json",
  ].join("\n") + "\n";
  const out = run(raw);
  deepStrictEqual(out.text.split("\n"), [
    "9 paths in 3 dirs",
    "./: README.md, empty, deno.json",
    "./src/: cli.ts",
    "./src/core/: config.ts, store.ts",
  ]);
  deepStrictEqual(out.cut, []);
});

Deno.test("findFilter writes each directory in full, however many share a parent", () => {
  const raw = [
    "./node_modules/a/index.js",
    "./node_modules/b/lib/x.js",
    "./node_modules/b/lib/y.js",
    "./lib/one.js",
    "/usr/lib/z.so",
  ].join("\n");
  deepStrictEqual(run(raw).text.split("\n"), [
    "5 paths in 4 dirs",
    "./node_modules/a/: index.js",
    "./node_modules/b/lib/: x.js, y.js",
    "./lib/: one.js",
    "/usr/lib/: z.so",
  ]);
});

Deno.test("findFilter quotes names a comma list or a leading space would misread", () => {
  const raw = ["src/a, b.txt", "src/ lead", "src/plain", 'src/"q'].join("\n");
  strictEqual(run(raw, ["src"]).text.split("\n")[1], 'src/: "a, b.txt", " lead", plain, "\\"q"');
});

Deno.test("findFilter lists top-level names without a directory", () => {
  deepStrictEqual(run("a.txt\nb.txt\n", ["a.txt", "b.txt"]).text, "2 paths\na.txt, b.txt");
});

Deno.test("findFilter caps the names shown and counts every one it leaves out", () => {
  const names = Array.from({ length: FIND_NAMES_SHOWN + 40 }, (_, i) => `./big/f${i}.ts`);
  const small = Array.from({ length: FIND_DIRS_COUNTED + 5 }, (_, i) => [`./d${i}/x`, `./d${i}/y`]);
  const raw = [...names, ...small.flat()].join("\n");
  const out = run(raw);
  const lines = out.text.split("\n");
  strictEqual(lines[0], `${names.length + small.length * 2} paths in ${1 + small.length} dirs`);
  ok(lines[1].startsWith("./big/: f0.ts, f1.ts,"));
  ok(lines[1].endsWith(`, f${FIND_NAMES_SHOWN - 1}.ts, … +40 more`), lines[1]);
  strictEqual(lines[2], "./d0/: 2 entries");
  strictEqual(lines[1 + FIND_DIRS_COUNTED], `./d${FIND_DIRS_COUNTED - 1}/: 2 entries`);
  strictEqual(lines.at(-1), "… +5 more dirs with 10 entries");
  const hidden = 40 + small.length * 2;
  deepStrictEqual(out.cut, [`${hidden} names (counted per dir)`, "5 dir names"]);
});

Deno.test("findFilter strips colour and skips blank lines", () => {
  const raw = "\x1b[01;34m./a\x1b[0m/b.txt\n\n./a/c.txt\n";
  deepStrictEqual(run(raw), { text: "2 paths in 1 dir\n./a/: b.txt, c.txt", cut: [] });
  deepStrictEqual(run(""), { text: "", cut: [] });
});
