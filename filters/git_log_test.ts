import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  compactDate,
  gitLogFilter,
  LOG_FETCHED,
  logPassthrough,
  parseLog,
  stageOneLimited,
  STAT_SHAPE,
  userLimit,
} from "./git_log.ts";
import { showPassthrough } from "./git_show.ts";
import { renamePaths } from "./_stat.ts";

function commit(hash: string, subject: string, body = "", author = "Ada <ada@lab.dev>"): string {
  const lines = [
    `commit ${hash}`,
    `Author: ${author}`,
    "Date:   Thu Dec 3 07:58:46 2026 +0000",
    "",
    `    ${subject}`,
  ];
  if (body) lines.push("    ", ...body.split("\n").map((l) => (l ? `    ${l}` : "    ")));
  return lines.join("\n") + "\n";
}

const HASH = (i: number): string => i.toString(16).padStart(40, "a");

function history(n: number): string {
  const parts: string[] = [];
  for (let i = n; i >= 1; i--) parts.push(commit(HASH(i), `feat: change number ${i}`));
  return parts.join("\n");
}

Deno.test("gitLogFilter keeps every shown subject in full, however long", () => {
  const long = "fix: " + "a very long subject that goes on ".repeat(6).trim();
  const raw = commit(HASH(1), long);
  const out = gitLogFilter.filter(raw, { args: ["-n", "50"], shaped: true, exitCode: 0 });
  ok(out.text.includes(long));
});

Deno.test("gitLogFilter shows 10 commits after stage 1 and counts the older ones as cut", () => {
  const out = gitLogFilter.filter(history(13), {
    args: ["-n", String(LOG_FETCHED)],
    shaped: true,
    exitCode: 0,
  });
  ok(out.text.includes("feat: change number 13"));
  ok(out.text.includes("feat: change number 4"));
  ok(!out.text.includes("feat: change number 3\n"));
  deepStrictEqual(out.cut, ["3 older commits"]);
});

Deno.test("gitLogFilter says older commits exist beyond a full stage-1 fetch", () => {
  const out = gitLogFilter.filter(history(LOG_FETCHED), {
    args: ["-n", String(LOG_FETCHED)],
    shaped: true,
    exitCode: 0,
  });
  deepStrictEqual(out.cut, [`${LOG_FETCHED - 10}+ older commits`]);
});

Deno.test("gitLogFilter shows every commit the caller asked for", () => {
  const out = gitLogFilter.filter(history(25), { args: ["-25"], shaped: false, exitCode: 0 });
  ok(out.text.includes("feat: change number 1\n"));
  deepStrictEqual(out.cut, []);
});

Deno.test("gitLogFilter keeps three body lines and drops ceremony trailers", () => {
  const body = [
    "First line of the body.",
    "Second line.",
    "",
    "Third line.",
    "Fourth line.",
    "",
    "BREAKING CHANGE: the parser API moved",
    "Signed-off-by: Ada <ada@lab.dev>",
    "Co-authored-by: Grace <grace@lab.dev>",
  ].join("\n");
  const out = gitLogFilter.filter(commit(HASH(1), "feat: x", body), {
    args: [],
    shaped: false,
    exitCode: 0,
  });
  ok(out.text.includes("  First line of the body.\n  Second line.\n  Third line.\n"));
  ok(!out.text.includes("Fourth line."));
  ok(!out.text.includes("Signed-off-by"));
  deepStrictEqual(out.cut, ["2 body lines", "2 trailer lines"]);
});

Deno.test("gitLogFilter writes author and day once per run of commits that share them", () => {
  const raw = [
    commit(HASH(3), "three"),
    commit(HASH(2), "two"),
    commit(HASH(1), "one", "", "Grace <grace@lab.dev>"),
  ].join("\n");
  const out = gitLogFilter.filter(raw, { args: [], shaped: false, exitCode: 0 });
  const lines = out.text.trimEnd().split("\n");
  deepStrictEqual(lines, [
    "Ada <ada@lab.dev>, 2026-12-03 07:58:",
    `${HASH(3).slice(0, 10)} three`,
    `${HASH(2).slice(0, 10)} two`,
    "Grace <grace@lab.dev>, 2026-12-03 07:58:",
    `${HASH(1).slice(0, 10)} one`,
  ]);
});

