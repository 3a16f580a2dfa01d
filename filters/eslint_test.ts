import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { eslintFilter, eslintPassthrough, parseEslint } from "./eslint.ts";

function run(raw: string, exitCode = 1) {
  return eslintFilter.filter(raw, { args: ["src"], shaped: false, exitCode });
}

// `eslint src` (9.39.5, stylish) over two files: a parse error, and repeated rule violations.
const STYLISH = `
/work/app/src/a.js
  8:1  error  Parsing error: Unexpected token

/work/app/src/b.js
  1:5   warning  'c' is never reassigned. Use 'const' instead  prefer-const
  2:1   warning  Unexpected console statement                  no-console
  2:15  warning  Expected '===' and instead saw '=='           eqeqeq
  3:1   warning  Unexpected console statement                  no-console
  3:15  warning  Expected '===' and instead saw '=='           eqeqeq

/work/app/src/c.js
  1:1   warning  Unexpected console statement                  no-console
  4:3   error    'startTime' is not defined                    no-undef

✖ 8 problems (2 errors, 6 warnings)
  0 errors and 1 warning potentially fixable with the \`--fix\` option.

`;

Deno.test("eslintFilter keeps every problem with its rule and location, repeated ones counted", () => {
  const out = run(STYLISH);
  strictEqual(
    out.text,
    [
      "/work/app/src/a.js: 1 error",
      "  8:1 error: Parsing error: Unexpected token",
      "/work/app/src/b.js: 5 warnings (2 below)",
      "  1:5 warning prefer-const: 'c' is never reassigned. Use 'const' instead",
      "  warning eqeqeq: Expected '===' and instead saw '==' (×2 at 2:15 3:15)",
      "/work/app/src/c.js: 1 error, 1 warning (1 below)",
      "  4:3 error no-undef: 'startTime' is not defined",
      "in several files:",
      "  warning no-console: Unexpected console statement (×3)",
      "    /work/app/src/: b.js 2:1 3:1, c.js 1:1",
      "✖ 8 problems (2 errors, 6 warnings)",
      "  0 errors and 1 warning potentially fixable with the `--fix` option.",
      "",
    ].join("\n"),
  );
  deepStrictEqual(out.cut, []);
});

Deno.test("eslintFilter reads a problem with no rule and a whole-file warning", () => {
  const raw = [
    "",
    "/work/app/dist/x.js",
    '  0:0  warning  File ignored because of a matching ignore pattern. Use "--no-ignore" to override',
    "",
    "✖ 1 problem (0 errors, 1 warning)",
    "",
  ].join("\n");
  deepStrictEqual(parseEslint(raw).diagnostics, [{
    file: "/work/app/dist/x.js",
    at: "",
    severity: "warning",
    code: "",
    message: 'File ignored because of a matching ignore pattern. Use "--no-ignore" to override',
    details: [],
  }]);
});

Deno.test("eslintFilter strips colour and says a warnings-only failure failed", () => {
  // FORCE_COLOR output of eslint 9 for one file; exit 1 from --max-warnings 0.
  const coloured = [
    "\x1b[0m\x1b[0m",
    "\x1b[0m\x1b[4m/work/app/src/b.js\x1b[24m\x1b[0m",
    "\x1b[0m  \x1b[2m2:1\x1b[22m   \x1b[33mwarning\x1b[39m  Unexpected console statement  \x1b[2mno-console\x1b[22m\x1b[0m",
    "\x1b[0m  \x1b[2m3:1\x1b[22m   \x1b[33mwarning\x1b[39m  Unexpected console statement  \x1b[2mno-console\x1b[22m\x1b[0m",
    "\x1b[0m\x1b[0m",
    "\x1b[0m\x1b[33m\x1b[1m✖ 2 problems (0 errors, 2 warnings)\x1b[22m\x1b[39m\x1b[0m",
    "",
  ].join("\n");
  const out = run(coloured, 1);
  ok(out.text.includes("\n  no-console: Unexpected console statement (×2 at 2:1 3:1)\n"));
  ok(out.text.endsWith("eslint: failed with exit code 1\n"));
  ok(!run(coloured, 0).text.includes("failed"));
});

Deno.test("eslintFilter leaves a clean run empty", () => {
  deepStrictEqual(run("", 0), { text: "", cut: [] });
});

Deno.test("eslintPassthrough defers to any format but stylish and to --print-config", async (t) => {
  const cases: [string[], boolean][] = [
    [["-f", "json", "src"], true],
    [["--format", "json-with-metadata"], true],
    [["--format=compact", "src"], true],
    [["-fjson"], true],
    [["--print-config", "a.js"], true],
    [["-f", "stylish", "src"], false],
    [["-c", "-f", "src"], false],
    [["--max-warnings", "0", "src"], false],
    [["src", "--fix"], false],
    [["--", "-f", "json"], false],
  ];
  for (const [args, passes] of cases) {
    await t.step(args.join(" "), () => strictEqual(eslintPassthrough(args) !== null, passes));
  }
});
