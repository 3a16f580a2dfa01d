import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import type { CommandFilter, Filtered } from "../src/core/filter.ts";
import { GREP_FILES_LISTED, grepFilter, rgFilter } from "./grep.ts";
import { scanOptions } from "./_args.ts";
import { sampleText } from "../src/core/shape.ts";

function run(filter: CommandFilter, raw: string, args: readonly string[]): Filtered {
  return filter.filter(raw, { args, shaped: false, exitCode: 0 });
}

/** `count` numbered match lines of `path`, text `hit <path> <n>`, as `grep -n` with names. */
function hits(path: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${path}:${i + 1}:hit ${path} ${i + 1}`);
}

Deno.test("scanOptions splits bundles, reads values and stops at --", () => {
  const spec = { shortValued: "eA", longValued: new Set(["context"]) };
  const scanned = scanOptions(
    ["-rnA3", "-e", "-l", "--context", "2", "--x=y", "p", "--", "-q"],
    spec,
  );
  deepStrictEqual(scanned.options, [
    { flag: "-r" },
    { flag: "-n" },
    { flag: "-A", value: "3" },
    { flag: "-e", value: "-l" },
    { flag: "--context", value: "2" },
    { flag: "--x", value: "y" },
  ]);
  deepStrictEqual(scanned.operands, ["p", "-q"]);
});

Deno.test("grepFilter.passthrough defers to machine formats and never reads a value as a flag", async (t) => {
  const cases: [string[], boolean][] = [
    [["-l", "foo", "src"], true],
    [["-rl", "foo", "src"], true],
    [["-lr", "foo"], true],
    [["-rc", "foo"], true],
    [["--count", "foo"], true],
    [["--files-without-match", "foo"], true],
    [["-L", "foo"], true],
    [["-q", "foo"], true],
    [["--silent", "foo"], true],
    [["-Z", "foo"], true],
    [["-z", "foo"], true],
    [["--null", "foo"], true],
    [["-V"], true],
    [["--help"], true],
    [["foo", "src", "-l"], true],
    [["-e", "-l", "x"], false],
    [["-f", "-c", "x"], false],
    [["--regexp", "-q", "x"], false],
    [["--regexp=-q", "x"], false],
    [["-A", "-c", "x"], false],
    [["-m5l", "x"], false],
    [["--label", "-q", "x"], false],
    [["-A", "3", "-c", "x"], true],
    [["--", "-l", "x"], false],
    [["-rn", "foo", "src"], false],
  ];
  for (const [args, expected] of cases) {
    await t.step(args.join(" "), () => {
      strictEqual(grepFilter.passthrough?.(args) !== null, expected);
    });
  }
});

Deno.test("rgFilter.passthrough reads rg's own letters, not grep's", async (t) => {
  const cases: [string[], boolean][] = [
    [["-l", "foo"], true],
    [["-c", "foo"], true],
    [["--count-matches", "foo"], true],
    [["-0", "foo"], true],
    [["--json", "foo"], true],
    [["--files"], true],
    [["--vimgrep", "foo"], true],
    [["--heading", "foo"], true],
    [["-p", "foo"], true],
    [["--type-list"], true],
    [["-h"], true],
    [["-tts", "-c", "foo"], true],
    [["-L", "foo"], false],
    [["-z", "foo"], false],
    [["-g", "-l", "foo"], false],
    [["-t", "-c", "foo"], false],
    [["-r", "-l", "foo"], false],
    [["--glob", "-q", "foo"], false],
    [["foo", "--", "-l"], false],
  ];
  for (const [args, expected] of cases) {
    await t.step(args.join(" "), () => {
      strictEqual(rgFilter.passthrough?.(args) !== null, expected);
    });
  }
});

Deno.test("grepFilter.shape adds -n in front unless the caller chose", async (t) => {
  const cases: [string[], string[] | null][] = [
    [["-r", "foo", "src"], ["-n", "-r", "foo", "src"]],
    [["foo", "--", "-n"], ["-n", "foo", "--", "-n"]],
    [["-e", "-n", "f"], ["-n", "-e", "-n", "f"]],
    [["-rn", "foo"], null],
    [["--line-number", "foo"], null],
    [["foo", "src", "-n"], null],
    [["-l", "foo"], null],
  ];
  for (const [args, expected] of cases) {
    await t.step(args.join(" "), () => {
      const frozen = Object.freeze([...args]);
      deepStrictEqual(grepFilter.shape?.(frozen), expected);
      deepStrictEqual(frozen, args);
    });
  }
});

Deno.test("rgFilter.shape adds -n unless -n, -N or their long forms are given", async (t) => {
  const cases: [string[], string[] | null][] = [
    [["foo"], ["-n", "foo"]],
    [["-i", "foo", "src"], ["-n", "-i", "foo", "src"]],
    [["-n", "foo"], null],
    [["-N", "foo"], null],
    [["--line-number", "foo"], null],
    [["--no-line-number", "foo"], null],
    [["--json", "foo"], null],
  ];
  for (const [args, expected] of cases) {
    await t.step(args.join(" "), () => deepStrictEqual(rgFilter.shape?.(args), expected));
  }
});

Deno.test("grepFilter keeps every hit's file and line up to the cap, and the true totals", () => {
  const files = Array.from({ length: 30 }, (_, i) => `src/f${i}.ts`);
  const raw = files.flatMap((path) => hits(path, 12)).join("\n") + "\n";
  const out = run(grepFilter, raw, ["-rn", "hit", "src"]);
  const lines = out.text.split("\n");
  strictEqual(lines[0], "360 matches in 30 files");
  for (const path of files.slice(0, 5)) {
    ok(lines.includes(`${path} (12)`), path);
    for (let n = 1; n <= 10; n++) ok(lines.includes(`  ${n}: hit ${path} ${n}`), `${path}:${n}`);
    ok(!lines.includes(`  11: hit ${path} 11`));
  }
  strictEqual(lines.filter((line) => line === "  … +2 more").length, 5);
  strictEqual(lines.filter((line) => /^ {2}\d+: /.test(line)).length, 50);
  ok(lines.includes("matches not shown for the 25 files below:"));
  for (const path of files.slice(5)) ok(lines.includes(`${path} (12)`), path);
  deepStrictEqual(out.cut, ["310 matches"]);
});

Deno.test("grepFilter gives a lone file 25 matches and counts the rest", () => {
  const raw = hits("a.ts", 120).map((line) => line.slice("a.ts:".length)).join("\n");
  const out = run(grepFilter, raw, ["-n", "hit", "a.ts"]);
  const lines = out.text.split("\n");
  strictEqual(lines[0], "120 matches in a.ts");
  strictEqual(lines[1], "1: hit a.ts 1");
  strictEqual(lines[25], "25: hit a.ts 25");
  strictEqual(lines[26], "… +95 more");
  strictEqual(lines.length, 27);
  deepStrictEqual(out.cut, ["95 matches"]);
});

Deno.test("grepFilter lists files past the budget by count, then counts the unlisted", () => {
  const total = 50 + GREP_FILES_LISTED + 10;
  const raw = Array.from({ length: total }, (_, i) => `d/f${i}.c:7:x`).join("\n");
  const out = run(grepFilter, raw, ["-rn", "x", "d"]);
  const lines = out.text.split("\n");
  strictEqual(lines[0], `${total} matches in ${total} files`);
  ok(lines.includes("d/f49.c (1)") && lines.includes("d/f149.c (1)"));
  ok(!lines.includes("d/f150.c (1)"));
  strictEqual(lines.at(-1), "… +10 more files (10 matches)");
  deepStrictEqual(out.cut, ["110 matches", "10 file names"]);
});

Deno.test("grepFilter keeps context lines with their matches and separators between groups", () => {
  const raw = [
    "src/a-1-b.ts-4-before",
    "src/a-1-b.ts:5:match: one",
    "src/a-1-b.ts-6-after 7:8:",
    "--",
    "src/a-1-b.ts-19-before",
    "src/a-1-b.ts:20:match two",
    "--",
    "lib/c.ts:1:match three",
    "lib/c.ts-2-after",
  ].join("\n");
  const out = run(grepFilter, raw, ["-rn", "-C1", "match", "src", "lib"]);
  deepStrictEqual(out.text.split("\n"), [
    "3 matches in 2 files",
    "src/a-1-b.ts (2)",
    "  4- before",
    "  5: match: one",
    "  6- after 7:8:",
    "  --",
    "  19- before",
    "  20: match two",
    "lib/c.ts (1)",
    "  1: match three",
    "  2- after",
  ]);
  deepStrictEqual(out.cut, []);
});

Deno.test("grepFilter reads a path holding -12- as a path when there is no context", () => {
  const out = run(grepFilter, "src/a-12-b.ts:3:x-4-y", ["-rn", "x", "src"]);
  deepStrictEqual(out.text.split("\n"), ["1 match in 1 file", "src/a-12-b.ts (1)", "  3: x-4-y"]);
});

Deno.test("grepFilter cuts context groups past the cap and counts their lines", () => {
  const groups = Array.from({ length: 12 }, (_, i) => {
    const n = i * 10 + 2;
    return [`a.ts-${n - 1}-ctx`, `a.ts:${n}:hit`, `a.ts-${n + 1}-ctx`].join("\n");
  });
  const raw = [...groups, ...hits("b.ts", 1), ...hits("c.ts", 1)].join("\n--\n");
  const out = run(grepFilter, raw, ["-n", "-C", "1", "hit", "a.ts", "b.ts", "c.ts"]);
  ok(out.text.includes("  92: hit\n  93- ctx\n  … +2 more"), out.text);
  ok(!out.text.includes("101-"));
  deepStrictEqual(out.cut, ["2 matches", "4 context lines"]);
});

Deno.test("grepFilter decides from the arguments whether lines carry file names", async (t) => {
  const cases: { args: string[]; raw: string; header: string }[] = [
    { args: ["-n", "x", "a.ts"], raw: "3:x:1:y", header: "1 match in a.ts" },
    { args: ["-n", "x"], raw: "3:x", header: "1 match" },
    { args: ["-nh", "x", "a.ts", "b.ts"], raw: "3:a.ts:9:z\n4:x", header: "2 matches" },
    { args: ["-nH", "x", "a.ts"], raw: "a.ts:3:x", header: "1 match in 1 file" },
    { args: ["-rn", "x", "src"], raw: "src/a.ts:3:x", header: "1 match in 1 file" },
    { args: ["-rn", "x", "a.ts"], raw: "3:x", header: "1 match in a.ts" },
    { args: ["-rn", "x"], raw: "a.ts:3:x", header: "1 match in 1 file" },
    { args: ["-n", "x", "a.ts", "b.ts"], raw: "a.ts:3:x", header: "1 match in 1 file" },
  ];
  for (const { args, raw, header } of cases) {
    await t.step(args.join(" "), () => {
      strictEqual(run(grepFilter, raw, args).text.split("\n")[0], header);
    });
  }
  await t.step("a nameless line that looks like path:line: stays a match line", () => {
    strictEqual(run(grepFilter, "3:a.ts:9:z", ["-n", "x", "f"]).text, "1 match in f\n3: a.ts:9:z");
  });
});

Deno.test("rgFilter prints names unless one file, -I, or stdin says otherwise", async (t) => {
  const cases: { args: string[]; raw: string; header: string }[] = [
    { args: ["-n", "x"], raw: "a.ts:3:x", header: "1 match in 1 file" },
    { args: ["-n", "x", "src"], raw: "src/a.ts:3:x", header: "1 match in 1 file" },
    { args: ["-n", "x", "./"], raw: "./a.ts:3:x", header: "1 match in 1 file" },
    { args: ["-n", "x", "a.ts"], raw: "3:x", header: "1 match in a.ts" },
    { args: ["-n", "x", "-"], raw: "3:x", header: "1 match in -" },
    { args: ["-nI", "x", "src", "lib"], raw: "3:x", header: "1 match" },
    { args: ["-n", "-H", "x", "a.ts"], raw: "a.ts:3:x", header: "1 match in 1 file" },
  ];
  for (const { args, raw, header } of cases) {
    await t.step(args.join(" "), () => {
      strictEqual(run(rgFilter, raw, args).text.split("\n")[0], header);
    });
  }
});

Deno.test("rgFilter reads a valued option's value as neither the pattern nor a file", async (t) => {
  const cases: string[][] = [
    ["-n", "-r", "X", "x", "a.ts"],
    ["-n", "--replace=X", "x", "a.ts"],
    ["-n", "--replace", "X", "x", "a.ts"],
    ["-n", "--max-depth", "2", "x", "a.ts"],
    ["-n", "-d", "2", "x", "a.ts"],
    ["-n", "--pre", "cat", "x", "a.ts"],
    ["-n", "--ignore-file", "f", "x", "a.ts"],
  ];
  for (const args of cases) {
    await t.step(args.join(" "), () => {
      strictEqual(run(rgFilter, "3:X\n9:X", args).text.split("\n")[0], "2 matches in a.ts");
    });
  }
});

Deno.test("grepFilter reads -X's matcher as neither the pattern nor a file", () => {
  strictEqual(
    run(grepFilter, "3:x", ["-n", "-X", "egrep", "x", "a.ts"]).text,
    "1 match in a.ts\n3: x",
  );
});

Deno.test("rgFilter reads names without line numbers when the caller chose -N", () => {
  const out = run(rgFilter, "src/a.ts:const a = 1\nsrc/b.ts:x: y", ["-N", "a", "src"]);
  deepStrictEqual(out.text.split("\n"), [
    "2 matches in 2 files",
    "src/a.ts (1)",
    "  const a = 1",
    "src/b.ts (1)",
    "  x: y",
  ]);
});

Deno.test("rgFilter splits unnumbered context lines at the path the group shares", () => {
  const raw = "src/a-b.ts-before: x\nsrc/a-b.ts:match\n--\nsrc/c.ts:other";
  const out = run(rgFilter, raw, ["-N", "-C1", "m", "src"]);
  deepStrictEqual(out.text.split("\n"), [
    "2 matches in 2 files",
    "src/a-b.ts (1)",
    "  - before: x",
    "  : match",
    "src/c.ts (1)",
    "  : other",
  ]);
});

Deno.test("grepFilter leaves context output alone when neither names nor numbers tell lines apart", () => {
  const raw = "before\nmatch\nafter\n";
  deepStrictEqual(run(rgFilter, raw, ["-N", "-C1", "match", "a.ts"]), { text: raw, cut: [] });
});

Deno.test("grepFilter keeps binary-file notes and unparsable lines verbatim, in place", () => {
  const raw = [
    "a.ts:1:x",
    "Binary file b.bin matches",
    "some line rtok cannot read",
    "c.ts:2:x",
  ].join("\n");
  deepStrictEqual(run(grepFilter, raw, ["-rn", "x"]).text.split("\n"), [
    "2 matches in 2 files",
    "a.ts (1)",
    "  1: x",
    "Binary file b.bin matches",
    "some line rtok cannot read",
    "c.ts (1)",
    "  2: x",
  ]);
  const rg = 'a.ts:1:x\nb.bin: binary file matches (found "\\0" byte around offset 3)';
  ok(
    run(rgFilter, rg, ["-n", "x"]).text.endsWith(
      'b.bin: binary file matches (found "\\0" byte around offset 3)',
    ),
  );
});

Deno.test("grepFilter trims text past 160 chars and says how many lines it trimmed", () => {
  const long = "y".repeat(300);
  const out = run(grepFilter, `a.ts:4:${long}\na.ts:5:short`, ["-rn", "y"]);
  const line = out.text.split("\n")[2];
  strictEqual(line, `  4: ${"y".repeat(159)}…`);
  ok(out.text.includes("  5: short"));
  deepStrictEqual(out.cut, ["1 long line trimmed"]);
});

Deno.test("grepFilter counts each -o match and strips colour codes", () => {
  const raw = "\x1b[35ma.ts\x1b[0m:\x1b[32m3\x1b[0m:foo\na.ts:3:foo\na.ts:9:foo\n";
  const out = run(grepFilter, raw, ["-rno", "--color=always", "foo"]);
  deepStrictEqual(out.text.split("\n"), [
    "3 matches in 1 file",
    "a.ts (3)",
    "  3: foo",
    "  3: foo",
    "  9: foo",
  ]);
});

Deno.test("grepFilter and rgFilter give nothing for nothing", () => {
  deepStrictEqual(run(grepFilter, "", ["-rn", "h"]), { text: "", cut: [] });
  deepStrictEqual(run(rgFilter, "", ["h"]), { text: "", cut: [] });
});

Deno.test("grepFilter output is much smaller than many hits", () => {
  const raw = Array.from({ length: 20 }, (_, i) => hits(`src/module${i}/file.ts`, 30)).flat().join(
    "\n",
  );
  const out = run(grepFilter, raw, ["-rn", "hit", "src"]);
  ok(out.text.length * 4 < raw.length, `${out.text.length} vs ${raw.length}`);
  match(out.text, /^600 matches in 20 files\n/);
});

Deno.test("the grep shape does not take a timestamped log for hits", async () => {
  const { FAMILIES } = await import("./grep.ts");
  const detect = FAMILIES.grep.shapes![0].detect;
  const log = Array.from(
    { length: 40 },
    (_, i) => `2026-01-05T10:${String(i).padStart(2, "0")}:10Z INFO step ${i} ok`,
  ).join("\n");
  const times = Array.from({ length: 40 }, (_, i) => `10:${String(i).padStart(2, "0")}:01 INFO ok`)
    .join("\n");
  for (const text of [log, times]) {
    strictEqual(detect(sampleText(text), text), null, text.slice(0, 40));
  }
  const hits = "src/a.ts:12:foo\nsrc/b.ts:3:foo\nsrc/c.ts:9:foo\n";
  ok(detect(sampleText(hits), hits));
});

Deno.test("rgFilter keeps the separator between groups whose lines it cannot read as hits", () => {
  // Told -n, given hits without numbers: each line is kept as it is, the groups still apart.
  const raw = "a.ts-x1\na.ts:y1\n--\na.ts-x2\na.ts:y2\n";
  const out = rgFilter.filter(raw, { args: ["-H", "-n", "-C", "1"], shaped: false, exitCode: 0 });
  deepStrictEqual(out.text.split("\n").slice(-5), [
    "a.ts-x1",
    "a.ts:y1",
    "--",
    "a.ts-x2",
    "a.ts:y2",
  ]);
});
