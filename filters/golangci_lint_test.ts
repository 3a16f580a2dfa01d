import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { golangciLintFilter, golangciPassthrough, parseGolangci } from "./golangci_lint.ts";

function run(raw: string, exitCode = 1) {
  return golangciLintFilter.filter(raw, { args: ["run"], shaped: false, exitCode });
}

// golangci-lint's text format, as its docs and issue reports show it (not captured here: the
// tool is not installable offline on this machine).
const RUN =
  `internal/store/db.go:42:12: Error return value of \`rows.Close\` is not checked (errcheck)
	defer rows.Close()
	          ^
internal/store/cache.go:17:12: Error return value of \`rows.Close\` is not checked (errcheck)
	defer rows.Close()
	          ^
cmd/app/main.go:10:2: ineffectual assignment to err (ineffassign)
	err = run()
	^
internal/store/db.go:88:6: func \`unusedHelper\` is unused (unused)
func unusedHelper() {}
     ^
4 issues:
* errcheck: 2
* ineffassign: 1
* unused: 1
`;

Deno.test("golangciLintFilter keeps each issue's linter, location and message, excerpts cut", () => {
  const out = run(RUN);
  strictEqual(
    out.text,
    [
      "internal/store/db.go: 2 issues (1 below)",
      "  88:6 unused: func `unusedHelper` is unused",
      "cmd/app/main.go: 1 issue",
      "  10:2 ineffassign: ineffectual assignment to err",
      "in several files:",
      "  errcheck: Error return value of `rows.Close` is not checked (×2)",
      "    internal/store/: db.go 42:12, cache.go 17:12",
      "4 issues:",
      "* errcheck: 2",
      "* ineffassign: 1",
      "* unused: 1",
      "",
    ].join("\n"),
  );
  deepStrictEqual(out.cut, ["4 source excerpts"]);
  const unused = RUN.split("\n").slice(9, 12).join("\n") + "\n";
  strictEqual(
    run(unused).text,
    [
      "internal/store/db.go: 1 issue",
      "  88:6 unused: func `unusedHelper` is unused",
      "golangci-lint: failed, 1 issue in 1 file",
      "",
    ].join("\n"),
  );
});

Deno.test("golangciLintFilter keeps a clean run and log lines", () => {
  deepStrictEqual(run("0 issues.\n", 0), { text: "0 issues.\n", cut: [] });
  const report = parseGolangci('level=warning msg="[config_reader] deprecated"\n' + RUN);
  strictEqual(report.general[0], 'level=warning msg="[config_reader] deprecated"');
  strictEqual(report.diagnostics.length, 4);
});

Deno.test("golangciPassthrough defers to machine formats", () => {
  ok(golangciPassthrough(["run", "--out-format", "json"]));
  ok(golangciPassthrough(["run", "--out-format=checkstyle"]));
  ok(golangciPassthrough(["run", "--output.json.path", "stdout"]));
  strictEqual(golangciPassthrough(["run", "--out-format=colored-line-number"]), null);
  strictEqual(golangciPassthrough(["run", "--output.text.path", "stdout"]), null);
  strictEqual(golangciPassthrough(["run", "./..."]), null);
});
