import { strictEqual } from "node:assert/strict";
import { lineOf, locate } from "./locate.ts";

const DOC = `# a comment
[[filter]]
name = "make"   # trailing
match = '^make(\\s|$)'
steps = [
  { strip_ansi = true },
  # between steps
  { strip = ['^a', "^b"] },
  { head = 3,
    tail = 4 },
]
description = """
multi
line"""

[[filter.test]]
input = '''
x
'''
expected = "x"

[[filter.test]]
"input" = "y"

[[filter]]
name = "df"
"quoted key".inner = 1
`;

Deno.test("locate finds the line of every key, table and array element", async (t) => {
  const where = locate(DOC);
  const cases: [string, number][] = [
    ["filter[0]", 2],
    ["filter[0].name", 3],
    ["filter[0].match", 4],
    ["filter[0].steps", 5],
    ["filter[0].steps[0]", 6],
    ["filter[0].steps[0].strip_ansi", 6],
    ["filter[0].steps[1]", 8],
    ["filter[0].steps[1].strip[1]", 8],
    ["filter[0].steps[2].tail", 10],
    ["filter[0].description", 12],
    ["filter[0].test[0]", 16],
    ["filter[0].test[0].expected", 20],
    ["filter[0].test[1]", 22],
    ["filter[0].test[1].input", 23],
    ["filter[1]", 25],
    ["filter[1].name", 26],
    ["filter[1].quoted key.inner", 27],
  ];
  for (const [path, line] of cases) {
    await t.step(path, () => strictEqual(where.get(path), line));
  }
});

Deno.test("lineOf falls back to the nearest enclosing path", () => {
  const where = locate(DOC);
  strictEqual(lineOf(where, "filter[0].steps[2].nope"), 9);
  strictEqual(lineOf(where, "filter[1].missing"), 25);
  strictEqual(lineOf(where, "nothing"), null);
});

Deno.test("locate never throws on text it cannot follow", () => {
  strictEqual(locate("[[filter]]\nname = '").get("filter[0]"), 1);
});