Deno.test("gitLogFilter keeps decorations, merges and unknown header lines", () => {
  const raw = [
    "commit " + HASH(9) + " (HEAD -> main, tag: v1.0)",
    "Merge: abc1234 def5678",
    "gpg: Good signature",
    "Author: Ada <ada@lab.dev>",
    "Date:   Thu Dec 3 07:58:46 2026 +0000",
    "",
    "    Merge branch 'x'",
    "",
  ].join("\n");
  const out = gitLogFilter.filter(raw, { args: [], shaped: false, exitCode: 0 });
  ok(out.text.includes("(HEAD -> main, tag: v1.0) [merge abc1234 def5678] Merge branch 'x'"));
  ok(out.text.includes("gpg: Good signature"));
});

Deno.test("gitLogFilter returns text it cannot parse unchanged", () => {
  const raw = "fatal: your current branch 'main' does not have any commits yet\n";
  deepStrictEqual(gitLogFilter.filter(raw, { args: [], shaped: false, exitCode: 128 }), {
    text: raw,
    cut: [],
  });
});

Deno.test("logPassthrough() defers to every format the caller chose, and reads --stat", async (t) => {
  const cases: [string[], boolean][] = [
    [["--oneline"], true],
    [["--format=%h"], true],
    [["--pretty", "fuller"], true],
    [["-p"], true],
    [["--name-only"], true],
    [["-z"], true],
    [["--graph"], true],
    [["-L1,5:app.py"], true],
    [["--name-status"], true],
    [["--raw"], true],
    [["--dirstat"], true],
    [["--dirstat=files"], true],
    [["-X"], true],
    [["--summary", "--stat"], true],
    [["--compact-summary"], true],
    [["--patch-with-stat"], true],
    [["--oneline", "--stat"], true],
    [["--format=%h %s", "--stat"], true],
    [["--stat", "--graph"], true],
    [["--numstat"], true],
    [["--numstat", "--shortstat"], true],
    [["--stat-count=3"], true],
    [["--stat", "--stat-count", "3"], true],
    [["--stat=100,40,5"], true],
    [["--author=Ada", "-5"], false],
    [["--", "--stat"], false],
    [["--stat"], false],
    [["--shortstat"], false],
    [["--stat", "-5", "--", "src/"], false],
    [["--stat=100"], false],
    [["--stat=100,40"], false],
    [["--stat-width=200"], false],
    [["--stat-name-width=60", "--stat-graph-width=10"], false],
    [["--numstat", "--stat"], false],
    [["-n", "50", ...STAT_SHAPE, "--stat"], false],
    [[], false],
  ];
  for (const [args, pass] of cases) {
    await t.step(args.join(" ") || "(none)", () => {
      strictEqual(logPassthrough(args) !== null, pass);
    });
  }
});

Deno.test("userLimit() reads every spelling of a commit limit", async (t) => {
  const cases: [string[], number | null][] = [
    [["-5"], 5],
    [["-n", "7"], 7],
    [["-n7"], 7],
    [["--max-count=3"], 3],
    [["--max-count", "4"], 4],
    [["--author=x"], null],
    [["--", "-5"], null],
  ];
  for (const [args, limit] of cases) {
    await t.step(args.join(" "), () => strictEqual(userLimit(args), limit));
  }
});

Deno.test("gitLogFilter.shape() asks git for a bounded history only when the caller set no limit", () => {
  deepStrictEqual(gitLogFilter.shape!(["--author=Ada"]), ["-n", "50", "--author=Ada"]);
  strictEqual(gitLogFilter.shape!(["-3"]), null);
});

Deno.test("compactDate() shortens git's default date and keeps any other form", () => {
  deepStrictEqual(compactDate("Thu Dec 3 07:58:46 2026 +0000"), {
    day: "2026-12-03",
    time: "07:58",
  });
  deepStrictEqual(compactDate("2 hours ago"), { day: "2 hours ago", time: "" });
});

Deno.test("parseLog() keeps text before the first commit as preamble", () => {
  const { entries, preamble } = parseLog("warning: x\n" + commit(HASH(1), "one"));
  strictEqual(entries.length, 1);
  deepStrictEqual(preamble, ["warning: x"]);
});

