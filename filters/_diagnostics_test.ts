import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import {
  DIAG_WARNINGS_SHOWN,
  type Diagnostic,
  drop,
  newReport,
  renderReport,
  saysFailed,
  whereLines,
} from "./_diagnostics.ts";

function diag(
  file: string,
  at: string,
  severity: string,
  code: string,
  message: string,
): Diagnostic {
  return { file, at, severity, code, message, details: [] };
}

const OPTIONS = { tool: "tsc", exitCode: 1 };

Deno.test("renderReport groups by file and merges a diagnostic repeated in one file", () => {
  const report = newReport();
  report.diagnostics.push(
    diag("src/a.ts", "1:25", "error", "TS2307", "Cannot find module './x.js'."),
    diag("src/a.ts", "3:7", "error", "TS2322", "Type 'number' is not assignable to type 'string'."),
    diag(
      "src/a.ts",
      "4:33",
      "error",
      "TS2322",
      "Type 'number' is not assignable to type 'string'.",
    ),
  );
  report.summary.push("Found 3 errors in 1 file.");
  deepStrictEqual(renderReport(report, OPTIONS), {
    text: [
      "src/a.ts: 3 errors",
      "  1:25 TS2307: Cannot find module './x.js'.",
      "  TS2322: Type 'number' is not assignable to type 'string'. (×2 at 3:7 4:33)",
      "Found 3 errors in 1 file.",
      "",
    ].join("\n"),
    cut: [],
  });
});

Deno.test("renderReport writes a diagnostic repeated in several files once, with every location", () => {
  const report = newReport();
  const same = "Type 'string' is not assignable to type 'number'.";
  report.diagnostics.push(
    diag("src/a.ts", "2:7", "error", "TS2322", same),
    diag("src/a.ts", "5:1", "error", "TS2304", "Cannot find name 'x'."),
    diag("src/b.ts", "1:7", "error", "TS2322", same),
    diag("src/b.ts", "3:14", "error", "TS2322", same),
    diag("lib/c.ts", "9:1", "error", "TS2322", same),
  );
  strictEqual(
    renderReport(report, OPTIONS).text,
    [
      "src/a.ts: 2 errors (1 below)",
      "  5:1 TS2304: Cannot find name 'x'.",
      "in several files:",
      `  TS2322: ${same} (×4)`,
      "    src/: a.ts 2:7, b.ts 1:7 3:14",
      "    lib/c.ts 9:1",
      "tsc: failed, 5 errors in 3 files",
      "",
    ].join("\n"),
  );
});

Deno.test("renderReport shows the severity only when the diagnostics mix severities", () => {
  const report = newReport();
  report.diagnostics.push(
    diag("a.js", "1:1", "error", "no-undef", "'x' is not defined"),
    diag("a.js", "2:1", "warning", "no-console", "Unexpected console statement"),
  );
  strictEqual(
    renderReport(report, { tool: "eslint", exitCode: 1 }).text,
    [
      "a.js: 1 error, 1 warning",
      "  1:1 error no-undef: 'x' is not defined",
      "  2:1 warning no-console: Unexpected console statement",
      "eslint: failed, 1 error, 1 warning in 1 file",
      "",
    ].join("\n"),
  );
});

Deno.test("renderReport writes rustc's bracketed codes when asked", () => {
  const report = newReport();
  report.diagnostics.push(
    diag("src/main.rs", "7:18", "error", "E0308", "mismatched types"),
    diag("src/main.rs", "2:9", "warning", "unused_variables", "unused variable: `a`"),
  );
  const text = renderReport(report, { tool: "cargo build", exitCode: 101, bracketCodes: true })
    .text;
  match(text, /^ {2}7:18 error\[E0308\]: mismatched types$/m);
  match(text, /^ {2}2:9 warning\[unused_variables\]: unused variable: `a`$/m);
});

Deno.test("renderReport keeps every error but counts warnings past the cap per code", () => {
  const report = newReport();
  for (let i = 0; i < DIAG_WARNINGS_SHOWN + 5; i++) {
    report.diagnostics.push(diag("a.js", `${i + 1}:1`, "warning", "prefer-const", `'v${i}' never`));
  }
  report.diagnostics.push(diag("a.js", "999:1", "error", "no-undef", "'z' is not defined"));
  const out = renderReport(report, { tool: "eslint", exitCode: 1 });
  ok(out.text.includes("999:1 error no-undef: 'z' is not defined"));
  ok(out.text.includes(`'v${DIAG_WARNINGS_SHOWN - 1}' never`));
  ok(!out.text.includes(`'v${DIAG_WARNINGS_SHOWN}' never`));
  ok(out.text.includes("not shown: 5 warnings (prefer-const 5)"));
  deepStrictEqual(out.cut, ["5 warnings"]);
});

Deno.test("renderReport writes advice once per code, details under every diagnostic", () => {
  const report = newReport();
  for (const at of ["1:5", "2:5"]) {
    report.diagnostics.push({
      ...diag("a.js", at, "warning", "lint/x", `unused ${at}`),
      details: ["specific"],
      advice: ["Unused variables are often the result of typos."],
    });
  }
  const text = renderReport(report, { tool: "biome", exitCode: 0 }).text;
  strictEqual(text.split("specific").length - 1, 2);
  strictEqual(text.split("often the result of typos").length - 1, 1);
});

Deno.test("renderReport names what the parser dropped and says a failed run failed", () => {
  const report = newReport();
  report.diagnostics.push(diag("main.go", "3:2", "", "", "self-assignment of n to n"));
  drop(report, "package header");
  drop(report, "package header");
  const out = renderReport(report, { tool: "go vet", exitCode: 1 });
  deepStrictEqual(out.cut, ["2 package headers"]);
  ok(out.text.endsWith("go vet: failed, 1 issue in 1 file\n"));
  report.summary.push("1 issue.");
  ok(
    renderReport(report, { tool: "go vet", exitCode: 1 }).text.endsWith(
      "go vet: failed with exit code 1\n",
    ),
  );
  ok(!renderReport(report, { tool: "go vet", exitCode: 0 }).text.includes("failed"));
});

Deno.test("renderReport keeps an output it cannot read verbatim, blank lines included", () => {
  const report = newReport();
  report.general.push("Version 7.0.2", "", "usage: tsc");
  deepStrictEqual(renderReport(report, { tool: "tsc", exitCode: 0 }), {
    text: "Version 7.0.2\n\nusage: tsc\n",
    cut: [],
  });
  deepStrictEqual(renderReport(newReport(), { tool: "tsc", exitCode: 0 }), { text: "", cut: [] });
});

Deno.test("saysFailed() recognises failure words but not a clean count", () => {
  ok(saysFailed("Found 2 errors."));
  ok(saysFailed("error[E0308]: mismatched types"));
  ok(saysFailed("error: could not compile `x`"));
  ok(saysFailed("FAILED"));
  ok(!saysFailed("✖ 5 problems (0 errors, 5 warnings)"));
  ok(!saysFailed("All checks passed!"));
});

Deno.test("whereLines() writes one line per directory, the directory in full, every location kept", () => {
  const where = new Map([
    ["src/a.ts", ["2:7"]],
    ["lib/c.ts", ["9:1"]],
    ["top.ts", [""]],
    ["src/b.ts", ["1:7", "3:14"]],
    ["other.ts", ["4:1"]],
  ]);
  deepStrictEqual(whereLines(where), [
    "src/: a.ts 2:7, b.ts 1:7 3:14",
    "lib/c.ts 9:1",
    "top.ts, other.ts 4:1",
  ]);
});
