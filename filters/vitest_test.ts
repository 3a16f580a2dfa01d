import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Filtered } from "../src/core/filter.ts";
import { vitestFilter, vitestPassthrough } from "./vitest.ts";

function run(raw: string, exitCode = 0, args: string[] = ["run"]): Filtered {
  return vitestFilter.filter(raw, { args, shaped: false, exitCode });
}

const PASSING = `
 RUN  v3.2.7 /work/app

 ✓ cache.test.js (10 tests) 5ms
 ✓ math.test.js (12 tests | 2 skipped) 5ms

 Test Files  2 passed (2)
      Tests  20 passed | 1 skipped | 1 todo (22)
   Start at  11:26:07
   Duration  1.32s (transform 91ms, setup 0ms, collect 86ms, tests 23ms, environment 1ms, prepare 334ms)

`;

const STDOUT = `
 RUN  v3.2.7 /work/app

 ❯ cache.test.js (3 tests | 1 failed) 18ms
   ✓ cache > eviction > keeps at most 1 entries 1ms
   × cache > eviction > evicts the oldest entry first 12ms
     → expected true to be false // Object.is equality
   ✓ cache > lookup > finds key 0 0ms
 ✓ collections.test.js (8 tests) 5ms
 ❯ math.test.js (4 tests | 1 failed | 2 skipped) 20ms
   ✓ math > adds 1 and 2 6ms
   × math > builds the config object 3ms
     → expected { name: 'rtok', retries: 2, …(1) } to deeply equal { name: 'rtok', retries: 3, …(1) }
   ↓ math > skips the slow path
   ↓ math > handles unicode

 Test Files  2 failed | 1 passed (3)
      Tests  2 failed | 11 passed | 1 skipped | 1 todo (15)
   Start at  11:26:12
   Duration  2.03s (transform 99ms, setup 0ms, collect 138ms, tests 60ms, environment 1ms, prepare 497ms)

`;

const STDERR = `
⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  broken.test.js [ broken.test.js ]
RollupError: Parse failure: Expression expected
At file: /work/app/broken.test.js:1:16
  File: /work/app/broken.test.js:1:16
  1  |  const retries = ;
     |                  ^
  2  |  test("never runs", () => {});
 ❯ getRollupError ../node_modules/rollup/dist/es/shared/parseAst.js:355:41
 ❯ convertProgram ../node_modules/rollup/dist/es/shared/parseAst.js:1179:26

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/3]⎯


⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  cache.test.js > cache > eviction > evicts the oldest entry first
AssertionError: expected true to be false // Object.is equality

- Expected
+ Received

- false
+ true

 ❯ cache.test.js:51:30
     49|       cache.set("b", 2);
     50|       cache.set("c", 3);
     51|       expect(cache.has("a")).toBe(false);
       |                              ^
     52|     });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/3]⎯

 FAIL  math.test.js > math > builds the config object
AssertionError: expected { name: 'rtok', retries: 2, …(1) } to deeply equal { name: 'rtok', retries: 3, …(1) }

- Expected
+ Received

  {
    "name": "rtok",
-   "retries": 3,
+   "retries": 2,
  }

 ❯ math.test.js:45:22
     44|   test("builds the config object", () => {
     45|     expect(config()).toEqual({ name: "rtok", retries: 3 });
       |                      ^

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[3/3]⎯

`;

Deno.test("vitestPassthrough defers to machine reporters, other subcommands and watch mode", async (t) => {
  const cases: [string[], boolean][] = [
    [["run", "--reporter=json"], true],
    [["run", "--reporter", "junit"], true],
    [["run", "--reporter=tap-flat"], true],
    [["list"], true],
    [["--watch"], true],
    [["--version"], true],
    [["run"], false],
    [["run", "--reporter=verbose"], false],
    [["run", "--reporter", "dot"], false],
    [["run", "src/a.test.ts", "-t", "average"], false],
    [["run", "--", "--reporter=json"], false],
  ];
  for (const [args, expected] of cases) {
    await t.step(args.join(" "), () => strictEqual(vitestPassthrough(args) !== null, expected));
  }
});

Deno.test("vitestFilter reads both streams and has no stage 1", () => {
  strictEqual(vitestFilter.filterStderr, true);
  strictEqual(vitestFilter.shape, undefined);
});

Deno.test("vitestFilter turns a passing run into one line of counts", () => {
  const out = run(PASSING);
  strictEqual(
    out.text,
    "vitest: Test Files 2 passed (2); Tests 20 passed | 1 skipped | 1 todo (22); Duration 1.32s\n",
  );
  deepStrictEqual(out.cut, ["2 banner lines", "2 passing file lines"]);
});

Deno.test("vitestFilter keeps each failing test of stdout under its file, with its message", () => {
  const out = run(STDOUT, 1);
  deepStrictEqual(out.text.split("\n"), [
    "❯ cache.test.js (3 tests | 1 failed)",
    "✖ cache > eviction > evicts the oldest entry first",
    "  expected true to be false // Object.is equality",
    "❯ math.test.js (4 tests | 1 failed | 2 skipped)",
    "✖ math > builds the config object",
    "  expected { name: 'rtok', retries: 2, …(1) } to deeply equal { name: 'rtok', retries: 3, …(1) }",
    "vitest: Test Files 2 failed | 1 passed (3); Tests 2 failed | 11 passed | 1 skipped | 1 todo (15); Duration 2.03s",
    "",
  ]);
  deepStrictEqual(out.cut, [
    "2 banner lines",
    "3 passing test lines",
    "1 passing file line",
    "2 skipped test lines",
  ]);
});

