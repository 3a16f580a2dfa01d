import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { blamePassthrough, FAMILIES, gitBlameFilter } from "./git_blame.ts";
import { GIT_READS } from "./_git.ts";
import { sampleText } from "../src/core/shape.ts";
import { prng } from "../tests/_prng.ts";

const INPUT = { args: [], shaped: false, exitCode: 0 };

function run(raw: string, args: string[] = []) {
  return gitBlameFilter.filter(raw, { ...INPUT, args });
}

// Real `git blame a.ts` output: a boundary (root) commit, a second author in another zone, a
// tab, trailing spaces, and a line not committed yet.
const RAW = [
  "^b7c546e (Ada Lovelace      2026-01-05 10:12:00 +0000 1) line one",
  "2c75e171 (Grace Hopper      2026-01-07 09:30:00 +0200 2) \tindented changed",
  "^b7c546e (Ada Lovelace      2026-01-05 10:12:00 +0000 3) trailing   ",
  "^b7c546e (Ada Lovelace      2026-01-05 10:12:00 +0000 4) four",
  "2c75e171 (Grace Hopper      2026-01-07 09:30:00 +0200 5) five",
  "00000000 (Not Committed Yet 2026-12-04 14:49:14 +0000 6) six",
  "",
].join("\n");

Deno.test("blamePassthrough() passes the formats it cannot read and filters the rest", async (t) => {
  const passing = [
    ["-p", "a.ts"],
    ["--porcelain", "a.ts"],
    ["--line-porcelain", "a.ts"],
    ["--incremental", "a.ts"],
    ["-c", "a.ts"],
    ["--score-debug", "a.ts"],
    ["--show-stats", "a.ts"],
    ["-n", "a.ts"],
    ["--show-number", "a.ts"],
    ["-b", "a.ts"],
    ["-fn", "a.ts"],
    ["-sp", "a.ts"],
    ["-w", "HEAD~2", "--porcelain", "--", "a.ts"],
  ];
  for (const args of passing) await t.step(args.join(" "), () => ok(blamePassthrough(args)));
  const filtered = [
    [],
    ["a.ts"],
    ["-L", "10,40", "a.ts"],
    ["-L10,40", "-L", "/^function/,+5", "a.ts"],
    ["-C", "-C", "-M", "a.ts"],
    ["-C50", "a.ts"],
    ["-w", "-e", "-l", "-s", "-f", "-t", "--root", "a.ts"],
    ["-sef", "a.ts"],
    ["--date=relative", "a.ts"],
    ["--date", "short", "a.ts"],
    ["--abbrev=12", "--color-lines", "--color-by-age", "a.ts"],
    ["--ignore-rev", "abc1234", "--ignore-revs-file", ".git-blame-ignore-revs", "a.ts"],
    ["--contents", "-", "a.ts"],
    ["-S", "revs.txt", "a.ts"],
    ["--reverse", "HEAD~3..", "a.ts"],
    ["--", "-p"],
  ];
  for (const args of filtered) {
    await t.step(`filters ${args.join(" ") || "(no args)"}`, () => {
      strictEqual(blamePassthrough(args), null);
    });
  }
});

Deno.test("gitBlameFilter groups each run of one commit under one header", () => {
  deepStrictEqual(run(RAW), {
    text: [
      "^b7c546e (Ada Lovelace 2026-01-05 10:12)",
      "  1: line one",
      "2c75e171 (Grace Hopper 2026-01-07 09:30)",
      "  2: \tindented changed",
      "^b7c546e",
      "  3: trailing   ",
      "  4: four",
      "2c75e171",
      "  5: five",
      "00000000 (Not Committed Yet 2026-12-04 14:49)",
      "  6: six",
      "",
    ].join("\n"),
    cut: [],
  });
});

