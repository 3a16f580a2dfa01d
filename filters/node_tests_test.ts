import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Filtered } from "../src/core/filter.ts";
import { nodeTestFilter, nodeTestPassthrough } from "./node_tests.ts";

function run(raw: string, exitCode = 0, args: string[] = ["--test"]): Filtered {
  return nodeTestFilter.filter(raw, { args, shaped: false, exitCode });
}

const TAP_PASSING = `TAP version 13
# Subtest: math
    # Subtest: adds 1 and 2
    ok 1 - adds 1 and 2
      ---
      duration_ms: 1.036254
      ...
    # Subtest: skips the slow path
    ok 2 - skips the slow path # SKIP
      ---
      duration_ms: 0.135818
      ...
    # Subtest: handles unicode
    ok 3 - handles unicode # TODO
      ---
      duration_ms: 0.235666
      ...
    1..3
ok 1 - math
  ---
  duration_ms: 6.11719
  type: 'suite'
  ...
# Subtest: uppercases
ok 2 - uppercases
  ---
  duration_ms: 1.420353
  ...
1..2
# tests 4
# suites 1
# pass 2
# fail 0
# cancelled 0
# skipped 1
# todo 1
# duration_ms 427.618496
`;

const TAP_FAILING = `TAP version 13
# /work/app/broken.test.js:1
# const retries = ;
#                 ^
# SyntaxError: Unexpected token ';'
#     at wrapSafe (node:internal/modules/cjs/loader:1464:18)
#     at node:internal/main/run_main_module:28:49
# Node.js v20.20.2
# Subtest: /work/app/broken.test.js
not ok 1 - /work/app/broken.test.js
  ---
  duration_ms: 130.758533
  location: '/work/app/broken.test.js:1:1'
  failureType: 'testCodeFailure'
  exitCode: 1
  signal: ~
  error: 'test failed'
  code: 'ERR_TEST_FAILURE'
  ...
# Subtest: math
    # Subtest: computes the average
    not ok 1 - computes the average
      ---
      duration_ms: 1.345102
      location: '/work/app/math.test.js:6:3'
      failureType: 'testCodeFailure'
      error: |-
        Expected values to be strictly equal:
        
        2 !== 2.5
        
      code: 'ERR_ASSERTION'
      name: 'AssertionError'
      expected: 2.5
      actual: 2
      operator: 'strictEqual'
      stack: |-
        TestContext.<anonymous> (/work/app/math.test.js:6:45)
        Test.runInAsyncScope (node:async_hooks:206:9)
        Test.run (node:internal/test_runner/test:796:25)
      ...
    # Subtest: checks the name
    not ok 2 - checks the name
      ---
      duration_ms: 0.5
      location: '/work/app/math.test.js:9:3'
      failureType: 'testCodeFailure'
      error: 'the name is wrong'
      code: 'ERR_ASSERTION'
      name: 'AssertionError'
      expected:
        name: 'rtok'
      actual:
        name: 'rtk'
      operator: 'deepStrictEqual'
      stack: |-
        TestContext.<anonymous> (/work/app/math.test.js:10:12)
      ...
    1..2
not ok 2 - math
  ---
  duration_ms: 6.11719
  type: 'suite'
  location: '/work/app/math.test.js:4:1'
  failureType: 'subtestsFailed'
  error: '2 subtests failed'
  code: 'ERR_TEST_FAILURE'
  ...
# Subtest: parses the header
not ok 3 - parses the header
  ---
  duration_ms: 0.331839
  location: '/work/app/strings.test.js:5:1'
  failureType: 'testCodeFailure'
  error: "Cannot read properties of undefined (reading 'split')"
  code: 'ERR_TEST_FAILURE'
  name: 'TypeError'
  stack: |-
    exports.parseHeader (/work/app/lib.js:3:40)
    TestContext.<anonymous> (/work/app/strings.test.js:5:58)
    Test.runInAsyncScope (node:async_hooks:206:9)
  ...
1..3
# tests 4
# suites 1
# pass 0
# fail 4
# cancelled 0
# skipped 0
# todo 0
# duration_ms 527.1
`;

