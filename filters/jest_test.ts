import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Filtered } from "../src/core/filter.ts";
import { jestFilter, jestPassthrough } from "./jest.ts";

function run(raw: string, exitCode = 0, args: string[] = []): Filtered {
  return jestFilter.filter(raw, { args, shaped: false, exitCode });
}

const PASSING = `PASS ./cache.test.js
PASS ./math.test.js (5.2 s)

Test Suites: 2 passed, 2 total
Tests:       1 skipped, 1 todo, 18 passed, 20 total
Snapshots:   0 total
Time:        0.666 s
Ran all test suites.
`;

const VERBOSE = `PASS ./cache.test.js
  cache
    eviction
      ✓ keeps at most 1 entries (11 ms)
      ✓ keeps at most 2 entries (1 ms)
    lookup
      ✓ finds key 0

PASS ./math.test.js
  math
    ✓ adds 1 and 2 (3 ms)
    ○ skipped skips the slow path
    ✎ todo handles unicode

Test Suites: 2 passed, 2 total
Tests:       1 skipped, 1 todo, 4 passed, 6 total
Snapshots:   0 total
Time:        1.297 s
Ran all test suites.
`;

const FAILING = `PASS ./collections.test.js
FAIL ./math.test.js
  ● math › computes the average

    expect(received).toBe(expected) // Object.is equality

    Expected: 2.5
    Received: 2

      40 |   });
      41 |   test("computes the average", () => {
    > 42 |     expect(average([1, 2, 3, 4])).toBe(2.5);
         |                                   ^
      43 |   });

      at Object.toBe (math.test.js:42:35)

  ● math › builds the config object

    expect(received).toEqual(expected) // deep equality

    - Expected  - 1
    + Received  + 1

      Object {
        "name": "rtok",
    -   "retries": 3,
    +   "retries": 2,
      }

    > 45 |     expect(config()).toEqual({ name: "rtok", retries: 3 });
         |                      ^

      at Object.toEqual (math.test.js:45:22)

FAIL ./strings.test.js
  ● parses the header

    TypeError: Cannot read properties of undefined (reading 'split')

    > 8 | const parseHeader = (value) => value.split(":");
        |                                      ^

      at split (lib.js:8:38)
      at Object.parseHeader (strings.test.js:35:10)
      at Promise.finally.completed (../node_modules/jest-circus/build/jestAdapterInit.js:1834:28)
      at new Promise (<anonymous>)

FAIL ./broken.test.js
  ● Test suite failed to run

    Jest encountered an unexpected token

    Jest failed to parse a file. This happens e.g. when your code or its dependencies use non-standard JavaScript syntax, or when Jest is not configured to support such syntax.

    Out of the box Jest supports Babel, which will be used to transform your files into valid JS based on your Babel configuration.

    Details:

    SyntaxError: /work/app/broken.test.js: Unexpected token (1:16)

    > 1 | const retries = ;
        |                 ^
      2 | test("never runs", () => {});

      at constructor (../node_modules/@babel/parser/src/parse-error.ts:96:45)
      at Parser.toParseError [as raise] (../node_modules/@babel/parser/src/tokenizer/index.ts:1563:19)

Test Suites: 3 failed, 1 passed, 4 total
Tests:       3 failed, 1 skipped, 1 todo, 31 passed, 36 total
Snapshots:   0 total
Time:        0.808 s
Ran all test suites.
`;

Deno.test("jestPassthrough defers to jest's machine formats and interactive modes", async (t) => {
  const cases: [string[], boolean][] = [
    [["--json"], true],
    [["--json", "--outputFile=r.json"], true],
    [["--listTests"], true],
    [["--showConfig"], true],
    [["--watch"], true],
    [["--watchAll=true"], true],
    [["--version"], true],
    [["--reporters=jest-junit"], true],
    [["--reporters", "jest-junit"], true],
    [["--reporters=default"], false],
    [["--reporters", "summary"], false],
    [[], false],
    [["--verbose", "src/a.test.js"], false],
    [["-t", "average", "--ci"], false],
    [["--", "--json"], false],
  ];
  for (const [args, expected] of cases) {
    await t.step(args.join(" ") || "(none)", () => {
      strictEqual(jestPassthrough(args) !== null, expected);
    });
  }
});

Deno.test("jestFilter reads jest's report on stderr and has no stage 1", () => {
  strictEqual(jestFilter.filterStderr, true);
  strictEqual(jestFilter.shape, undefined);
  strictEqual(jestFilter.name, "jest");
});

Deno.test("jestFilter turns a passing run into one line of counts", () => {
  const out = run(PASSING);
  strictEqual(
    out.text,
    "jest: Test Suites: 2 passed, 2 total; Tests: 1 skipped, 1 todo, 18 passed, 20 total; Time: 0.666 s\n",
  );
  deepStrictEqual(out.cut, ["2 PASS lines"]);
});

Deno.test("jestFilter counts the --verbose listing instead of showing it", () => {
  const out = run(VERBOSE, 0, ["--verbose"]);
  strictEqual(out.text.split("\n").length, 2);
  ok(
    out.text.startsWith("jest: Test Suites: 2 passed, 2 total; Tests: 1 skipped, 1 todo, 4 passed"),
  );
  deepStrictEqual(out.cut, [
    "2 PASS lines",
    "4 group names",
    "4 passing test lines",
    "2 listed test lines",
  ]);
});

