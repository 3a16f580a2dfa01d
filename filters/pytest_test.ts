import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { PYTEST_DETAILS_SHOWN, pytestFilter, pytestPassthrough } from "./pytest.ts";

function run(raw: string, exitCode = 1) {
  return pytestFilter.filter(raw, { args: [], shaped: false, exitCode });
}

const HEADER = `============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0
rootdir: /tmp/app
configfile: pytest.ini
plugins: hypothesis-6.155.2, benchmark-5.2.3
collected 12 items

`;

const FAILURES = `==================================== ERRORS ====================================
_________________________ ERROR at setup of test_error _________________________

    @pytest.fixture
    def broken():
>       raise RuntimeError("fixture exploded")
E       RuntimeError: fixture exploded

test_calc.py:21: RuntimeError
=================================== FAILURES ===================================
________________________________ test_add_fail _________________________________

    def test_add_fail():
>       assert add(2, 2) == 5
E       assert 4 == 5
E        +  where 4 = add(2, 2)

test_calc.py:10: AssertionError
__________________________ TestCart.test_line_items ____________________________

self = <tests.test_cart.TestCart object at 0x7f>

    def test_line_items(self):
        items = [("apple", 6), ("pear", 3)]
>       assert summary(items) == {"apple": 6, "pear": 4}
E       AssertionError: assert {'apple': 6, 'pear': 3} == {'apple': 6, 'pear': 4}
E         
E         Omitting 1 identical items, use -vv to show
E         Differing items:
E         {'pear': 3} != {'pear': 4}
E         Use -v to get more diff

tests/test_cart.py:13: AssertionError
________________________________ test_param[3] _________________________________

n = 3

    @pytest.mark.parametrize("n", [1, 2, 3])
    def test_param(n):
>       assert n < 3
E       assert 3 < 3

test_calc.py:32: AssertionError
_________________________________ test_receipt _________________________________

    def test_receipt():
        print("apple  2")
>       assert False
E       assert False

test_calc.py:40: AssertionError
----------------------------- Captured stdout call -----------------------------
apple  2
=============================== warnings summary ===============================
test_calc.py::test_legacy
  /tmp/app/shop/pricing.py:30: DeprecationWarning: legacy_total() is deprecated
    warnings.warn("legacy_total() is deprecated", DeprecationWarning)

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
=========================== short test summary info ============================
FAILED test_calc.py::test_add_fail - assert 4 == 5
FAILED tests/test_cart.py::TestCart::test_line_items - AssertionError: assert {'apple'...
FAILED test_calc.py::test_param[3] - assert 3 < 3
FAILED test_calc.py::test_receipt - assert False
ERROR test_calc.py::test_error - RuntimeError: fixture exploded
`;

const WANT_FAILURES = [
  "ERROR at setup of test_calc.py::test_error",
  '  > raise RuntimeError("fixture exploded")',
  "  E RuntimeError: fixture exploded",
  "  test_calc.py:21: RuntimeError",
  "FAILED test_calc.py::test_add_fail",
  "  > assert add(2, 2) == 5",
  "  E assert 4 == 5",
  "  E  +  where 4 = add(2, 2)",
  "  test_calc.py:10: AssertionError",
  "FAILED tests/test_cart.py::TestCart::test_line_items",
  '  > assert summary(items) == {"apple": 6, "pear": 4}',
  "  E AssertionError: assert {'apple': 6, 'pear': 3} == {'apple': 6, 'pear': 4}",
  "  E   Omitting 1 identical items, use -vv to show",
  "  E   Differing items:",
  "  E   {'pear': 3} != {'pear': 4}",
  "  E   Use -v to get more diff",
  "  tests/test_cart.py:13: AssertionError",
  "FAILED test_calc.py::test_param[3]",
  "  > assert n < 3",
  "  E assert 3 < 3",
  "  test_calc.py:32: AssertionError",
  "FAILED test_calc.py::test_receipt",
  "  > assert False",
  "  E assert False",
  "  test_calc.py:40: AssertionError",
  "  Captured stdout call:",
  "    apple  2",
  "warnings:",
  "  /tmp/app/shop/pricing.py:30: DeprecationWarning: legacy_total() is deprecated",
];

const SUMMARY = "4 failed, 5 passed, 1 skipped, 1 xfailed, 1 warning, 1 error in 0.97s";

Deno.test("pytestFilter turns a passing run into its test files and summary line", () => {
  const raw = HEADER +
    `tests/unit/test_inventory.py ..........                                  [ 18%]
tests/unit/test_pricing.py ..........................s                   [ 69%]
tests/unit/test_text.py ................                                 [100%]

======================== 52 passed, 1 skipped in 0.62s =========================
`;
  const out = run(raw, 0);
  strictEqual(
    out.text,
    "test files: tests/unit/test_inventory.py (10), tests/unit/test_pricing.py (27), " +
      "tests/unit/test_text.py (16)\npytest: 52 passed, 1 skipped in 0.62s\n",
  );
  deepStrictEqual(out.cut, ["1 session header", "3 progress lines"]);
});

