import { deepStrictEqual, strictEqual } from "node:assert/strict";
import type { Filtered } from "../src/core/filter.ts";
import { denoTestFilter, denoTestPassthrough } from "./deno_tests.ts";

function run(raw: string, exitCode = 0, args: string[] = []): Filtered {
  return denoTestFilter.filter(raw, { args, shaped: false, exitCode });
}

const PASSING = `running 1 test from ./cache_test.ts
cache ...
  eviction ...
    keeps at most 1 entries ... ok (0ms)
    keeps at most 2 entries ... ok (1ms)
  eviction ... ok (3ms)
cache ... ok (5ms)
running 2 tests from ./strings_test.ts
pads "alpha" to width 8 ... ok (721µs)
skips the slow path ... ignored (0ms)

ok | 2 passed (3 steps) | 0 failed | 1 ignored (49ms)

`;

const FAILING = `running 1 test from ./math_test.ts
math ...
  adds 1 and 2 ... ok (1ms)
  computes the average ... FAILED (2ms)
math ... FAILED (due to 1 failed step) (11ms)
Uncaught error from ./setup_test.ts FAILED
running 2 tests from ./strings_test.ts
parses the header ... FAILED (822µs)
loads ...
------- output -------
loaded 3 fixtures
----- output end -----
loads ... ok (1ms)

 ERRORS 

math ... computes the average => ./math_test.ts:41:11
error: AssertionError: Expected values to be strictly equal:

2 !== 2.5

    assert.strictEqual(average([1, 2, 3, 4]), 2.5);
           ^
    at file:///work/app/math_test.ts:42:12
    at innerWrapped (ext:cli/40_test.js:300:11)
    at exitSanitizer (ext:cli/40_test.js:201:33)
    at file:///work/app/math_test.ts:41:11

./setup_test.ts (uncaught error)
error: (in promise) Error: fixture database is missing
throw new Error("fixture database is missing");
      ^
    at file:///work/app/setup_test.ts:1:7
This error was not caught from a test and caused the test runner to fail on the referenced module.
It most likely originated from a dangling promise, event/timeout handler or top-level code.

parses the header => ./strings_test.ts:34:6
error: TypeError: Cannot read properties of undefined (reading 'split')
const parseHeader = (value: string) => value.split(":");
                                             ^
    at parseHeader (file:///work/app/lib.ts:8:46)
    at file:///work/app/strings_test.ts:35:26

 FAILURES 

math ... computes the average => ./math_test.ts:41:11
./setup_test.ts (uncaught error)
parses the header => ./strings_test.ts:34:6

FAILED | 1 passed (2 steps) | 3 failed (1 step) (1s)

`;

const TYPE_ERROR = `Check cache_test.ts
Check types_test.ts
TS2322 [ERROR]: Type 'string' is not assignable to type 'number'.
const retries: number = "three";
      ~~~~~~~
    at file:///work/app/types_test.ts:1:7

error: Type checking failed.

  info: The program failed type-checking, but it still might work correctly.
  hint: Re-run with --no-check to skip type-checking.

Stack backtrace:
   0: <unknown>
`;

Deno.test("denoTestPassthrough defers to machine reporters, watch mode and help", async (t) => {
  const cases: [string[], boolean][] = [
    [["--reporter=junit"], true],
    [["--reporter", "tap"], true],
    [["--watch"], true],
    [["--help"], true],
    [[], false],
    [["--reporter=dot"], false],
    [["--junit-path=report.xml"], false],
    [["-A", "--filter", "average", "src/"], false],
    [["--", "--reporter=junit"], false],
  ];
  for (const [args, expected] of cases) {
    await t.step(args.join(" ") || "(none)", () => {
      strictEqual(denoTestPassthrough(args) !== null, expected);
    });
  }
});

Deno.test("denoTestFilter reads deno's stderr too and has no stage 1", () => {
  strictEqual(denoTestFilter.filterStderr, true);
  strictEqual(denoTestFilter.shape, undefined);
});

Deno.test("denoTestFilter turns a passing run into one line of counts", () => {
  const out = run(PASSING);
  strictEqual(out.text, "deno test: ok | 2 passed (3 steps) | 0 failed | 1 ignored (49ms)\n");
  deepStrictEqual(out.cut, ["2 running lines", "3 listed test lines", "5 passing test lines"]);
});