Deno.test("jestFilter keeps every failing test's name, message, diff, source line and location", () => {
  const out = run(FAILING, 1);
  const lines = out.text.split("\n");
  for (
    const fact of [
      "FAIL ./math.test.js",
      "✖ math › computes the average",
      "  expect(received).toBe(expected) // Object.is equality",
      "  Expected: 2.5",
      "  Received: 2",
      "  > 42 | expect(average([1, 2, 3, 4])).toBe(2.5);",
      "  at Object.toBe (math.test.js:42:35)",
      "✖ math › builds the config object",
      "  - Expected  - 1",
      '  -   "retries": 3,',
      '  +   "retries": 2,',
      "  at Object.toEqual (math.test.js:45:22)",
      "FAIL ./strings.test.js",
      "✖ parses the header",
      "  TypeError: Cannot read properties of undefined (reading 'split')",
      "  at split (lib.js:8:38)",
      "  at Object.parseHeader (strings.test.js:35:10)",
      "jest: Test Suites: 3 failed, 1 passed, 4 total; Tests: 3 failed, 1 skipped, 1 todo, 31 passed, 36 total; Time: 0.808 s",
    ]
  ) ok(lines.includes(fact), fact);
  ok(!out.text.includes("PASS ./collections.test.js"));
  ok(!out.text.includes("jestAdapterInit"), "runner frames are cut");
  ok(!out.text.includes("40 |"), "the rest of the code frame is cut");
});

Deno.test("jestFilter keeps a parse error without jest's advice or babel's frames", () => {
  const out = run(FAILING, 1);
  const block = out.text.slice(out.text.indexOf("FAIL ./broken.test.js"));
  ok(block.startsWith(`FAIL ./broken.test.js
✖ Test suite failed to run
  Jest encountered an unexpected token
  SyntaxError: /work/app/broken.test.js: Unexpected token (1:16)
  > 1 | const retries = ;
`));
  ok(!out.text.includes("Out of the box"));
  ok(!out.text.includes("@babel/parser"));
  ok(out.cut.includes("2 lines of jest's advice"), out.cut.join());
  ok(out.cut.includes("4 stack frames"), out.cut.join());
});

Deno.test("jestFilter shows a failure once when jest's summary repeats it", () => {
  const failure = `FAIL ./a.test.js
  ● adds

    expect(received).toBe(expected) // Object.is equality

      at Object.toBe (a.test.js:3:5)

`;
  const raw = `${failure}Summary of all failing tests\n${failure}Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
`;
  const out = run(raw, 1);
  strictEqual(out.text.split("✖ adds").length, 2);
  strictEqual(out.text.split("FAIL ./a.test.js").length, 2);
  ok(out.cut.includes("1 repeated failure"));
});

Deno.test("jestFilter keeps a test's console output without jest's frame", () => {
  const raw = `  console.log
    user loaded: { id: 1 }

      at Object.log (a.test.js:4:13)

PASS ./a.test.js
Test Suites: 1 passed, 1 total
Tests:       2 passed, 2 total
`;
  const out = run(raw);
  deepStrictEqual(out.text.split("\n"), [
    "jest: Test Suites: 1 passed, 1 total; Tests: 2 passed, 2 total",
    "console.log: user loaded: { id: 1 }",
    "",
  ]);
  deepStrictEqual(out.cut, ["1 stack frame", "1 PASS line"]);
});

Deno.test("jestFilter strips colours the way jest prints them with FORCE_COLOR", () => {
  const raw = [
    "\x1b[0m\x1b[7m\x1b[1m\x1b[32m PASS \x1b[39m\x1b[22m\x1b[27m\x1b[0m \x1b[2m./\x1b[22m\x1b[1ma.test.js\x1b[22m",
    "\x1b[1mTests:       \x1b[22m\x1b[1m\x1b[32m2 passed\x1b[39m\x1b[22m, 2 total",
    "\x1b[1mTime:\x1b[22m        0.655 s, estimated 1 s",
    "",
  ].join("\n");
  const out = run(raw);
  strictEqual(out.text, "jest: Tests: 2 passed, 2 total; Time: 0.655 s, estimated 1 s\n");
  deepStrictEqual(out.cut, ["1 PASS line"]);
});

Deno.test("jestFilter says a run failed when the exit code does and no line does", () => {
  const raw = `PASS ./a.test.js
Test Suites: 1 passed, 1 total
Tests:       2 passed, 2 total
Jest: "global" coverage threshold for lines (90%) not met: 50%
`;
  const lines = run(raw, 1).text.split("\n");
  strictEqual(lines[0], "jest: Test Suites: 1 passed, 1 total; Tests: 2 passed, 2 total");
  strictEqual(lines[1], 'Jest: "global" coverage threshold for lines (90%) not met: 50%');
  strictEqual(lines[2], "jest: failed with exit code 1");
});

Deno.test("jestFilter leaves output that is not jest's report as it was", () => {
  deepStrictEqual(run(""), { text: "", cut: [] });
  const coverage = `----------|---------|----------|
File      | % Stmts | % Branch |
----------|---------|----------|
All files |     100 |      100 |
`;
  deepStrictEqual(run(coverage), { text: coverage, cut: [] });
  const none = "No tests found, exiting with code 1\nIn /work/app\n  0 matches\n";
  deepStrictEqual(run(none, 1), { text: none, cut: [] });
});