Deno.test("gitBlameFilter keeps every line number true and every content byte", async (t) => {
  const cases: [string, string][] = [
    ["a tab first", "\tindented"],
    ["trailing spaces", "x = 1   "],
    ["trailing tab", "x = 1\t"],
    ["a carriage return", "x = 1\r"],
    ["an empty line", ""],
    ["only spaces", "    "],
    ["parentheses and a fake prefix", "f(a) (Ada Lovelace 2026-01-05 10:12:00 +0000 9) x"],
    ["an escape of its own", "const red = '\x1b[31m'"],
    ["wide characters", "const name = 'José 世界'"],
  ];
  for (const [name, content] of cases) {
    await t.step(name, () => {
      const raw = `2c75e171 (Grace Hopper 2026-01-07 09:30:00 +0200 417) ${content}\n`;
      strictEqual(run(raw).text, `2c75e171 (Grace Hopper 2026-01-07 09:30)\n  417: ${content}\n`);
    });
  }
  await t.step("line numbers padded by git, as in -L ranges", () => {
    const raw = [
      "^b7c546e (Ada Lovelace 2026-01-05 10:12:00 +0000   8) a",
      "^b7c546e (Ada Lovelace 2026-01-05 10:12:00 +0000   9) b",
      "2c75e171 (Ada Lovelace 2026-01-07 09:30:00 +0200 120) c",
      "",
    ].join("\n");
    deepStrictEqual(run(raw).text.split("\n").filter((l) => l.startsWith("  ")), [
      "  8: a",
      "  9: b",
      "  120: c",
    ]);
  });
});

Deno.test("gitBlameFilter keeps boundary, ignored and unblamable marks on the hash", () => {
  const raw = [
    "^b7c546e (Ada Lovelace      2026-01-05 10:12:00 +0000 1) line one",
    "^?b7c546 (Ada Lovelace      2026-01-05 10:12:00 +0000 2) \tindented changed",
    "*2c75e17 (Grace Hopper      2026-01-07 09:30:00 +0200 3) five",
    "",
  ].join("\n");
  deepStrictEqual(run(raw).text.split("\n"), [
    "^b7c546e (Ada Lovelace 2026-01-05 10:12)",
    "  1: line one",
    "^?b7c546 (Ada Lovelace 2026-01-05 10:12)",
    "  2: \tindented changed",
    "*2c75e17 (Grace Hopper 2026-01-07 09:30)",
    "  3: five",
    "",
  ]);
});

Deno.test("gitBlameFilter keeps lines not committed yet, by name and by -e's address", async (t) => {
  await t.step("name", () => {
    const out = run(RAW).text;
    ok(out.includes("00000000 (Not Committed Yet 2026-12-04 14:49)\n  6: six\n"), out);
  });
  await t.step("-e -l", () => {
    const raw = `${"0".repeat(40)} (<not.committed.yet> 2026-12-04 14:43:53 +0000 6) six\n`;
    strictEqual(
      run(raw, ["-e", "-l"]).text,
      `${"0".repeat(40)} (<not.committed.yet> 2026-12-04 14:43)\n  6: six\n`,
    );
  });
});

Deno.test("gitBlameFilter names each run's file whole when git prints names", () => {
  const raw = [
    "^ee5bb9a lib/commands/ping.js         (Ada Lovelace 2026-01-05 10:12:00 +0000  4) const a = 1",
    "3ed70068 lib/utils/format-duration.js (Ada Lovelace 2026-01-12 11:47:00 +0000  5) ",
    "3ed70068 lib/utils/format-duration.js (Ada Lovelace 2026-01-12 11:47:00 +0000  6) const f = (ms) => {",
    "3ed70068 lib/commands/ping.js         (Ada Lovelace 2026-01-12 11:47:00 +0000  7) }",
    "^ee5bb9a lib/commands/ping.js         (Ada Lovelace 2026-01-05 10:12:00 +0000  8) ",
    "3ed70068 my docs/a b.md               (Ada Lovelace 2026-01-12 11:47:00 +0000  9) x",
    "",
  ].join("\n");
  deepStrictEqual(run(raw, ["-C"]).text.split("\n"), [
    "^ee5bb9a lib/commands/ping.js (Ada Lovelace 2026-01-05 10:12)",
    "  4: const a = 1",
    "3ed70068 lib/utils/format-duration.js (Ada Lovelace 2026-01-12 11:47)",
    "  5: ",
    "  6: const f = (ms) => {",
    "3ed70068 lib/commands/ping.js",
    "  7: }",
    "^ee5bb9a lib/commands/ping.js",
    "  8: ",
    "3ed70068 my docs/a b.md",
    "  9: x",
    "",
  ]);
});

