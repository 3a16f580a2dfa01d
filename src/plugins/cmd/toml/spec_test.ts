import { deepStrictEqual, match, ok, strictEqual, throws } from "node:assert/strict";
import { parseFilterFile } from "./spec.ts";

const GOOD = `# two filters
[[filter]]
name = "make"
match = '^make(\\s|$)'
description = "make, quieter"
text_class = "log"
stderr = true
pipe_safe = true
steps = [
  { strip_ansi = true },
  { replace = '^make\\[\\d+\\]: ', with = 'make: ' },
  { short_circuit = 'make: Nothing to be done.*', unless = 'rror', message = "nothing", exit_code = 0 },
  { strip = ['^make: Entering'] },
  { keep = ['.'] },
  { collapse_repeats = true },
  { truncate_lines = 200 },
  { head = 20, tail = 10 },
  { tail = 5 },
  { max_lines = 100 },
  { on_empty = "empty" },
]

[[filter.test]]
name = "one"
input = "a\\n"
expected = "a\\n"
exit_code = 2

[[filter]]
name = "df"
match = '^df'
`;

Deno.test("a valid file parses into its filters, steps and tests, with lines", () => {
  const [make, df] = parseFilterFile(GOOD, "x.toml");
  strictEqual(make.name, "make");
  strictEqual(make.line, 2);
  strictEqual(make.stderr, true);
  strictEqual(make.pipeSafe, true);
  strictEqual(make.textClass, "log");
  deepStrictEqual(make.steps.map((s) => s.kind), [
    "strip_ansi",
    "replace",
    "short_circuit",
    "strip",
    "keep",
    "collapse_repeats",
    "truncate_lines",
    "head_tail",
    "head_tail",
    "max_lines",
    "on_empty",
  ]);
  deepStrictEqual(make.steps[2], {
    kind: "short_circuit",
    pattern: "make: Nothing to be done.*",
    unless: "rror",
    message: "nothing",
    exitCode: 0,
    line: 12,
  });
  deepStrictEqual(make.steps[8], { kind: "head_tail", head: null, tail: 5, line: 18 });
  deepStrictEqual(make.tests, [{
    name: "one",
    input: "a\n",
    expected: "a\n",
    exitCode: 2,
    line: 23,
  }]);
  ok(make.source.startsWith('[[filter]]\nname = "make"'));
  ok(make.source.includes("exit_code = 2"));
  ok(!make.source.includes('name = "df"'), "a filter's source stops at the next [[filter]]");
  deepStrictEqual(
    { ...df, source: "" },
    {
      name: "df",
      match: "^df",
      description: "",
      textClass: "log",
      stderr: false,
      pipeSafe: false,
      steps: [],
      tests: [],
      file: "x.toml",
      line: 29,
      source: "",
    },
  );
  deepStrictEqual(parseFilterFile("# nothing yet\n", "x.toml"), []);
});

const HEAD = `[[filter]]\nname = "t"\nmatch = '^t'\n`;

