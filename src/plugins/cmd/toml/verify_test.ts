import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { parseFilterFile } from "./spec.ts";
import { unifiedDiff, verifyDefs } from "./verify.ts";

const FILE = `[[filter]]
name = "t"
match = '^t'
steps = [{ strip = ['^#'] }]

[[filter.test]]
name = "passes"
input = "# c\\na\\n"
expected = "a"

[[filter.test]]
name = "fails"
input = "# c\\na\\nb\\n"
expected = '''
a
c
'''

[[filter]]
name = "u"
match = '^u'
`;

Deno.test("verifyDefs runs each test and reports failures with a diff and the test's line", () => {
  const v = verifyDefs(parseFilterFile(FILE, "f.toml"));
  strictEqual(v.filters, 2);
  strictEqual(v.tests, 2);
  strictEqual(v.failures.length, 1);
  const [f] = v.failures;
  deepStrictEqual({ ...f, diff: "" }, {
    filter: "t",
    file: "f.toml",
    test: "fails",
    line: 11,
    diff: "",
  });
  strictEqual(f.diff, "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n a\n-c\n+b\n");
});

Deno.test("unifiedDiff writes hunks with three lines of context", async (t) => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}`);
  const cases: [string, string, string, string][] = [
    ["equal texts", "a\nb", "a\nb", "--- expected\n+++ actual\n"],
    ["one line changed", "a", "b", "--- expected\n+++ actual\n@@ -1 +1 @@\n-a\n+b\n"],
    ["from nothing", "", "a\nb", "--- expected\n+++ actual\n@@ -0,0 +1,2 @@\n+a\n+b\n"],
    [
      "a change far from the others gets its own hunk",
      lines(20).join("\n"),
      lines(20).map((l) => l === "l2" ? "L2" : l === "l18" ? "L18" : l).join("\n"),
      "--- expected\n+++ actual\n" +
      "@@ -1,5 +1,5 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n" +
      "@@ -15,6 +15,6 @@\n l15\n l16\n l17\n-l18\n+L18\n l19\n l20\n",
    ],
  ];
  for (const [name, a, b, want] of cases) {
    await t.step(name, () => strictEqual(unifiedDiff(a, b), want));
  }
});

Deno.test("a filter that throws is a failure, not a crash", () => {
  const [def] = parseFilterFile(FILE, "f.toml");
  const broken = { ...def, steps: [{ kind: "nope" }] } as unknown as typeof def;
  const v = verifyDefs([broken]);
  strictEqual(v.failures.length >= 1, true);
  match(v.failures[0].diff, /\S/);
});
