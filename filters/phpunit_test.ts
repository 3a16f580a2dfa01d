import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { PHPUNIT_TRACE_SHOWN, phpunitFilter, phpunitPassthrough } from "./phpunit.ts";

function run(raw: string, exitCode = 2) {
  return phpunitFilter.filter(raw, { args: [], shaped: false, exitCode });
}

const HEADER = `PHPUnit 9.6.7 by Sebastian Bergmann and contributors.

Runtime:       PHP 8.2.36
Configuration: /srv/app/phpunit.xml

`;

const REPORT = `Time: 00:00.011, Memory: 6.00 MB

There were 2 errors:

1) CheckoutTest::testReserveUnknownSku
OutOfRangeException: unknown SKU: kiwi

/srv/app/src/Shop.php:23
/srv/app/src/Shop.php:16
/srv/app/tests/Feature/CheckoutTest.php:28

2) CheckoutTest::testPaymentGateway
RuntimeException: payment gateway unreachable

/srv/app/tests/Feature/CheckoutTest.php:40

--

There were 2 failures:

1) CheckoutTest::testLineItems
Failed asserting that two arrays are equal.
--- Expected
+++ Actual
@@ @@
 Array (
     'apple' => 2.4
-    'plum' => 3.3
+    'plum' => 3.0
 )

/srv/app/tests/Feature/CheckoutTest.php:23

2) CheckoutTest::testStock with data set "plum" ('plum', 1)
Failed asserting that 0 is identical to 1.

/srv/app/tests/Feature/CheckoutTest.php:55

--

There was 1 risky test:

1) CheckoutTest::testAudit
This test did not perform any assertions

/srv/app/tests/Feature/CheckoutTest.php:48

--

There was 1 skipped test:

1) PricingTest::testForeignCurrency
needs the currency tables

/srv/app/tests/Unit/PricingTest.php:28

ERRORS!
Tests: 120, Assertions: 115, Errors: 2, Failures: 2, Skipped: 1, Risky: 1.
`;

const WANT = [
  "(paths relative to /srv/app/)",
  "There were 2 errors:",
  "1) CheckoutTest::testReserveUnknownSku",
  "  OutOfRangeException: unknown SKU: kiwi",
  "  src/Shop.php:23",
  "  src/Shop.php:16",
  "  tests/Feature/CheckoutTest.php:28",
  "2) CheckoutTest::testPaymentGateway",
  "  RuntimeException: payment gateway unreachable",
  "  tests/Feature/CheckoutTest.php:40",
  "There were 2 failures:",
  "1) CheckoutTest::testLineItems",
  "  Failed asserting that two arrays are equal.",
  "  --- Expected",
  "  +++ Actual",
  "  @@ @@",
  "   Array (",
  "       'apple' => 2.4",
  "  -    'plum' => 3.3",
  "  +    'plum' => 3.0",
  "   )",
  "  tests/Feature/CheckoutTest.php:23",
  `2) CheckoutTest::testStock with data set "plum" ('plum', 1)`,
  "  Failed asserting that 0 is identical to 1.",
  "  tests/Feature/CheckoutTest.php:55",
  "There was 1 risky test:",
  "1) CheckoutTest::testAudit",
  "  This test did not perform any assertions",
  "  tests/Feature/CheckoutTest.php:48",
  "phpunit: ERRORS! Tests: 120, Assertions: 115, Errors: 2, Failures: 2, Skipped: 1, Risky: 1.",
  "",
];

const PROGRESS = `...............................................................  63 / 120 ( 52%)
EE.F.F.R..S..............................................        120 / 120 (100%)

`;

Deno.test("phpunitFilter turns a passing run into its result line", async (t) => {
  await t.step("OK", () => {
    const out = run(
      `${HEADER}${
        PROGRESS.replace(/[EFRS]/g, ".")
      }Time: 00:00.004, Memory: 4.00 MB\n\nOK (120 tests, 130 assertions)\n`,
      0,
    );
    strictEqual(out.text, "phpunit: OK (120 tests, 130 assertions)\n");
    deepStrictEqual(out.cut, ["4 header lines", "2 progress lines"]);
  });
  await t.step("OK, but skipped", () => {
    const raw = `${HEADER}..S  3 / 3 (100%)\n\nTime: 00:00.004, Memory: 4.00 MB\n\n` +
      "OK, but incomplete, skipped, or risky tests!\nTests: 3, Assertions: 2, Skipped: 1.\n";
    strictEqual(
      run(raw, 0).text,
      "phpunit: OK, but incomplete, skipped, or risky tests! Tests: 3, Assertions: 2, Skipped: 1.\n",
    );
  });
});

Deno.test("phpunitFilter keeps every error, failure and risky entry, paths relative to the project", () => {
  const out = run(HEADER + PROGRESS + REPORT);
  deepStrictEqual(out.text.split("\n"), WANT);
  deepStrictEqual(out.cut, ["4 header lines", "2 progress lines", "1 skipped test entry"]);
});

