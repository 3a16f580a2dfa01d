import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { mypyFilter, mypyPassthrough, parseMypy } from "./mypy.ts";

function run(raw: string, exitCode = 1) {
  return mypyFilter.filter(raw, { args: ["pkg"], shaped: false, exitCode });
}

// `mypy pkg` (1.0.1): errors, the same one in two files, an import error with its notes.
const PLAIN =
  `pkg/a.py:7: error: Incompatible return value type (got "int", expected "str")  [return-value]
pkg/a.py:15: error: Argument 1 to "f" has incompatible type "str"; expected "int"  [arg-type]
pkg/a.py:20: error: Cannot find implementation or library stub for module named "missing_lib"  [import]
pkg/a.py:20: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports
pkg/b.py:1: error: Module "pkg.config" has no attribute "SETTINGS"  [attr-defined]
pkg/c.py:1: error: Module "pkg.config" has no attribute "SETTINGS"  [attr-defined]
pkg/c.py:9: note: Revealed type is "builtins.int"
Found 5 errors in 3 files (checked 4 source files)
`;

Deno.test("mypyFilter keeps each error's line, code and message, and the notes on its line", () => {
  const out = run(PLAIN);
  strictEqual(
    out.text,
    [
      "pkg/a.py: 3 errors",
      '  7 error return-value: Incompatible return value type (got "int", expected "str")',
      '  15 error arg-type: Argument 1 to "f" has incompatible type "str"; expected "int"',
      '  20 error import: Cannot find implementation or library stub for module named "missing_lib"',
      "    See https://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports",
      "pkg/c.py: 1 error, 1 note (1 below)",
      '  9 note: Revealed type is "builtins.int"',
      "in several files:",
      '  error attr-defined: Module "pkg.config" has no attribute "SETTINGS" (×2)',
      "    pkg/: b.py 1, c.py 1",
      "Found 5 errors in 3 files (checked 4 source files)",
      "",
    ].join("\n"),
  );
  deepStrictEqual(out.cut, []);
});

Deno.test("mypyFilter reads --pretty output: wrapped messages joined, excerpts cut", () => {
  const pretty = [
    'pkg/a.py:7: error: Incompatible return value type (got "int", expected "str") ',
    "[return-value]",
    "        return x",
    "               ^",
    'pkg/a.py:15: error: Argument 1 to "f" has incompatible type "str"; expected',
    '"int"  [arg-type]',
    '    f("s")',
    "      ^~~",
    "Found 2 errors in 1 file (checked 2 source files)",
    "",
  ].join("\n");
  deepStrictEqual(parseMypy(pretty).diagnostics.map((d) => [d.at, d.code, d.message]), [
    ["7", "return-value", 'Incompatible return value type (got "int", expected "str")'],
    ["15", "arg-type", 'Argument 1 to "f" has incompatible type "str"; expected "int"'],
  ]);
  deepStrictEqual(run(pretty).cut, ["2 source excerpts"]);
});

Deno.test("mypyFilter reads columns, error ends and file-level notes", () => {
  const raw = [
    'pkg/a.py: note: In function "f":',
    'pkg/a.py:7:12: error: Incompatible return value type (got "int", expected "str")  [return-value]',
    "pkg/b.py:6:16:6:19: error: Unsupported operand types  [operator]",
    "Found 2 errors in 2 files (checked 2 source files)",
    "",
  ].join("\n");
  deepStrictEqual(parseMypy(raw).diagnostics.map((d) => [d.file, d.at, d.severity, d.code]), [
    ["pkg/a.py", "", "note", ""],
    ["pkg/a.py", "7:12", "error", "return-value"],
    ["pkg/b.py", "6:16", "error", "operator"],
  ]);
});

Deno.test("mypyFilter keeps a clean run and unknown lines, and reads colour as plain text", () => {
  const clean = "Success: no issues found in 3 source files\n";
  deepStrictEqual(run(clean, 0), { text: clean, cut: [] });
  const crash = "mypy: can't read file 'nope.py': No such file or directory\n";
  strictEqual(run(crash, 2).text, `${crash}mypy: failed with exit code 2\n`);
  deepStrictEqual(run(PLAIN.replaceAll("error:", "\x1b[31merror:\x1b[m")), run(PLAIN));
});

Deno.test("mypyPassthrough defers to JSON output", () => {
  ok(mypyPassthrough(["-O", "json", "pkg"]));
  ok(mypyPassthrough(["--output=json", "pkg"]));
  ok(mypyPassthrough(["--output", "json"]));
  strictEqual(mypyPassthrough(["--strict", "pkg"]), null);
  strictEqual(mypyPassthrough(["--", "-O"]), null);
});
