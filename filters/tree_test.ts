import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Filtered } from "../src/core/filter.ts";
import { TREE_LINES, treeFilter } from "./tree.ts";

function run(raw: string, args: readonly string[] = []): Filtered {
  return treeFilter.filter(raw, { args, shaped: false, exitCode: 0 });
}

/** A name, or a directory name with its children. */
type Spec = string | [string, Spec[]];

// Draws children the way tree 2 does in a UTF-8 locale (no-break spaces after `│`); the
// samples below, copied from real tree output, check that this drawing is right.
function draw(children: readonly Spec[], prefix = ""): string[] {
  return children.flatMap((child, i) => {
    const last = i === children.length - 1;
    const [name, below] = typeof child === "string" ? [child, []] : child;
    const deeper = prefix + (last ? "    " : "│\u00a0\u00a0 ");
    return [`${prefix}${last ? "└── " : "├── "}${name}`, ...draw(below, deeper)];
  });
}

const EXPECTED = [
  ".",
  "  bin.dat",
  "  d",
  "    e",
  "    two-2-x.txt",
  "  lnk -> one.txt",
  "  one.txt",
  "  x",
  "    y",
  "      z",
  "4 directories, 5 files",
];

Deno.test("treeFilter.passthrough defers to machine formats, not to option values", async (t) => {
  const cases: [string[], boolean][] = [
    [["-J"], true],
    [["-aJ", "src"], true],
    [["-X"], true],
    [["-H", "."], true],
    [["-A"], true],
    [["-S"], true],
    [["--help"], true],
    [["--version"], true],
    [["-L", "2"], false],
    [["-P", "-J"], false],
    [["-I", "-X", "."], false],
    [["--charset", "-J"], false],
    [["--", "-J"], false],
  ];
  for (const [args, expected] of cases) {
    await t.step(
      args.join(" "),
      () => strictEqual(treeFilter.passthrough?.(args) !== null, expected),
    );
  }
});

Deno.test("treeFilter replaces UTF-8 box drawing with two spaces per level", () => {
  const raw = [
    ".",
    "├── bin.dat",
    "├── d",
    "│\u00a0\u00a0 ├── e",
    "│\u00a0\u00a0 └── two-2-x.txt",
    "├── lnk -> one.txt",
    "├── one.txt",
    "└── x",
    "    └── y",
    "        └── z",
    "",
    "4 directories, 5 files",
    "",
  ].join("\n");
  deepStrictEqual(run(raw), { text: EXPECTED.join("\n"), cut: [] });
  const spec: Spec[] = ["bin.dat", ["d", ["e", "two-2-x.txt"]], "lnk -> one.txt", "one.txt"];
  deepStrictEqual(draw([...spec, ["x", [["y", ["z"]]]]]), raw.split("\n").slice(1, 10));
});

Deno.test("treeFilter reads the ASCII drawing of --charset=ascii the same way", () => {
  const raw = [
    ".",
    "|-- bin.dat",
    "|-- d",
    "|   |-- e",
    "|   `-- two-2-x.txt",
    "|-- lnk -> one.txt",
    "|-- one.txt",
    "`-- x",
    "    `-- y",
    "        `-- z",
    "",
    "4 directories, 5 files",
  ].join("\n");
  deepStrictEqual(run(raw, ["--charset=ascii"]), { text: EXPECTED.join("\n"), cut: [] });
});

Deno.test("treeFilter keeps bracketed columns and several roots", () => {
  const raw = [
    "[drwxr-xr-x 4.0K]  src",
    "├── [-rwxr-xr-x  120]  run.sh",
    "└── [lrwxrwxrwx    7]  link -> run.sh",
    "[drwxr-xr-x 4.0K]  docs",
    "└── [-rw-r--r--   12]  a.md",
    "",
    "2 directories, 3 files",
  ].join("\n");
  deepStrictEqual(run(raw, ["-ph", "src", "docs"]).text.split("\n"), [
    "[drwxr-xr-x 4.0K]  src",
    "  [-rwxr-xr-x  120]  run.sh",
    "  [lrwxrwxrwx    7]  link -> run.sh",
    "[drwxr-xr-x 4.0K]  docs",
    "  [-rw-r--r--   12]  a.md",
    "2 directories, 3 files",
  ]);
});

