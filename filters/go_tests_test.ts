import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { GO_FAILURE_LINES, goTestFilter, goTestPassthrough } from "./go_tests.ts";

function run(raw: string, exitCode = 1) {
  return goTestFilter.filter(raw, { args: ["./..."], shaped: false, exitCode });
}

const PANIC = `--- FAIL: TestEvict (0.00s)
panic: assignment to entry in nil map [recovered]
	panic: assignment to entry in nil map

goroutine 25 [running]:
testing.tRunner.func1.2({0x508f80, 0x551f10})
	/usr/lib/go-1.19/src/testing/testing.go:1396 +0x24e
testing.tRunner.func1()
	/usr/lib/go-1.19/src/testing/testing.go:1399 +0x39f
panic({0x508f80, 0x551f10})
	/usr/lib/go-1.19/src/runtime/panic.go:884 +0x212
example.com/shop/pkg/cache.(*lru).put(...)
	/src/shop/pkg/cache/evict_test.go:7
example.com/shop/pkg/cache.TestEvict(0xc000097380?)
	/src/shop/pkg/cache/evict_test.go:11 +0x2e
testing.tRunner(0xc000097520, 0x52f518)
	/usr/lib/go-1.19/src/testing/testing.go:1446 +0x10b
created by testing.(*T).Run
	/usr/lib/go-1.19/src/testing/testing.go:1493 +0x35f
FAIL	example.com/shop/pkg/cache	0.093s
`;

const WANT_PANIC = [
  "--- FAIL: TestEvict",
  "panic: assignment to entry in nil map [recovered]",
  "\tpanic: assignment to entry in nil map",
  "example.com/shop/pkg/cache.(*lru).put(...)",
  "\t/src/shop/pkg/cache/evict_test.go:7",
  "example.com/shop/pkg/cache.TestEvict(…)",
  "\t/src/shop/pkg/cache/evict_test.go:11",
  "FAIL example.com/shop/pkg/cache 0.093s",
];

const PLAIN_FAIL = `?   	example.com/shop/cmd/shop	[no test files]
${PANIC}ok  	example.com/shop/pkg/clock	0.029s
--- FAIL: TestRound (0.00s)
    round_test.go:7: Round(13) = 10, want 15
--- FAIL: TestConvert (0.00s)
    --- FAIL: TestConvert/GBP (0.00s)
        round_test.go:18: Convert(1000, "GBP") = 850, want 860
--- FAIL: ExampleDate (0.00s)
got:
Friday
want:
Saturday
FAIL
FAIL	example.com/shop/pkg/money	0.016s
FAIL	example.com/shop/pkg/report [build failed]
ok  	example.com/shop/pkg/units	(cached)
FAIL
`;

Deno.test("goTestFilter turns a passing run into one line with the package counts", () => {
  const raw = `?   	example.com/shop/cmd/shop	[no test files]
ok  	example.com/shop/pkg/cache	0.012s
ok  	example.com/shop/pkg/clock	(cached)
ok  	example.com/shop/pkg/money	0.009s [no tests to run]
`;
  const out = run(raw, 0);
  strictEqual(out.text, "go test: ok, packages: 3 ok, 1 no test files\n");
  deepStrictEqual(out.cut, ["1 package without tests", "3 ok packages"]);
});

Deno.test("goTestFilter counts tests of a passing -v run and drops their output", () => {
  const raw = `=== RUN   TestAdd
=== RUN   TestAdd/#00
--- PASS: TestAdd (0.00s)
    --- PASS: TestAdd/#00 (0.00s)
=== RUN   TestNetwork
    cache_test.go:20: needs the network
--- SKIP: TestNetwork (0.00s)
=== RUN   TestPar
=== PAUSE TestPar
=== CONT  TestPar
    cache_test.go:30: p2 log
--- PASS: TestPar (0.00s)
PASS
ok  	example.com/shop/pkg/cache	0.012s
`;
  const out = run(raw, 0);
  strictEqual(out.text, "go test: ok, tests: 3 passed, 1 skipped; packages: 1 ok\n");
  deepStrictEqual(out.cut, [
    "6 run lines",
    "4 passing tests",
    "2 passing test output lines",
    "1 ok package",
  ]);
});