Deno.test("pytestFilter keeps every failing test's id, message and location", () => {
  const raw = HEADER + "test_calc.py .FFsEx..FF                                [ 83%]\n\n" +
    FAILURES + `================= ${SUMMARY} =================\n`;
  const out = run(raw);
  deepStrictEqual(out.text.split("\n"), [
    ...WANT_FAILURES,
    "test files: test_calc.py (10)",
    `pytest: ${SUMMARY}`,
    "",
  ]);
  deepStrictEqual(out.cut, ["1 session header", "1 progress line", "11 traceback source lines"]);
});

Deno.test("pytestFilter reads -q and -v output the same way as the default", () => {
  const quiet =
    ".FFsEx..FF..                                                             [100%]\n" +
    FAILURES + `${SUMMARY}\n`;
  const verbose = HEADER.replace("collected", "collecting ... collected") +
    `test_calc.py::test_add PASSED                                            [  8%]
test_calc.py::test_add_fail FAILED                                       [ 16%]
test_calc.py::test_skipped SKIPPED (not ready)                           [ 33%]
test_calc.py::test_error ERROR                                           [ 41%]
test_calc.py::test_xfail XFAIL (known bug)                               [ 50%]

` + FAILURES + `================= ${SUMMARY} =================\n`;
  const want = [...WANT_FAILURES, `pytest: ${SUMMARY}`, ""];
  // -q prints no file names; -v names each test's file.
  deepStrictEqual(run(quiet).text.split("\n"), want);
  deepStrictEqual(run(verbose).text.split("\n"), [
    ...WANT_FAILURES,
    "test files: test_calc.py (5)",
    `pytest: ${SUMMARY}`,
    "",
  ]);
  ok(run(verbose).cut.includes("5 test result lines"));
});

Deno.test("pytestFilter keeps --tb=short source lines and drops pytest's own --tb=native frames", async (t) => {
  await t.step("short", () => {
    const raw = `=================================== FAILURES ===================================
________________________________ test_add_fail _________________________________
test_calc.py:10: in test_add_fail
    assert add(2, 2) == 5
           ^^^^^^^^^
E   assert 4 == 5
=========================== short test summary info ============================
FAILED test_calc.py::test_add_fail - assert 4 == 5
1 failed in 0.1s
`;
    deepStrictEqual(run(raw).text.split("\n"), [
      "FAILED test_calc.py::test_add_fail",
      "  test_calc.py:10: in test_add_fail",
      "    assert add(2, 2) == 5",
      "  E assert 4 == 5",
      "pytest: 1 failed in 0.1s",
      "",
    ]);
  });
  await t.step("native", () => {
    const frame = (file: string, line: number, fn: string, code: string) =>
      `  File "${file}", line ${line}, in ${fn}\n    ${code}\n`;
    const site = "/usr/lib/python3/site-packages";
    const raw = `=================================== FAILURES ===================================
_________________________________ test_raises __________________________________
Traceback (most recent call last):
${frame(`${site}/_pytest/runner.py`, 353, "from_call", "result = func()")}${
      frame(`${site}/pluggy/_hooks.py`, 512, "__call__", "return self._hookexec()")
    }${
      frame("/tmp/app/test_calc.py", 35, "test_raises", 'raise ValueError("bad value")')
    }ValueError: bad value
1 failed in 0.1s
`;
    const out = run(raw);
    deepStrictEqual(out.text.split("\n"), [
      "FAILED test_raises",
      "  Traceback (most recent call last):",
      '    File "/tmp/app/test_calc.py", line 35, in test_raises',
      '      raise ValueError("bad value")',
      "  ValueError: bad value",
      "pytest: 1 failed in 0.1s",
      "",
    ]);
    deepStrictEqual(out.cut, ["2 pytest internal frames"]);
  });
});

Deno.test("pytestFilter keeps a collection error and the interruption", () => {
  const raw = HEADER.replace("collected 12 items", "collected 1 item / 1 error") +
    `==================================== ERRORS ====================================
_______________________ ERROR collecting tests/test_legacy.py ________________________
ImportError while importing test module '/tmp/app/tests/test_legacy.py'.
Hint: make sure your test modules/packages have valid Python names.
Traceback:
/usr/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
tests/test_legacy.py:1: in <module>
    from shop.legacy_prices import PRICE_LIST
E   ModuleNotFoundError: No module named 'shop.legacy_prices'
=========================== short test summary info ============================
ERROR tests/test_legacy.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 1.42s ===============================
`;
  deepStrictEqual(run(raw, 2).text.split("\n"), [
    "ERROR collecting tests/test_legacy.py",
    "  /usr/lib/python3.11/importlib/__init__.py:126: in import_module",
    "    return _bootstrap._gcd_import(name[level:], package, level)",
    "  tests/test_legacy.py:1: in <module>",
    "    from shop.legacy_prices import PRICE_LIST",
    "  E ModuleNotFoundError: No module named 'shop.legacy_prices'",
    "Interrupted: 1 error during collection",
    "pytest: 1 error in 1.42s",
    "",
  ]);
});

