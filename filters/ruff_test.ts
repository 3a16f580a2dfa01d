import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { parseRuff, ruffFilter, ruffPassthrough } from "./ruff.ts";

function run(raw: string, exitCode = 1) {
  return ruffFilter.filter(raw, { args: ["check", "pkg"], shaped: false, exitCode });
}

// `ruff check` (0.16.9, full format): a syntax error, violations with help and fix diffs.
const FULL = `invalid-syntax: Expected a parameter or the end of the parameter list
 --> bad.py:1:7
  |
1 | def f(:
  |       ^
2 |     pass
  |

F401 [*] \`os\` imported but unused
 --> pkg/a.py:1:8
  |
1 | import os
  |        ^^
2 | import sys
  |
help: Remove unused import: \`os\`
  |
  - import os
1 | import sys
  |

F401 [*] \`os\` imported but unused
 --> pkg/b.py:1:8
  |
1 | import os
  |        ^^
help: Remove unused import: \`os\`
  |
  - import os
  |

F841 Local variable \`y\` is assigned to but never used
  --> pkg/a.py:11:5
   |
10 | def g(l: List[int]) -> int:
11 |     y = 1
   |     ^
   |
help: Remove assignment to unused variable \`y\`

E902 No such file or directory (os error 2)
--> pkg/gone.py:1:1

Found 5 errors.
[*] 2 fixable with the \`--fix\` option (1 hidden fix can be enabled with the \`--unsafe-fixes\` option).
`;

Deno.test("ruffFilter keeps each violation's code, message, location and help, excerpts cut", () => {
  const out = run(FULL);
  strictEqual(
    out.text,
    [
      "bad.py: 1 error",
      "  1:7 invalid-syntax: Expected a parameter or the end of the parameter list",
      "pkg/a.py: 2 errors (1 below)",
      "  11:5 F841: Local variable `y` is assigned to but never used",
      "    help: Remove assignment to unused variable `y`",
      "pkg/gone.py: 1 error",
      "  1:1 E902: No such file or directory (os error 2)",
      "in several files:",
      "  F401: [*] `os` imported but unused (×2)",
      "    pkg/: a.py 1:8, b.py 1:8",
      "    help: Remove unused import: `os`",
      "Found 5 errors.",
      "[*] 2 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
      "",
    ].join("\n"),
  );
  deepStrictEqual(out.cut, ["4 source excerpts"]);
});

Deno.test("ruffFilter reads the concise and grouped formats", () => {
  const concise = [
    "pkg/a.py:1:8: F401 [*] `os` imported but unused",
    "bad.py:1:8: invalid-syntax: Expected `)`, found newline",
    "Found 2 errors.",
    "",
  ].join("\n");
  deepStrictEqual(parseRuff(concise).diagnostics.map((d) => [d.file, d.at, d.code, d.message]), [
    ["pkg/a.py", "1:8", "F401", "[*] `os` imported but unused"],
    ["bad.py", "1:8", "invalid-syntax", "Expected `)`, found newline"],
  ]);
  const grouped = [
    "pkg/a.py:",
    "   1:8  F401 [*] `os` imported but unused",
    "  10:10 UP006 [*] Use `list` instead of `List` for type annotation",
    "",
    "Found 2 errors.",
    "",
  ].join("\n");
  deepStrictEqual(parseRuff(grouped).diagnostics.map((d) => [d.file, d.at, d.code]), [
    ["pkg/a.py", "1:8", "F401"],
    ["pkg/a.py", "10:10", "UP006"],
  ]);
});

Deno.test("ruffFilter leaves a clean run and `ruff format` lines as they are", () => {
  deepStrictEqual(run("All checks passed!\n", 0), { text: "All checks passed!\n", cut: [] });
  const format =
    "Would reformat: pkg/a.py\n1 file would be reformatted, 3 files already formatted\n";
  deepStrictEqual(run(format, 0), { text: format, cut: [] });
  strictEqual(run(format, 1).text, `${format}ruff: failed with exit code 1\n`);
  deepStrictEqual(run(FULL.replace("F841", "\x1b[1;31mF841\x1b[0m")), run(FULL));
});

Deno.test("ruffPassthrough defers to machine formats and diffs", () => {
  ok(ruffPassthrough(["check", "--output-format", "json"]));
  ok(ruffPassthrough(["check", "--output-format=sarif", "."]));
  ok(ruffPassthrough(["format", "--diff"]));
  ok(ruffPassthrough(["check", "--format", "github"]));
  strictEqual(ruffPassthrough(["check", "--output-format=concise"]), null);
  strictEqual(ruffPassthrough(["check", "--fix", "."]), null);
  strictEqual(ruffPassthrough(["check", "--", "--diff"]), null);
});
