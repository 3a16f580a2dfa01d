import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { biomeFilter, biomePassthrough, parseBiome } from "./biome.ts";

function run(raw: string, exitCode = 1) {
  return biomeFilter.filter(raw, { args: ["check", "src"], shaped: false, exitCode });
}

const BAR = "━".repeat(40);

// `biome check src` (2.6.9) on stderr: a lint warning with its fix, the same lint error in two
// files, a file the formatter would change, the closing lines and the verdict block.
const CHECK = `src/a.js:1:5 lint/correctness/noUnusedVariables  FIXABLE  ${BAR}

  ! This variable hits is unused.
  
  > 1 │ var hits = 0
      │     ^^^^
    2 │ export function a(items) {
  
  i Unused variables are often the result of typos, incomplete refactors, or other sources of bugs.
  
  i Unsafe fix: If this is intentional, prepend hits with an underscore.
  
     1    │ - var·hits·=·0
        1 │ + var·_hits·=·0
  

src/a.js:3:9 lint/suspicious/noDoubleEquals  FIXABLE  ${BAR}

  × Using == may be unsafe if you are relying on type coercion.
  
    2 │ export function a(items) {
  > 3 │   if (items == 2) {}
      │             ^^
  
  i == is only allowed when comparing against null.
  
  i Unsafe fix: Use === instead.
  

src/b.js:3:9 lint/suspicious/noDoubleEquals  FIXABLE  ${BAR}

  × Using == may be unsafe if you are relying on type coercion.
  
  > 3 │   if (items == 2) {}
      │             ^^
  
  i == is only allowed when comparing against null.
  
  i Unsafe fix: Use === instead.
  

src/b.js format ${BAR}

  × Formatter would have printed the following content:
  
     1    │ - var·hits·=·0
        1 │ + var·hits·=·0;
  

The number of diagnostics exceeds the limit allowed. Use --max-diagnostics to increase it.
Diagnostics not shown: 12.
Checked 2 files in 16ms. No fixes applied.
Found 15 errors.
Found 1 warning.
check ${BAR}

  × Some errors were emitted while running checks.
  

`;

Deno.test("biomeFilter keeps each diagnostic's category, location, message and advice", () => {
  const out = run(CHECK);
  strictEqual(
    out.text,
    [
      "src/a.js: 1 error, 1 warning (1 below)",
      "  1:5 warning lint/correctness/noUnusedVariables: This variable hits is unused.",
      "    Unused variables are often the result of typos, incomplete refactors, or other sources of bugs.",
      "    Unsafe fix: If this is intentional, prepend hits with an underscore.",
      "src/b.js: 2 errors (1 below)",
      "  error format: Formatter would have printed the following content:",
      "in several files:",
      "  error lint/suspicious/noDoubleEquals: Using == may be unsafe if you are relying on type coercion. (×2)",
      "    src/: a.js 3:9, b.js 3:9",
      "    == is only allowed when comparing against null.",
      "    Unsafe fix: Use === instead.",
      "The number of diagnostics exceeds the limit allowed. Use --max-diagnostics to increase it.",
      "Diagnostics not shown: 12.",
      "Checked 2 files in 16ms. No fixes applied.",
      "Found 15 errors.",
      "Found 1 warning.",
      "Some errors were emitted while running checks.",
      "",
    ].join("\n"),
  );
  deepStrictEqual(out.cut, ["4 source excerpts"]);
});

Deno.test("biomeFilter writes a rule's repeated advice once and marks a fix it names no advice for", () => {
  const one = (at: string, name: string) =>
    `src/a.js:${at} lint/correctness/noUnusedVariables  FIXABLE  ${BAR}\n\n  ! This variable ${name} is unused.\n  \n  i Unused variables are often the result of typos.\n  \n`;
  const report = parseBiome(one("1:5", "a") + one("2:5", "b"));
  deepStrictEqual(report.diagnostics.map((d) => d.message), [
    "This variable a is unused. (fixable)",
    "This variable b is unused. (fixable)",
  ]);
  const text = run(one("1:5", "a") + one("2:5", "b"), 0).text;
  strictEqual(text.split("often the result of typos").length - 1, 1);
});

Deno.test("biomeFilter leaves a clean run's line as it is and strips colour", () => {
  const clean = "Checked 1 file in 3ms. No fixes applied.\n";
  deepStrictEqual(run(clean, 0), { text: clean, cut: [] });
  const coloured = CHECK.replaceAll("src/a.js:1:5", "\x1b[1msrc/a.js:1:5\x1b[0m");
  deepStrictEqual(run(coloured), run(CHECK));
});

Deno.test("biomeFilter reads stderr and passes machine reporters through", () => {
  strictEqual(biomeFilter.filterStderr, true);
  ok(biomePassthrough(["check", "--reporter=json", "src"]));
  ok(biomePassthrough(["lint", "--reporter", "github"]));
  ok(biomePassthrough(["ci", "--reporter=summary"]));
  strictEqual(biomePassthrough(["check", "--reporter=default", "src"]), null);
  strictEqual(biomePassthrough(["check", "--write", "src"]), null);
  strictEqual(biomePassthrough(["lint", "--", "--reporter=json"]), null);
});
