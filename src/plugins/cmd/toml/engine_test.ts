import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Filtered } from "../../../core/filter.ts";
import { commandLine, compileFilter } from "./engine.ts";
import { parseFilterFile } from "./spec.ts";

function filterWith(steps: string, extra = ""): ReturnType<typeof compileFilter> {
  const [def] = parseFilterFile(
    `[[filter]]\nname = "t"\nmatch = '^t(\\s|$)'\n${extra}steps = [\n${steps}\n]\n`,
    "t.toml",
  );
  return compileFilter(def);
}

function run(steps: string, raw: string, exitCode = 0): Filtered {
  return filterWith(steps).filter(raw, { args: [], shaped: false, exitCode });
}

type Case = [name: string, steps: string, raw: string, text: string, cut: string[], exit?: number];

Deno.test("every step kind, alone and in order", async (t) => {
  const cases: Case[] = [
    ["no steps leaves the text", "", "a\nb\n", "a\nb\n", []],
    [
      "strip_ansi removes colours and is no cut",
      "{ strip_ansi = true }",
      "\x1b[31mred\x1b[0m\n",
      "red\n",
      [],
    ],
    [
      "strip_ansi removes OSC hyperlinks",
      "{ strip_ansi = true }",
      "\x1b]8;;http://x\x07link\x1b]8;;\x07\n",
      "link\n",
      [],
    ],
    [
      "replace rewrites every match of each line",
      "{ replace = 'o', with = '0' }",
      "foo\nbar\n",
      "f00\nbar\n",
      [],
    ],
    [
      "replace uses groups",
      "{ replace = '^(\\w+)=(\\w+)$', with = '$2=$1' }",
      "a=b\n",
      "b=a\n",
      [],
    ],
    ["replace may split a line", "{ replace = ';', with = \"\\n\" }", "a;b\n", "a\nb\n", []],
    ["strip drops matching lines", "{ strip = ['^#', '^$'] }", "# c\nx\n\ny\n", "x\ny\n", [
      "2 lines",
    ]],
    [
      "keep keeps only matching lines",
      "{ keep = ['error', 'warn'] }",
      "ok\nerror: x\nok\nwarn: y\n",
      "error: x\nwarn: y\n",
      ["2 lines"],
    ],
    [
      "collapse_repeats folds runs",
      "{ collapse_repeats = true }",
      "a\na\na\nb\na\n",
      "a (×3)\nb\na\n",
      ["2 repeated lines"],
    ],
    ["truncate_lines cuts long lines", "{ truncate_lines = 3 }", "abcdef\nab\n", "abc…\nab\n", [
      "1 long-line tail",
    ]],
    ["truncate_lines never splits an emoji", "{ truncate_lines = 2 }", "a😀b\n", "a…\n", [
      "1 long-line tail",
    ]],
    [
      "head and tail keep both ends",
      "{ head = 1, tail = 2 }",
      "1\n2\n3\n4\n5\n",
      "1\n… 2 lines cut …\n4\n5\n",
      ["2 lines"],
    ],
    ["head alone", "{ head = 2 }", "1\n2\n3\n4\n", "1\n2\n… 2 lines cut …\n", ["2 lines"]],
    ["tail alone", "{ tail = 1 }", "1\n2\n3\n", "… 2 lines cut …\n3\n", ["2 lines"]],
    [
      "head and tail on a short output",
      "{ head = 2, tail = 2 }",
      "1\n2\n3\n4\n5\n",
      "1\n2\n3\n4\n5\n",
      [],
    ],
    [
      "max_lines caps with a marker",
      "{ max_lines = 2 }",
      "1\n2\n3\n4\n",
      "1\n2\n… 2 lines cut …\n",
      ["2 lines"],
    ],
    [
      "max_lines never swaps one line for a marker",
      "{ max_lines = 2 }",
      "1\n2\n3\n",
      "1\n2\n3\n",
      [],
    ],
    [
      "on_empty when everything was removed",
      "{ strip = ['.'] },\n{ on_empty = \"clean\" }",
      "a\nb\n",
      "clean\n",
      ["2 lines"],
    ],
    ["on_empty leaves an empty output empty", '{ on_empty = "clean" }', "", "", []],
    [
      "on_empty when only blank lines are left",
      "{ strip = ['x'] },\n{ on_empty = \"clean\" }",
      "x\n\n",
      "clean\n",
      ["1 line"],
    ],
    [
      "short_circuit on a whole-output match",
      "{ short_circuit = 'up to date\\.?', message = \"ok\" }",
      "up to date.\n",
      "ok\n",
      ["1 line"],
    ],
    [
      "short_circuit needs the WHOLE output to match",
      "{ short_circuit = 'up to date', message = \"ok\" }",
      "up to date\nerror: x\n",
      "up to date\nerror: x\n",
      [],
    ],
    [
      "short_circuit spans lines with [\\s\\S]",
      "{ short_circuit = 'a[\\s\\S]*z', message = \"az\" }",
      "a\nm\nz\n",
      "az\n",
      ["3 lines"],
    ],
    [
      "short_circuit's unless guards errors",
      "{ short_circuit = '[\\s\\S]*done[\\s\\S]*', unless = '^error', message = \"done\" }",
      "done\nerror: no\n",
      "done\nerror: no\n",
      [],
    ],
    [
      "short_circuit's unless, not matching",
      "{ short_circuit = '[\\s\\S]*done[\\s\\S]*', unless = '^error', message = \"done\" }",
      "a\ndone\n",
      "done\n",
      ["2 lines"],
    ],
    [
      "short_circuit's exit_code must equal",
      "{ short_circuit = 'x', message = \"m\", exit_code = 0 }",
      "x\n",
      "x\n",
      [],
      1,
    ],
    [
      "short_circuit with its exit_code",
      "{ short_circuit = 'x', message = \"m\", exit_code = 1 }",
      "x\n",
      "m\n",
      ["1 line"],
      1,
    ],
    [
      "short_circuit ends the pipeline",
      "{ short_circuit = 'x', message = \"m\" },\n{ replace = 'm', with = 'M' }",
      "x\n",
      "m\n",
      ["1 line"],
    ],
    [
      "cuts of the same unit add up",
      "{ strip = ['^-'] },\n{ max_lines = 1 }",
      "-\n1\n2\n3\n",
      "1\n… 2 lines cut …\n",
      ["3 lines"],
    ],
    ["a missing final newline stays missing", "{ strip = ['b'] }", "a\nb", "a", ["1 line"]],
    ["steps run in order", "{ replace = 'x', with = 'y' },\n{ keep = ['y'] }", "x\nz\n", "y\n", [
      "1 line",
    ]],
  ];
  for (const [name, steps, raw, text, cut, exit] of cases) {
    await t.step(name, () => {
      deepStrictEqual(run(steps, raw, exit ?? 0), { text, cut });
    });
  }
});

Deno.test("a filter's output, filtered again, changes no more", () => {
  const steps = "{ strip_ansi = true },\n{ strip = ['^#'] },\n{ collapse_repeats = true },\n" +
    "{ head = 3, tail = 3 }";
  const raw = Array.from({ length: 50 }, (_, i) => i % 7 === 0 ? "# c" : `line ${i % 5}`).join(
    "\n",
  );
  const once = run(steps, raw);
  strictEqual(run(steps, once.text).text, once.text);
});

Deno.test("the compiled filter carries its family, class, stderr flag and pattern", () => {
  const f = filterWith("{ strip_ansi = true }", 'text_class = "diff"\nstderr = true\n');
  strictEqual(f.name, "t");
  strictEqual(f.textClass, "diff");
  strictEqual(f.filterStderr, true);
  ok(f.matches("t -x"));
  ok(f.matches("t"));
  ok(!f.matches("tt"));
  ok(!f.matches("x t"));
});

Deno.test("commandLine reduces argv[0] to the tool's name and joins with spaces", () => {
  strictEqual(commandLine(["/usr/bin/make", "-C", "a dir"]), "make -C a dir");
  strictEqual(commandLine(["make"]), "make");
  strictEqual(commandLine([]), "");
});