Deno.test("treeFilter shows 20 children of a directory with more than 30, and what the rest are", () => {
  const files = Array.from({ length: 37 }, (_, i) => `f${i + 5}.${i % 2 ? "json" : "ts"}`);
  const dirs: Spec[] = Array.from({ length: 5 }, (_, i): Spec => [`d${i}`, ["inner.md"]]);
  const late: Spec[] = Array.from({ length: 3 }, (_, i): Spec => [`z${i}`, ["a", "b"]]);
  const raw = [".", ...draw([...dirs, ...files, ...late]), "", "9 directories, 48 files"].join(
    "\n",
  );
  const out = run(raw);
  const lines = out.text.split("\n");
  ok(lines.includes("  d4") && lines.includes("    inner.md"));
  ok(lines.includes("  f19.ts") && !lines.includes("  f20.json"));
  strictEqual(lines.at(-2), "  … +25 more: 3 dirs, 11 .json, 11 .ts (+6 inside)");
  strictEqual(lines.at(-1), "9 directories, 48 files");
  deepStrictEqual(out.cut, ["31 entries past 20 per dir"]);
});

Deno.test("treeFilter folds the deepest levels when the listing passes the line budget", () => {
  const dirs: Spec[] = Array.from({ length: 30 }, (_, i): Spec => [
    `pkg${i}`,
    Array.from({ length: 20 }, (_, j) => `file${j}.txt`),
  ]);
  const raw = [".", ...draw(dirs), "", "31 directories, 600 files"].join("\n");
  const out = run(raw);
  const lines = out.text.split("\n");
  strictEqual(lines.length, 1 + 30 * 2 + 1);
  deepStrictEqual(lines.slice(0, 4), [".", "  pkg0", "    … +20 more: 20 .txt", "  pkg1"]);
  strictEqual(lines.at(-1), "31 directories, 600 files");
  deepStrictEqual(out.cut, ["600 entries below level 1"]);
});

Deno.test("treeFilter cuts a listing without indentation at the budget and keeps its report", () => {
  const names = Array.from({ length: 450 }, (_, i) => `./n${i}`);
  const out = run([".", ...names, "", "0 directories, 450 files"].join("\n"), ["-if"]);
  const lines = out.text.split("\n");
  strictEqual(lines.length, TREE_LINES + 1);
  strictEqual(lines.at(-2), "… +52 more lines");
  strictEqual(lines.at(-1), "0 directories, 450 files");
  deepStrictEqual(out.cut, ["52 lines"]);
});

Deno.test("treeFilter keeps lines it cannot place verbatim", () => {
  const raw = ["    └── orphan", ".", "├── a", "│\u00a0\u00a0 stray", "└── b"].join("\n");
  deepStrictEqual(run(raw).text.split("\n"), [
    "    └── orphan",
    ".",
    "  a",
    "│\u00a0\u00a0 stray",
    "  b",
  ]);
});

Deno.test("treeFilter counts folded entries as dirs under -d", () => {
  const dirs = Array.from({ length: 35 }, (_, i) => `dir${i}`);
  const out = run([".", ...draw(dirs), "", "36 directories"].join("\n"), ["-d"]);
  ok(out.text.includes("\n  … +15 more: 15 dirs\n36 directories"), out.text);
});

Deno.test("treeFilter is deterministic and gives nothing for nothing", () => {
  const raw = [".", ...draw([["a", ["b", "c"]], "d"])].join("\n");
  deepStrictEqual(run(raw), run(raw));
  deepStrictEqual(run(""), { text: "", cut: [] });
});
