import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  BODY_BUDGET,
  CHANGED_HEAD,
  CHANGED_TAIL,
  compactDiff,
  countChanges,
  countsLabel,
  type DiffFile,
  type DiffItem,
  GAP,
  type Hunk,
  isCreation,
  isGenerated,
  NEW_FILE_LINES,
  readHunk,
} from "./_hunks.ts";

const KEEP = { keepContext: false };

function hunk(header: string, lines: string[], parents = 1): Hunk {
  return { header, parents, lines };
}

function file(path: string, body: (Hunk | string)[], deleted = false): DiffFile {
  return { title: `diff ${path}`, path, deleted, extra: [], body };
}

function bodyOf(h: Hunk, keepContext = false): string[] {
  return compactDiff([file("a.ts", [h])], { keepContext }).lines.slice(2);
}

const ctx = (n: number, from = 1): string[] => Array.from({ length: n }, (_, i) => ` c${from + i}`);

Deno.test("readHunk consumes exactly the lines its header counts", async (t) => {
  const cases: { name: string; lines: string[]; body: string[]; next: number }[] = [
    {
      name: "a removed line that reads like a file header stays in the body",
      lines: ["@@ -1,2 +1,1 @@", "--- old", " keep", "+++ b/next", "@@ -9 +9 @@"],
      body: ["--- old", " keep"],
      next: 3,
    },
    {
      name: "an omitted count means one line",
      lines: ["@@ -3 +3 @@", "-a", "+b", " after"],
      body: ["-a", "+b"],
      next: 3,
    },
    {
      name: "a trailing no-newline marker belongs to the hunk",
      lines: [
        "@@ -1 +1 @@",
        "-a",
        "\\ No newline at end of file",
        "+b",
        "\\ No newline at end of file",
      ],
      body: ["-a", "\\ No newline at end of file", "+b", "\\ No newline at end of file"],
      next: 5,
    },
    {
      name: "a body cut short ends at the first line that is not a body line",
      lines: ["@@ -1,5 +1,5 @@", " a", "-b", "diff --git a/x b/x"],
      body: [" a", "-b"],
      next: 3,
    },
    {
      name: "a combined diff counts each parent's column",
      lines: ["@@@ -1,3 -1,2 +1,3 @@@", "  a", "+ b", " +c", "- d", "x"],
      body: ["  a", "+ b", " +c", "- d"],
      next: 5,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const read = readHunk(c.lines, 0);
      ok(read);
      deepStrictEqual(read.hunk.lines, c.body);
      strictEqual(read.next, c.next);
      strictEqual(read.hunk.header, c.lines[0]);
    });
  }
  await t.step("a line that is not a hunk header reads as null", () => {
    strictEqual(readHunk(["@@ nonsense", " a"], 0), null);
  });
});

Deno.test("compactDiff keeps changed lines and one anchor before a pure insertion", async (t) => {
  const cases: { name: string; lines: string[]; parents?: number; want: string[] }[] = [
    {
      name: "a replacement anchors itself: no context around it",
      lines: [...ctx(3), "-old", "+new", ...ctx(3, 4)],
      want: ["-old", "+new"],
    },
    {
      name: "a pure insertion keeps the one context line before it",
      lines: [...ctx(3), "+a", "+b", ...ctx(2, 4)],
      want: [" c3", "+a", "+b"],
    },
    {
      name: "a pure deletion keeps no context",
      lines: [" c1", "-a", " c2"],
      want: ["-a"],
    },
    {
      name: "an insertion at the start of the hunk has no line to anchor it",
      lines: ["+a", " c1"],
      want: ["+a"],
    },
    {
      name: "context between runs goes without a marker; the insertion keeps its anchor",
      lines: [" c1", "-a", ...ctx(3, 2), "+b", " c5"],
      want: ["-a", " c4", "+b"],
    },
    {
      name: "a no-newline marker goes with the dropped context line it follows",
      lines: ["-a", "+b", ...ctx(2), "\\ No newline at end of file"],
      want: ["-a", "+b"],
    },
    {
      name: "a no-newline marker after a changed line stays",
      lines: [" c1", "-a", "\\ No newline at end of file", "+a", "\\ No newline at end of file"],
      want: ["-a", "\\ No newline at end of file", "+a", "\\ No newline at end of file"],
    },
    {
      name: "a combined diff's run with a removal in any column anchors itself",
      lines: ["  a", " +b", "- c", "  d", "++e", "  f"],
      parents: 2,
      want: [" +b", "- c", "  d", "++e"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      deepStrictEqual(bodyOf(hunk("@@ -1,9 +1,9 @@ fn", c.lines, c.parents)), c.want);
    });
  }
  await t.step("the dropped context lines are counted in cut", () => {
    const h = hunk("@@ -1,8 +1,8 @@", [...ctx(3), "-old", "+new", ...ctx(3, 4)]);
    deepStrictEqual(compactDiff([file("a.ts", [h])], KEEP).cut, ["6 context lines"]);
  });
  await t.step("with keepContext every context line stays and nothing is cut", () => {
    const lines = [...ctx(3), "-old", "+new", ...ctx(3, 4)];
    const out = compactDiff([file("a.ts", [hunk("@@ -1,8 +1,8 @@", lines)])], {
      keepContext: true,
    });
    deepStrictEqual(out.lines.slice(2), lines);
    deepStrictEqual(out.cut, []);
  });
});

