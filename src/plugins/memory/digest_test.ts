import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { TranscriptEntry } from "../../claude/transcript.ts";
import { estimate } from "../../core/tokens.ts";
import { pointerLine } from "../../core/pointer.ts";
import {
  buildDigest,
  buildErrors,
  DIGEST_HEADER,
  DIGEST_TEXT_CLASS,
  failingTests,
} from "./digest.ts";

Deno.test("failingTests: each runner's failure lines give the test's name", async (t) => {
  const cases: { name: string; text: string; want: string[] }[] = [
    {
      name: "node --test (TAP)",
      text:
        "TAP version 13\n# Subtest: adds case 7\nnot ok 1 - adds case 7\n  ---\nok 2 - adds case 8\n",
      want: ["adds case 7"],
    },
    {
      name: "node spec reporter",
      text: "✔ adds case 1 (0.4ms)\n✖ adds case 23 (1.1ms)\n✖ failing tests:\n",
      want: ["adds case 23"],
    },
    {
      name: "deno test, coloured",
      text:
        "\x1b[1m FAILURES \x1b[0m\n\nparses the header \x1b[38;5;245m=> ./d_test.ts:1:6\x1b[0m\n",
      want: ["parses the header"],
    },
    {
      name: "cargo",
      text: "test parser::tests::eof ... FAILED\ntest ok_one ... ok\n",
      want: ["parser::tests::eof"],
    },
    { name: "go", text: "--- FAIL: TestParse (0.00s)\n--- PASS: TestLex\n", want: ["TestParse"] },
    {
      name: "pytest",
      text: "FAILED tests/test_a.py::test_sum - assert 1 == 2\n",
      want: ["tests/test_a.py::test_sum"],
    },
    {
      name: "rtok's node --test filter, with places",
      text: "✖ rounds 2.5 up (/p/test/round.test.mjs:3:1)\n",
      want: ["rounds 2.5 up"],
    },
    { name: "jest", text: "  ✓ renders\n  ✕ adds totals (5 ms)\n", want: ["adds totals"] },
    { name: "a passing run", text: "ok 1 - a\nok 2 - b\n# pass 2\n# fail 0\n", want: [] },
  ];
  for (const c of cases) await t.step(c.name, () => deepStrictEqual(failingTests(c.text), c.want));
});

Deno.test("buildErrors: each compiler's error places give file and line", async (t) => {
  const cases: { name: string; text: string; want: string[] }[] = [
    { name: "gcc", text: "src/a.c:12:5: error: expected ';'\n", want: ["src/a.c:12"] },
    { name: "tsc", text: "src/b.ts(3,7): error TS2322: Type 'string'…\n", want: ["src/b.ts:3"] },
    {
      name: "deno check, coloured",
      text:
        "\x1b[0m\x1b[1mTS2322 \x1b[0m[ERROR]: Type 'string' is not assignable.\nconst x = 1;\n      ^\n    at \x1b[36mfile:///p/e.ts\x1b[0m:\x1b[33m1\x1b[0m:\x1b[33m7\x1b[0m\n",
      want: ["/p/e.ts:1"],
    },
    {
      name: "rustc",
      text: "error[E0308]: mismatched types\n --> src/main.rs:4:9\n",
      want: ["src/main.rs:4"],
    },
    { name: "go build", text: "./main.go:3:5: undefined: x\n", want: ["./main.go:3"] },
    {
      name: "a stack trace is not a build error",
      text: "Error: x\n    at f (file:///p/a.ts:3:1)\n",
      want: [],
    },
  ];
  for (const c of cases) {
    await t.step(
      c.name,
      () => deepStrictEqual(buildErrors(c.text).map((e) => `${e.file}:${e.line}`), c.want),
    );
  }
});

// A session: a request, reads, an edit, a failing test run then a passing one of another
// command, a cut output.
function session(): TranscriptEntry[] {
  let n = 0;
  const out: TranscriptEntry[] = [];
  const call = (tool: string, input: Record<string, unknown>, text: string, isError = false) => {
    const id = `t${++n}`;
    out.push({ kind: "call", id, tool, input }, { kind: "result", id, text, isError });
  };
  out.push({ kind: "prompt", text: "Make the invoice totals round half up, and keep the API." });
  call("Read", { file_path: "/p/src/invoice.ts" }, "1\ta\n2\tb\n3\tc");
  call("Read", { file_path: "/p/src/round.ts", offset: 40, limit: 3 }, "40\tx\n41\ty\n42\tz");
  call("Edit", { file_path: "/p/src/round.ts", old_string: "a", new_string: "b" }, "ok");
  call("Bash", { command: "node --test test/" }, "not ok 3 - rounds 2.5 up\nExit code 1", true);
  call("Bash", { command: "deno check src/" }, "src/invoice.ts(9,3): error TS2345: bad", true);
  call(
    "Bash",
    { command: "git log" },
    "abc\n" + pointerLine(["310 older commits"], "0123456789ab"),
  );
  out.push({ kind: "prompt", text: "Also add a test for negative amounts." });
  call("Write", { file_path: "/p/test/neg.test.mjs", content: "x" }, "ok");
  return out;
}