Deno.test("pytestFilter caps a long traceback, keeping its start and its exception", () => {
  const frames = Array.from(
    { length: 30 },
    (_, i) => `>       step_${i}()\n\nshop/deep.py:${i + 1}: in step_${i}\n`,
  ).join("");
  const raw = `=================================== FAILURES ===================================
_________________________________ test_deep __________________________________
${frames}E       RecursionError: too deep

shop/deep.py:99: RecursionError
1 failed in 0.1s
`;
  const lines = run(raw).text.split("\n");
  strictEqual(lines[0], "FAILED test_deep");
  strictEqual(lines[1], "  > step_0()");
  match(lines[7], /^ {2}\[\d+ traceback lines cut\]$/);
  ok(lines.includes("  E RecursionError: too deep"));
  ok(lines.includes("  shop/deep.py:99: RecursionError"));
  ok(lines.length < 30);
});

Deno.test("pytestFilter shows the first failures in full and names every other one", () => {
  const n = PYTEST_DETAILS_SHOWN + 3;
  const blocks = Array.from(
    { length: n },
    (_, i) =>
      `_____ test_${i} _____\n>       assert f(${i})\nE       assert False\n\nt.py:${i}: AssertionError\n`,
  ).join("");
  const short = Array.from({ length: n }, (_, i) => `FAILED t.py::test_${i} - assert False\n`);
  const raw = `===== FAILURES =====\n${blocks}===== short test summary info =====\n${
    short.join("")
  }${n} failed in 1.0s\n`;
  const out = run(raw);
  for (let i = 0; i < n; i++) ok(out.text.includes(`t.py::test_${i}`), `test_${i}`);
  ok(out.text.includes(`t.py:${PYTEST_DETAILS_SHOWN - 1}: AssertionError`));
  ok(!out.text.includes(`t.py:${PYTEST_DETAILS_SHOWN}: AssertionError`));
  ok(out.text.includes(`FAILED t.py::test_${n - 1} - assert False`));
  ok(out.cut.includes("3 tracebacks"));
});

Deno.test("pytestFilter says a failing run failed even without a summary line", async (t) => {
  await t.step("-qq prints only progress: counted from it", () => {
    const out = run("..F.s                                                  [100%]\n");
    strictEqual(
      out.text,
      "pytest: 3 passed, 1 failed, 1 skipped (counted from the progress line)\n",
    );
  });
  await t.step("nothing recognised and a non-zero exit", () => {
    strictEqual(
      run("ERROR: file or directory not found: nope\n", 4).text.split("\n").at(-2),
      "pytest: failed with exit code 4",
    );
  });
  await t.step("no tests ran", () => {
    strictEqual(
      run("\n12 deselected in 0.58s\n", 5).text,
      "pytest: 12 deselected in 0.58s\npytest: failed with exit code 5\n",
    );
  });
});

Deno.test("pytestPassthrough defers to listings, help and the debugger", async (t) => {
  for (
    const args of [["--co"], ["--collect-only", "-q"], ["--fixtures"], ["--markers"], ["-h"], [
      "--version",
    ], ["--pdb"]]
  ) {
    await t.step(args.join(" "), () => ok(pytestPassthrough(args)));
  }
  for (
    const args of [[], ["-q"], ["-v", "tests/unit"], ["-k", "cart"], ["-x", "--tb=short"], [
      "--",
      "--co",
    ]]
  ) {
    await t.step(
      `filters ${args.join(" ") || "(no args)"}`,
      () => strictEqual(pytestPassthrough(args), null),
    );
  }
  strictEqual(pytestFilter.shape, undefined);
});

Deno.test("pytestFilter strips colour and is empty for empty input", () => {
  const raw = "\x1b[32m....\x1b[0m                                            [100%]\n" +
    "\x1b[32m\x1b[1m4 passed\x1b[0m\x1b[32m in 0.01s\x1b[0m\n";
  strictEqual(run(raw, 0).text, "pytest: 4 passed in 0.01s\n");
  deepStrictEqual(run("", 0), { text: "", cut: [] });
});

Deno.test("pytestFilter names every test file its progress lines named, past a cap counted", () => {
  const lines = Array.from(
    { length: 45 },
    (_, i) => `tests/unit/test_mod_${i}.py ...                                    [ ${i}%]`,
  );
  const out = run(HEADER + lines.join("\n") + "\n\n===== 135 passed in 1.00s =====\n", 0);
  const files = out.text.split("\n").find((l) => l.startsWith("test files: "))!;
  for (let i = 0; i < 40; i++) ok(files.includes(`tests/unit/test_mod_${i}.py (3)`), `file ${i}`);
  ok(files.endsWith(", 5 more"), files);
  ok(out.cut.includes("5 test file names"), out.cut.join(", "));
});
