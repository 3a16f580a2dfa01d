import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { contextChosen, diffPassthrough, filterGitDiff, gitDiffFilter } from "./git_diff.ts";

const INPUT = { args: [], shaped: false, exitCode: 0 };

function run(raw: string, args: string[] = []) {
  return gitDiffFilter.filter(raw, { ...INPUT, args });
}

function titleOf(raw: string): string {
  return run(raw).text.split("\n")[0];
}

const HUNK = "@@ -1,2 +1,2 @@ fn\n a\n-b\n+c\n";

Deno.test("gitDiffFilter passes through formats the caller chose", async (t) => {
  const passing = [
    ["--stat"],
    ["--stat=120"],
    ["--numstat"],
    ["--shortstat"],
    ["--compact-summary"],
    ["--name-only"],
    ["--name-status"],
    ["--raw"],
    ["-z"],
    ["--summary"],
    ["--dirstat=files"],
    ["-X"],
    ["--check"],
    ["--word-diff"],
    ["--word-diff=color"],
    ["--color-words"],
    ["--binary"],
    ["--full-index"],
    ["--patch-with-stat"],
    ["--output=out.diff"],
    ["--line-prefix=> "],
    ["--ext-diff"],
    ["HEAD~1", "--stat"],
  ];
  for (const args of passing) {
    await t.step(args.join(" "), () => ok(diffPassthrough(args)));
  }
  const filtered = [
    [],
    ["--cached"],
    ["HEAD~2", "--", "src"],
    ["--", "--stat"],
    ["--quiet"],
    ["--exit-code"],
    ["-U5"],
    ["--color=always"],
  ];
  for (const args of filtered) {
    await t.step(`filters ${args.join(" ") || "(no args)"}`, () => {
      strictEqual(diffPassthrough(args), null);
    });
  }
});

Deno.test("contextChosen is true only for an explicit context width", async (t) => {
  const cases: [string[], boolean][] = [
    [["-U5"], true],
    [["-U0"], true],
    [["--unified=8"], true],
    [["-W"], true],
    [["--function-context"], true],
    [["--cached"], false],
    [["--", "-U5"], false],
  ];
  for (const [args, want] of cases) {
    await t.step(args.join(" "), () => strictEqual(contextChosen(args), want));
  }
});

Deno.test("gitDiffFilter writes one title line per file header form", async (t) => {
  const cases: { name: string; raw: string; title: string }[] = [
    {
      name: "modified",
      raw:
        `diff --git a/src/app.ts b/src/app.ts\nindex 1..2 100644\n--- a/src/app.ts\n+++ b/src/app.ts\n${HUNK}`,
      title: "diff src/app.ts (+1 −1)",
    },
    {
      name: "new file",
      raw:
        "diff --git a/src/new.ts b/src/new.ts\nnew file mode 100644\nindex 0..1\n--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+x\n+y\n",
      title: "diff src/new.ts (new file, +2)",
    },
    {
      name: "new executable file",
      raw:
        "diff --git a/run.sh b/run.sh\nnew file mode 100755\nindex 0..1\n--- /dev/null\n+++ b/run.sh\n@@ -0,0 +1 @@\n+echo\n",
      title: "diff run.sh (new file 100755, +1)",
    },
    {
      name: "empty new file",
      raw: "diff --git a/empty b/empty\nnew file mode 100644\nindex 0000000..e69de29\n",
      title: "diff empty (new file)",
    },
    {
      name: "deleted",
      raw:
        "diff --git a/old.ts b/old.ts\ndeleted file mode 100644\nindex 1..0\n--- a/old.ts\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n",
      title: "diff old.ts (deleted, −2)",
    },
    {
      name: "renamed with changes",
      raw:
        `diff --git a/old.ts b/lib/new.ts\nsimilarity index 92%\nrename from old.ts\nrename to lib/new.ts\nindex 1..2 100644\n--- a/old.ts\n+++ b/lib/new.ts\n${HUNK}`,
      title: "diff old.ts → lib/new.ts (renamed, 92%, +1 −1)",
    },
    {
      name: "pure rename",
      raw: "diff --git a/a.ts b/b.ts\nsimilarity index 100%\nrename from a.ts\nrename to b.ts\n",
      title: "diff a.ts → b.ts (renamed, 100%)",
    },
    {
      name: "copied",
      raw: "diff --git a/a.ts b/c.ts\nsimilarity index 80%\ncopy from a.ts\ncopy to c.ts\n",
      title: "diff a.ts → c.ts (copied, 80%)",
    },
    {
      name: "mode change",
      raw: "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n",
      title: "diff run.sh (mode 100644 → 100755)",
    },
    {
      name: "binary",
      raw:
        "diff --git a/logo.png b/logo.png\nindex 1..2 100644\nBinary files a/logo.png and b/logo.png differ\n",
      title: "diff logo.png (binary)",
    },
    {
      name: "path with spaces",
      raw: `diff --git a/my file.txt b/my file.txt\nindex 1..2 100644\n${HUNK}`,
      title: "diff my file.txt (+1 −1)",
    },
    {
      name: "quoted path",
      raw: `diff --git "a/t\\303\\251.txt" "b/t\\303\\251.txt"\nindex 1..2 100644\n${HUNK}`,
      title: 'diff "t\\303\\251.txt" (+1 −1)',
    },
    {
      name: "no prefixes (--no-prefix)",
      raw: `diff --git src/a.ts src/a.ts\nindex 1..2 100644\n${HUNK}`,
      title: "diff src/a.ts (+1 −1)",
    },
    {
      name: "combined diff of a merge",
      raw:
        "diff --cc src/m.ts\nindex 1,2..3\n--- a/src/m.ts\n+++ b/src/m.ts\n@@@ -1,3 -1,1 +1,3 @@@\n  a\n- b\n +c\n++d\n",
      title: "diff src/m.ts (merge, +2 −1)",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => strictEqual(titleOf(c.raw), c.title));
  }
});