Deno.test("denoTestFilter keeps every error's name, location, message, source line and frames", () => {
  const out = run(FAILING, 1);
  deepStrictEqual(out.text.split("\n"), [
    "✖ math ... computes the average (./math_test.ts:41:11)",
    "  error: AssertionError: Expected values to be strictly equal:",
    "  2 !== 2.5",
    "  > assert.strictEqual(average([1, 2, 3, 4]), 2.5);",
    "  at file:///work/app/math_test.ts:42:12",
    "  at file:///work/app/math_test.ts:41:11",
    "✖ ./setup_test.ts (uncaught error)",
    "  error: (in promise) Error: fixture database is missing",
    '  > throw new Error("fixture database is missing");',
    "  at file:///work/app/setup_test.ts:1:7",
    "✖ parses the header (./strings_test.ts:34:6)",
    "  error: TypeError: Cannot read properties of undefined (reading 'split')",
    '  > const parseHeader = (value: string) => value.split(":");',
    "  at parseHeader (file:///work/app/lib.ts:8:46)",
    "  at file:///work/app/strings_test.ts:35:26",
    "loaded 3 fixtures",
    "deno test: FAILED | 1 passed (2 steps) | 3 failed (1 step) (1s)",
    "",
  ]);
  deepStrictEqual(out.cut, [
    "2 running lines",
    "6 listed test lines",
    "2 passing test lines",
    "3 code-frame lines",
    "2 lines of deno's advice",
    "3 repeated failures",
    "2 stack frames",
  ]);
});

Deno.test("denoTestFilter reads stdout and stderr together", () => {
  const out = run(`Check math_test.ts\n${PASSING}`);
  strictEqual(out.text, "deno test: ok | 2 passed (3 steps) | 0 failed | 1 ignored (49ms)\n");
  deepStrictEqual(out.cut, [
    "1 Check line",
    "2 running lines",
    "3 listed test lines",
    "5 passing test lines",
  ]);
});

Deno.test("denoTestFilter keeps a FAILURES entry that has no ERRORS entry", () => {
  const raw = ` FAILURES 

leaks a timer => ./a_test.ts:3:6

FAILED | 0 passed | 1 failed (5ms)
`;
  const lines = run(raw, 1).text.split("\n");
  strictEqual(lines[0], "✖ leaks a timer (./a_test.ts:3:6)");
});

Deno.test("denoTestFilter keeps type errors on stderr and cuts the Check lines and hints", () => {
  const out = run(TYPE_ERROR, 1);
  deepStrictEqual(out.text.split("\n"), [
    "TS2322 [ERROR]: Type 'string' is not assignable to type 'number'.",
    'const retries: number = "three";',
    "    at file:///work/app/types_test.ts:1:7",
    "",
    "error: Type checking failed.",
    "",
  ]);
  deepStrictEqual(out.cut, [
    "2 Check lines",
    "1 code-frame line",
    "2 lines of deno's advice",
    "2 backtrace lines",
  ]);
});

Deno.test("denoTestFilter keeps deno's last word on stderr after a failing run", () => {
  const raw = "Check math_test.ts\nerror: Test failed\n";
  deepStrictEqual(run(raw, 1), { text: "error: Test failed\n", cut: ["1 Check line"] });
});

Deno.test("denoTestFilter strips deno's colours", () => {
  const raw = "\x1b[0m\x1b[38;5;245mrunning 1 test from ./a_test.ts\x1b[0m\n" +
    "adds ... \x1b[0m\x1b[32mok\x1b[0m \x1b[0m\x1b[38;5;245m(433µs)\x1b[0m\n\n" +
    "\x1b[0m\x1b[32mok\x1b[0m | 1 passed | 0 failed \x1b[0m\x1b[38;5;245m(3ms)\x1b[0m\n";
  strictEqual(run(raw).text, "deno test: ok | 1 passed | 0 failed (3ms)\n");
});

Deno.test("denoTestFilter counts the dot reporter's progress", () => {
  const raw = "...!..\n\nok | 6 passed | 0 failed (12ms)\n";
  const out = run(raw, 0, ["--reporter=dot"]);
  strictEqual(out.text, "deno test: ok | 6 passed | 0 failed (12ms)\n");
  deepStrictEqual(out.cut, ["1 progress line"]);
});

Deno.test("denoTestFilter leaves output that is not deno's as it was", () => {
  deepStrictEqual(run(""), { text: "", cut: [] });
  const other = "hello from a script\n";
  deepStrictEqual(run(other), { text: other, cut: [] });
});
