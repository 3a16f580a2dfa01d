import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { parseTsc, tscFilter, tscPassthrough } from "./tsc.ts";

function run(raw: string, exitCode = 1) {
  return tscFilter.filter(raw, { args: ["-p", "."], shaped: false, exitCode });
}

// `tsc -p .` as a pipe gets it (TypeScript 7.0.2), with a message chain.
const PLAIN =
  `src/a.ts(1,25): error TS2307: Cannot find module './nope.js' or its corresponding type declarations.
src/a.ts(2,7): error TS2322: Type 'string' is not assignable to type 'number'.
src/a.ts(5,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.
src/b.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.
src/b.ts(2,7): error TS2322: Type 'string' is not assignable to type 'number'.
src/c.ts(3,14): error TS2322: Type '{ a: number; c: { d: string; }; }' is not assignable to type 'Big'.
  The types of 'c.d' are incompatible between these types.
    Type 'string' is not assignable to type 'number'.
`;

// The same kind of run with `--pretty`, colours and all.
const PRETTY = [
  "\x1b[96msrc/a.ts\x1b[0m:\x1b[93m1\x1b[0m:\x1b[93m25\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m TS2307: \x1b[0mCannot find module './nope.js' or its corresponding type declarations.",
  "",
  '\x1b[7m1\x1b[0m import { missing } from "./nope.js";',
  "\x1b[7m \x1b[0m \x1b[91m                        ~~~~~~~~~~~\x1b[0m",
  "",
  "\x1b[96msrc/c.ts\x1b[0m:\x1b[93m2\x1b[0m:\x1b[93m37\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m TS2322: \x1b[0mType 'string' is not assignable to type 'number'.",
  "",
  '\x1b[7m2\x1b[0m const v: Big = { a: 1, b: "x", c: { d: "no", e: [1] } };',
  "\x1b[7m \x1b[0m \x1b[91m                                    ~\x1b[0m",
  "",
  "  \x1b[96msrc/c.ts\x1b[0m:\x1b[93m1\x1b[0m:\x1b[93m44\x1b[0m - The expected type comes from property 'd' which is declared here on type '{ d: number; e: string[]; }'",
  "    \x1b[7m1\x1b[0m interface Big { a: number; b: string; c: { d: number; e: string[] } }",
  "    \x1b[7m \x1b[0m \x1b[96m                                           ~\x1b[0m",
  "",
  "",
  "Found 2 errors in 2 files.",
  "",
  "Errors  Files",
  "     1  src/a.ts\x1b[90m:1\x1b[0m",
  "     1  src/c.ts\x1b[90m:2\x1b[0m",
  "",
].join("\n");

Deno.test("tscFilter keeps every error's file, location, code and message, grouped by file", () => {
  const out = run(PLAIN);
  strictEqual(
    out.text,
    [
      "src/a.ts: 3 errors (1 below)",
      "  1:25 TS2307: Cannot find module './nope.js' or its corresponding type declarations.",
      "  5:3 TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
      "src/c.ts: 1 error",
      "  3:14 TS2322: Type '{ a: number; c: { d: string; }; }' is not assignable to type 'Big'.",
      "    The types of 'c.d' are incompatible between these types.",
      "    Type 'string' is not assignable to type 'number'.",
      "in several files:",
      "  TS2322: Type 'string' is not assignable to type 'number'. (×3)",
      "    src/: a.ts 2:7, b.ts 1:7 2:7",
      "tsc: failed, 6 errors in 3 files",
      "",
    ].join("\n"),
  );
  deepStrictEqual(out.cut, []);
});

Deno.test("tscFilter reads --pretty output: colours, excerpts and the per-file table go, related locations stay", () => {
  const out = run(PRETTY);
  strictEqual(
    out.text,
    [
      "src/a.ts: 1 error",
      "  1:25 TS2307: Cannot find module './nope.js' or its corresponding type declarations.",
      "src/c.ts: 1 error",
      "  2:37 TS2322: Type 'string' is not assignable to type 'number'.",
      "    1:44 The expected type comes from property 'd' which is declared here on type '{ d: number; e: string[]; }'",
      "Found 2 errors in 2 files.",
      "",
    ].join("\n"),
  );
  deepStrictEqual(out.cut, ["2 source excerpts", "1 per-file table"]);
});

Deno.test("tscFilter reads TypeScript 5's related location with its message on a later line", () => {
  const raw = [
    "src/c.ts:4:19 - error TS2322: Type 'string' is not assignable to type 'number'.",
    "",
    '4 take({ name: "x", age: "y" });',
    "                    ~~~",
    "",
    "  src/d.ts:3:34",
    "    3 function take(o: { name: string; age: number }) { return o; }",
    "                                       ~~~",
    "    The expected type comes from property 'age' which is declared here",
    "",
    "",
    "Found 1 error in src/c.ts:4",
    "",
  ].join("\n");
  const d = parseTsc(raw).diagnostics[0];
  deepStrictEqual(d.details, [
    "src/d.ts:3:34 The expected type comes from property 'age' which is declared here",
  ]);
  ok(run(raw).text.includes("Found 1 error in src/c.ts:4"));
});

Deno.test("tscFilter keeps an error that names no file and lines it does not know", () => {
  const out = run("error TS5023: Unknown compiler option '--badflag'.\n");
  strictEqual(
    out.text,
    "error TS5023: Unknown compiler option '--badflag'.\ntsc: failed, 1 error\n",
  );
  const build = [
    "11:23:28 AM - Projects in this build: ",
    "    * tsconfig.json",
    "",
    "11:23:28 AM - Building project 'tsconfig.json'...",
    "",
  ].join("\n");
  deepStrictEqual(run(build, 0), { text: build, cut: [] });
});

Deno.test("tscFilter says a failed run failed and is empty for a clean run", () => {
  match(run(PLAIN).text, /6 errors/);
  deepStrictEqual(run("", 0), { text: "", cut: [] });
});

Deno.test("tscFilter reads colour the same as plain text", () => {
  const coloured = PLAIN.replaceAll("error", "\x1b[91merror\x1b[0m");
  deepStrictEqual(run(coloured), run(PLAIN));
});

Deno.test("tscPassthrough leaves JSON and traces to the caller", () => {
  ok(tscPassthrough(["--showConfig"]));
  ok(tscPassthrough(["--generateTrace", "out"]));
  strictEqual(tscPassthrough(["-p", ".", "--noEmit"]), null);
  strictEqual(tscPassthrough(["--pretty"]), null);
  strictEqual(tscFilter.shape, undefined);
});
