import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { Cuts } from "./_test_report.ts";
import {
  dedent,
  fitLine,
  isInternalFrame,
  pickFrames,
  renderReport,
  shapeErrorText,
  squeezeBlank,
  TEST_FAILURES_SHOWN,
  TEST_FRAMES_SHOWN,
  TEST_LINE_WIDTH,
  TEST_MESSAGE_LINES,
  TEST_NOTE_LINES,
  type TestFailure,
} from "./_test_failures.ts";

Deno.test("isInternalFrame tells the runner's, node's and dependencies' frames from the project's", async (t) => {
  const cases: [string, boolean][] = [
    ["at Test.run (node:internal/test_runner/test:796:25)", true],
    ["at Test.runInAsyncScope (node:async_hooks:206:9)", true],
    ["at innerWrapped (ext:cli/40_test.js:300:11)", true],
    ["at Promise.finally.completed (../node_modules/jest-circus/build/a.js:1:2)", true],
    ["❯ getRollupError ../node_modules/rollup/dist/es/shared/parseAst.js:355:41", true],
    ["at new Promise (<anonymous>)", true],
    ["at async Promise.all (index 0)", true],
    ["at Object.toBe (math.test.js:42:35)", false],
    ["at file:///work/app/math_test.ts:42:12", false],
    ["❯ math.test.js:30:35", false],
    ["at TestContext.<anonymous> (/work/app/math.test.js:6:45)", false],
  ];
  for (const [frame, internal] of cases) {
    await t.step(frame, () => strictEqual(isInternalFrame(frame), internal));
  }
});

Deno.test("pickFrames shows the first project frames and counts the rest", () => {
  const frames = [
    "at a (src/a.js:1:1)",
    "at x (node:internal/x:1:1)",
    "at b (src/b.js:2:2)",
    "at c (src/c.js:3:3)",
    "at d (src/d.js:4:4)",
  ];
  const cuts = new Cuts();
  deepStrictEqual(pickFrames(frames, cuts), frames.filter((f) => f.includes("src/")).slice(0, 3));
  strictEqual(TEST_FRAMES_SHOWN, 3);
  deepStrictEqual(cuts.phrases(), ["2 stack frames"]);
  const none = new Cuts();
  deepStrictEqual(pickFrames(["at x (node:internal/x:1:1)"], none), []);
  deepStrictEqual(none.phrases(), ["1 stack frame"]);
});

Deno.test("fitLine cuts a long line to the width and counts it", () => {
  const cuts = new Cuts();
  strictEqual(fitLine("short", cuts), "short");
  const long = fitLine("x".repeat(TEST_LINE_WIDTH + 10), cuts);
  strictEqual(long.length, TEST_LINE_WIDTH);
  ok(long.endsWith("…"));
  deepStrictEqual(cuts.phrases(), ["1 long line trimmed"]);
});

Deno.test("dedent and squeezeBlank tidy a failure's lines", () => {
  deepStrictEqual(dedent(["    a", "      b", "", "    c"]), ["a", "  b", "", "c"]);
  deepStrictEqual(dedent(["a", "  b"]), ["a", "  b"]);
  deepStrictEqual(squeezeBlank(["", "a", "", " ", "b", ""]), ["a", "", "b"]);
});

Deno.test("shapeErrorText keeps the error and only its frames in the project", () => {
  const cuts = new Cuts();
  const lines = [
    "SyntaxError: Unexpected token ';'",
    "    at wrapSafe (node:internal/modules/cjs/loader:1464:18)",
    "    at load (src/loader.js:3:3)",
    "Node.js v20.20.2",
  ];
  deepStrictEqual(shapeErrorText(lines, cuts), [
    "SyntaxError: Unexpected token ';'",
    "    at load (src/loader.js:3:3)",
    "Node.js v20.20.2",
  ]);
  deepStrictEqual(cuts.phrases(), ["1 stack frame"]);
});