Deno.test("gitBlameFilter reads -s, -e, -l, -t and other dates", async (t) => {
  const cases: [string, string, string][] = [
    [
      "-s",
      "^b7c546e 1) line one\n2c75e171 2) two\n",
      "^b7c546e\n  1: line one\n2c75e171\n  2: two\n",
    ],
    [
      "-s -f",
      "^b7c546e a.ts 1) x\n2c75e171 b.ts 2) y\n",
      "^b7c546e a.ts\n  1: x\n2c75e171 b.ts\n  2: y\n",
    ],
    [
      "-e",
      "2c75e171 (<grace@example.com> 2026-01-07 09:30:00 +0200 2) two\n",
      "2c75e171 (<grace@example.com> 2026-01-07 09:30)\n  2: two\n",
    ],
    [
      "-l",
      "^b7c546e6807eaa769790a8b46c630b762f878a2 (Ada Lovelace 2026-01-05 10:12:00 +0000 1) x\n",
      "^b7c546e6807eaa769790a8b46c630b762f878a2 (Ada Lovelace 2026-01-05 10:12)\n  1: x\n",
    ],
    [
      "-t",
      "^b7c546e (Ada Lovelace      1767607920 +0000 1) x\n",
      "^b7c546e (Ada Lovelace 1767607920 +0000)\n  1: x\n",
    ],
    [
      "--date=short",
      "^b7c546e (Ada Lovelace      2026-01-05 1) x\n",
      "^b7c546e (Ada Lovelace 2026-01-05)\n  1: x\n",
    ],
    [
      "--date=relative keeps git's padding inside the parentheses",
      "^b7c546e (Ada Lovelace      11 months ago          1) x\n",
      "^b7c546e (Ada Lovelace      11 months ago)\n  1: x\n",
    ],
  ];
  for (const [name, raw, expected] of cases) {
    await t.step(name, () => deepStrictEqual(run(raw), { text: expected, cut: [] }));
  }
});

Deno.test("gitBlameFilter takes off only the colours --color-lines and --color-by-age add", () => {
  const raw = [
    "\x1b[37m^b7c546e (Ada Lovelace 2026-01-05 10:12:00 +0000 1) \x1b[mline one",
    "^b7c546e (Ada Lovelace 2026-01-05 10:12:00 +0000 2) \x1b[m keeps its own reset",
    "\x1b[31m00000000 (Not Committed Yet 2026-12-04 14:49:14 +0000 3) \x1b[msix",
    "",
  ].join("\n");
  deepStrictEqual(run(raw).text.split("\n"), [
    "^b7c546e (Ada Lovelace 2026-01-05 10:12)",
    "  1: line one",
    "  2: \x1b[m keeps its own reset",
    "00000000 (Not Committed Yet 2026-12-04 14:49)",
    "  3: six",
    "",
  ]);
});