Deno.test("phpunitFilter keeps absolute paths when they share no project directory", () => {
  const raw =
    `F  1 / 1 (100%)\n\nThere was 1 failure:\n\n1) ATest::testA\nFailed asserting that false is true.\n\n/a/ATest.php:5\n\nFAILURES!\nTests: 1, Assertions: 1, Failures: 1.\n`;
  deepStrictEqual(run(raw, 1).text.split("\n"), [
    "There was 1 failure:",
    "1) ATest::testA",
    "  Failed asserting that false is true.",
    "  /a/ATest.php:5",
    "phpunit: FAILURES! Tests: 1, Assertions: 1, Failures: 1.",
    "",
  ]);
});

Deno.test("phpunitFilter keeps each failing testdox test with its class and drops the repeated summary", () => {
  const raw = `${HEADER}Pricing
 ✔ Total with data set "case 1"
 ↩ Foreign currency

Checkout
 ✘ Line items
   │
   │ Failed asserting that two arrays are equal.
   │ --- Expected
   │ +++ Actual
   │ @@ @@
   │  Array (
   │ -    'plum' => 3.3
   │ +    'plum' => 3.0
   │  )
   │
   │ /srv/app/tests/Feature/CheckoutTest.php:23
   │

 ∅ Receipt
 ☢ Audit
 ✘ Stock with data set "plum"
   │
   │ Failed asserting that 0 is identical to 1.
   │
   │ /srv/app/tests/Feature/CheckoutTest.php:55
   │

Time: 00:00.010, Memory: 6.00 MB

Summary of non-successful tests:

Checkout
 ✘ Line items
   │
   │ Failed asserting that two arrays are equal.
   │
   │ /srv/app/tests/Feature/CheckoutTest.php:23
   │

 ∅ Receipt
 ✘ Stock with data set "plum"
   │
   │ Failed asserting that 0 is identical to 1.
   │

FAILURES!
Tests: 6, Assertions: 3, Failures: 2, Skipped: 1, Incomplete: 1, Risky: 1.
`;
  const out = run(raw, 1);
  // Two paths: naming the project's directory once would save nothing.
  deepStrictEqual(out.text.split("\n"), [
    "✘ Checkout: Line items",
    "  Failed asserting that two arrays are equal.",
    "  --- Expected",
    "  +++ Actual",
    "  @@ @@",
    "   Array (",
    "  -    'plum' => 3.3",
    "  +    'plum' => 3.0",
    "   )",
    "  /srv/app/tests/Feature/CheckoutTest.php:23",
    '✘ Checkout: Stock with data set "plum"',
    "  Failed asserting that 0 is identical to 1.",
    "  /srv/app/tests/Feature/CheckoutTest.php:55",
    "phpunit: FAILURES! Tests: 6, Assertions: 3, Failures: 2, Skipped: 1, Incomplete: 1, Risky: 1.",
    "",
  ]);
  ok(out.cut.includes("6 repeated lines"));
});

Deno.test("phpunitFilter drops --debug lines and caps a long trace", () => {
  const trace = Array.from(
    { length: PHPUNIT_TRACE_SHOWN + 3 },
    (_, i) => `/srv/app/src/F${i}.php:${i + 1}`,
  );
  const raw = `Test 'ATest::testA' started
Test 'ATest::testA' ended

There was 1 error:

1) ATest::testA
Error: deep

${trace.join("\n")}

ERRORS!
Tests: 1, Assertions: 0, Errors: 1.
`;
  const out = run(raw);
  ok(out.text.startsWith("(paths relative to /srv/app/src/)\n"));
  ok(out.text.includes(`\n  F${PHPUNIT_TRACE_SHOWN - 1}.php:${PHPUNIT_TRACE_SHOWN}\n`));
  ok(!out.text.includes(`F${PHPUNIT_TRACE_SHOWN}.php`));
  deepStrictEqual(out.cut, ["2 progress lines", "3 trace lines"]);
});

Deno.test("phpunitPassthrough defers to listings, TeamCity and logs on stdout", async (t) => {
  const passing = [
    ["--list-tests"],
    ["--list-groups"],
    ["--teamcity"],
    ["--log-junit", "php://stdout"],
    ["--log-teamcity=php://stdout"],
    ["--help"],
    ["--version"],
  ];
  for (const args of passing) await t.step(args.join(" "), () => ok(phpunitPassthrough(args)));
  const filtered = [[], ["tests/Unit"], ["--testdox"], ["--log-junit", "report.xml"], ["-v"]];
  for (const args of filtered) {
    await t.step(`filters ${args.join(" ") || "(no args)"}`, () => {
      strictEqual(phpunitPassthrough(args), null);
    });
  }
  strictEqual(phpunitFilter.shape, undefined);
});

Deno.test("phpunitFilter says a failing run failed and strips colour", () => {
  strictEqual(
    run('Cannot open file "nope.php".\n', 1).text.split("\n").at(-2),
    "phpunit: failed with exit code 1",
  );
  const raw = HEADER + PROGRESS + REPORT;
  deepStrictEqual(run(raw.replace("ERRORS!", "\x1b[37;41mERRORS!\x1b[0m")), run(raw));
  deepStrictEqual(run("", 0), { text: "", cut: [] });
});
