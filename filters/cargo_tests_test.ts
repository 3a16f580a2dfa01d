import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  CARGO_DETAILS_SHOWN,
  CARGO_OTHER_LINES,
  cargoTestFilter,
  cargoTestPassthrough,
  cargoTestShape,
} from "./cargo_tests.ts";

function run(raw: string, exitCode = 101) {
  return cargoTestFilter.filter(raw, { args: [], shaped: true, exitCode });
}

const PASS_PRETTY = `
running 4 tests
test money::tests::cents_of_0 ... ok
test money::tests::cents_of_1 ... ok
test money::tests::split_exhaustive ... ignored, slow: walks every split of 10000
test parse::tests::parses_0_units ... ok

test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s


running 2 tests
test format_round_trip_0 ... ok
test format_round_trip_1 ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s


running 1 test
test src/money.rs - money::cents (line 5) ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.25s

`;

const FAIL_SECTIONS = `failures:

---- tests::adds_wrong stdout ----

thread 'tests::adds_wrong' (17907) panicked at src/lib.rs:21:31:
assertion \`left == right\` failed
  left: 4
 right: 5
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace

---- tests::asserts stdout ----

thread 'tests::asserts' (17908) panicked at src/lib.rs:25:28:
sub gave 0

---- tests::rejects_empty stdout ----
note: test did not panic as expected at src/lib.rs:30:8

failures:
    tests::adds_wrong
    tests::asserts
    tests::rejects_empty

test result: FAILED. 1 passed; 3 failed; 2 ignored; 0 measured; 0 filtered out; finished in 0.00s

`;

const PRETTY_FAIL = `
running 6 tests
test tests::adds ... ok
test tests::adds_wrong ... FAILED
test tests::net ... ignored, needs network
test tests::asserts ... FAILED
test tests::rejects_empty - should panic ... FAILED
test tests::slow ... ignored

${FAIL_SECTIONS}`;

const QUIET_FAIL = `
running 6 tests
tests::adds_wrong --- FAILED
tests::asserts --- FAILED
i. 4/6
tests::rejects_empty --- FAILED
i
${FAIL_SECTIONS}`;

const WANT_FAIL = [
  "tests::adds_wrong: panicked at src/lib.rs:21:31:",
  "  assertion `left == right` failed",
  "    left: 4",
  "   right: 5",
  "tests::asserts: panicked at src/lib.rs:25:28:",
  "  sub gave 0",
  "tests::rejects_empty: note: test did not panic as expected at src/lib.rs:30:8",
  "cargo test: FAILED, 3 failed, 1 passed, 2 ignored in 1 suite (0.00s)",
  "",
];

Deno.test("cargoTestFilter turns a passing run into one line with every suite's totals", () => {
  const out = run(PASS_PRETTY, 0);
  strictEqual(out.text, "cargo test: 6 passed, 1 ignored in 3 suites (0.26s)\n");
  deepStrictEqual(out.cut, ["7 passing or ignored test lines", "3 passing suite result lines"]);
});

Deno.test("cargoTestFilter keeps each failing test's panic location and message", () => {
  const out = run(PRETTY_FAIL);
  deepStrictEqual(out.text.split("\n"), WANT_FAIL);
  deepStrictEqual(out.cut, ["3 passing or ignored test lines", "1 backtrace hint"]);
});

Deno.test("cargoTestFilter reads the quiet format (-q) as the pretty one", () => {
  deepStrictEqual(run(QUIET_FAIL).text.split("\n"), WANT_FAIL);
  deepStrictEqual(run(QUIET_FAIL).cut, ["2 progress lines", "1 backtrace hint"]);
});

Deno.test("cargoTestFilter names the failing suite of a multi-suite run, doc tests included", () => {
  const doc = `
running 2 tests
test src/lib.rs - add (line 5) ... ok
test src/lib.rs - sub (line 12) ... FAILED

failures:

---- src/lib.rs - sub (line 12) stdout ----
Test executable failed (exit status: 101).

stderr:

thread 'main' (18644) panicked at src/lib.rs:5:1:
assertion \`left == right\` failed
  left: 3
 right: 4



failures:
    src/lib.rs - sub (line 12)

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.52s

`;
  const out = run(
    PRETTY_FAIL + "\nrunning 1 test\ntest integration_ok ... ok\n\n" +
      "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n" +
      doc,
  );
  deepStrictEqual(out.text.split("\n"), [
    ...WANT_FAIL.slice(0, 7),
    "test result: FAILED. 1 passed; 3 failed; 2 ignored",
    "src/lib.rs - sub (line 12): Test executable failed (exit status: 101).",
    "  stderr:",
    "  thread 'main' panicked at src/lib.rs:5:1:",
    "  assertion `left == right` failed",
    "    left: 3",
    "   right: 4",
    "test result: FAILED. 1 passed; 1 failed",
    "cargo test: FAILED, 4 failed, 3 passed, 2 ignored in 3 suites (0.52s)",
    "",
  ]);
});