Deno.test("compactDiff keeps a hunk's changed lines whole up to the cap, and names the lines it cuts", async (t) => {
  await t.step("a 138-line hunk of 103 changed lines: every changed line, no context", () => {
    const lines: string[] = [];
    for (let i = 0; i < 28; i++) lines.push(` ctx ${i}`, `-old ${i}`, `+new ${i}`, `+more ${i}`);
    const h = `@@ -1,84 +1,140 @@`;
    const out = compactDiff([file("a.ts", [hunk(h, [...lines, ...lines.slice(0, 26)])])], KEEP);
    const changed = [...lines, ...lines.slice(0, 26)].filter((l) => !l.startsWith(" "));
    deepStrictEqual(out.lines.slice(2), changed);
    deepStrictEqual(out.cut, ["35 context lines"]);
  });
  await t.step("past CHANGED_HEAD + CHANGED_TAIL the middle is one line naming its lines", () => {
    const added = Array.from({ length: 320 }, (_, i) => `+line ${i}`);
    const out = compactDiff([file("src/a.ts", [hunk("@@ -10,0 +11,320 @@", added)])], KEEP);
    const body = out.lines.slice(2);
    deepStrictEqual(body.slice(0, CHANGED_HEAD), added.slice(0, CHANGED_HEAD));
    // Lines 251–270 of the hunk's additions are lines 261–280 of the new file.
    strictEqual(body[CHANGED_HEAD], `${GAP} +20 changed lines (src/a.ts new 261–280)`);
    deepStrictEqual(body.slice(CHANGED_HEAD + 1), added.slice(320 - CHANGED_TAIL));
    deepStrictEqual(out.cut, ["20 changed lines of long hunks"]);
  });
  await t.step("a cut run of removals and additions names both sides", () => {
    const lines = [
      ...Array.from({ length: 200 }, (_, i) => `-a${i}`),
      ...Array.from({ length: 150 }, (_, i) => `+b${i}`),
    ];
    const out = compactDiff([file("b.ts", [hunk("@@ -5,200 +5,150 @@", lines)])], KEEP);
    // Kept: the first 250 changed (200 removed, 50 added) and the last 50 (added): cut the
    // additions 51–100, new lines 55–104.
    ok(out.lines.includes(`${GAP} +50 changed lines (b.ts new 55–104)`), out.lines.join("\n"));
  });
  await t.step("the anchor of an insertion the cap drops goes with it", () => {
    const removed = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `-${tag}${i}`);
    const lines = [...removed(250, "x"), " mid", "+y1", "+y2", " c2", ...removed(50, "z")];
    const out = compactDiff([file("a.ts", [hunk("@@ -1,302 +1,4 @@", lines)])], KEEP);
    deepStrictEqual(out.lines.slice(2), [
      ...removed(250, "x"),
      `${GAP} +2 changed lines (a.ts new 2–3)`,
      ...removed(50, "z"),
    ]);
    deepStrictEqual(out.cut, ["2 context lines", "2 changed lines of long hunks"]);
  });
});

Deno.test("compactDiff() prints a 200,000-line hunk kept with the caller's context", () => {
  // `git diff -W` on a generated file whose one function spans the whole file.
  const lines = [...ctx(199_998), "-x", "+y"];
  const out = compactDiff([file("gen/table.ts", [hunk("@@ -1,199999 +1,199999 @@", lines)])], {
    keepContext: true,
  });
  strictEqual(out.lines.length, 2 + lines.length);
  deepStrictEqual(out.lines.slice(-3), [" c199998", "-x", "+y"]);
  deepStrictEqual(out.cut, []);
});