const SPEC_FAILING = `/work/app/broken.test.js:1
const retries = ;
                ^

SyntaxError: Unexpected token ';'
    at wrapSafe (node:internal/modules/cjs/loader:1464:18)

Node.js v20.20.2
✖ /work/app/broken.test.js (130.995653ms)
  'test failed'

▶ math
  ✔ adds two numbers (1.030734ms)
  ✖ computes the average (1.64566ms)
    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
    
    2 !== 2.5
    
        at TestContext.<anonymous> (/work/app/math.test.js:6:45)
        at Test.runInAsyncScope (node:async_hooks:206:9) {
      generatedMessage: true,
      code: 'ERR_ASSERTION',
      actual: 2,
      expected: 2.5,
      operator: 'strictEqual'
    }

  ﹣ skips the slow path (0.223453ms) # SKIP
✖ math (6.969656ms)
ℹ tests 4
ℹ suites 1
ℹ pass 1
ℹ fail 2
ℹ cancelled 0
ℹ skipped 1
ℹ todo 0
ℹ duration_ms 535.266868

✖ failing tests:

test at broken.test.js:1:1
✖ /work/app/broken.test.js (130.995653ms)
  'test failed'

test at math.test.js:6:3
✖ computes the average (1.64566ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
  
  2 !== 2.5
  
      at TestContext.<anonymous> (/work/app/math.test.js:6:45)
      at Test.runInAsyncScope (node:async_hooks:206:9) {
    generatedMessage: true,
    code: 'ERR_ASSERTION',
    actual: 2,
    expected: 2.5,
    operator: 'strictEqual'
  }
`;

Deno.test("nodeTestPassthrough defers to machine reporters and watch mode", async (t) => {
  const cases: [string[], boolean][] = [
    [["--test", "--test-reporter=tap"], true],
    [["--test", "--test-reporter", "junit"], true],
    [["--test", "--test-reporter=lcov", "--test-reporter-destination=lcov.info"], true],
    [["--test", "--test-reporter=./my-reporter.mjs"], true],
    [["--test", "--watch"], true],
    [["--test"], false],
    [["--test", "--test-reporter=spec"], false],
    [["--test", "--test-reporter", "dot", "test/"], false],
    [["--test", "--test-name-pattern", "average"], false],
  ];
  for (const [args, expected] of cases) {
    await t.step(args.join(" "), () => strictEqual(nodeTestPassthrough(args) !== null, expected));
  }
});

Deno.test("nodeTestFilter turns a passing TAP run into one line of counts", () => {
  const out = run(TAP_PASSING);
  strictEqual(
    out.text,
    "node --test: tests 4, suites 1, pass 2, fail 0, cancelled 0, skipped 1, todo 1, duration_ms 428\n",
  );
  deepStrictEqual(out.cut, ["3 passing test lines", "2 skipped test lines"]);
});

Deno.test("nodeTestFilter keeps every failing TAP test's title, location, message and frames", () => {
  const out = run(TAP_FAILING, 1);
  deepStrictEqual(out.text.split("\n"), [
    "✖ /work/app/broken.test.js",
    "  test failed (exit code 1)",
    "  /work/app/broken.test.js:1",
    "  const retries = ;",
    "                  ^",
    "  SyntaxError: Unexpected token ';'",
    "  Node.js v20.20.2",
    "✖ math › computes the average (/work/app/math.test.js:6:3)",
    "  AssertionError: Expected values to be strictly equal:",
    "  2 !== 2.5",
    "  at TestContext.<anonymous> (/work/app/math.test.js:6:45)",
    "✖ math › checks the name (/work/app/math.test.js:9:3)",
    "  AssertionError: the name is wrong",
    "  expected: name: 'rtok'",
    "  actual: name: 'rtk'",
    "  at TestContext.<anonymous> (/work/app/math.test.js:10:12)",
    "✖ parses the header (/work/app/strings.test.js:5:1)",
    "  TypeError: Cannot read properties of undefined (reading 'split')",
    "  at exports.parseHeader (/work/app/lib.js:3:40)",
    "  at TestContext.<anonymous> (/work/app/strings.test.js:5:58)",
    "node --test: tests 4, suites 1, pass 0, fail 4, cancelled 0, skipped 0, todo 0, duration_ms 527",
    "",
  ]);
  ok(out.cut.includes("1 failed suite line"), out.cut.join());
  ok(out.cut.includes("5 stack frames"), out.cut.join());
});

