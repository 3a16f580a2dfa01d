import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { diffFilter, diffutilsContextChosen, diffutilsPassthrough, pairLabel } from "./diff.ts";
import { GAP, NEW_FILE_LINES } from "./_hunks.ts";

function run(raw: string, args: string[] = ["-u", "a", "b"]) {
  return diffFilter.filter(raw, { args, shaped: false, exitCode: 1 });
}

const STAMP = "\t2026-01-16 12:00:00.000000000 +0000";

Deno.test("diffutilsPassthrough defers to formats rtok does not rewrite", async (t) => {
  const passing = [
    ["-q", "a", "b"],
    ["--brief", "a", "b"],
    ["-rq", "a", "b"],
    ["-y", "a", "b"],
    ["--side-by-side", "a", "b"],
    ["-e", "a", "b"],
    ["--ed", "a", "b"],
    ["-n", "a", "b"],
    ["--rcs", "a", "b"],
    ["-DNAME", "a", "b"],
    ["--ifdef=NAME", "a", "b"],
    ["--line-format=%L", "a", "b"],
    ["--old-line-format=-%L", "a", "b"],
    ["--new-line-format=+%L", "a", "b"],
    ["--unchanged-line-format=", "a", "b"],
    ["--changed-group-format=%<", "a", "b"],
    ["--help"],
    ["--version"],
    ["-c", "a", "b"],
    ["-C", "5", "a", "b"],
    ["--context=5", "a", "b"],
  ];
  for (const args of passing) await t.step(args.join(" "), () => ok(diffutilsPassthrough(args)));
  const filtered = [
    ["a", "b"],
    ["-u", "a", "b"],
    ["-ru", "a", "b"],
    ["-Naur", "a", "b"],
    ["-U", "5", "a", "b"],
    ["-x", "*.o", "-ru", "a", "b"],
    ["-xcache", "-r", "a", "b"],
    ["-I", "^#", "a", "b"],
    ["--", "-q", "b"],
  ];
  for (const args of filtered) {
    await t.step(`filters ${args.join(" ")}`, () => strictEqual(diffutilsPassthrough(args), null));
  }
});

Deno.test("diffutilsContextChosen is true only for an explicit -U width", async (t) => {
  const cases: [string[], boolean][] = [
    [["-U", "5"], true],
    [["-U5"], true],
    [["-rU3"], true],
    [["--unified=5"], true],
    [["-u"], false],
    [["-ru"], false],
    [["--", "-U5"], false],
  ];
  for (const [args, want] of cases) {
    await t.step(args.join(" "), () => strictEqual(diffutilsContextChosen(args), want));
  }
});

Deno.test("pairLabel writes both paths whole, or one when they are the same", async (t) => {
  const cases: [string, string, string][] = [
    ["old/lib/a.js", "new/lib/a.js", "old/lib/a.js → new/lib/a.js"],
    ["/tmp/x/a.js", "/tmp/y/a.js", "/tmp/x/a.js → /tmp/y/a.js"],
    ["lib/a.js.orig", "lib/a.js", "lib/a.js.orig → lib/a.js"],
    ["a.txt", "b.txt", "a.txt → b.txt"],
    ["same.txt", "same.txt", "same.txt"],
  ];
  for (const [a, b, want] of cases) {
    await t.step(want, () => strictEqual(pairLabel(a, b), want));
  }
});

Deno.test("diffFilter titles a unified file in one line and drops its context", () => {
  const raw = [
    `--- old/lib/a.js${STAMP}`,
    `+++ new/lib/a.js${STAMP}`,
    "@@ -5,7 +5,8 @@",
    " l1",
    " l2",
    " l3",
    "-old",
    "+new",
    " l4",
    "+added",
    " l5",
    "",
  ].join("\n");
  deepStrictEqual(run(raw), {
    text: "diff old/lib/a.js → new/lib/a.js (+2 −1)\n@@ -5,7 +5,8 @@\n-old\n+new\n l4\n+added\n",
    cut: ["4 context lines"],
  });
});

Deno.test("diffFilter keeps context only for an explicit -U width", async (t) => {
  const hunk = ["@@ -1,3 +1,3 @@", " a", "-b", "+c", " d", ""].join("\n");
  const raw = `--- x${STAMP}\n+++ y${STAMP}\n${hunk}`;
  await t.step("-U 3 keeps it", () => {
    deepStrictEqual(run(raw, ["-U", "3", "x", "y"]), {
      text: `diff x → y (+1 −1)\n${hunk}`,
      cut: [],
    });
  });
  await t.step("-u, the default unified form, drops it", () => {
    deepStrictEqual(run(raw, ["-u", "x", "y"]).cut, ["2 context lines"]);
  });
});