function failure(n: number, lines = 2): TestFailure {
  return {
    title: `test ${n}`,
    location: `a.test.js:${n}:1`,
    message: Array.from({ length: lines }, (_, k) => `message ${n}.${k}`),
    source: `  ${n}|    expect(x).toBe(${n});`,
    frames: [`at Object.<anonymous> (a.test.js:${n}:9)`],
  };
}

Deno.test("renderReport makes a run without failures one line of counts", () => {
  const out = renderReport(
    { runner: "jest", groups: [], summary: ["Tests: 3 passed"], notes: [], cuts: new Cuts() },
    0,
  );
  deepStrictEqual(out, { text: "jest: Tests: 3 passed\n", cut: [] });
});

Deno.test("renderReport shows each failure with its message, source line and frames", () => {
  const out = renderReport(
    {
      runner: "x",
      groups: [{ heading: "FAIL a.test.js", failures: [failure(1)] }],
      summary: ["1 failed"],
      notes: ["console: hi"],
      cuts: new Cuts(),
    },
    1,
  );
  deepStrictEqual(out.text.split("\n"), [
    "FAIL a.test.js",
    "✖ test 1 (a.test.js:1:1)",
    "  message 1.0",
    "  message 1.1",
    "  > 1| expect(x).toBe(1);",
    "  at Object.<anonymous> (a.test.js:1:9)",
    "console: hi",
    "x: 1 failed",
    "",
  ]);
});

Deno.test("renderReport caps each message and, past the cap of failures, shows titles only", () => {
  const failures = Array.from(
    { length: TEST_FAILURES_SHOWN + 2 },
    (_, k) => failure(k + 1, k === 0 ? TEST_MESSAGE_LINES + 5 : 1),
  );
  const out = renderReport(
    {
      runner: "x",
      groups: [{ heading: null, failures }],
      summary: [],
      notes: [],
      cuts: new Cuts(),
    },
    1,
  );
  const lines = out.text.split("\n");
  ok(lines.includes(`  message 1.${TEST_MESSAGE_LINES - 1}`));
  ok(!lines.includes(`  message 1.${TEST_MESSAGE_LINES}`));
  const last = TEST_FAILURES_SHOWN + 2;
  ok(lines.includes(`✖ test ${last} (a.test.js:${last}:1)`));
  ok(!lines.includes(`  message ${last}.0`));
  deepStrictEqual(out.cut, ["5 message lines", "2 failures without details"]);
  strictEqual(lines.at(-2), "x: failed with exit code 1");
});

Deno.test("renderReport keeps the first own frame of a failure past the cap that has no location", () => {
  const failures = Array.from({ length: TEST_FAILURES_SHOWN + 1 }, (_, k) => ({
    ...failure(k + 1),
    location: undefined,
    frames: ["at x (node:internal/x:1:1)", `at Object.<anonymous> (a.test.js:${k + 1}:9)`],
  }));
  const out = renderReport(
    {
      runner: "x",
      groups: [{ heading: null, failures }],
      summary: [],
      notes: [],
      cuts: new Cuts(),
    },
    1,
  );
  const last = TEST_FAILURES_SHOWN + 1;
  ok(out.text.includes(`✖ test ${last} at Object.<anonymous> (a.test.js:${last}:9)\n`), out.text);
});

Deno.test("renderReport caps the notes and says a failing run failed", () => {
  const notes = Array.from({ length: TEST_NOTE_LINES + 3 }, (_, k) => `line ${k}`);
  const out = renderReport(
    { runner: "x", groups: [], summary: ["3 passing"], notes, cuts: new Cuts() },
    2,
  );
  const lines = out.text.split("\n");
  strictEqual(lines[0], "x: 3 passing");
  strictEqual(lines.length, TEST_NOTE_LINES + 3);
  strictEqual(lines.at(-2), "x: failed with exit code 2");
  deepStrictEqual(out.cut, ["3 output lines"]);
});