Deno.test("gitBlameFilter returns output that is not blame lines unchanged", async (t) => {
  const cases: [string, string][] = [
    ["empty", ""],
    ["usage (git blame -h)", "usage: git blame [<options>] [<rev-opts>] [<rev>] [--] <file>\n"],
    [
      "--porcelain",
      "b7c546e6807eaa769790a8b46c630b762f878a22 1 1 1\nauthor Ada Lovelace\nfilename a.ts\n\tline one\n",
    ],
    [
      "--incremental",
      "b7c546e6807eaa769790a8b46c630b762f878a22 1 1 1\nauthor Ada Lovelace\nboundary\nfilename a.ts\n",
    ],
    ["-c", "b7c546e6\t(Ada Lovelace\t2026-01-05 10:12:00 +0000\t1)line one\n"],
    ["-n", "^b7c546e 1 (Ada Lovelace 2026-01-05 10:12:00 +0000 1) line one\n"],
    ["-n -f", "^b7c546e a.ts 1 (Ada Lovelace 2026-01-05 10:12:00 +0000 1) line one\n"],
    ["-s -n", "^b7c546e 1 1) line one\n"],
    ["-b", "         (Ada Lovelace      2026-01-05 10:12:00 +0000 1) line one\n"],
    ["--show-stats", `${RAW}num read blob: 3\nnum get patch: 2\nnum commits: 2\n`],
    [
      "lines out of order",
      "^b7c546e (Ada 2026-01-05 10:12:00 +0000 2) b\n^b7c546e (Ada 2026-01-05 10:12:00 +0000 1) a\n",
    ],
    [
      "names on some lines only",
      "^b7c546e a.ts (Ada 2026-01-05 10:12:00 +0000 1) a\n^b7c546e (Ada 2026-01-05 10:12:00 +0000 2) b\n",
    ],
    ["a name with parentheses", "^b7c546e a (1).ts (Ada 2026-01-05 10:12:00 +0000 1) a\n"],
    ["an author with parentheses", "^b7c546e (Ada (work) 2026-01-05 10:12:00 +0000 1) a\n"],
    [
      "a colour with no reset after the prefix",
      "\x1b[37m^b7c546e (Ada 2026-01-05 10:12:00 +0000 1) a\n",
    ],
    ["a numbered list", "Steps:\nadd 1) the flour\n"],
    ["prose", "The build runs in two stages (fetch, then compile 2) and logs both.\n"],
  ];
  for (const [name, raw] of cases) {
    await t.step(name, () => deepStrictEqual(run(raw), { text: raw, cut: [] }));
  }
});

Deno.test("gitBlameFilter reads a line of any length in linear time", async (t) => {
  const odd: [string, string][] = [
    ["spaces inside the parentheses", `^b7c546e (Ada${" ".repeat(200_000)}x 7 a\n`],
    ["spaces after a name", `^b7c546e a.ts${" ".repeat(200_000)}x 7) a\n`],
    ["digits", `^b7c546e (Ada ${"1".repeat(200_000)} x\n`],
    ["spaces with -s", `^b7c546e x${" ".repeat(200_000)}y\n`],
  ];
  for (const [name, line] of odd) {
    await t.step(name, () => {
      const raw = RAW + line;
      const start = performance.now();
      deepStrictEqual(run(raw), { text: raw, cut: [] });
      ok(performance.now() - start < 1000, `${Math.round(performance.now() - start)} ms`);
    });
  }
  await t.step("a blame line whose author is padded without end", () => {
    const raw = `${RAW}^b7c546e (Ada${" ".repeat(200_000)}x 2026-01-05 10:12:00 +0000 7) a\n`;
    const start = performance.now();
    ok(run(raw).text.endsWith("x 2026-01-05 10:12)\n  7: a\n"));
    ok(performance.now() - start < 1000, `${Math.round(performance.now() - start)} ms`);
  });
});

Deno.test("gitBlameFilter keeps the final newline as git printed it", () => {
  const bare = RAW.slice(0, -1);
  ok(!run(bare).text.endsWith("\n"));
  ok(run(RAW).text.endsWith("six\n"));
});

/** One generated blame line: what git knows of it. */
interface Truth {
  hash: string;
  file: string;
  author: string;
  line: number;
  content: string;
}

// Contents with what breaks naive readers: parentheses, `) `, digits, tabs, trailing blanks,
// a carriage return, non-ASCII text.
const PIECES = ["x", " ", "\t", "(", ")", ") ", "12", "  ", "é", "世", ":", "^", "\r", "=>", "ab"];