Deno.test("gitLogFilter keeps one body line for each commit after the newest", () => {
  const body = "Why it changed.\nMore detail.\nEven more.";
  const raw = [commit(HASH(2), "newest", body), commit(HASH(1), "older", body)].join("\n");
  const out = gitLogFilter.filter(raw, { args: [], shaped: false, exitCode: 0 });
  const lines = out.text.trimEnd().split("\n");
  deepStrictEqual(lines.slice(1), [
    `${HASH(2).slice(0, 10)} newest`,
    "  Why it changed.",
    "  More detail.",
    "  Even more.",
    `${HASH(1).slice(0, 10)} older`,
    "  Why it changed.",
  ]);
  deepStrictEqual(out.cut, ["2 body lines"]);
});

// ---------------------------------------------------------------------------------------------
// --stat and --shortstat
// ---------------------------------------------------------------------------------------------

/** One commit as `git log --numstat --stat` prints it: numstat rows, stat rows, summary. */
function statCommit(hash: string, subject: string, stat: string[], author = "Ada <ada@lab.dev>") {
  return commit(hash, subject, "", author) + "\n" + stat.join("\n") + "\n";
}

const STAGED = ["-n", String(LOG_FETCHED), ...STAT_SHAPE, "--stat"];
const staged = { args: STAGED, shaped: true, exitCode: 0 };

function lines(text: string): string[] {
  return text.trimEnd().split("\n");
}

Deno.test("gitLogFilter --stat writes every file of a commit with its true counts", () => {
  // The 403-line file's bar is scaled to 10 marks; --numstat has the true split.
  const raw = statCommit(HASH(1), "feat: add the limits table", [
    "403\t0\tsrc/config/default_limits.ts",
    "1\t0\tsrc/index.ts",
    "12\t3\tsrc/a.ts",
    " src/config/default_limits.ts | 403 ++++++++++",
    " src/index.ts                 |   1 +",
    " src/a.ts                     |  15 ++++++++--",
    " 3 files changed, 416 insertions(+), 3 deletions(-)",
  ]);
  const out = gitLogFilter.filter(raw, staged);
  deepStrictEqual(lines(out.text).slice(2), [
    "  src/config/default_limits.ts +403 −0",
    "  src/index.ts +1 −0",
    "  src/a.ts +12 −3",
    "  3 files, +416 −3",
  ]);
  ok(!out.text.includes("|") && !out.text.includes("++"), out.text);
  deepStrictEqual(out.cut, []);
});

Deno.test("gitLogFilter --stat writes a rename as two whole paths, never git's braces", async (t) => {
  const cases: [string, string][] = [
    [
      "src/limiter/{sliding_window.ts => sliding_log.ts}",
      "src/limiter/sliding_window.ts → src/limiter/sliding_log.ts",
    ],
    ["{src/http => lib}/server.ts", "src/http/server.ts → lib/server.ts"],
    ["src/{ => transport}/http/server.ts", "src/http/server.ts → src/transport/http/server.ts"],
    ["tests/{support => }/fake_clock.ts", "tests/support/fake_clock.ts → tests/fake_clock.ts"],
    ["{ => src}/main.ts", "main.ts → src/main.ts"],
    ["src/sub/f3.ts => f3.ts", "src/sub/f3.ts → f3.ts"],
    ['"src/\\303\\251.ts" => "src/\\303\\274.ts"', '"src/\\303\\251.ts" → "src/\\303\\274.ts"'],
  ];
  for (const [git, shown] of cases) {
    await t.step(git, () => {
      const raw = statCommit(HASH(1), "refactor: move", [`2\t1\t${git}`, ` ${git} | 3 ++-`]);
      const out = gitLogFilter.filter(raw, staged);
      deepStrictEqual(lines(out.text).slice(2), [`  ${shown} +2 −1`]);
      deepStrictEqual(renamePaths(git), shown.split(" → "));
    });
  }
});

Deno.test("renamePaths() refuses rename notation that reads more than one way", async (t) => {
  for (const path of ["a => b => c", "src/{a => b}/{c}.ts", "src/{a => b"]) {
    await t.step(path, () => strictEqual(renamePaths(path), null));
  }
  deepStrictEqual(renamePaths("src/{plain}.ts"), ["src/{plain}.ts"]);
});

Deno.test("gitLogFilter --stat keeps a binary file's sizes as git prints them", () => {
  const raw = statCommit(HASH(1), "chore: new logo", [
    "-\t-\tassets/logo.png",
    "-\t-\tassets/icon.png",
    "2\t0\tREADME.md",
    " assets/logo.png | Bin 1843 -> 2611 bytes",
    " assets/icon.png | Bin 0 -> 123 bytes",
    " README.md       |   2 ++",
    " 3 files changed, 2 insertions(+)",
  ]);
  deepStrictEqual(lines(gitLogFilter.filter(raw, staged).text).slice(2), [
    "  assets/logo.png Bin 1843 -> 2611 bytes",
    "  assets/icon.png Bin 0 -> 123 bytes",
    "  README.md +2 −0",
    "  3 files, +2 −0",
  ]);
});