Deno.test("cargoTestFilter keeps only the project's frames of a RUST_BACKTRACE=1 backtrace", () => {
  const raw = `
running 1 test
test tests::asserts ... FAILED

failures:

---- tests::asserts stdout ----

thread 'tests::asserts' (18501) panicked at src/lib.rs:26:28:
sub gave 0
stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/5980761/library/std/src/panicking.rs:689:5
   1: core::panicking::panic_fmt
             at /rustc/5980761/library/core/src/panicking.rs:80:14
   2: calc::tests::asserts
             at ./src/lib.rs:26:28
   3: <fn() as core::ops::function::FnOnce<()>>::call_once
             at /rustc/5980761/library/core/src/ops/function.rs:250:5
note: Some details are omitted, run with \`RUST_BACKTRACE=full\` for a verbose backtrace.


failures:
    tests::asserts

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
`;
  const out = run(raw);
  deepStrictEqual(out.text.split("\n"), [
    "tests::asserts: panicked at src/lib.rs:26:28:",
    "  sub gave 0",
    "  stack backtrace:",
    "     2: calc::tests::asserts",
    "               at ./src/lib.rs:26:28",
    "cargo test: FAILED, 1 failed, 0 passed in 1 suite (0.00s)",
    "",
  ]);
  deepStrictEqual(out.cut, ["3 backtrace frames", "1 backtrace hint"]);
});

Deno.test("cargoTestFilter reports a suite that stopped before its result line", () => {
  const raw = "\nrunning 3 tests\ntest a ... ok\ntest b ... ok\n";
  deepStrictEqual(run(raw).text.split("\n"), [
    "running 3 tests: stopped after 2 with no result line",
    "cargo test: FAILED, 0 passed in 1 suite (0.00s); 1 suite stopped before its result line",
    "",
  ]);
});

Deno.test("cargoTestFilter names failures past the detail cap and caps --nocapture output", () => {
  const n = CARGO_DETAILS_SHOWN + 2;
  const names = Array.from({ length: n }, (_, i) => `t${i}`);
  const sections = names.map((name) =>
    `---- ${name} stdout ----\nthread '${name}' (1) panicked at src/lib.rs:1:1:\nboom\n`
  );
  const printed = Array.from({ length: CARGO_OTHER_LINES + 5 }, (_, i) => `printed ${i}`);
  const raw = `\nrunning ${n} tests\n${printed.join("\n")}\n${
    names.map((name) => `test ${name} ... FAILED`).join("\n")
  }\n\nfailures:\n\n${sections.join("\n")}\nfailures:\n${
    names.map((name) => `    ${name}`).join("\n")
  }\n\ntest result: FAILED. 0 passed; ${n} failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n`;
  const out = run(raw);
  ok(out.text.includes(`failed: t${n - 2}, t${n - 1}\n`));
  ok(out.text.includes(`printed ${CARGO_OTHER_LINES - 1}\n`));
  ok(!out.text.includes(`printed ${CARGO_OTHER_LINES}\n`));
  ok(out.cut.includes("2 failure sections"));
  ok(out.cut.includes("5 other lines"));
});

Deno.test("cargoTestFilter keeps benchmark lines and says a non-zero exit failed", () => {
  const raw = `
running 1 test
test bench_add ... bench:          12.50 ns/iter (+/- 0.30)

test result: ok. 0 passed; 0 failed; 0 ignored; 1 measured; 0 filtered out; finished in 0.40s
`;
  deepStrictEqual(run(raw, 0).text.split("\n"), [
    "test bench_add ... bench:          12.50 ns/iter (+/- 0.30)",
    "cargo test: 0 passed, 1 measured in 1 suite (0.40s)",
    "",
  ]);
  const passing = run(PASS_PRETTY, 101).text;
  ok(passing.endsWith("cargo test: failed with exit code 101\n"));
});

Deno.test("cargoTestShape adds -q unless the caller chose a verbosity or a libtest format", async (t) => {
  const cases: [string[], string[] | null][] = [
    [[], ["-q"]],
    [["--no-fail-fast"], ["-q", "--no-fail-fast"]],
    [["--lib", "--", "--nocapture"], ["-q", "--lib", "--", "--nocapture"]],
    [["-q"], null],
    [["--quiet"], null],
    [["-v"], null],
    [["-vv"], null],
    [["--verbose"], null],
    [["--", "--format", "pretty"], null],
    [["--", "--format=terse"], null],
    [["--", "-q"], null],
  ];
  for (const [args, want] of cases) {
    await t.step(args.join(" ") || "(no args)", () => deepStrictEqual(cargoTestShape(args), want));
  }
});

Deno.test("cargoTestPassthrough defers to JSON, the test list and help", async (t) => {
  const passing = [
    ["--message-format=json"],
    ["--message-format", "json-diagnostic-short"],
    ["--", "-Z", "unstable-options", "--format", "json"],
    ["--", "--format=junit"],
    ["--", "--list"],
    ["--help"],
    ["--", "-h"],
  ];
  for (const args of passing) await t.step(args.join(" "), () => ok(cargoTestPassthrough(args)));
  for (const args of [[], ["--message-format=short"], ["--", "--format", "pretty"], ["money"]]) {
    await t.step(`filters ${args.join(" ") || "(no args)"}`, () => {
      strictEqual(cargoTestPassthrough(args), null);
    });
  }
});

Deno.test("cargoTestFilter strips colour and is empty for empty input", () => {
  const coloured = PRETTY_FAIL.replace("... FAILED", "... \x1b[31mFAILED\x1b[0m")
    .replace("test result: FAILED.", "test result: \x1b[31mFAILED\x1b[0m.");
  deepStrictEqual(run(coloured), run(PRETTY_FAIL));
  deepStrictEqual(run("", 0), { text: "", cut: [] });
});