Deno.test("gitDiffFilter keeps every hunk header verbatim and drops context", () => {
  const body = (n: number) =>
    [" l1", " l2", " l3", `-old${n}`, `+new${n}`, " l4", " l5", " l6"].join("\n");
  const raw = [
    "diff --git a/a.js b/a.js",
    "index 1..2 100644",
    "--- a/a.js",
    "+++ b/a.js",
    "@@ -10,7 +10,7 @@ function one() {",
    body(1),
    "@@ -40,8 +40,9 @@ function two() {",
    body(2),
    "+added",
  ].join("\n") + "\n";
  const out = run(raw);
  strictEqual(
    out.text,
    [
      "diff a.js (+3 −2)",
      "@@ -10,7 +10,7 @@ function one() {",
      "-old1",
      "+new1",
      "@@ -40,8 +40,9 @@ function two() {",
      "-old2",
      "+new2",
      " l6",
      "+added",
    ].join("\n") + "\n",
  );
  deepStrictEqual(out.cut, ["11 context lines"]);
});

Deno.test("gitDiffFilter keeps the caller's context width with -U and -W", async (t) => {
  const raw =
    `diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+e\n f\n g\n h\n`;
  for (const args of [["-U5"], ["--unified=5"], ["-W"], ["--function-context"]]) {
    await t.step(args.join(" "), () => {
      const out = run(raw, args);
      ok(out.text.endsWith(" a\n b\n c\n-d\n+e\n f\n g\n h\n"));
      deepStrictEqual(out.cut, []);
    });
  }
});

Deno.test("gitDiffFilter shows a new file's first lines and names the lines it cuts", () => {
  const lines = Array.from({ length: 44 }, (_, i) => `+line ${i}`);
  const raw = [
    "diff --git a/src/new.ts b/src/new.ts",
    "new file mode 100644",
    "index 0000000..1234567",
    "--- /dev/null",
    "+++ b/src/new.ts",
    "@@ -0,0 +1,44 @@",
    ...lines,
  ].join("\n") + "\n";
  deepStrictEqual(run(raw), {
    text: [
      "diff src/new.ts (new file, +44)",
      "@@ -0,0 +1,44 @@",
      ...lines.slice(0, 40),
      "⋯ +4 more lines (new file src/new.ts lines 41–44)",
    ].join("\n") + "\n",
    cut: ["4 lines of 1 new file"],
  });
});

