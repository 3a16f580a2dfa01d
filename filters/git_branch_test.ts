import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { branchPassthrough, gitBranchFilter } from "./git_branch.ts";

function run(raw: string, args: string[] = []) {
  return gitBranchFilter.filter(raw, { args, shaped: false, exitCode: 0 });
}

const LIST = `  feature/login
  feature/search
  fix/ci
* main
  release
`;

const ALL = `${LIST}  remotes/origin/HEAD -> origin/main
  remotes/origin/feature/login
  remotes/origin/main
  remotes/upstream/main
`;

Deno.test("branchPassthrough passes through formats and every mutating form", async (t) => {
  const passing = [
    ["--format=%(refname)"],
    ["--show-current"],
    ["-d", "old"],
    ["-D", "old"],
    ["--delete", "old"],
    ["-m", "a", "b"],
    ["-M", "b"],
    ["-c", "a", "b"],
    ["-C", "a", "b"],
    ["--set-upstream-to=origin/main"],
    ["-u", "origin/main"],
    ["--unset-upstream"],
    ["--edit-description"],
    ["--track", "x", "origin/x"],
    ["-f", "x", "HEAD~1"],
    ["new-branch"],
    ["new-branch", "HEAD~2"],
    ["--column"],
  ];
  for (const args of passing) await t.step(args.join(" "), () => ok(branchPassthrough(args)));
  const listing = [
    [],
    ["-a"],
    ["-r"],
    ["-vv"],
    ["-av"],
    ["--list", "feature/*"],
    ["-l", "fix*"],
    ["--merged", "main"],
    ["--no-merged"],
    ["--contains", "abc123"],
    ["--points-at", "HEAD"],
    ["--sort", "-committerdate"],
    ["--no-column"],
  ];
  for (const args of listing) {
    await t.step(`filters ${args.join(" ") || "(no args)"}`, () => {
      strictEqual(branchPassthrough(args), null);
    });
  }
});

Deno.test("gitBranchFilter puts the current branch first and the others whole on one line", () => {
  deepStrictEqual(run(LIST), {
    text: "* main\nfeature/login, feature/search, fix/ci, release\n",
    cut: [],
  });
});

Deno.test("gitBranchFilter puts a detached HEAD line first", () => {
  const raw = "* (HEAD detached at 1a2b3c4)\n  main\n  topic\n";
  strictEqual(run(raw).text, "* (HEAD detached at 1a2b3c4)\nmain, topic\n");
});

Deno.test("gitBranchFilter writes remote branches whole, one line per remote, with -a and -r", async (t) => {
  await t.step("-a", () => {
    strictEqual(
      run(ALL, ["-a"]).text,
      [
        "* main",
        "feature/login, feature/search, fix/ci, release",
        "origin/HEAD -> origin/main, origin/feature/login, origin/main",
        "upstream/main",
        "",
      ].join("\n"),
    );
  });
  await t.step("-r", () => {
    const raw = "  origin/HEAD -> origin/main\n  origin/feature/a\n  origin/feature/b\n";
    strictEqual(
      run(raw, ["-r"]).text,
      "origin/HEAD -> origin/main, origin/feature/a, origin/feature/b\n",
    );
  });
  await t.step("without -a a local name starting with remotes/ is not a remote", () => {
    strictEqual(run("* main\n  remotes/x/y\n").text, "* main\nremotes/x/y\n");
  });
});

Deno.test("gitBranchFilter -vv drops padding and commit subjects, keeps hash and tracking", () => {
  const raw = [
    "  feature/login            1a2b3c4 [origin/feature/login: behind 2] Add the login form",
    "* main                     5d6e7f8 [origin/main: ahead 1] Short subject",
    "+ wt                       2b3c4d5 (/tmp/wt) [origin/wt] Work in a worktree",
    "  bare                     3c4d5e6",
    "  remotes/origin/HEAD      -> origin/main",
    "  remotes/origin/main      9a8b7c6 Short subject",
    "",
  ].join("\n");
  const out = run(raw, ["-vv", "-a"]);
  deepStrictEqual(out.text.split("\n"), [
    "* main 5d6e7f8 [origin/main: ahead 1]",
    "feature/login 1a2b3c4 [origin/feature/login: behind 2]",
    "+ wt 2b3c4d5 (/tmp/wt) [origin/wt]",
    "bare 3c4d5e6",
    "origin/HEAD -> origin/main",
    "origin/main 9a8b7c6",
    "",
  ]);
  deepStrictEqual(out.cut, ["4 commit subjects"]);
});

Deno.test("gitBranchFilter -v without tracking drops the subject after the hash", () => {
  const out = run("* main 5d6e7f8 [ahead 1] Fix it\n  topic 1a2b3c4 Try it\n", ["-v"]);
  deepStrictEqual(out, {
    text: "* main 5d6e7f8 [ahead 1]\ntopic 1a2b3c4\n",
    cut: ["2 commit subjects"],
  });
});

Deno.test("gitBranchFilter keeps lines it cannot read and every branch name", () => {
  const out = run(`${ALL}warning: ignoring broken ref refs/heads/bad\n`, ["-a"]);
  ok(out.text.endsWith("warning: ignoring broken ref refs/heads/bad\n"));
  const words = new Set(out.text.split(/[\s,]+/));
  for (const name of ["main", "feature/login", "feature/search", "fix/ci", "release"]) {
    ok(words.has(name), name);
  }
  for (const name of ["origin/HEAD", "origin/feature/login", "origin/main", "upstream/main"]) {
    ok(words.has(name), name);
  }
});

Deno.test("gitBranchFilter strips colour and is empty for empty input", () => {
  const coloured = LIST.replace("* main", "* \x1b[32mmain\x1b[m");
  deepStrictEqual(run(coloured), run(LIST));
  deepStrictEqual(run(""), { text: "", cut: [] });
});