Deno.test("gitLogFilter --stat writes no stat under a merge, which git prints none for", () => {
  const merge = [
    `commit ${HASH(3)}`,
    "Merge: abc1234 def5678",
    "Author: Ada <ada@lab.dev>",
    "Date:   Thu Dec 3 07:58:46 2026 +0000",
    "",
    "    Merge branch 'topic'",
    "",
  ].join("\n");
  const raw = [
    merge,
    statCommit(HASH(2), "topic work", [
      "1\t0\tt.txt",
      " t.txt | 1 +",
      " 1 file changed, 1 insertion(+)",
    ]),
  ].join("\n");
  deepStrictEqual(lines(gitLogFilter.filter(raw, staged).text).slice(1), [
    `${HASH(3).slice(0, 10)} [merge abc1234 def5678] Merge branch 'topic'`,
    `${HASH(2).slice(0, 10)} topic work`,
    "  t.txt +1 −0",
  ]);
});

Deno.test("gitLogFilter --stat and --shortstat keep the summary's numbers", async (t) => {
  const cases: [string, string[], string[]][] = [
    ["several files", [
      "12\t3\ta.ts",
      "8\t2\tb.ts",
      " a.ts | 15 ++++++++--",
      " b.ts | 10 ++++++++--",
      " 2 files changed, 20 insertions(+), 5 deletions(-)",
    ], ["  a.ts +12 −3", "  b.ts +8 −2", "  2 files, +20 −5"]],
    ["one file: its line holds the numbers", [
      "12\t3\ta.ts",
      " a.ts | 15 ++++++++--",
      " 1 file changed, 12 insertions(+), 3 deletions(-)",
    ], ["  a.ts +12 −3"]],
    ["deletions only", [
      "0\t4\ta.ts",
      "0\t1\tb.ts",
      " a.ts | 4 ----",
      " b.ts | 1 -",
      " 2 files changed, 5 deletions(-)",
    ], ["  a.ts +0 −4", "  b.ts +0 −1", "  2 files, +0 −5"]],
    ["--shortstat", [" 3 files changed, 20 insertions(+), 5 deletions(-)"], ["  3 files, +20 −5"]],
    ["--shortstat, one file", [" 1 file changed, 1 insertion(+)"], ["  1 file, +1 −0"]],
    ["--stat --shortstat: the summary twice", [
      " a.ts | 2 ++",
      " 1 file changed, 2 insertions(+)",
      " 1 file changed, 2 insertions(+)",
    ], ["  a.ts +2 −0"]],
  ];
  for (const [name, stat, shown] of cases) {
    await t.step(name, () => {
      const raw = statCommit(HASH(1), "change", stat);
      deepStrictEqual(lines(gitLogFilter.filter(raw, staged).text).slice(2), shown);
    });
  }
});

function statHistory(n: number): string {
  const parts: string[] = [];
  for (let i = n; i >= 1; i--) {
    parts.push(statCommit(HASH(i), `feat: change number ${i}`, [
      `${i}\t1\tsrc/file_${i}.ts`,
      `1\t0\tREADME.md`,
      ` src/file_${i}.ts | ${i + 1} ${"+".repeat(i)}-`,
      ` README.md | 1 +`,
      ` 2 files changed, ${i + 1} insertions(+), 1 deletion(-)`,
    ]));
  }
  return parts.join("\n");
}

Deno.test("gitLogFilter --stat shows 10 commits after stage 1, as plain git log does", () => {
  const out = gitLogFilter.filter(statHistory(13), staged);
  ok(out.text.includes("feat: change number 4\n  src/file_4.ts +4 −1\n"), out.text);
  ok(!out.text.includes("file_3.ts"), out.text);
  deepStrictEqual(out.cut, ["3 older commits"]);
});

