import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { goBuildFilter, goPassthrough, goVetFilter, parseGo } from "./go_build.ts";

function build(raw: string, exitCode = 1) {
  return goBuildFilter.filter(raw, { args: ["./..."], shaped: false, exitCode });
}

// `go build ./...` (1.19) on stderr: two packages, a message repeated, the stop at ten errors.
const BUILD = `# example.com/shop/internal/cart
internal/cart/invoice.go:8:19: undefined: prices.OldPrice
internal/cart/invoice.go:13:18: cannot use "none" (untyped string constant) as int value in variable declaration
internal/cart/tax.go:8:19: undefined: prices.OldPrice
# example.com/demo
./main.go:5:2: "os" imported and not used
./main.go:9:7: cannot use x (variable of type int) as string value in argument to f
./main.go:19:15: too many errors
`;

Deno.test("goBuildFilter keeps every error's file, location and message, grouped by file", () => {
  const out = build(BUILD);
  strictEqual(
    out.text,
    [
      "internal/cart/invoice.go: 2 errors (1 below)",
      '  13:18 cannot use "none" (untyped string constant) as int value in variable declaration',
      "./main.go: 2 errors",
      '  5:2 "os" imported and not used',
      "  9:7 cannot use x (variable of type int) as string value in argument to f",
      "in several files:",
      "  undefined: prices.OldPrice (×2)",
      "    internal/cart/: invoice.go 8:19, tax.go 8:19",
      "go build: failed, 5 errors in 3 files",
      "./main.go:19:15: too many errors",
      "",
    ].join("\n"),
  );
  deepStrictEqual(out.cut, ["2 package headers"]);
});

Deno.test("goBuildFilter keeps continuation lines, a header before lines naming no file, and drops downloads", () => {
  const raw = [
    "go: downloading example.com/dep v1.2.0",
    "# example.com/demo",
    "./main.go:9:4: not enough arguments in call to f",
    "\thave (number)",
    "\twant (string, int)",
    "# example.com/demo/cmd",
    "/usr/bin/ld: cannot find -lfoo",
    "collect2: error: ld returned 1 exit status",
    "",
  ].join("\n");
  const report = parseGo(raw, false);
  deepStrictEqual(report.diagnostics[0].details, ["have (number)", "want (string, int)"]);
  deepStrictEqual(report.general, [
    "# example.com/demo/cmd",
    "/usr/bin/ld: cannot find -lfoo",
    "collect2: error: ld returned 1 exit status",
  ]);
  const out = build(raw, 1);
  ok(out.text.startsWith("# example.com/demo/cmd\n/usr/bin/ld: cannot find -lfoo\n"));
  deepStrictEqual(out.cut, ["1 download line", "1 package header"]);
});

Deno.test("goVetFilter keeps findings and vet's type errors, and says a failed vet failed", () => {
  const raw = [
    "# example.com/vetme/internal/billing",
    "internal/billing/tax.go:6:2: fmt.Printf format %d has arg name of wrong type string",
    "# example.com/demo",
    'vet: ./main.go:10:14: cannot use "s" (untyped string constant) as int value in variable declaration',
    "",
  ].join("\n");
  const out = goVetFilter.filter(raw, { args: ["./..."], shaped: false, exitCode: 1 });
  strictEqual(
    out.text,
    [
      "internal/billing/tax.go: 1 issue",
      "  6:2 fmt.Printf format %d has arg name of wrong type string",
      "./main.go: 1 error",
      '  10:14 error vet: cannot use "s" (untyped string constant) as int value in variable declaration',
      "go vet: failed, 1 error, 1 issue in 2 files",
      "",
    ].join("\n"),
  );
  const findingOnly = raw.split("\n").slice(0, 2).join("\n") + "\n";
  ok(
    goVetFilter.filter(findingOnly, { args: [], shaped: false, exitCode: 1 }).text
      .endsWith("go vet: failed, 1 issue in 1 file\n"),
  );
});

Deno.test("go filters read stderr, keep -v package lines, pass -json through", () => {
  strictEqual(goBuildFilter.filterStderr, true);
  strictEqual(goVetFilter.filterStderr, true);
  const verbose = "example.com/tidy/maths\nexample.com/tidy\n";
  deepStrictEqual(build(verbose, 0), { text: verbose, cut: [] });
  deepStrictEqual(build("", 0), { text: "", cut: [] });
  ok(goPassthrough(["-json", "./..."]));
  ok(goPassthrough(["--json"]));
  strictEqual(goPassthrough(["-v", "./..."]), null);
});
