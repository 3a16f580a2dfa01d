import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Filtered } from "../src/core/filter.ts";
import { extensionSummary, humanSize, LS_ENTRIES_SHOWN, LS_NAMES_SHOWN, lsFilter } from "./ls.ts";

function run(raw: string, args: readonly string[]): Filtered {
  return lsFilter.filter(raw, { args, shaped: false, exitCode: 0 });
}

const LA = `total 48
drwxr-xr-x  5 ada  staff  4096 Jan  2 03:04 .
drwxr-xr-x 12 ada  staff  4096 Jan  2 03:04 ..
drwxr-xr-x  8 ada  staff  4096 Jan  2 03:04 .git
-rw-r--r--  1 ada  staff   120 Jan  2 03:04 .gitignore
-rw-r--r--  1 ada  staff  1234 Jan  2 03:04 README.md
-rwxr-xr-x  1 ada  staff  2048 Jan  2 03:04 build.sh
lrwxrwxrwx  1 ada  staff     9 Jan  2 03:04 latest -> build.sh
-rwsr-xr-x  1 root root  16384 Jan  2 03:04 helper
drwxrwxrwt  2 ada  staff  4096 Jan  2 03:04 tmp
drwxr-xr-x  3 ada  staff  4096 Jan  2 03:04 src
-rw-r--r--  1 ada  staff     0 Feb 17  2023 my notes.txt
-r--r--r--  1 ada  staff    30 Jan  2 03:04 locked.txt
`;

Deno.test("lsFilter.passthrough defers to machine formats and column layouts", async (t) => {
  const cases: [string[], boolean][] = [
    [["--zero"], true],
    [["--help"], true],
    [["--version"], true],
    [["-D", "-l"], true],
    [["-C"], true],
    [["-x"], true],
    [["-m"], true],
    [["--format=commas"], true],
    [["-l", "-C"], true],
    [["-s"], true],
    [["-i", "src"], true],
    [["-C", "-l"], false],
    [["-l1"], false],
    [["-1"], false],
    [["-la"], false],
    [["-lis"], false],
    [["-I", "--zero"], false],
    [["--hide", "-C"], false],
    [["--", "--zero"], false],
  ];
  for (const [args, expected] of cases) {
    await t.step(
      args.join(" "),
      () => strictEqual(lsFilter.passthrough?.(args) !== null, expected),
    );
  }
});

Deno.test("lsFilter sums up a long listing and keeps only the modes and owners that stand out", () => {
  const out = run(LA, ["-la"]);
  deepStrictEqual(out.text.split("\n"), [
    "10 entries: 3 dirs, 6 files, 1 link, 20K, owner ada:staff",
    "dirs: .git/ tmp/ (drwxrwxrwt) src/",
    ".gitignore 120",
    "README.md 1.3K",
    "build.sh* 2.0K",
    "latest -> build.sh",
    "helper* 16K -rwsr-xr-x root:root",
    '"my notes.txt" 0',
    "locked.txt 30 -r--r--r--",
  ]);
  deepStrictEqual(out.cut, ["total", "links", "sizes", "modes", "dates"]);
});

Deno.test("lsFilter keeps inodes and dates the caller asked for and drops block counts", () => {
  const raw = `total 16
2146619 4 -rw-r--r-- 1 root root    7 2026-12-03 08:06:18.590527476 +0000 bin.dat
2146620 4 drwxr-xr-x 3 root root 4096 2026-12-03 08:06:28.051077684 +0000 d
2146635 0 lrwxrwxrwx 1 root root    7 2026-12-03 08:06:28.055077684 +0000 lnk -> one.txt
`;
  const out = run(raw, ["-lis", "--full-time"]);
  deepStrictEqual(out.text.split("\n"), [
    "3 entries: 1 dir, 1 file, 1 link, 7 bytes, owner root:root",
    "dirs: d/ (inode 2146620 2026-12-03 08:06:28.051077684 +0000)",
    "bin.dat 7 inode 2146619 2026-12-03 08:06:18.590527476 +0000",
    "lnk -> one.txt inode 2146635 2026-12-03 08:06:28.055077684 +0000",
  ]);
  deepStrictEqual(out.cut, ["total", "links", "blocks", "modes", "sizes"]);
});