Deno.test("gitLogFilter --stat shows every commit of the caller's own limit", async (t) => {
  // Stage 1 still adds its stat flags, but in front of the caller's `-n 50`.
  const cases: string[][] = [
    [...STAT_SHAPE, "-n", String(LOG_FETCHED), "--stat"],
    [...STAT_SHAPE, "--stat", "-13"],
    [...STAT_SHAPE, "--stat", "--max-count=13"],
  ];
  for (const args of cases) {
    await t.step(args.join(" "), () => {
      const out = gitLogFilter.filter(statHistory(13), { args, shaped: true, exitCode: 0 });
      ok(out.text.includes("  src/file_1.ts +1 −1\n"), out.text);
      deepStrictEqual(out.cut, []);
    });
  }
});

Deno.test("stageOneLimited() tells stage 1's limit from the caller's", async (t) => {
  const cases: [string[], boolean, boolean][] = [
    [["-n", "50"], true, true],
    [["-n", "50", ...STAT_SHAPE, "--stat"], true, true],
    [[...STAT_SHAPE, "-n", "50", "--stat"], true, false],
    [["-n", "50"], false, false],
    [["-n", "20", "--stat"], true, false],
  ];
  for (const [args, shaped, limited] of cases) {
    await t.step(`${args.join(" ")} (shaped: ${shaped})`, () => {
      strictEqual(stageOneLimited({ args, shaped, exitCode: 0 }), limited);
    });
  }
});

Deno.test("gitLogFilter.shape() asks for true counts and unshortened paths with --stat", async (t) => {
  const cases: [string[], string[] | null][] = [
    [["--stat"], ["-n", "50", ...STAT_SHAPE, "--stat"]],
    [["--stat", "-5"], [...STAT_SHAPE, "--stat", "-5"]],
    [["-n", "50", "--stat"], [...STAT_SHAPE, "-n", "50", "--stat"]],
    [["--stat=100", "-3"], [...STAT_SHAPE, "--stat=100", "-3"]],
    [["--stat-width=60", "-3"], [...STAT_SHAPE, "--stat-width=60", "-3"]],
    [["--stat", "-3", "--", "src/"], [...STAT_SHAPE, "--stat", "-3", "--", "src/"]],
    // --shortstat names no path, and --stat-width would add a full --stat
    [["--shortstat"], ["-n", "50", "--shortstat"]],
    [["--shortstat", "-3"], null],
    [["-3", "--", "--stat"], null],
  ];
  for (const [args, shaped] of cases) {
    await t.step(args.join(" "), () => deepStrictEqual(gitLogFilter.shape!(args), shaped));
  }
  ok(STAT_SHAPE.includes("--numstat"));
  ok(STAT_SHAPE.some((a) => /^--stat-width=\d{4,}$/.test(a)));
});

Deno.test("gitLogFilter --stat writes the whole path of one git shortened to ...", () => {
  const long = "src/transport/http/adapters/express/compatibility/legacy_adapter_v4.ts";
  const raw = statCommit(HASH(1), "feat: adapter", [
    `7\t0\t${long}`,
    " .../express/compatibility/legacy_adapter_v4.ts | 7 +++++++",
    " 1 file changed, 7 insertions(+)",
  ]);
  const out = gitLogFilter.filter(raw, staged);
  deepStrictEqual(lines(out.text).slice(2), [`  ${long} +7 −0`]);
});

Deno.test("gitLogFilter --stat reads colours away", () => {
  const raw = [
    `\x1b[33mcommit ${HASH(1)}\x1b[m`,
    "Author: Ada <ada@lab.dev>",
    "Date:   Thu Dec 3 07:58:46 2026 +0000",
    "",
    "    change",
    "",
    "2\t1\ta.ts",
    "1\t0\tb.ts",
    " a.ts | 3 \x1b[32m++\x1b[m\x1b[31m-\x1b[m",
    " b.ts | 1 \x1b[32m+\x1b[m",
    " 2 files changed, 3 insertions(+), 1 deletion(-)",
    "",
  ].join("\n");
  const out = gitLogFilter.filter(raw, staged);
  ok(!out.text.includes("\x1b"), JSON.stringify(out.text));
  deepStrictEqual(lines(out.text).slice(2), ["  a.ts +2 −1", "  b.ts +1 −0", "  2 files, +3 −1"]);
});

