import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Filtered } from "../src/core/filter.ts";
import { mochaFilter, mochaPassthrough } from "./mocha.ts";

function run(raw: string, exitCode = 0, args: string[] = []): Filtered {
  return mochaFilter.filter(raw, { args, shaped: false, exitCode });
}

const PASSING = `

  ✔ pads "alpha" to width 8
  ✔ parses the header
  cache
    eviction
      ✔ keeps at most 1 entries
      ✔ keeps at most 2 entries (112ms)
  math
    ✔ adds 1 and 2
    - skips the slow path
    - handles unicode


  5 passing (133ms)
  2 pending

`;

const FAILING = `

  ✔ pads "alpha" to width 8
  1) parses the header
  cache
    eviction
      ✔ keeps at most 1 entries
      2) evicts the oldest entry first
  math
    3) builds the config object
    - skips the slow path


  2 passing (33ms)
  1 pending
  3 failing

  1) parses the header:
     TypeError: Cannot read properties of undefined (reading 'split')
      at parseHeader (lib.js:8:38)
      at Context.<anonymous> (test/strings.test.js:35:26)
      at process.processImmediate (node:internal/timers:483:21)

  2) cache
       eviction
         evicts the oldest entry first:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

true !== false

      + expected - actual

      -true
      +false
      
      at Context.<anonymous> (test/cache.test.js:51:14)
      at process.processImmediate (node:internal/timers:483:21)

  3) math
       builds the config object:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:
+ actual - expected

  {
    name: 'rtok',
+   retries: 2
-   retries: 3
  }
      + expected - actual

       {
         "name": "rtok"
      -  "retries": 2
      +  "retries": 3
       }
      
      at Context.<anonymous> (test/math.test.js:45:12)
      at process.processImmediate (node:internal/timers:483:21)



`;

Deno.test("mochaPassthrough defers to machine reporters and listings", async (t) => {
  const cases: [string[], boolean][] = [
    [["--reporter", "json"], true],
    [["--reporter=xunit"], true],
    [["-R", "tap"], true],
    [["-R", "mochawesome"], true],
    [["--list-reporters"], true],
    [["--watch"], true],
    [["--version"], true],
    [[], false],
    [["--reporter", "dot"], false],
    [["-R", "spec", "test/a.test.js"], false],
    [["--grep", "json", "--bail"], false],
    [["--", "--reporter=json"], false],
  ];
  for (const [args, expected] of cases) {
    await t.step(args.join(" ") || "(none)", () => {
      strictEqual(mochaPassthrough(args) !== null, expected);
    });
  }
});

Deno.test("mochaFilter reads mocha's stderr too and has no stage 1", () => {
  strictEqual(mochaFilter.filterStderr, true);
  strictEqual(mochaFilter.shape, undefined);
});

Deno.test("mochaFilter turns a passing run into one line of counts", () => {
  const out = run(PASSING);
  strictEqual(out.text, "mocha: 5 passing (133ms); 2 pending\n");
  deepStrictEqual(out.cut, ["5 passing test lines", "5 listing lines"]);
});

Deno.test("mochaFilter keeps every failing test's title, message, diff and location", () => {
  const out = run(FAILING, 3);
  deepStrictEqual(out.text.split("\n"), [
    "✖ parses the header",
    "  TypeError: Cannot read properties of undefined (reading 'split')",
    "  at parseHeader (lib.js:8:38)",
    "  at Context.<anonymous> (test/strings.test.js:35:26)",
    "✖ cache › eviction › evicts the oldest entry first",
    "  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
    "  true !== false",
    "  at Context.<anonymous> (test/cache.test.js:51:14)",
    "✖ math › builds the config object",
    "  AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:",
    "  + actual - expected",
    "    {",
    "      name: 'rtok',",
    "  +   retries: 2",
    "  -   retries: 3",
    "    }",
    "  at Context.<anonymous> (test/math.test.js:45:12)",
    "mocha: 2 passing (33ms); 1 pending; 3 failing",
    "mocha: failed with exit code 3",
    "",
  ]);
  deepStrictEqual(out.cut, [
    "2 passing test lines",
    "7 listing lines",
    "9 diff lines",
    "3 stack frames",
  ]);
});

Deno.test("mochaFilter keeps mocha's diff when the message does not show the values", () => {
  const raw = `  0 passing (3ms)
  1 failing

  1) formats:

      AssertionError [ERR_ASSERTION]: the header is wrong
      + expected - actual

      -a:b
      +a-b
      
      at Context.<anonymous> (test/a.test.js:3:10)

`;
  const lines = run(raw, 1).text.split("\n");
  ok(lines.includes("  AssertionError [ERR_ASSERTION]: the header is wrong"));
  ok(lines.includes("  + expected - actual"));
  ok(lines.includes("  -a:b") && lines.includes("  +a-b"));
});

Deno.test("mochaFilter keeps a file that failed to load without node's frames", () => {
  const raw = `
 Exception during run: /work/app/test/broken.test.js:1
const retries = ;
                ^

SyntaxError: Unexpected token ';'
    at wrapSafe (node:internal/modules/cjs/loader:1464:18)
    at Module._compile (node:internal/modules/cjs/loader:1495:20)
    at async formattedImport (/work/app/node_modules/mocha/lib/nodejs/esm-utils.cjs:11:14)
`;
  const out = run(raw, 1);
  deepStrictEqual(out.text.split("\n"), [
    " Exception during run: /work/app/test/broken.test.js:1",
    "const retries = ;",
    "                ^",
    "",
    "SyntaxError: Unexpected token ';'",
    "mocha: failed with exit code 1",
    "",
  ]);
  deepStrictEqual(out.cut, ["3 stack frames"]);
});

Deno.test("mochaFilter counts the dot reporter's progress and keeps a test's console output", () => {
  const raw = `
  ․․․․․․․,․
loading fixtures from disk

  8 passing (12ms)
  1 pending

`;
  const out = run(raw, 0, ["--reporter", "dot"]);
  strictEqual(out.text, "mocha: 8 passing (12ms); 1 pending\nloading fixtures from disk\n");
  deepStrictEqual(out.cut, ["1 listing line"]);
});

Deno.test("mochaFilter strips colours", () => {
  const raw =
    "\x1b[32m  ✔\x1b[0m\x1b[90m adds\x1b[0m\n\n\x1b[92m \x1b[0m\x1b[32m 1 passing\x1b[0m\x1b[90m (2ms)\x1b[0m\n";
  strictEqual(run(raw).text, "mocha: 1 passing (2ms)\n");
});

Deno.test("mochaFilter leaves output that is not mocha's as it was", () => {
  deepStrictEqual(run(""), { text: "", cut: [] });
  const other = "some script output\nwith two lines\n";
  deepStrictEqual(run(other), { text: other, cut: [] });
});