function _randomBlame(seed: number): { raw: string; truth: Truth[] } {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const withNames = random() < 0.3;
  const commits = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, i) => {
    const hex = Array.from({ length: 8 }, () => pick([..."0123456789abcdef"])).join("");
    const boundary = i === 0 && random() < 0.5;
    return {
      hash: boundary ? `^${hex.slice(0, 7)}` : hex,
      author: pick(["Ada Lovelace", "Grace Hopper", "José Ñúñez", "Not Committed Yet"]),
      date: `2026-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 10)} 0${
        Math.floor(random() * 10)
      }:3${Math.floor(random() * 10)}:0${Math.floor(random() * 10)} +0${
        Math.floor(random() * 10)
      }00`,
    };
  });
  const truth: Truth[] = [];
  let line = 1 + Math.floor(random() * 500);
  const count = 1 + Math.floor(random() * 80);
  while (truth.length < count) {
    const c = pick(commits);
    const file = withNames ? pick(["a.ts", "lib/b c.ts", "src/very/long/name.ts"]) : "";
    for (let k = 1 + Math.floor(random() * 5); k > 0 && truth.length < count; k--) {
      const content = Array.from({ length: Math.floor(random() * 8) }, () => pick(PIECES)).join("");
      truth.push({ hash: c.hash, file, author: c.author, line, content });
      line += random() < 0.1 ? 2 + Math.floor(random() * 40) : 1;
    }
  }
  const fileWidth = Math.max(...truth.map((l) => l.file.length));
  const authorWidth = Math.max(...commits.map((c) => c.author.length));
  const digits = String(truth[truth.length - 1].line).length;
  const date = new Map(commits.map((c) => [c.hash, c.date]));
  const raw = truth.map((l) => {
    const name = withNames ? ` ${l.file.padEnd(fileWidth)}` : "";
    const who = `${l.author.padEnd(authorWidth)} ${date.get(l.hash)}`;
    return `${l.hash}${name} (${who} ${String(l.line).padStart(digits)}) ${l.content}\n`;
  }).join("");
  return { raw, truth };
}

// The compact form read back: each line with the hash and file of the header above it.
function _readBack(text: string): Omit<Truth, "author">[] {
  const out: Omit<Truth, "author">[] = [];
  let hash = "";
  let file = "";
  for (const line of text.split("\n").slice(0, -1)) {
    const entry = /^ {2}(\d+): /.exec(line);
    if (entry) {
      out.push({ hash, file, line: Number(entry[1]), content: line.slice(entry[0].length) });
      continue;
    }
    const header = /^(\S+)(?: (.*?))??(?: \([^()]*\))?$/.exec(line)!;
    hash = header[1];
    file = header[2] ?? "";
  }
  return out;
}

Deno.test("gitBlameFilter round-trips every line number, content and commit of generated blames", async (t) => {
  for (let from = 1; from <= 300; from += 50) {
    await t.step(`seeds ${from} to ${from + 49}`, () => {
      for (let seed = from; seed < from + 50; seed++) {
        const { raw, truth } = _randomBlame(seed);
        const out = run(raw);
        ok(out.text.length < raw.length, `seed ${seed}: smaller`);
        deepStrictEqual(out.cut, [], `seed ${seed}`);
        deepStrictEqual(
          _readBack(out.text),
          truth.map(({ hash, file, line, content }) => ({ hash, file, line, content })),
          `seed ${seed}`,
        );
        const headers = out.text.split("\n").filter((l) => !l.startsWith("  "));
        for (const l of truth) {
          const first = headers.find((h) => h.startsWith(`${l.hash} `) && h.endsWith(")"));
          ok(first?.includes(`(${l.author} 2026-`), `seed ${seed}: ${l.hash} names ${l.author}`);
        }
      }
    });
  }
});

Deno.test("git blame's family reads like git's other reads and detects blame text alone", async (t) => {
  const family = FAMILIES["git blame"];
  strictEqual(family.filter, gitBlameFilter);
  deepStrictEqual(family.rewrite, GIT_READS);
  const detect = (text: string) => family.shapes![0].detect(sampleText(text), text);
  await t.step("default blame output", () => ok(detect(RAW)));
  await t.step("with names", () => {
    ok(detect(RAW.replaceAll(" (", " lib/a.ts (")));
  });
  const others: [string, string][] = [
    ["-s output", "^b7c546e 1) a\n2c75e171 2) b\n^b7c546e 3) c\n"],
    ["git log", "commit " + "a".repeat(40) + "\nAuthor: A <a@b>\nDate:   x\n\n    subject\n"],
    ["grep hits", "lib/a.js:1:const a = 1\nlib/a.js:2:const b = 2\nlib/a.js:3:x\n"],
    ["too few lines", "^b7c546e (Ada Lovelace 2026-01-05 10:12:00 +0000 1) a\n"],
    [
      "a date git does not print unasked",
      RAW.replaceAll(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}/g, "11 months ago"),
    ],
  ];
  for (const [name, text] of others) {
    await t.step(`not ${name}`, () => strictEqual(detect(text), null));
  }
});