Deno.test("goTestFilter keeps every failure, its output, panics and failed packages", () => {
  const out = run(PLAIN_FAIL, 2);
  deepStrictEqual(out.text.split("\n"), [
    ...WANT_PANIC,
    "--- FAIL: TestRound",
    "    round_test.go:7: Round(13) = 10, want 15",
    "--- FAIL: TestConvert",
    "    --- FAIL: TestConvert/GBP",
    '        round_test.go:18: Convert(1000, "GBP") = 850, want 860',
    "--- FAIL: ExampleDate",
    "got:",
    "Friday",
    "want:",
    "Saturday",
    "FAIL example.com/shop/pkg/money 0.016s",
    "FAIL example.com/shop/pkg/report [build failed]",
    "go test: FAILED, tests: 5 failed; packages: 3 failed, 2 ok, 1 no test files",
    "",
  ]);
  deepStrictEqual(out.cut, ["1 package without tests", "5 runtime frames", "2 ok packages"]);
});

Deno.test("goTestFilter shows a -v failure's output under its result line", () => {
  const raw = `=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestSub
=== RUN   TestSub/one
=== RUN   TestSub/two
    calc_test.go:30: logged
    calc_test.go:30: sub failed
--- FAIL: TestSub (0.00s)
    --- PASS: TestSub/one (0.00s)
    --- FAIL: TestSub/two (0.00s)
=== RUN   TestPar1
=== PAUSE TestPar1
=== RUN   TestPar2
=== PAUSE TestPar2
=== CONT  TestPar1
    calc_test.go:33: p1 failed
=== CONT  TestPar2
    calc_test.go:34: p2 log
--- PASS: TestPar2 (0.00s)
--- FAIL: TestPar1 (0.01s)
FAIL
FAIL	example.com/calc/calc	0.008s
FAIL
`;
  deepStrictEqual(run(raw).text.split("\n"), [
    "--- FAIL: TestSub",
    "    --- FAIL: TestSub/two",
    "        calc_test.go:30: logged",
    "        calc_test.go:30: sub failed",
    "--- FAIL: TestPar1 (0.01s)",
    "    calc_test.go:33: p1 failed",
    "FAIL example.com/calc/calc 0.008s",
    "go test: FAILED, tests: 3 failed, 3 passed; packages: 1 failed",
    "",
  ]);
});

Deno.test("goTestFilter caps one failure's output", () => {
  const lines = Array.from({ length: GO_FAILURE_LINES + 4 }, (_, i) => `    x_test.go:${i}: line`);
  const out = run(`--- FAIL: TestX (0.00s)\n${lines.join("\n")}\nFAIL\tex/x\t0.1s\n`);
  ok(out.text.includes(`x_test.go:${GO_FAILURE_LINES - 1}: line`));
  ok(!out.text.includes(`x_test.go:${GO_FAILURE_LINES}: line`));
  ok(out.cut.includes("4 test output lines"));
});

Deno.test("goTestFilter keeps coverage figures and benchmark results", () => {
  const raw = `goos: linux
goarch: amd64
pkg: example.com/shop/pkg/cache
BenchmarkPut-8   	12345678	        95.2 ns/op
coverage: 81.2% of statements
PASS
ok  	example.com/shop/pkg/cache	1.322s	coverage: 81.2% of statements
ok  	example.com/shop/pkg/ids	0.010s	coverage: [no statements]
`;
  deepStrictEqual(run(raw, 0).text.split("\n"), [
    "BenchmarkPut-8   \t12345678\t        95.2 ns/op",
    "ok example.com/shop/pkg/cache coverage: 81.2% of statements",
    "goos: linux",
    "goarch: amd64",
    "pkg: example.com/shop/pkg/cache",
    "go test: ok, packages: 2 ok",
    "",
  ]);
});

Deno.test("goTestFilter says a non-zero exit failed when the output does not", () => {
  strictEqual(
    run("ok  \tex/a\t0.1s\n", 1).text,
    "go test: ok, packages: 1 ok\ngo test: failed with exit code 1\n",
  );
});

Deno.test("goTestPassthrough defers to JSON, test lists and help", async (t) => {
  for (
    const args of [["-json"], ["--json", "./..."], ["-json=true"], ["-list", "."], ["-h"], [
      "-test.v=test2json",
    ]]
  ) {
    await t.step(args.join(" "), () => ok(goTestPassthrough(args)));
  }
  for (
    const args of [[], ["./..."], ["-v", "./..."], ["-json=false"], ["-run", "TestX"], ["-cover"]]
  ) {
    await t.step(`filters ${args.join(" ") || "(no args)"}`, () => {
      strictEqual(goTestPassthrough(args), null);
    });
  }
  strictEqual(goTestFilter.shape, undefined);
});

Deno.test("goTestFilter strips colour and is empty for empty input", () => {
  deepStrictEqual(
    run(PLAIN_FAIL.replace("--- FAIL: TestRound", "\x1b[31m--- FAIL\x1b[0m: TestRound")),
    run(PLAIN_FAIL),
  );
  deepStrictEqual(run("", 0), { text: "", cut: [] });
});