Deno.test("buildDigest: holds the requests, files, failing tests, errors and cut ids", () => {
  const d = buildDigest(session(), { budgetTokens: 600, cwd: "/p" });
  for (
    const want of [
      DIGEST_HEADER,
      "- Make the invoice totals round half up, and keep the API.",
      "- Also add a test for negative amounts.",
      "Failing tests: rounds 2.5 up",
      "Build errors: src/invoice.ts:9",
      "src/round.ts (1 edit)",
      "test/neg.test.mjs (written)",
      "src/round.ts lines 40-42",
      "src/invoice.ts (whole, 3 lines)",
      "`node --test test/` failed (exit 1)",
      "`git log` ok",
      "0123456789ab (310 older commits)",
    ]
  ) ok(d.text.includes(want), `${want}\n---\n${d.text}`);
  strictEqual(d.tokens, estimate(d.text, DIGEST_TEXT_CLASS));
  ok(d.tokens <= 600);
});

Deno.test("buildDigest: a command's latest run decides its failures", () => {
  const s = session();
  s.push(
    { kind: "call", id: "z1", tool: "Bash", input: { command: "node --test test/" } },
    { kind: "result", id: "z1", text: "ok 3 - rounds 2.5 up\n# fail 0", isError: false },
  );
  const d = buildDigest(s, { budgetTokens: 600, cwd: "/p" });
  ok(!d.text.includes("Failing tests"), d.text);
  ok(d.text.includes("`node --test test/` ok"), d.text);
});

Deno.test("buildDigest: stays within the budget, the requests first", async (t) => {
  const s = session();
  for (let i = 0; i < 300; i++) {
    s.push(
      { kind: "call", id: `r${i}`, tool: "Read", input: { file_path: `/p/src/m${i}.ts` } },
      { kind: "result", id: `r${i}`, text: "1\tx", isError: false },
    );
  }
  for (const budget of [40, 100, 250, 600, 1500]) {
    await t.step(`${budget} tokens`, () => {
      const d = buildDigest(s, { budgetTokens: budget, cwd: "/p" });
      ok(d.tokens <= budget, `${d.tokens} > ${budget}`);
      if (budget >= 100) ok(d.text.includes("round half up"), d.text);
      strictEqual(d.found.read, 302);
      ok(d.kept.read < d.found.read);
    });
  }
});

Deno.test("buildDigest: the same transcript gives the same bytes", () => {
  const a = buildDigest(session(), { budgetTokens: 200, cwd: "/p" });
  const b = buildDigest(structuredClone(session()), { budgetTokens: 200, cwd: "/p" });
  strictEqual(a.text, b.text);
});

Deno.test("buildDigest: cut outputs ranked by archived size, largest first", () => {
  const s: TranscriptEntry[] = [];
  for (const [i, id] of ["aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"].entries()) {
    s.push(
      { kind: "call", id: `c${i}`, tool: "Bash", input: { command: `cmd ${i}` } },
      { kind: "result", id: `c${i}`, text: "x\n" + pointerLine(["5 lines"], id), isError: false },
    );
  }
  const sizes: Record<string, number> = { aaaaaaaaaaaa: 10, bbbbbbbbbbbb: 900, cccccccccccc: 50 };
  const d = buildDigest(s, { budgetTokens: 600, sizeOf: (id) => sizes[id] ?? null });
  const line = d.text.split("\n").find((l) => l.startsWith("Largest outputs"))!;
  ok(
    line.indexOf("bbbb") < line.indexOf("cccc") && line.indexOf("cccc") < line.indexOf("aaaa"),
    line,
  );
});

Deno.test("buildDigest: a session with nothing to keep gives no text", () => {
  const d = buildDigest([], { budgetTokens: 600 });
  deepStrictEqual([d.text, d.tokens], ["", 0]);
});
