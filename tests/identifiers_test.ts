import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { identifierProblems, isPathLike, rawIdentifiers } from "./_identifiers.ts";

const POINTER = "[rtok: cut 3 lines; raw: rtok expand 0123456789ab]\n";

function problems(family: string, raw: string, out: string, lossy = false): string[] {
  return identifierProblems(family, [], raw, out, lossy);
}

Deno.test("isPathLike() takes slashes and file extensions, not code or prose", async (t) => {
  const cases: [string, boolean][] = [
    ["lib/commands/ci.js", true],
    ["docs/", true],
    ["package.json", true],
    ["Cargo.toml", true],
    ["@npmcli/config", true],
    ["//", false],
    ["//comment", false],
    ["1/2", false],
    ["items.map", false],
    ["console.log", false],
    [".js", false],
    ["11.1", false],
  ];
  for (const [token, expected] of cases) {
    await t.step(token, () => strictEqual(isPathLike(token), expected));
  }
});

Deno.test("rawIdentifiers() joins listing entries to their directory", async (t) => {
  const paths = (family: string, raw: string) =>
    rawIdentifiers(family, raw).paths.map(({ dir, name }) => dir + name);
  await t.step("tree: to the root and every parent", () => {
    const raw =
      ".\n├── a.txt\n└── lib\n    └── cli\n        └── entry.js\n\n2 directories, 2 files\n";
    deepStrictEqual(paths("tree", raw), ["./a.txt", "./lib", "./lib/cli", "./lib/cli/entry.js"]);
  });
  await t.step("ls -lR: to the `dir:` header above", () => {
    const raw = "lib:\ntotal 8\n-rw-r--r-- 1 root root  1628 Jan  2  2025 a.js\n" +
      "drwxr-xr-x 2 root root  4096 Jan  2  2025 cli\n\nlib/cli:\ntotal 4\n" +
      "-rw-r--r-- 1 root root 2991 Jan  2  2025 entry.js\n";
    deepStrictEqual(paths("ls", raw), ["lib/a.js", "lib/cli", "lib/cli/entry.js"]);
  });
  await t.step("ls -la: the names alone, without . and ..", () => {
    const raw = "total 8\ndrwxr-xr-x 5 root root 4096 Jan  2  2025 .\n" +
      "drwxr-xr-x 4 root root 4096 Jan  2  2025 ..\n-rw-r--r-- 1 root root 10 Jan  2 12:00 a b.js\n";
    deepStrictEqual(paths("ls", raw), ["a b.js"]);
  });
  await t.step("git diff: without git's a/ and b/", () => {
    const raw = "diff --git a/lib/x.js b/lib/x.js\n--- a/lib/x.js\n+++ b/lib/x.js\n@@ -1 +1 @@\n";
    deepStrictEqual(paths("git diff", raw), ["lib/x.js"]);
  });
  await t.step("git branch: remote refs without remotes/", () => {
    deepStrictEqual(paths("git branch", "* main\n  remotes/origin/fix/a\n"), ["origin/fix/a"]);
  });
  await t.step("git log --stat: a rename as its two whole paths", () => {
    const raw = " src/{a.ts => b.ts}        | 2 +-\n {lib => src}/x/y.ts       | 0\n" +
      " tests/{ => support}/c.ts | 4 ++++\n" + "1\t1\tsrc/{a.ts => b.ts}\n";
    deepStrictEqual(paths("git log", raw), [
      "src/a.ts",
      "src/b.ts",
      "lib/x/y.ts",
      "src/x/y.ts",
      "tests/c.ts",
      "tests/support/c.ts",
    ]);
  });
});

Deno.test("identifierProblems() rejects paths written in brace groups", () => {
  const raw = "Changes not staged for commit:\n\tmodified:   docs/buffer_2.py\n" +
    "\tmodified:   docs/schema_6.py\n";
  const found = problems(
    "git status",
    raw,
    "unstaged:\n  modified: docs/{buffer_2.py,schema_6.py}\n",
  );
  ok(found.includes("missing path docs/buffer_2.py"), found.join("\n"));
  ok(found.some((p) => p.startsWith('fragment "schema_6.py"')), found.join("\n"));
  deepStrictEqual(
    problems("git status", raw, "unstaged:\n  modified: docs/buffer_2.py, docs/schema_6.py\n"),
    [],
  );
});