Deno.test("every kind of bad input is an error naming the file and the line", async (t) => {
  const cases: [string, string, RegExp][] = [
    ["not TOML", `[[filter]]\nname = "t\n`, /^Cannot read filters "f\.toml": line 2: /],
    ["an unknown top-level key", `title = "x"\n${HEAD}`, /line 1: unknown key "title"/],
    ["filter not an array of tables", `[filter]\nname = "t"\n`, /line 1: filter must be an array/],
    [
      "an unknown filter key",
      `${HEAD}stepz = []\n`,
      /line 4: filter "t": unknown key "stepz"; expected one of name, match, description/,
    ],
    ["a missing name", `[[filter]]\nmatch = '^t'\n`, /line 1: filter #1: missing key "name"/],
    ["a missing match", `[[filter]]\nname = "t"\n`, /line 1: filter "t": missing key "match"/],
    ["an unanchored match", `[[filter]]\nname = "t"\nmatch = 't'\n`, /line 3: .*not anchored/],
    ["a half-anchored match", `[[filter]]\nname = "t"\nmatch = '^t|u'\n`, /line 3: .*not anchored/],
    [
      "a match that does not compile",
      `[[filter]]\nname = "t"\nmatch = '^t('\n`,
      /line 3: .*Invalid regular expression/,
    ],
    [
      "a bad text_class",
      `${HEAD}text_class = "xml"\n`,
      /line 4: .*text_class "xml"; expected one of code, prose/,
    ],
    ["stderr not a boolean", `${HEAD}stderr = "yes"\n`, /line 4: .*stderr must be true or false/],
    [
      "pipe_safe not a boolean",
      `${HEAD}pipe_safe = 1\n`,
      /line 4: .*pipe_safe must be true or false/,
    ],
    ["steps not an array", `${HEAD}steps = 3\n`, /line 4: .*steps must be an array/],
    [
      "a step that is not a table",
      `${HEAD}steps = [\n  "strip",\n]\n`,
      /line 5: .*steps\[0\]: a step is an inline table/,
    ],
    [
      "a step with no kind",
      `${HEAD}steps = [\n  {},\n]\n`,
      /line 5: .*a step needs one of strip_ansi, replace/,
    ],
    [
      "a step with two kinds",
      `${HEAD}steps = [\n  { strip_ansi = true },\n  { max_lines = 3, truncate_lines = 9 },\n]\n`,
      /line 6: .*steps\[1\]: a step does one thing; this one has truncate_lines and max_lines|line 6: .*this one has max_lines and truncate_lines/,
    ],
    [
      "keep and strip in one step",
      `${HEAD}steps = [{ keep = ['a'], strip = ['b'] }]\n`,
      /line 4: .*strip or keep, not both/,
    ],
    [
      "an unknown step key",
      `${HEAD}steps = [\n  { strp = ['a'] },\n]\n`,
      /line 5: .*unknown key "strp"/,
    ],
    [
      "a modifier in the wrong step",
      `${HEAD}steps = [{ strip = ['a'], with = 'b' }]\n`,
      /line 4: .*"with" does not belong in a strip step/,
    ],
    [
      "replace without with",
      `${HEAD}steps = [{ replace = 'a' }]\n`,
      /line 4: .*missing key "with"/,
    ],
    [
      "short_circuit without message",
      `${HEAD}steps = [{ short_circuit = 'a' }]\n`,
      /line 4: .*missing key "message"/,
    ],
    [
      "a step regex that does not compile",
      `${HEAD}steps = [\n  { strip = ['ok', '(('] },\n]\n`,
      /line 5: .*steps\[0\]: strip: Invalid regular expression/,
    ],
    [
      "a bad unless",
      `${HEAD}steps = [{ short_circuit = 'a', unless = '[', message = "m" }]\n`,
      /line 4: .*unless: Invalid regular/,
    ],
    [
      "strip not a list",
      `${HEAD}steps = [{ strip = 'a' }]\n`,
      /line 4: .*strip must be a list of patterns/,
    ],
    [
      "an empty keep list",
      `${HEAD}steps = [{ keep = [] }]\n`,
      /line 4: .*keep must be a list of patterns/,
    ],
    [
      "strip_ansi = false",
      `${HEAD}steps = [{ strip_ansi = false }]\n`,
      /line 4: .*strip_ansi must be true/,
    ],
    [
      "truncate_lines = 0",
      `${HEAD}steps = [{ truncate_lines = 0 }]\n`,
      /line 4: .*truncate_lines must be a whole number ≥ 1/,
    ],
    ["head = -1", `${HEAD}steps = [{ head = -1 }]\n`, /line 4: .*head must be a whole number ≥ 0/],
    [
      "max_lines = 1.5",
      `${HEAD}steps = [{ max_lines = 1.5 }]\n`,
      /line 4: .*max_lines must be a whole number/,
    ],
    [
      "a step exit_code out of range",
      `${HEAD}steps = [{ short_circuit = 'a', message = "m", exit_code = 300 }]\n`,
      /line 4: .*exit_code must be a whole number/,
    ],
    [
      "an unknown test key",
      `${HEAD}[[filter.test]]\ninput = ""\nexpected = ""\nexpect = ""\n`,
      /line 7: filter "t": test 1: unknown key "expect"/,
    ],
    [
      "a test without input",
      `${HEAD}[[filter.test]]\nexpected = ""\n`,
      /line 4: .*test 1: missing key "input"/,
    ],
    [
      "a test exit_code not a number",
      `${HEAD}[[filter.test]]\ninput = ""\nexpected = ""\nexit_code = "1"\n`,
      /line 7: .*exit_code must be a whole number from 0 to 255/,
    ],
    [
      "a duplicate name",
      `${HEAD}\n${HEAD}`,
      /line 6: filter "t" is defined twice \(first at line 1\)/,
    ],
    [
      "an empty name",
      `[[filter]]\nname = ""\nmatch = '^t'\n`,
      /line 2: .*name must be 1 to 64 characters/,
    ],
  ];
  for (const [what, text, want] of cases) {
    await t.step(what, () => {
      throws(() => parseFilterFile(text, "f.toml"), (e: Error) => {
        ok(e instanceof SyntaxError || e instanceof TypeError, `${e.name}: ${e.message}`);
        match(e.message, /^Cannot read filters "f\.toml": line \d+: /);
        match(e.message, want);
        ok(!e.message.includes("\n"), "one line");
        return true;
      });
    });
  }
});
