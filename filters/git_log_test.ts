import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  compactDate,
  gitLogFilter,
  LOG_FETCHED,
  logPassthrough,
  parseLog,
  userLimit,
} from "./git_log.ts";

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

Deno.test("logPassthrough() defers to every format the caller chose", async (t) => {
  const cases: [string[], boolean][] = [
    [["--oneline"], true],
    [["--format=%h"], true],
    [["--pretty", "fuller"], true],
    [["-p"], true],
    [["--stat"], true],
    [["--name-only"], true],
    [["-z"], true],
    [["--graph"], true],
    [["-L1,5:app.py"], true],
    [["--author=Ada", "-5"], false],
    [["--", "--stat"], false],
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