Deno.test("identifierProblems() rejects a shared part factored out of two paths", () => {
  const raw = "diff -ru old/lib/a.js new/lib/a.js\n--- old/lib/a.js\n+++ new/lib/a.js\n";
  const found = problems("diff", raw, "diff {old,new}/lib/a.js (+1 −1)\n" + POINTER, true);
  deepStrictEqual(found, ['fragment "/lib/a.js" in "diff {old,new}/lib/a.js (+1 −1)"']);
  deepStrictEqual(problems("diff", raw, "diff old/lib/a.js new/lib/a.js\n" + POINTER, true), []);
});

Deno.test("identifierProblems() takes a listing's directory only when written in full", async (t) => {
  const raw = "./src/a.py\n./src/net/new_1.py\n./src/net/old.py\n";
  await t.step("full directory headers pass", () => {
    deepStrictEqual(problems("find", raw, "./src/: a.py\n./src/net/: new_1.py, old.py\n"), []);
  });
  await t.step("a header alone on its line heads the names below it", () => {
    deepStrictEqual(problems("find", raw, "./src/:\na.py\n./src/net/:\nnew_1.py\nold.py\n"), []);
  });
  await t.step("nested levels fail, lossy or not", () => {
    const nested = "./src/: a.py\n  net/: new_1.py, old.py\n";
    for (const [out, lossy] of [[nested, false], [nested + POINTER, true]] as const) {
      const found = problems("find", raw, out, lossy);
      ok(found.some((p) => p.startsWith('fragment "net/"')), found.join("\n"));
      ok(found.some((p) => p.startsWith('fragment "new_1.py"')), found.join("\n"));
    }
  });
  await t.step("tree's own nesting fails too", () => {
    const tree = ".\n├── a.py\n└── net\n    └── old.py\n\n1 directory, 2 files\n";
    const found = problems("tree", tree, ".\n  a.py\n  net\n    old.py\n1 directory, 2 files\n");
    ok(found.includes("missing path ./net/old.py"), found.join("\n"));
    deepStrictEqual(problems("tree", tree, "./: a.py, net\n./net/: old.py\n"), []);
  });
});

Deno.test("identifierProblems() lets a lossy output leave paths out, not a lossless one", () => {
  const raw = "src/a.ts:1:1 error one\nsrc/b.ts:2:2 error two\n";
  deepStrictEqual(problems("tsc", raw, "src/a.ts: 1 error\n  1:1 one\n"), [
    "missing path src/b.ts",
  ]);
  deepStrictEqual(problems("tsc", raw, "src/a.ts: 1 error\n  1:1 one\n" + POINTER, true), []);
});

Deno.test("identifierProblems() takes a path written below the directory the tool ran in", () => {
  const raw = "    at exports.divide (/tmp/p/calc.js:3:22)\n    at /tmp/p/lib/report.js:3:23\n";
  deepStrictEqual(
    problems(
      "npm run",
      raw,
      "(stack paths below /tmp/p/)\n  at calc.js:3:22\n  at lib/report.js:3:23\n",
    ),
    [],
  );
  const found = problems("npm run", raw, "  at calc.js:3:22\n  at lib/report.js:3:23\n");
  ok(found.some((p) => p.startsWith('fragment "calc.js"')), found.join("\n"));
});

Deno.test("identifierProblems() wants each hash whole or shortened to 7 digits or more", () => {
  const raw = "commit f88dd55c74b3c66362175ba4b31f51c40370ab4c\n";
  deepStrictEqual(problems("git log", raw, "f88dd55c74 docs: x\n"), []);
  deepStrictEqual(problems("git log", raw, "f88dd5 docs: x\n"), [
    "missing hash f88dd55c74b3c66362175ba4b31f51c40370ab4c",
  ]);
  deepStrictEqual(problems("git log", raw, "f88dd55c74 and 0badc0ffee\n"), [
    'fragment "0badc0ffee" in "f88dd55c74 and 0badc0ffee"',
  ]);
});

Deno.test("identifierProblems() reads paths the command itself names as known", () => {
  const raw = "60:     this.#display = new Display()\n";
  const out = "1 match in lib/npm.js\n";
  deepStrictEqual(identifierProblems("grep", ["-n", "this", "lib/npm.js"], raw, out, false), []);
  strictEqual(identifierProblems("grep", ["-n", "this"], raw, out, false).length, 1);
});