Deno.test("gitLogFilter reads a --stat without --numstat (a tool result alone)", async (t) => {
  const cases: [string, string][] = [
    [" a.ts | 15 ++++++++++++---", "  a.ts +12 −3"],
    [" a.ts | 0", "  a.ts +0 −0"],
    // git scaled the bar: 10 marks for 403 lines; only the count is true
    [" a.ts | 403 ++++++++++", "  a.ts 403 changed"],
    [" .../deep/a.ts | 2 ++", "  .../deep/a.ts +2 −0"],
    [" logo.png | Bin 0 -> 9 bytes", "  logo.png Bin 0 -> 9 bytes"],
  ];
  for (const [row, shown] of cases) {
    await t.step(row, () => {
      const out = gitLogFilter.filter(statCommit(HASH(1), "change", [row]), {
        args: [],
        shaped: false,
        exitCode: 0,
      });
      deepStrictEqual(lines(out.text).slice(2), [shown]);
    });
  }
});

Deno.test("gitLogFilter returns a stat it cannot read unchanged", async (t) => {
  const cases: [string, string[]][] = [
    ["counts that disagree", ["2\t1\ta.ts", " a.ts | 4 ++--"]],
    ["paths that disagree", ["2\t1\ta.ts", " b.ts | 3 ++-"]],
    ["rows that do not pair", ["2\t1\ta.ts", "1\t0\tb.ts", " a.ts | 3 ++-"]],
    ["a binary row against a count", ["-\t-\ta.png", " a.png | 3 ++-"]],
    ["summaries that differ", [" 1 file changed, 1 insertion(+)", " 2 files changed"]],
    ["an unknown line after the stat", [" a.ts | 3 ++-", "something else"]],
    ["a --stat-count cut", [" a.ts | 3 ++-", " ...", " 9 files changed, 3 insertions(+)"]],
    ["rename notation read two ways", ["1\t0\ta => b => c"]],
  ];
  for (const [name, stat] of cases) {
    await t.step(name, () => {
      const raw = statCommit(HASH(2), "two", [" x.ts | 1 +"]) + "\n" +
        statCommit(HASH(1), "one", stat);
      deepStrictEqual(gitLogFilter.filter(raw, staged), { text: raw, cut: [] });
    });
  }
});

Deno.test("gitLogFilter output without a stat is what it was before --stat was read", () => {
  const raw = [
    commit(HASH(3), "three", "Why.\nMore.\n\nSigned-off-by: Ada <ada@lab.dev>"),
    commit(HASH(2), "two"),
    commit(HASH(1), "one", "", "Grace <grace@lab.dev>"),
  ].join("\n");
  const out = gitLogFilter.filter(raw, { args: ["-n", "50"], shaped: true, exitCode: 0 });
  strictEqual(
    out.text,
    [
      "Ada <ada@lab.dev>, 2026-12-03 07:58:",
      `${HASH(3).slice(0, 10)} three`,
      "  Why.",
      "  More.",
      `${HASH(2).slice(0, 10)} two`,
      "Grace <grace@lab.dev>, 2026-12-03 07:58:",
      `${HASH(1).slice(0, 10)} one`,
      "",
    ].join("\n"),
  );
  deepStrictEqual(out.cut, ["1 trailer line"]);
});

Deno.test("parseLog() leaves stat lines in the body unless asked to read them (git show)", () => {
  const raw = statCommit(HASH(1), "change", [" a.ts | 2 ++", " 1 file changed, 2 insertions(+)"]);
  const plain = parseLog(raw).entries[0];
  deepStrictEqual(plain.body, [" a.ts | 2 ++", " 1 file changed, 2 insertions(+)"]);
  strictEqual(plain.stat, undefined);
  const read = parseLog(raw, { stat: true }).entries[0];
  deepStrictEqual(read.body, []);
  deepStrictEqual(read.stat?.files.map((f) => [f.path, f.added, f.deleted]), [["a.ts", 2, 0]]);
});

Deno.test("gitLogFilter reads a stat line of 200,000 characters in linear time", () => {
  const row = ` ${"x".repeat(100_000)}${" ".repeat(100_000)}| 1 +`;
  const start = performance.now();
  gitLogFilter.filter(statCommit(HASH(1), "change", [row, ` a${" ".repeat(200_000)}b`]), staged);
  ok(performance.now() - start < 1000, `${performance.now() - start} ms`);
});

Deno.test("showPassthrough() still passes every stat git show is asked for", async (t) => {
  for (const arg of ["--stat", "--shortstat", "--numstat", "--stat=100", "--stat-width=200"]) {
    await t.step(arg, () => ok(showPassthrough([arg, "HEAD"]) !== null));
  }
});