Deno.test("compactDiff shows a new file's first lines and counts the rest", async (t) => {
  const added = (n: number) => Array.from({ length: n }, (_, i) => `+line ${i}`);
  await t.step("past NEW_FILE_LINES the rest is one line naming its lines", () => {
    const n = NEW_FILE_LINES + 15;
    const out = compactDiff([file("new.ts", [hunk(`@@ -0,0 +1,${n} @@`, added(n))])], KEEP);
    deepStrictEqual(out.lines, [
      "diff new.ts",
      `@@ -0,0 +1,${n} @@`,
      ...added(n).slice(0, NEW_FILE_LINES),
      `${GAP} +15 more lines (new file new.ts lines ${NEW_FILE_LINES + 1}–${n})`,
    ]);
    deepStrictEqual(out.cut, ["15 lines of 1 new file"]);
  });
  await t.step("a new file of NEW_FILE_LINES lines is shown whole", () => {
    const lines = added(NEW_FILE_LINES);
    const out = compactDiff([file("new.ts", [hunk("@@ -0,0 +1,10 @@", lines)])], KEEP);
    deepStrictEqual(out.lines.slice(2), lines);
    deepStrictEqual(out.cut, []);
  });
  await t.step("lines cut from several new files are summed", () => {
    const files = ["a.ts", "b.ts"].map((p, n) =>
      file(p, [hunk("@@ -0,0 +1,42 @@", added(NEW_FILE_LINES + 2).map((l) => l + p + n))])
    );
    deepStrictEqual(compactDiff(files, KEEP).cut, ["4 lines of 2 new files"]);
  });
});

Deno.test("isCreation is true only for a hunk that starts from an empty file", async (t) => {
  const cases: [string, number, boolean][] = [
    ["@@ -0,0 +1,3 @@", 1, true],
    ["@@ -0,0 +1 @@", 1, true],
    ["@@@ -0,0 -0,0 +1,2 @@@", 2, true],
    ["@@ -1,0 +2,3 @@", 1, false],
    ["@@@ -0,0 -1,2 +1,3 @@@", 2, false],
    ["@@ -10,2 +10,0 @@", 1, false],
  ];
  for (const [header, parents, want] of cases) {
    await t.step(header, () => strictEqual(isCreation(hunk(header, [], parents)), want));
  }
});

Deno.test("compactDiff points a hunk whose changes repeat an earlier hunk's at it", async (t) => {
  // Two context lines before the change: neither anchors a replacement, so keys ignore them.
  const rename = (
    before: string,
    after: string,
  ) => [`${before}1`, `${before}2`, "-foo(x)", "+bar(x)", after];
  await t.step("a repeat in another file prints its header and one line", () => {
    const out = compactDiff([
      file("a.ts", [hunk("@@ -3,3 +3,3 @@ fnA", rename(" p", " q"))]),
      file("b.ts", [hunk("@@ -9,3 +9,3 @@ fnB", rename(" r", " s"))]),
    ], KEEP);
    deepStrictEqual(out.lines, [
      "diff a.ts",
      "@@ -3,3 +3,3 @@ fnA",
      "-foo(x)",
      "+bar(x)",
      "diff b.ts",
      "@@ -9,3 +9,3 @@ fnB",
      `${GAP} same change as a.ts @@ -3,3`,
    ]);
    deepStrictEqual(out.cut, ["6 context lines", "1 repeated hunk"]);
  });
  await t.step("every repeat points at the first hunk, in the same file too", () => {
    const out = compactDiff([
      file("a.ts", [
        hunk("@@ -3 +3 @@", ["-foo(x)", "+bar(x)"]),
        hunk("@@ -7 +7 @@", ["-foo(x)", "+bar(x)"]),
        hunk("@@ -9 +9 @@", ["-foo(x)", "+bar(x)"]),
      ]),
    ], KEEP);
    deepStrictEqual(out.lines.slice(4), [
      "@@ -7 +7 @@",
      `${GAP} same change as a.ts @@ -3`,
      "@@ -9 +9 @@",
      `${GAP} same change as a.ts @@ -3`,
    ]);
    deepStrictEqual(out.cut, ["2 repeated hunks"]);
  });
  await t.step("a single changed line repeated is printed again", () => {
    const one = (h: string) => hunk(h, ["+x"]);
    const out = compactDiff([file("a.ts", [one("@@ -1,0 +2 @@"), one("@@ -5,0 +7 @@")])], KEEP);
    deepStrictEqual(out.lines, ["diff a.ts", "@@ -1,0 +2 @@", "+x", "@@ -5,0 +7 @@", "+x"]);
    deepStrictEqual(out.cut, []);
  });
  await t.step("the same insertion under a different anchor is printed again", () => {
    const insert = (h: string, anchor: string) => hunk(h, [anchor, "+a", "+b"]);
    const out = compactDiff([
      file("a.ts", [insert("@@ -1,1 +1,3 @@", " one")]),
      file("b.ts", [insert("@@ -4,1 +4,3 @@", " two")]),
    ], KEEP);
    deepStrictEqual(out.lines.slice(-3), [" two", "+a", "+b"]);
    deepStrictEqual(out.cut, []);
  });
  await t.step("long hunks alike only in what their caps show are both printed", () => {
    const long = (middle: string) =>
      hunk(
        "@@ -1,0 +1,320 @@",
        Array.from({ length: 320 }, (_, i) => `+${i === 260 ? middle : i}`),
      );
    const out = compactDiff([file("a.ts", [long("x")]), file("b.ts", [long("y")])], KEEP);
    ok(!out.lines.some((l) => l.includes("same change")));
    deepStrictEqual(out.cut, ["40 changed lines of long hunks"]);
  });
});