Deno.test("vitestFilter keeps each failure of stderr with its message, diff, source line and location", () => {
  const out = run(STDERR, 1);
  deepStrictEqual(out.text.split("\n"), [
    "Failed Suites 1",
    "✖ broken.test.js [ broken.test.js ]",
    "  RollupError: Parse failure: Expression expected",
    "  At file: /work/app/broken.test.js:1:16",
    "  > 1  | const retries = ;",
    "Failed Tests 2",
    "✖ cache.test.js > cache > eviction > evicts the oldest entry first",
    "  AssertionError: expected true to be false // Object.is equality",
    '  > 51| expect(cache.has("a")).toBe(false);',
    "  ❯ cache.test.js:51:30",
    "✖ math.test.js > math > builds the config object",
    "  AssertionError: expected { name: 'rtok', retries: 2, …(1) } to deeply equal { name: 'rtok', retries: 3, …(1) }",
    "  - Expected",
    "  + Received",
    "    {",
    '      "name": "rtok",',
    '  -   "retries": 3,',
    '  +   "retries": 2,',
    "    }",
    '  > 45| expect(config()).toEqual({ name: "rtok", retries: 3 });',
    "  ❯ math.test.js:45:22",
    "",
  ]);
  deepStrictEqual(out.cut, ["8 code-frame lines", "4 diff lines", "2 stack frames"]);
});

Deno.test("vitestFilter keeps a diff the message does not give whole", () => {
  const raw = ` FAIL  a.test.js > formats
AssertionError: expected 'a very long string that vitest shor…' to be 'another long string'

- Expected
+ Received

- another long string
+ a very long string that vitest shortens in the message

 ❯ a.test.js:3:20
`;
  const lines = run(raw, 1).text.split("\n");
  ok(lines.includes("  - another long string"));
  ok(lines.includes("  + a very long string that vitest shortens in the message"));
});

Deno.test("vitestFilter shows a failure once when stdout and stderr come together", () => {
  const merged = STDOUT.replace(/\n\n Test Files[\s\S]*$/, "\n") + STDERR +
    STDOUT.slice(STDOUT.indexOf(" Test Files"));
  const out = run(merged, 1);
  strictEqual(out.text.split("✖ cache.test.js > cache > eviction > evicts the oldest").length, 2);
  ok(!out.text.includes("✖ cache > eviction > evicts the oldest entry first"));
  ok(out.cut.includes("2 repeated failures"), out.cut.join());
  ok(out.text.includes("vitest: Test Files 2 failed | 1 passed (3)"));
});

Deno.test("vitestFilter strips the colours vitest prints in CI", () => {
  const raw = [
    "\x1b[1m\x1b[46m RUN \x1b[49m\x1b[22m \x1b[36mv3.2.7 \x1b[39m\x1b[90m/work/app\x1b[39m",
    " \x1b[32m✓\x1b[39m a.test.js \x1b[2m(\x1b[22m\x1b[2m3 tests\x1b[22m\x1b[2m)\x1b[22m\x1b[32m 4\x1b[2mms\x1b[22m\x1b[39m",
    "\x1b[2m Test Files \x1b[22m \x1b[1m\x1b[32m1 passed\x1b[39m\x1b[22m\x1b[90m (1)\x1b[39m",
    "\x1b[2m      Tests \x1b[22m \x1b[1m\x1b[32m3 passed\x1b[39m\x1b[22m\x1b[90m (3)\x1b[39m",
    "",
  ].join("\n");
  strictEqual(run(raw).text, "vitest: Test Files 1 passed (1); Tests 3 passed (3)\n");
});

Deno.test("vitestFilter counts the dot reporter's progress", () => {
  const raw = `·······x··

 Test Files  1 failed (1)
      Tests  1 failed | 9 passed (10)
`;
  const out = run(raw, 1, ["run", "--reporter=dot"]);
  strictEqual(out.text, "vitest: Test Files 1 failed (1); Tests 1 failed | 9 passed (10)\n");
  deepStrictEqual(out.cut, ["1 progress line"]);
});

Deno.test("vitestFilter keeps the coverage table the caller asked for whole", () => {
  const rows = Array.from({ length: 60 }, (_, k) => ` src/f${k}.ts |     100 |      100 |`);
  const raw = `${PASSING.trimEnd()}

 % Coverage report from v8
----------|---------|----------|
File      | % Stmts | % Branch |
----------|---------|----------|
${rows.join("\n")}
`;
  const out = run(raw, 0, ["run", "--coverage"]);
  const lines = out.text.split("\n");
  strictEqual(
    lines[0],
    "vitest: Test Files 2 passed (2); Tests 20 passed | 1 skipped | 1 todo (22); Duration 1.32s",
  );
  strictEqual(lines[1], " % Coverage report from v8");
  for (const row of rows) ok(lines.includes(row), row);
  deepStrictEqual(out.cut, ["2 banner lines", "2 passing file lines"]);
});

Deno.test("vitestFilter leaves output that is not vitest's report as it was", () => {
  deepStrictEqual(run(""), { text: "", cut: [] });
  const other = "Error: Cannot find module 'vite'\n    at foo (x.js:1:1)\n";
  deepStrictEqual(run(other, 1), { text: other, cut: [] });
});
