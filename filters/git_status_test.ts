import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { gitStatusFilter, statusPassthrough } from "./git_status.ts";

const INPUT = { args: [], shaped: false, exitCode: 0 };

function run(raw: string) {
  return gitStatusFilter.filter(raw, INPUT);
}

const LONG = `On branch main
Your branch is ahead of 'origin/main' by 2 commits.
  (use "git push" to publish your local commits)

Changes to be committed:
  (use "git restore --staged <file>..." to unstage)
\tmodified:   src/core/a.ts
\tnew file:   src/core/b.ts
\tmodified:   src/core/c.ts
\trenamed:    old/x.ts -> src/x.ts

Changes not staged for commit:
  (use "git add/rm <file>..." to update what will be committed)
  (use "git restore <file>..." to discard changes in working directory)
\tmodified:   README.md
\tdeleted:    lib/y.js
\tmodified:   lib/z.js
\ttypechange: bin/run

Untracked files:
  (use "git add <file>..." to include in what will be committed)
\tdocs/
\tsrc/new1.ts
\tsrc/new2.ts

no changes added to commit (use "git add" and/or "git commit -a")
`;

Deno.test("statusPassthrough defers to machine formats and verbose output", async (t) => {
  const passing = [
    ["--porcelain"],
    ["--porcelain=v2"],
    ["-z"],
    ["--null"],
    ["-v"],
    ["-vv"],
    ["--verbose"],
    ["-sz"],
  ];
  for (const args of passing) await t.step(args.join(" "), () => ok(statusPassthrough(args)));
  for (const args of [[], ["-s"], ["-sb"], ["--short"], ["-uno"], ["--", "-v"]]) {
    await t.step(`filters ${args.join(" ") || "(no args)"}`, () => {
      strictEqual(statusPassthrough(args), null);
    });
  }
});

Deno.test("gitStatusFilter renders the long format compactly without losing a path", () => {
  const out = run(LONG);
  strictEqual(
    out.text,
    [
      "branch main, ahead of origin/main by 2",
      "staged:",
      "  modified: src/core/a.ts, src/core/c.ts",
      "  new file: src/core/b.ts",
      "  renamed: old/x.ts -> src/x.ts",
      "unstaged:",
      "  modified: README.md, lib/z.js",
      "  deleted: lib/y.js",
      "  typechange: bin/run",
      "untracked: docs/, src/new1.ts, src/new2.ts",
      "no changes added to commit",
    ].join("\n") + "\n",
  );
  deepStrictEqual(out.cut, []);
});

Deno.test("gitStatusFilter compacts every tracking line form", async (t) => {
  const cases: [string, string][] = [
    ["Your branch is up to date with 'origin/main'.", "branch main, up to date with origin/main"],
    [
      "Your branch is ahead of 'origin/main' by 1 commit.",
      "branch main, ahead of origin/main by 1",
    ],
    [
      "Your branch is behind 'origin/main' by 3 commits, and can be fast-forwarded.",
      "branch main, behind origin/main by 3, can fast-forward",
    ],
    [
      "Your branch and 'origin/main' have diverged,\nand have 1 and 2 different commits each, respectively.",
      "branch main, diverged from origin/main (ahead 1, behind 2)",
    ],
    [
      "Your branch is based on 'origin/gone', but the upstream is gone.",
      "branch main, upstream origin/gone is gone",
    ],
  ];
  for (const [tracking, want] of cases) {
    await t.step(want, () => {
      const out = run(`On branch main\n${tracking}\n\nnothing to commit, working tree clean\n`);
      strictEqual(out.text, `${want}\nnothing to commit, working tree clean\n`);
    });
  }
});

Deno.test("gitStatusFilter keeps operation state and unknown lines verbatim", () => {
  const raw = `interactive rebase in progress; onto 1a2b3c4
Last command done (1 command done):
   pick 5d6e7f8 Fix the parser
Next commands to do (2 remaining commands):
   pick 9a8b7c6 Add tests
  (use "git rebase --edit-todo" to view and edit)
You are currently rebasing branch 'main' on '1a2b3c4'.
  (fix conflicts and then run "git rebase --continue")

Unmerged paths:
  (use "git restore --staged <file>..." to unstage)
\tboth modified:   src/a.ts
\tdeleted by them: src/b.ts
\tstrange entry

`;
  deepStrictEqual(run(raw).text.split("\n"), [
    "interactive rebase in progress; onto 1a2b3c4",
    "Last command done (1 command done):",
    "   pick 5d6e7f8 Fix the parser",
    "Next commands to do (2 remaining commands):",
    "   pick 9a8b7c6 Add tests",
    "You are currently rebasing branch 'main' on '1a2b3c4'.",
    "unmerged:",
    "  both modified: src/a.ts",
    "  deleted by them: src/b.ts",
    "  strange entry",
    "",
  ]);
});

Deno.test("gitStatusFilter keeps a detached HEAD line", () => {
  const out = run("HEAD detached at 1a2b3c4\nnothing to commit, working tree clean\n");
  strictEqual(out.text, "HEAD detached at 1a2b3c4\nnothing to commit, working tree clean\n");
});

Deno.test("gitStatusFilter groups the short format by status code", () => {
  const raw = [
    "## main...origin/main [ahead 1]",
    "M  src/a.ts",
    " M src/b.ts",
    "M  src/c.ts",
    "R  old.ts -> src/new.ts",
    "?? notes/",
    "?? src/d.ts",
    "",
  ].join("\n");
  deepStrictEqual(run(raw), {
    text: [
      "## main...origin/main [ahead 1]",
      "M  src/a.ts, src/c.ts",
      " M src/b.ts",
      "R  old.ts -> src/new.ts",
      "?? notes/, src/d.ts",
      "",
    ].join("\n"),
    cut: [],
  });
});

Deno.test("gitStatusFilter writes every changed path whole", () => {
  const words = new Set(run(LONG).text.split(/[\s,]+/));
  const paths = ["src/core/a.ts", "src/core/b.ts", "src/core/c.ts", "old/x.ts", "src/x.ts"];
  for (const p of [...paths, "README.md", "lib/y.js", "lib/z.js", "bin/run", "docs/"]) {
    ok(words.has(p), p);
  }
  for (const p of ["src/new1.ts", "src/new2.ts"]) ok(words.has(p), p);
});

Deno.test("gitStatusFilter strips colour and is empty for empty input", () => {
  const coloured = LONG.replace(
    "\tmodified:   src/core/a.ts",
    "\t\x1b[32mmodified:   src/core/a.ts\x1b[m",
  );
  deepStrictEqual(run(coloured), run(LONG));
  deepStrictEqual(run(""), { text: "", cut: [] });
});