Deno.test("compactDiff keeps every hunk header past the body budget", () => {
  const big = (n: number) =>
    hunk(`@@ -${n},60 +${n},60 @@ f${n}`, Array.from({ length: 60 }, (_, i) => `+${n}:${i}`));
  const files = Array.from({ length: 30 }, (_, i) => file(`f${i}.ts`, [big(i * 100)]));
  const out = compactDiff(files, KEEP);
  for (const f of files) {
    ok(out.lines.includes(f.title));
    ok(out.lines.includes((f.body[0] as Hunk).header));
  }
  // Bodies stop once BODY_BUDGET lines are out; the hunk that crosses it is shown whole.
  const shown = Math.ceil(BODY_BUDGET / 60);
  strictEqual(out.lines.length, 30 * 2 + shown * 60);
  deepStrictEqual(out.cut, [
    `${30 - shown} hunks' bodies in ${30 - shown} files past ${BODY_BUDGET} lines`,
  ]);
});

Deno.test("compactDiff reduces generated and deleted files to their hunk headers", async (t) => {
  const h1 = hunk("@@ -1,3 +1,3 @@", [" a", "-b", "+c"]);
  const h2 = hunk("@@ -90,3 +90,3 @@", [" x", "-y", "+z"]);
  await t.step("a lock file keeps its headers and counts its hunks in cut", () => {
    const out = compactDiff([file("web/package-lock.json", [h1, h2])], KEEP);
    deepStrictEqual(out.lines, ["diff web/package-lock.json", h1.header, h2.header]);
    deepStrictEqual(out.cut, ["2 hunks' bodies in web/package-lock.json"]);
  });
  await t.step("a deleted file keeps its headers", () => {
    const out = compactDiff([file("old.ts", [h1], true)], KEEP);
    deepStrictEqual(out.lines, ["diff old.ts", h1.header]);
    deepStrictEqual(out.cut, ["bodies of 1 deleted file"]);
  });
});

Deno.test("compactDiff prints verbatim lines in place", () => {
  const items: DiffItem[] = [
    "preamble",
    file("a.ts", ["odd line", hunk("@@ -1 +1 @@", ["-a", "+b"])]),
    "Only in x: y",
  ];
  const out = compactDiff(items, KEEP);
  deepStrictEqual(out.lines, [
    "preamble",
    "diff a.ts",
    "odd line",
    "@@ -1 +1 @@",
    "-a",
    "+b",
    "Only in x: y",
  ]);
  deepStrictEqual(out.cut, []);
});

Deno.test("compactDiff is empty for no items", () => {
  deepStrictEqual(compactDiff([], KEEP), { lines: [], cut: [] });
});

Deno.test("countChanges and countsLabel count added and deleted lines", async (t) => {
  await t.step("ordinary and combined hunks", () => {
    const body = [
      hunk("@@ -1,2 +1,2 @@", [" a", "-b", "+c", "\\ No newline at end of file"]),
      "verbatim",
      hunk("@@@ -1 -1 +1,2 @@@", ["++d", " -e", "  f"], 2),
    ];
    deepStrictEqual(countChanges(body), { added: 2, deleted: 2 });
  });
  const labels: [number, number, string][] = [
    [12, 3, "+12 −3"],
    [40, 0, "+40"],
    [0, 7, "−7"],
    [0, 0, ""],
  ];
  for (const [added, deleted, want] of labels) {
    await t.step(
      `${added}/${deleted} → "${want}"`,
      () => strictEqual(countsLabel(added, deleted), want),
    );
  }
});

Deno.test("isGenerated knows lock files and minified bundles by name", async (t) => {
  const cases: [string, boolean][] = [
    ["package-lock.json", true],
    ["sub/yarn.lock", true],
    ["Cargo.lock", true],
    ["go.sum", true],
    ["dist/app.min.js", true],
    ["dist/app.js.map", true],
    ["styles.min.css", true],
    ["src/lock.ts", false],
    ["package.json", false],
  ];
  for (const [path, want] of cases) {
    await t.step(path, () => strictEqual(isGenerated(path), want));
  }
});