Deno.test("lsFilter reads the columns the arguments leave in a long line", async (t) => {
  const cases: { args: string[]; line: string; expected: string[] }[] = [
    {
      args: ["-lg"],
      line: "-rw-r--r-- 1 wheel 2000 Dec  3 08:06 a b.txt",
      expected: ["1 entry: 1 file, 2.0K, owner wheel", '"a b.txt" 2.0K'],
    },
    {
      args: ["-lo"],
      line: "-rw-r--r-- 1 ada 7 Dec  3 08:06 x",
      expected: ["1 entry: 1 file, 7 bytes, owner ada", "x 7"],
    },
    {
      args: ["-ln"],
      line: "-rw-r--r-- 1 1000 1000 7 Dec  3 08:06 x",
      expected: ["1 entry: 1 file, 7 bytes, owner 1000:1000", "x 7"],
    },
    {
      args: ["-lh"],
      line: "-rw-r--r-- 1 ada ada 1.1K Dec  3 08:06 big.bin",
      expected: ["1 entry: 1 file, ~1.1K, owner ada:ada", "big.bin 1.1K"],
    },
    {
      args: ["-l", "--time-style=iso"],
      line: "-rw-r--r-- 1 ada ada 7 2023-02-17  old.txt",
      expected: ["1 entry: 1 file, 7 bytes, owner ada:ada", "old.txt 7 2023-02-17"],
    },
    {
      args: ["-l", "--time-style=long-iso"],
      line: "-rw-r--r-- 1 ada ada 7 2023-02-17 10:00  spaced",
      expected: ["1 entry: 1 file, 7 bytes, owner ada:ada", '" spaced" 7 2023-02-17 10:00'],
    },
    {
      args: ["-l", "/dev/null"],
      line: "crw-rw-rw- 1 root root 1, 3 Dec  2 23:42 /dev/null",
      expected: ["1 entry: 1 other, owner root:root", "/dev/null 1, 3 crw-rw-rw-"],
    },
  ];
  for (const { args, line, expected } of cases) {
    await t.step(args.join(" "), () => deepStrictEqual(run(line, args).text.split("\n"), expected));
  }
});

Deno.test("lsFilter keeps a line it cannot parse verbatim, in its place", () => {
  const raw = [
    "total 4",
    "-rw-r--r-- 1 ada ada 7 Dec  3 08:06 a",
    "d????????? ? ? ? ?            ? locked",
    "-rw-r--r-- 1 ada ada 9 Dec  3 08:06 b",
  ].join("\n");
  deepStrictEqual(run(raw, ["-l"]).text.split("\n"), [
    "2 entries: 2 files, 16 bytes, owner ada:ada",
    "a 7",
    "d????????? ? ? ? ?            ? locked",
    "b 9",
  ]);
});

Deno.test("lsFilter keeps the dir: headers of -R and of several operands", async (t) => {
  await t.step("plain -R", () => {
    const raw = ".:\nbin.dat\nd\n\n./d:\ne\ntwo-2-x.txt\n\n./d/e:\n";
    deepStrictEqual(run(raw, ["-R"]).text.split("\n"), [
      ".:",
      "bin.dat d",
      "./d:",
      "e two-2-x.txt",
      "./d/e:",
      "(empty)",
    ]);
  });
  await t.step("long, a file operand then a directory", () => {
    const raw = `-rw-r--r-- 1 root root   14 Dec  3 08:06 one.txt

d:
total 8
drwxr-xr-x 2 root root 4096 Dec  3 08:06 e
-rw-r--r-- 1 root root   14 Dec  3 08:06 two-2-x.txt
`;
    deepStrictEqual(run(raw, ["-l", "d", "one.txt"]).text.split("\n"), [
      "1 entry: 1 file, 14 bytes, owner root:root",
      "one.txt 14",
      "d:",
      "2 entries: 1 dir, 1 file, 14 bytes, owner root:root",
      "dirs: e/",
      "two-2-x.txt 14",
    ]);
  });
});

