/**
 * Captures golden fixtures for the `git log` filter from real git runs: the seed's lab
 * repository, and a longer history (two authors over several days, bodies, trailers, a merge)
 * past stage 1's fetch limit. Facts come from git itself (`--format=%h`, `%s`, `%an`).
 *
 * Run: `deno run -A scripts/capture/log.ts`
 *
 * @module
 */

import { buildLab } from "../../tests/_helpers.ts";

const FIXTURES = new URL("../../tests/fixtures/", import.meta.url).pathname;

const ENV = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  LC_ALL: "C",
  TZ: "UTC",
  NO_COLOR: "1",
};

async function git(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd,
    env: { ...ENV, ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

const SUBJECTS = [
  "fix(parser): handle CRLF line endings in quoted strings",
  "feat(cli): add --json output to the status command",
  "refactor: split the tokenizer into lexer and reader",
  "docs: explain the retention settings in the README",
  "test: cover the empty-input case for every reader",
  "perf(store): batch inserts in one transaction per run",
  "chore(deps): bump the TOML parser to the latest minor",
  "fix: keep exit codes when the child is killed by a signal",
  "feat(archive): bound the archive by total size",
  "fix(diff): do not drop the last hunk when it has no newline",
];

const BODIES = [
  "",
  "The old code assumed LF everywhere, so a Windows checkout produced an extra\n" +
  "carriage return at the end of every quoted value.\n\nFixes #412.",
  "Agents asked for machine output in three separate issues.\n\n" +
  "Signed-off-by: Ada Lovelace <ada@example.com>",
  "",
  "Two readers shared one buffer; a reset in one cleared the other's state.\n" +
  "Splitting them keeps each reader's position its own.\n\n" +
  "Reviewed-by: Grace Hopper <grace@example.com>\n" +
  "Signed-off-by: Ada Lovelace <ada@example.com>",
];

async function buildHistory(dir: string): Promise<void> {
  await git(".", ["init", "-q", "-b", "main", dir]);
  const authors = [["Ada Lovelace", "ada@example.com"], ["Grace Hopper", "grace@example.com"]];
  for (let i = 0; i < 64; i++) {
    const [name, email] = authors[Math.floor(i / 3) % 2];
    const day = String(1 + Math.floor(i / 6)).padStart(2, "0");
    const date = `2026-11-${day}T${String(9 + (i % 6)).padStart(2, "0")}:${
      String((i * 7) % 60).padStart(2, "0")
    }:00+01:00`;
    const env = {
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: name,
      GIT_COMMITTER_EMAIL: email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    };
    if (i === 40) {
      await git(dir, ["checkout", "-q", "-b", "topic"]);
      await Deno.writeTextFile(`${dir}/topic.txt`, "topic work\n");
      await git(dir, ["add", "-A"]);
      await git(dir, ["commit", "-q", "-m", "feat(topic): a change made on a branch"], env);
      await git(dir, ["checkout", "-q", "main"]);
      await Deno.writeTextFile(`${dir}/main.txt`, `main ${i}\n`, { append: true });
      await git(dir, ["add", "-A"]);
      await git(dir, ["commit", "-q", "-m", "chore: a change on main meanwhile"], env);
      await git(dir, ["merge", "-q", "--no-ff", "-m", "Merge branch 'topic'", "topic"], env);
      continue;
    }
    await Deno.writeTextFile(`${dir}/src_${i % 7}.ts`, `// change ${i}\n`, { append: true });
    await git(dir, ["add", "-A"]);
    const body = BODIES[i % BODIES.length];
    await git(dir, [
      "commit",
      "-q",
      "-m",
      SUBJECTS[i % SUBJECTS.length],
      ...(body ? ["-m", body] : []),
    ], env);
  }
}

interface Case {
  name: string;
  cwd: string;
  typed: string[];
  ran: string[];
  shown: number;
}

async function capture(c: Case): Promise<void> {
  const raw = await git(c.cwd, c.typed.slice(1));
  const shaped = await git(c.cwd, c.ran.slice(1));
  const rest = c.typed.slice(2);
  const hashes = (await git(c.cwd, ["log", ...rest, `-${c.shown}`, "--format=%h"])).trimEnd().split(
    "\n",
  );
  const subjects = (await git(c.cwd, ["log", ...rest, `-${c.shown}`, "--format=%s"])).trimEnd()
    .split("\n");
  const authors = (await git(c.cwd, ["log", ...rest, `-${c.shown}`, "--format=%an <%ae>"]))
    .trimEnd().split("\n");
  const dir = `${FIXTURES}${c.name}`;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/raw.out`, raw);
  await Deno.writeTextFile(`${dir}/shaped.out`, shaped);
  const meta = {
    filter: "git log",
    typed: c.typed,
    ran: c.ran,
    exitCode: 0,
    facts: [...new Set([...hashes, ...subjects.map((s) => ` ${s}\n`), ...authors])],
    factsSource: `git log ${
      rest.join(" ")
    } -${c.shown} with --format=%h, %s and "%an <%ae>": every shown commit's hash, whole subject and author`,
  };
  await Deno.writeTextFile(`${dir}/meta.json`, JSON.stringify(meta, null, 2) + "\n");
  console.log(`${c.name}: raw ${raw.length} chars, shaped ${shaped.length}`);
}

if (import.meta.main) {
  const tmp = await Deno.makeTempDir({ prefix: "rtok-capture-log-" });
  try {
    await buildLab(`${tmp}/lab`);
    await buildHistory(`${tmp}/history`);
    await capture({
      name: "git_log_lab",
      cwd: `${tmp}/lab`,
      typed: ["git", "log"],
      ran: ["git", "log", "-n", "50"],
      shown: 10,
    });
    await capture({
      name: "git_log_history",
      cwd: `${tmp}/history`,
      typed: ["git", "log"],
      ran: ["git", "log", "-n", "50"],
      shown: 10,
    });
    await capture({
      name: "git_log_author",
      cwd: `${tmp}/history`,
      typed: ["git", "log", "--author=Grace"],
      ran: ["git", "log", "-n", "50", "--author=Grace"],
      shown: 10,
    });
    await capture({
      name: "git_log_n20",
      cwd: `${tmp}/history`,
      typed: ["git", "log", "-20"],
      ran: ["git", "log", "-20"],
      shown: 20,
    });
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}