Deno.test("diffFilter shows a new file's first lines and names the lines it cuts", async (t) => {
  const n = NEW_FILE_LINES + 2;
  const added = Array.from({ length: n }, (_, i) => `+line ${i}`);
  const raw = (oldHeader: string) =>
    [oldHeader, `+++ new/b.txt${STAMP}`, `@@ -0,0 +1,${n} @@`, ...added, ""].join("\n");
  const want = (title: string) => ({
    text: [
      title,
      `@@ -0,0 +1,${n} @@`,
      ...added.slice(0, NEW_FILE_LINES),
      `⋯ +2 more lines (new file new/b.txt lines ${NEW_FILE_LINES + 1}–${n})`,
      "",
    ].join("\n"),
    cut: ["2 lines of 1 new file"],
  });
  await t.step("diff -N names the absent file", () => {
    const out = run(raw("--- old/b.txt\t1970-01-01 00:00:00.000000000 +0000"), [
      "-Nu",
      "old",
      "new",
    ]);
    deepStrictEqual(out, want(`diff old/b.txt → new/b.txt (+${n})`));
  });
  await t.step("against /dev/null", () => {
    const out = run(raw("--- /dev/null"), ["-u", "/dev/null", "new/b.txt"]);
    deepStrictEqual(out, want(`diff /dev/null → new/b.txt (+${n})`));
  });
});

Deno.test("diffFilter compacts recursive output and keeps its other lines", () => {
  const raw = [
    "Only in new/lib: a.js",
    "Only in new/lib: b.js",
    "Only in old/lib: c.js",
    "diff -ru old/lib/x.js new/lib/x.js",
    `--- old/lib/x.js${STAMP}`,
    `+++ new/lib/x.js${STAMP}`,
    "@@ -1 +1 @@",
    "--- a removed line that looks like a header",
    "+++ an added one",
    "Binary files old/lib/i.png and new/lib/i.png differ",
    "Common subdirectories: old/lib/s and new/lib/s",
    "",
  ].join("\n");
  deepStrictEqual(run(raw, ["-ru", "old/lib", "new/lib"]).text.split("\n"), [
    "Only in new/lib: a.js, b.js",
    "Only in old/lib: c.js",
    "diff old/lib/x.js → new/lib/x.js (+1 −1)",
    "@@ -1 +1 @@",
    "--- a removed line that looks like a header",
    "+++ an added one",
    "Binary files old/lib/i.png and new/lib/i.png differ",
    "Common subdirectories: old/lib/s and new/lib/s",
    "",
  ]);
});

Deno.test("diffFilter keeps normal-format command lines and short runs as they are", () => {
  const raw = "3c3\n< old\n---\n> new\n5a6,7\n> x\n> y\n9,10d10\n< z\n< w\n";
  deepStrictEqual(run(raw, ["a", "b"]), { text: raw, cut: [] });
});

Deno.test("diffFilter caps a long normal-format run at head and tail", () => {
  const added = Array.from({ length: 320 }, (_, i) => `> line ${i}`);
  const raw = ["0a1,320", ...added, ""].join("\n");
  const out = run(raw, ["a", "b"]);
  const lines = out.text.split("\n");
  strictEqual(lines[0], "0a1,320");
  deepStrictEqual(lines.slice(1, 251), added.slice(0, 250));
  strictEqual(lines[251], `${GAP} 20 more lines`);
  deepStrictEqual(lines.slice(252, 302), added.slice(270));
  deepStrictEqual(out.cut, ["20 lines of long changes"]);
});

Deno.test("diffFilter keeps every command line past the body budget", () => {
  const change = (n: number) => [`${n}c${n}`, ...Array(30).fill("< x"), "---", "> y"];
  const commands = Array.from({ length: 60 }, (_, i) => i + 1);
  const out = run(commands.flatMap(change).join("\n") + "\n", ["a", "b"]);
  for (const n of commands) ok(out.text.split("\n").includes(`${n}c${n}`), `${n}c${n}`);
  ok(out.cut.some((c) => /^bodies of \d+ changes past 1500 lines$/.test(c)), out.cut.join());
});

Deno.test("diffFilter strips colour and is empty for empty input", () => {
  const raw = `--- a${STAMP}\n+++ b${STAMP}\n@@ -1 +1 @@\n-x\n+y\n`;
  const coloured = raw.replace("-x", "\x1b[31m-x\x1b[m");
  deepStrictEqual(run(coloured), run(raw));
  deepStrictEqual(run(""), { text: "", cut: [] });
});