Deno.test("lsFilter keeps a plain listing's names and summarises past 100 by extension", () => {
  const shown = Array.from({ length: LS_NAMES_SHOWN }, (_, i) => `n${i}.ts`);
  const rest = [
    ...Array.from({ length: 80 }, (_, i) => `r${i}.js`),
    ...Array.from({ length: 30 }, (_, i) => `p${i}.json`),
    ...Array.from({ length: 12 }, (_, i) => `dir${i}/`),
    ...Array.from({ length: 8 }, (_, i) => `NOTES${i}`),
  ];
  const out = run([...shown, ...rest].join("\n") + "\n", ["-p"]);
  const lines = out.text.split("\n");
  strictEqual(lines[0], "230 entries");
  deepStrictEqual(lines.slice(1, -1).join(" ").split(" "), shown);
  ok(lines.slice(1, -1).every((line) => line.length <= 100));
  strictEqual(lines.at(-1), "+130 more: 12 dirs, 80 .js, 30 .json, 8 other");
  deepStrictEqual(out.cut, ["130 entries (summarised)"]);
});

Deno.test("lsFilter quotes plain names that hold spaces and cuts nothing under 100", () => {
  deepStrictEqual(run("a.txt\nmy file\nb\n", []), { text: 'a.txt "my file" b', cut: [] });
});

Deno.test("lsFilter summarises a long listing past its entry cap", () => {
  const line = (i: number) => `-rw-r--r-- 1 ada ada 7 Dec  3 08:06 f${i}.${i % 2 ? "md" : "ts"}`;
  const raw = Array.from({ length: LS_ENTRIES_SHOWN + 50 }, (_, i) => line(i)).join("\n");
  const out = run(raw, ["-l"]);
  const lines = out.text.split("\n");
  strictEqual(
    lines[0],
    `${LS_ENTRIES_SHOWN + 50} entries: ${LS_ENTRIES_SHOWN + 50} files, 1.8K, owner ada:ada`,
  );
  strictEqual(lines[LS_ENTRIES_SHOWN], `f${LS_ENTRIES_SHOWN - 1}.md 7`);
  strictEqual(lines.at(-1), "+50 more: 25 .md, 25 .ts");
  ok(out.cut.includes("50 entries (summarised)"));
});

Deno.test("humanSize rounds up as ls -h does", async (t) => {
  // Each pair was checked against `truncate -s N f; ls -lh f` with GNU coreutils 9.1.
  const cases: [number, string][] = [
    [1023, "1023"],
    [1024, "1.0K"],
    [1025, "1.1K"],
    [1126, "1.1K"],
    [1127, "1.2K"],
    [1229, "1.3K"],
    [10239, "10K"],
    [10240, "10K"],
    [10241, "11K"],
    [1048575, "1.0M"],
    [1048576, "1.0M"],
    [5000000, "4.8M"],
  ];
  for (const [bytes, expected] of cases) {
    await t.step(String(bytes), () => strictEqual(humanSize(bytes), expected));
  }
});

Deno.test("extensionSummary ranks extensions and lumps the rest as other", () => {
  const names = [
    "a.so.6",
    "b.so",
    "c.tar.gz",
    "python3.11",
    ".bashrc",
    "Makefile",
    "x.min.js",
    "y.js",
  ];
  strictEqual(extensionSummary(names), "2 .js, 2 .so, 1 .gz, 3 other");
  const many = ["a.a", "b.b", "c.c", "d.d", "e.e", "f.f", "g.g", "h.h"];
  strictEqual(extensionSummary(many), "1 .a, 1 .b, 1 .c, 1 .d, 1 .e, 1 .f, 2 other");
  strictEqual(extensionSummary(["README", "LICENSE"]), "");
});

Deno.test("lsFilter gives nothing for nothing", () => {
  deepStrictEqual(run("", ["-la"]), { text: "", cut: [] });
});
