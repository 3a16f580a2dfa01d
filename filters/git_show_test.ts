import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { gitShowFilter, showPassthrough } from "./git_show.ts";

const INPUT = { args: [], shaped: false, exitCode: 0 };
const HASH = "0032fa81850c5e1f4a3b2c1d0e9f8a7b6c5d4e3f";

function run(raw: string, args: string[] = []) {
  return gitShowFilter.filter(raw, { ...INPUT, args });
}

function commit(body: string[], hash = HASH): string {
  return [
    `commit ${hash} (HEAD -> main)`,
    "Author: Ada Lovelace <ada@example.com>",
    "Date:   Wed Jan 14 14:20:00 2026 +0000",
    "",
    "    ls: replace archy",
    "",
    ...body.map((l) => (l ? `    ${l}` : "")),
    "",
  ].join("\n");
}

const DIFF = [
  "diff --git a/lib/ls.js b/lib/ls.js",
  "index 1..2 100644",
  "--- a/lib/ls.js",
  "+++ b/lib/ls.js",
  "@@ -1,7 +1,7 @@ const x = 1",
  " a",
  " b",
  " c",
  "-const archy = require('archy')",
  "+const treePrint = require('./tree-print.js')",
  " d",
  " e",
  " f",
  "",
].join("\n");

Deno.test("showPassthrough defers to log formats and diff formats", async (t) => {
  const passing = [
    ["--stat"],
    ["--name-only"],
    ["--format=%H"],
    ["--oneline"],
    ["--numstat"],
    ["-z"],
    ["--word-diff"],
    ["-L1,5:a.ts"],
  ];
  for (const args of passing) await t.step(args.join(" "), () => ok(showPassthrough(args)));
  for (const args of [[], ["HEAD~1"], ["v1.0"], ["HEAD", "--", "--stat"]]) {
    await t.step(`filters ${args.join(" ") || "(no args)"}`, () => {
      strictEqual(showPassthrough(args), null);
    });
  }
});

Deno.test("gitShowFilter renders the commit header like git log, then the compacted diff", () => {
  const raw = commit(["Body line one.", "", "Signed-off-by: Ada <ada@example.com>"]) + DIFF;
  const out = run(raw);
  strictEqual(
    out.text,
    [
      "Ada Lovelace <ada@example.com>, 2026-01-14 14:20:",
      "0032fa8185 (HEAD -> main) ls: replace archy",
      "  Body line one.",
      "diff lib/ls.js (+1 −1)",
      "@@ -1,7 +1,7 @@ const x = 1",
      "-const archy = require('archy')",
      "+const treePrint = require('./tree-print.js')",
    ].join("\n") + "\n",
  );
  deepStrictEqual(out.cut, ["1 trailer line", "6 context lines"]);
});

Deno.test("gitShowFilter keeps 6 non-trailer body lines and counts the rest", () => {
  const body = Array.from({ length: 9 }, (_, i) => `paragraph line ${i}`);
  const out = run(commit([...body, "", "Signed-off-by: Ada <ada@example.com>"]));
  deepStrictEqual(out.text.split("\n").slice(2), [
    ...body.slice(0, 6).map((l) => `  ${l}`),
    "",
  ]);
  deepStrictEqual(out.cut, ["3 body lines", "1 trailer line"]);
});

Deno.test("gitShowFilter writes an annotated tag on one line and counts its signature", async (t) => {
  const tag = [
    "tag v11.1.0",
    "Tagger: Ada Lovelace <ada@example.com>",
    "Date:   Mon Jan 12 12:00:00 2026 +0000",
    "",
    "npm 11.1.0",
    "",
    "Registry ping latency.",
  ];
  const signature = [
    "-----BEGIN PGP SIGNATURE-----",
    "",
    "iQEzBAAB",
    "-----END PGP SIGNATURE-----",
  ];
  await t.step("unsigned", () => {
    const out = run([...tag, "", commit([])].join("\n"));
    deepStrictEqual(out.text.split("\n").slice(0, 4), [
      "tag v11.1.0 by Ada Lovelace <ada@example.com>, 2026-01-12 12:00:",
      "  npm 11.1.0",
      "  Registry ping latency.",
      "Ada Lovelace <ada@example.com>, 2026-01-14 14:20:",
    ]);
    deepStrictEqual(out.cut, []);
  });
  await t.step("signed", () => {
    const out = run([...tag, ...signature, "", commit([])].join("\n"));
    ok(!out.text.includes("iQEzBAAB"));
    deepStrictEqual(out.cut, ["tag signature (4 lines)"]);
  });
});

Deno.test("gitShowFilter returns output that is not a commit unchanged", async (t) => {
  const cases = [
    ["file content (git show HEAD:path)", "const a = 1\n\nmodule.exports = a\n"],
    ["a tree", "tree HEAD:lib\n\ncli.js\nnpm.js\n"],
    ["a tag on a blob", "tag blob-tag\nTagger: A <a@b>\nDate:   x\n\nmsg\n\nfile body\n"],
  ];
  for (const [name, raw] of cases) {
    await t.step(name, () => deepStrictEqual(run(raw), { text: raw, cut: [] }));
  }
});

Deno.test("gitShowFilter handles several commits and a merge's combined diff", () => {
  const merge = [
    `commit ${"b".repeat(40)}`,
    `Merge: ${"c".repeat(7)} ${"d".repeat(7)}`,
    "Author: Grace Hopper <grace@example.com>",
    "Date:   Thu Jan 15 09:00:00 2026 +0000",
    "",
    "    Merge branch 'fix'",
    "",
    "diff --cc src/m.ts",
    "index 1,2..3",
    "--- a/src/m.ts",
    "+++ b/src/m.ts",
    "@@@ -1,1 -1,1 +1,1 @@@",
    "- a",
    " -b",
    "++c",
    "",
  ].join("\n");
  const out = run(merge + commit([]) + DIFF);
  const lines = out.text.split("\n");
  ok(lines.includes(`bbbbbbbbbb [merge ccccccc ddddddd] Merge branch 'fix'`));
  ok(lines.includes("diff src/m.ts (merge, +1 −2)"));
  ok(lines.includes("@@@ -1,1 -1,1 +1,1 @@@"));
  ok(lines.includes("0032fa8185 (HEAD -> main) ls: replace archy"));
  ok(lines.includes("@@ -1,7 +1,7 @@ const x = 1"));
});

Deno.test("gitShowFilter is empty for empty input", () => {
  deepStrictEqual(run(""), { text: "", cut: [] });
});