Deno.test("nodeTestFilter reads the spec reporter's failing-tests section once", () => {
  const out = run(SPEC_FAILING, 1, ["--test", "--test-reporter=spec"]);
  deepStrictEqual(out.text.split("\n"), [
    "✖ /work/app/broken.test.js (broken.test.js:1:1)",
    "  'test failed'",
    "✖ computes the average (math.test.js:6:3)",
    "  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
    "  2 !== 2.5",
    "  at TestContext.<anonymous> (/work/app/math.test.js:6:45)",
    "/work/app/broken.test.js:1",
    "const retries = ;",
    "                ^",
    "SyntaxError: Unexpected token ';'",
    "Node.js v20.20.2",
    "node --test: tests 4, suites 1, pass 1, fail 2, cancelled 0, skipped 1, todo 0, duration_ms 535",
    "",
  ]);
  deepStrictEqual(out.cut, [
    "1 suite line",
    "1 passing test line",
    "1 skipped test line",
    "1 failed suite line",
    "2 repeated failures",
    "5 error property lines",
    "2 stack frames",
  ]);
});

Deno.test("nodeTestFilter keeps actual and expected when the message does not show them", () => {
  const raw = `✖ checks the name (0.5ms)
  AssertionError [ERR_ASSERTION]: the name is wrong
      at TestContext.<anonymous> (/work/app/a.test.js:3:10) {
    generatedMessage: false,
    code: 'ERR_ASSERTION',
    actual: 'rtk',
    expected: 'rtok',
    operator: 'strictEqual'
  }
ℹ tests 1
ℹ fail 1
`;
  const lines = run(raw, 1, ["--test", "--test-reporter=spec"]).text.split("\n");
  ok(lines.includes("  actual: 'rtk'") && lines.includes("  expected: 'rtok'"), lines.join("\n"));
});

Deno.test("nodeTestFilter reads the dot reporter's failed tests", () => {
  const raw = `.X.

Failed tests:

✖ computes the average (1.562302ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
  
  2 !== 2.5
  
      at TestContext.<anonymous> (/work/app/math.test.js:6:45)
      at Test.runInAsyncScope (node:async_hooks:206:9) {
    generatedMessage: true,
    code: 'ERR_ASSERTION',
    actual: 2,
    expected: 2.5,
    operator: 'strictEqual'
  }
`;
  const out = run(raw, 1, ["--test", "--test-reporter=dot"]);
  deepStrictEqual(out.text.split("\n"), [
    "✖ computes the average",
    "  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
    "  2 !== 2.5",
    "  at TestContext.<anonymous> (/work/app/math.test.js:6:45)",
    "node --test: failed with exit code 1",
    "",
  ]);
  ok(out.cut.includes("1 progress line"));
});

Deno.test("nodeTestFilter keeps what a test printed", () => {
  const raw = TAP_PASSING.replace(
    "# Subtest: uppercases",
    "# loaded 3 fixtures\n# Subtest: uppercases",
  );
  const lines = run(raw).text.split("\n");
  strictEqual(lines[1], "loaded 3 fixtures");
});

Deno.test("nodeTestFilter strips colours of the spec reporter", () => {
  const raw =
    "\x1b[32m✔ adds (1.2ms)\x1b[39m\n\x1b[34mℹ tests 1\x1b[39m\n\x1b[34mℹ pass 1\x1b[39m\n";
  strictEqual(run(raw).text, "node --test: tests 1, pass 1\n");
});

Deno.test("nodeTestFilter leaves output that is not a test report as it was", () => {
  deepStrictEqual(run(""), { text: "", cut: [] });
  const other = "node: bad option: --tset\n";
  deepStrictEqual(run(other, 9), { text: other, cut: [] });
});