Deno.test("gitDiffFilter points a rename repeated across files at its first hunk", () => {
  const file = (path: string, at: number) => [
    `diff --git a/${path} b/${path}`,
    "index 1..2 100644",
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${at},3 +${at},3 @@`,
    " const a = 1",
    "-const x = reifyFinish(npm)",
    "+const x = finishReify(npm)",
    " const b = 2",
  ];
  const raw = [...file("lib/ci.js", 4), ...file("lib/install.js", 9)].join("\n") + "\n";
  const out = run(raw);
  deepStrictEqual(out.text.split("\n").slice(4), [
    "diff lib/install.js (+1 −1)",
    "@@ -9,3 +9,3 @@",
    "⋯ same change as lib/ci.js @@ -4,3",
    "",
  ]);
  deepStrictEqual(out.cut, ["4 context lines", "1 repeated hunk"]);
});

Deno.test("gitDiffFilter keeps lines it cannot place", () => {
  const raw = [
    "warning: LF will be replaced by CRLF",
    "diff --git a/a b/a",
    "dissimilarity index 85%",
    "index 1..2 100644",
    "--- a/a",
    "+++ b/a",
    "@@ -1 +1 @@",
    "-x",
    "+y",
    "trailing oddity",
  ].join("\n");
  const lines = run(raw).text.split("\n");
  deepStrictEqual(lines.slice(0, 3), [
    "warning: LF will be replaced by CRLF",
    "diff a (+1 −1)",
    "dissimilarity index 85%",
  ]);
  ok(lines.includes("trailing oddity"));
});

Deno.test("gitDiffFilter cuts nothing when it only reformats headers", () => {
  const raw = "diff --git a/a b/a\nindex 1..2 100644\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n";
  deepStrictEqual(run(raw), { text: "diff a (+1 −1)\n@@ -1 +1 @@\n-x\n+y\n", cut: [] });
});

Deno.test("gitDiffFilter strips colour and is empty for empty input", () => {
  const plain = `diff --git a/a b/a\n--- a/a\n+++ b/a\n${HUNK}`;
  const coloured = plain.split("\n").map((l) => l && `\x1b[32m${l}\x1b[m`).join("\n");
  deepStrictEqual(run(coloured), run(plain));
  deepStrictEqual(run(""), { text: "", cut: [] });
  deepStrictEqual(filterGitDiff("", []), { text: "", cut: [] });
});

Deno.test("gitDiffFilter keeps lock file hunk headers and counts their bodies", () => {
  const raw =
    `diff --git a/package-lock.json b/package-lock.json\n--- a/package-lock.json\n+++ b/package-lock.json\n${HUNK}@@ -90,2 +90,2 @@\n x\n-y\n+z\n`;
  const out = run(raw);
  strictEqual(
    out.text,
    "diff package-lock.json (+2 −2)\n@@ -1,2 +1,2 @@ fn\n@@ -90,2 +90,2 @@\n",
  );
  deepStrictEqual(out.cut, ["2 hunks' bodies in package-lock.json"]);
});

Deno.test("gitDiffFilter names the exact lines of the file a long hunk's cut stands for (real git)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rtok-diff-lines-" });
  const git = async (...args: string[]) => {
    const o = await new Deno.Command("git", { args, cwd: dir, stdout: "piped", stderr: "piped" })
      .output();
    if (!o.success) throw new Error(new TextDecoder().decode(o.stderr));
    return new TextDecoder().decode(o.stdout);
  };
  try {
    await git("init", "-q");
    const before = Array.from({ length: 700 }, (_, i) => `const v${i} = ${i};`);
    await Deno.writeTextFile(`${dir}/big.ts`, before.join("\n") + "\n");
    await git("add", ".");
    await git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one");
    // 400 lines rewritten in one block: 800 changed lines, more than a hunk keeps whole.
    const after = before.map((l, i) => i >= 100 && i < 500 ? `let w${i} = ${i * 2};` : l);
    await Deno.writeTextFile(`${dir}/big.ts`, after.join("\n") + "\n");
    const raw = await git("diff");
    const out = run(raw).text.split("\n");
    const gap = out.find((l) => l.startsWith("⋯ +"));
    const m = /^⋯ \+(\d+) changed lines \(big\.ts new (\d+)–(\d+)(?:, old (\d+)–(\d+))?\)$/.exec(
      gap ?? "",
    );
    ok(m, gap);
    // The lines named are those of the new file whose `+` lines the view does not show.
    const shown = new Set(out.filter((l) => l.startsWith("+")).map((l) => l.slice(1)));
    for (let n = Number(m[2]); n <= Number(m[3]); n++) {
      ok(!shown.has(after[n - 1]), `new line ${n} is named as cut but shown`);
      ok(after[n - 1].startsWith("let w"), `new line ${n} is a changed line`);
    }
    const cut = Number(m[3]) - Number(m[2]) + 1 +
      (m[4] ? Number(m[5]) - Number(m[4]) + 1 : 0);
    strictEqual(cut, Number(m[1]));
    for (let n = 1; n <= after.length; n++) {
      if (after[n - 1].startsWith("let w") && (n < Number(m[2]) || n > Number(m[3]))) {
        ok(shown.has(after[n - 1]), `changed line ${n} outside the named span is shown`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
