import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Filtered } from "../src/core/filter.ts";
import { TREE_ENTRIES, treeFilter } from "./tree.ts";

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
  "./: bin.dat, d/, lnk -> one.txt, one.txt, x/",
  "./d/: e, two-2-x.txt",
  "./x/: y/",
  "./x/y/: z",
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

Deno.test("treeFilter replaces UTF-8 box drawing with one line per directory, written in full", () => {
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

Deno.test("treeFilter keeps bracketed columns and several roots, each root's line too", () => {
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
    "src/: [-rwxr-xr-x  120]  run.sh, [lrwxrwxrwx    7]  link -> run.sh",
    "[drwxr-xr-x 4.0K]  docs",
    "docs/: [-rw-r--r--   12]  a.md",
    "2 directories, 3 files",
  ]);
});

Deno.test("treeFilter joins each directory to its root and parents, or takes -f's full names", async (t) => {
  const raw = (root: string, names: string[]) =>
    [root, ...draw([[names[0], [[names[1], [names[2]]]]]]), "", "2 directories, 1 file"].join("\n");
  await t.step("an absolute root", () => {
    deepStrictEqual(run(raw("/srv/app/", ["lib", "cli", "a.js"])).text.split("\n"), [
      "/srv/app/: lib/",
      "/srv/app/lib/: cli/",
      "/srv/app/lib/cli/: a.js",
      "2 directories, 1 file",
    ]);
  });
  await t.step("-f", () => {
    const names = ["src/lib", "src/lib/cli", "src/lib/cli/a.js"];
    deepStrictEqual(run(raw("src", names), ["-f", "src"]).text.split("\n"), [
      "src/: src/lib/",
      "src/lib/: src/lib/cli/",
      "src/lib/cli/: src/lib/cli/a.js",
      "2 directories, 1 file",
    ]);
  });
});

Deno.test("treeFilter quotes a name that a comma list would misread", () => {
  const raw = [".", ...draw(["a, b.txt", "c.txt"]), "", "0 directories, 2 files"].join("\n");
  strictEqual(run(raw).text.split("\n")[0], './: "a, b.txt", c.txt');
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
  ok(lines[0].startsWith("./: d0/, d1/, d2/, d3/, d4/, f5.ts, f6.json,"), lines[0]);
  ok(lines[0].endsWith(", f19.ts, … +25 more: 3 dirs, 11 .json, 11 .ts (+6 inside)"), lines[0]);
  deepStrictEqual(lines.slice(1), [
    ...dirs.map((_, i) => `./d${i}/: inner.md`),
    "9 directories, 48 files",
  ]);
  deepStrictEqual(out.cut, ["31 entries past 20 per dir"]);
});

Deno.test("treeFilter folds the deepest levels when the listing passes the entry budget", () => {
  const dirs: Spec[] = Array.from({ length: 30 }, (_, i): Spec => [
    `pkg${i}`,
    Array.from({ length: 20 }, (_, j) => `file${j}.txt`),
  ]);
  const raw = [".", ...draw(dirs), "", "31 directories, 600 files"].join("\n");
  const out = run(raw);
  const lines = out.text.split("\n");
  strictEqual(lines.length, 1 + 30 + 1);
  strictEqual(lines[0], `./: ${dirs.map((_, i) => `pkg${i}/`).join(", ")}`);
  deepStrictEqual(lines.slice(1, 3), [
    "./pkg0/: … +20 more: 20 .txt",
    "./pkg1/: … +20 more: 20 .txt",
  ]);
  strictEqual(lines.at(-1), "31 directories, 600 files");
  deepStrictEqual(out.cut, ["600 entries below level 1"]);
});

Deno.test("treeFilter cuts a listing without indentation at the budget and keeps its report", () => {
  const names = Array.from({ length: 450 }, (_, i) => `./n${i}`);
  const out = run([".", ...names, "", "0 directories, 450 files"].join("\n"), ["-if"]);
  const lines = out.text.split("\n");
  strictEqual(lines.length, TREE_ENTRIES + 1);
  strictEqual(lines.at(-2), "… +52 more lines");
  strictEqual(lines.at(-1), "0 directories, 450 files");
  deepStrictEqual(out.cut, ["52 lines"]);
});

Deno.test("treeFilter keeps lines it cannot place verbatim", () => {
  const raw = ["    └── orphan", ".", "├── a", "│\u00a0\u00a0 stray", "└── b"].join("\n");
  deepStrictEqual(run(raw).text.split("\n"), [
    "    └── orphan",
    "./: a, b",
    "│\u00a0\u00a0 stray",
  ]);
});

Deno.test("treeFilter counts folded entries as dirs under -d", () => {
  const dirs = Array.from({ length: 35 }, (_, i) => `dir${i}`);
  const out = run([".", ...draw(dirs), "", "36 directories"].join("\n"), ["-d"]);
  ok(out.text.startsWith("./: dir0/, dir1/,"), out.text);
  ok(out.text.endsWith(", dir19/, … +15 more: 15 dirs\n36 directories"), out.text);
});

Deno.test("treeFilter gives nothing for nothing", () => {
  deepStrictEqual(run(""), { text: "", cut: [] });
});
