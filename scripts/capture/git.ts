/**
 * Captures golden fixtures for the `git status`, `git diff`, `git show`, `git branch`,
 * `git blame` and `diff` filters from the real tools. It builds a git repository in a temp dir
 * from the npm CLI sources installed on this machine (`$(npm root -g)/npm`), makes a few commits
 * of realistic edits at fixed dates (so hashes are stable), adds branches and a bare "remote",
 * leaves a dirty working tree, and writes `tests/fixtures/<name>/` for each command: `raw.out`,
 * `shaped.out` (the same bytes: these filters have no stage 1) and `meta.json`, whose facts
 * come from the tools themselves. The blame captures run last, partly in a detached worktree
 * that adds commits by both authors to one file, so every other capture sees the repository
 * as it was. Lines not committed yet carry the time of the capture, so those bytes differ from
 * one capture to the next.
 *
 * Run: `deno run -A scripts/capture/git.ts`
 *
 * @module
 */

import { dirname, join } from "node:path";

const FIXTURES = new URL("../../tests/fixtures/", import.meta.url).pathname;

/** One fixture to capture. */
interface Capture {
  /** Directory name under `tests/fixtures/`. */
  name: string;
  /** The `CommandFilter.name` that handles the command. */
  filter: string;
  /** The command as an agent types it. */
  typed: string[];
  /** Where it runs. */
  cwd: string;
  /** Facts from other invocations of the tools. */
  facts: string[];
  /** How `facts` were derived. */
  factsSource: string;
  /** Add every `@@` line of `raw.out` to the facts. */
  hunkHeaders?: boolean;
  /** Add every normal-format command line (`12,14c12`) of `raw.out` to the facts. */
  normalCommands?: boolean;
}

/** A commit's message, date and author. */
interface CommitSpec {
  message: string;
  date: string;
  author?: [string, string];
}

const ADA: [string, string] = ["Ada Lovelace", "ada@example.com"];
const GRACE: [string, string] = ["Grace Hopper", "grace@example.com"];

// A git that reads no user or system config and prints in English, uncoloured, unpaged.
const BASE_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  LC_ALL: "C",
  TZ: "UTC",
  GIT_PAGER: "cat",
  PAGER: "cat",
  NO_COLOR: "1",
};

async function exec(
  cmd: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
  okCodes: readonly number[] = [0],
): Promise<{ stdout: string; code: number }> {
  const out = await new Deno.Command(cmd, {
    args: [...args],
    cwd,
    env: { ...BASE_ENV, ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!okCodes.includes(out.code)) {
    const err = new TextDecoder().decode(out.stderr);
    throw new Error(`${cmd} ${args.join(" ")} exited ${out.code}: ${err}`);
  }
  return { stdout: new TextDecoder().decode(out.stdout), code: out.code };
}

async function git(repo: string, ...args: string[]): Promise<string> {
  return (await exec("git", args, repo)).stdout;
}

async function gitLines(repo: string, ...args: string[]): Promise<string[]> {
  return (await git(repo, ...args)).split("\n").filter((l) => l !== "");
}

async function commit(repo: string, spec: CommitSpec): Promise<void> {
  const [name, email] = spec.author ?? ADA;
  const env = {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_AUTHOR_DATE: spec.date,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
    GIT_COMMITTER_DATE: spec.date,
  };
  await exec("git", ["add", "-A"], repo);
  await exec("git", ["commit", "-q", "-m", spec.message], repo, env);
}

/** Replaces `find` in a file once; fails loudly when the npm sources no longer hold it. */
async function edit(path: string, find: string, replace: string): Promise<void> {
  const text = await Deno.readTextFile(path);
  if (!text.includes(find)) throw new Error(`${path}: anchor not found: ${find.slice(0, 60)}`);
  await Deno.writeTextFile(path, text.replace(find, replace));
}

async function editAll(dir: string, find: string, replace: string): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) await editAll(path, find, replace);
    else if (entry.name.endsWith(".js")) {
      const text = await Deno.readTextFile(path);
      if (text.includes(find)) await Deno.writeTextFile(path, text.replaceAll(find, replace));
    }
  }
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text);
}

/** A real lockfile: `npm shrinkwrap` over npm's own installed dependency tree, offline. */
async function lockfile(npmDir: string, work: string, without: string[]): Promise<string> {
  await Deno.mkdir(work, { recursive: true });
  await exec("cp", ["-r", join(npmDir, "node_modules"), join(work, "node_modules")], "/");
  const manifest = JSON.parse(await Deno.readTextFile(join(npmDir, "package.json")));
  for (const dep of without) {
    delete manifest.dependencies[dep];
    manifest.bundleDependencies = manifest.bundleDependencies.filter((d: string) => d !== dep);
    await Deno.remove(join(work, "node_modules", dep), { recursive: true });
  }
  await Deno.writeTextFile(join(work, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
  await exec("npm", ["shrinkwrap", "--offline", "--ignore-scripts"], work, {
    npm_config_cache: join(work, ".npm-cache"),
    npm_config_update_notifier: "false",
  });
  return await Deno.readTextFile(join(work, "npm-shrinkwrap.json"));
}

const TREE_PRINT =
  `// Prints a tree of labelled nodes with box-drawing guides, the shape ls and fund need.
// Each node is a string or { label, nodes }; multi-line labels keep their guide.

const guides = (unicode) => unicode === false
  ? { pipe: '|', tee: '+', last: '\`', dash: '-', down: '-' }
  : { pipe: '│', tee: '├', last: '└', dash: '─', down: '┬' }

const treePrint = (node, prefix = '', { unicode } = {}) => {
  const g = guides(unicode)
  const item = typeof node === 'string' ? { label: node } : node
  const nodes = item.nodes || []
  const lines = (item.label || '').split('\\n')
  const splitter = '\\n' + prefix + (nodes.length ? g.pipe : ' ') + ' '
  const children = nodes.map((child, ix) => {
    const last = ix === nodes.length - 1
    const more = child.nodes && child.nodes.length
    const childPrefix = prefix + (last ? ' ' : g.pipe) + ' '
    return prefix + (last ? g.last : g.tee) + g.dash + (more ? g.down : g.dash) + ' ' +
      treePrint(child, childPrefix, { unicode }).slice(prefix.length + 2)
  })
  return prefix + lines.join(splitter) + '\\n' + children.join('')
}

module.exports = treePrint
`;

const FORMAT_DURATION = `// Formats a duration in milliseconds for log lines: 850ms, 1.2s, 2m 5s.

const formatDuration = (ms) => {
  if (ms < 1000) {
    return \`\${Math.round(ms)}ms\`
  }

  const seconds = ms / 1000
  if (seconds < 60) {
    return \`\${seconds.toFixed(1)}s\`
  }

  const minutes = Math.floor(seconds / 60)
  const rest = Math.round(seconds - minutes * 60)
  return rest ? \`\${minutes}m \${rest}s\` : \`\${minutes}m\`
}

module.exports = formatDuration
`;

const ARCHY_MESSAGE = `ls, fund: replace archy with a small in-house tree printer

archy has not seen a release in years and carries its own copy of the
tree layout that ls already half-duplicates. The new printer in
lib/utils/tree-print.js covers the two shapes ls and fund use: labelled
nodes, and nested children drawn with unicode or ascii guides.

Output is byte-for-byte what archy printed, so the ls and fund
snapshots do not change.

The lockfile drops archy; nothing else in the tree depended on it.

Refs: #7421
Signed-off-by: Ada Lovelace <ada@example.com>
Co-authored-by: Grace Hopper <grace@example.com>
`;

/** Builds the history: import, a rename across files, block edits, moves, a dependency drop. */
async function buildHistory(repo: string, npmDir: string, tmp: string): Promise<void> {
  await Deno.mkdir(repo, { recursive: true });
  await git(repo, "init", "-q", "-b", "main");
  await git(repo, "config", "user.name", ADA[0]);
  await git(repo, "config", "user.email", ADA[1]);
  await git(repo, "config", "commit.gpgsign", "false");
  await git(repo, "config", "tag.gpgsign", "false");
  await exec("cp", ["-r", join(npmDir, "lib"), join(repo, "lib")], "/");
  await exec("cp", [join(npmDir, "package.json"), join(npmDir, "README.md"), repo], "/");
  const lock = join(tmp, "lock");
  await write(join(repo, "package-lock.json"), await lockfile(npmDir, lock, []));
  await commit(repo, { message: "Import npm CLI sources", date: "2026-01-05T10:12:00Z" });

  await editAll(join(repo, "lib"), "reifyFinish", "finishReify");
  await commit(repo, {
    message: "Rename reifyFinish to finishReify\n\nVerbs first, like the other lib/utils helpers.",
    date: "2026-01-07T09:30:00Z",
  });

  const lib = join(repo, "lib");
  await edit(
    join(lib, "utils/format-bytes.js"),
    "  // GB\n  return `${(bytes / 1000000000).toFixed(1)}${spacer}GB`\n",
    "  if (bytes < 999950000000) {\n    // GB\n" +
      "    return `${(bytes / 1000000000).toFixed(1)}${spacer}GB`\n  }\n\n" +
      "  // TB\n  return `${(bytes / 1000000000000).toFixed(1)}${spacer}TB`\n",
  );
  await edit(
    join(lib, "commands/ping.js"),
    "    } else if (Object.keys(details).length) {\n" +
      "      log.notice('PONG', JSON.stringify(details, null, 2))\n    }\n",
    "    }\n",
  );
  await commit(repo, {
    message: "format-bytes: add terabytes; ping: stop dumping registry details",
    date: "2026-01-09T16:05:00Z",
    author: GRACE,
  });

  await git(repo, "mv", "lib/utils/ping.js", "lib/utils/registry-ping.js");
  await edit(
    join(lib, "utils/registry-ping.js"),
    "// ping the npm registry used by the ping and doctor commands\n",
    "// ping the configured npm registry; used by the ping and doctor commands\n" +
      "// the registry answers {} or a JSON body with details, never an error on success\n",
  );
  for (const user of ["commands/doctor.js", "commands/ping.js"]) {
    await edit(join(lib, user), "'../utils/ping.js'", "'../utils/registry-ping.js'");
  }
  await edit(
    join(lib, "commands/ping.js"),
    "const BaseCommand = require('../base-cmd.js')\n",
    "const BaseCommand = require('../base-cmd.js')\n" +
      "const formatDuration = require('../utils/format-duration.js')\n",
  );
  await edit(
    join(lib, "commands/ping.js"),
    "log.notice('PONG', `${time}ms`)",
    "log.notice('PONG', formatDuration(time))",
  );
  await write(join(lib, "utils/format-duration.js"), FORMAT_DURATION);
  await Deno.remove(join(lib, "utils/is-windows.js"));
  const inline = "const isWindowsShell = (process.platform === 'win32') &&\n" +
    "  !/^MINGW(32|64)$/.test(process.env.MSYSTEM) && process.env.TERM !== 'cygwin'\n";
  await edit(
    join(lib, "commands/completion.js"),
    "const { isWindowsShell } = require('../utils/is-windows.js')\n",
    inline,
  );
  await edit(
    join(lib, "commands/run.js"),
    "      const { isWindowsShell } = require('../utils/is-windows.js')\n",
    inline.replace(/^(?=.)/gm, "      "),
  );
  await commit(repo, {
    message: "Move the registry ping helper, inline the Windows shell check\n\n" +
      "is-windows.js held one constant used by two commands; ping reports its\n" +
      "latency through the new format-duration helper.",
    date: "2026-01-12T11:47:00Z",
  });
  const tagMessage = "npm 11.1.0\n\nRegistry ping latency, terabytes in format-bytes.";
  await exec("git", ["tag", "-a", "v11.1.0", "-m", tagMessage], repo, {
    GIT_COMMITTER_DATE: "2026-01-12T12:00:00Z",
  });

  await write(join(lib, "utils/tree-print.js"), TREE_PRINT);
  for (const user of ["commands/ls.js", "commands/fund.js"]) {
    await edit(
      join(lib, user),
      "const archy = require('archy')",
      "const treePrint = require('../utils/tree-print.js')",
    );
  }
  await edit(
    join(lib, "commands/ls.js"),
    "archy(result, '', { unicode })",
    "treePrint(result, '', { unicode })",
  );
  await edit(join(lib, "commands/ls.js"), "const archyOutput = ", "const treeOutput = ");
  await edit(join(lib, "commands/ls.js"), "chalk.reset(archyOutput)", "chalk.reset(treeOutput)");
  await edit(
    join(lib, "commands/fund.js"),
    "archy(obj, '', { unicode })",
    "treePrint(obj, '', { unicode })",
  );
  await edit(join(repo, "package.json"), '    "archy": "~1.0.0",\n', "");
  await edit(join(repo, "package.json"), '    "archy",\n', "");
  await write(join(repo, "package-lock.json"), await lockfile(npmDir, lock, ["archy"]));
  await commit(repo, { message: ARCHY_MESSAGE, date: "2026-01-14T14:20:00Z" });
}

/** Adds a bare remote, branches with shared prefixes, upstreams, and one unpushed commit. */
async function buildBranches(repo: string, remote: string): Promise<void> {
  await exec("git", ["clone", "-q", "--bare", repo, remote], "/");
  await git(repo, "remote", "add", "origin", remote);
  await git(repo, "branch", "release/11.1", "v11.1.0");
  await git(repo, "branch", "fix/windows-shell", "HEAD~1");
  await git(repo, "branch", "feature/ping-latency", "HEAD~2");
  await git(repo, "checkout", "-q", "-b", "fix/otplease-retry", "HEAD~3");
  await edit(
    join(repo, "lib/utils/auth.js"),
    "const otplease = async (npm, opts, fn) => {\n",
    "// retry once: a one-time password can expire while the request is in flight\n" +
      "const otplease = async (npm, opts, fn) => {\n",
  );
  await commit(repo, {
    message: "auth: retry otplease once when the one-time password expires mid-request",
    date: "2026-01-13T08:15:00Z",
    author: GRACE,
  });
  await git(repo, "checkout", "-q", "-b", "feature/tree-printer-ascii", "main");
  await edit(
    join(repo, "lib/utils/tree-print.js"),
    "const guides = (unicode) => unicode === false\n",
    "// ascii guides match archy's fallback exactly, for terminals without box drawing\n" +
      "const guides = (unicode) => unicode === false\n",
  );
  await commit(repo, {
    message: "tree-print: document the ascii fallback that mirrors archy for old terminals",
    date: "2026-01-14T17:02:00Z",
  });
  await git(repo, "checkout", "-q", "main");
  await git(
    repo,
    "push",
    "-q",
    "origin",
    "main",
    "release/11.1",
    "feature/ping-latency",
    "fix/otplease-retry",
    "feature/tree-printer-ascii",
  );
  await git(repo, "fetch", "-q", "origin");
  await git(repo, "remote", "set-head", "origin", "main");
  for (const branch of ["main", "release/11.1", "feature/ping-latency", "fix/otplease-retry"]) {
    await git(repo, "branch", "-q", "-u", `origin/${branch}`, branch);
  }
  await git(
    repo,
    "branch",
    "-q",
    "-u",
    "origin/feature/tree-printer-ascii",
    "feature/tree-printer-ascii",
  );

  await edit(
    join(repo, "lib/commands/doctor.js"),
    "      await ping({ ...this.npm.flatOptions, retry: false })\n      return ''\n",
    "      const start = Date.now()\n" +
      "      await ping({ ...this.npm.flatOptions, retry: false })\n" +
      "      return `${Date.now() - start}ms`\n",
  );
  await commit(repo, {
    message: "doctor: show the registry ping latency in the ping check",
    date: "2026-01-15T09:40:00Z",
  });
}

/** Leaves staged, unstaged, deleted and untracked changes across several directories. */
async function dirtyTree(repo: string): Promise<void> {
  const lib = join(repo, "lib");
  await edit(
    join(lib, "commands/ci.js"),
    "    const dryRun = this.npm.config.get('dry-run')\n",
    "    const dryRun = this.npm.config.get('dry-run')\n" +
      "    if (dryRun) {\n      log.info('ci', 'dry run: the lockfile is read but nothing is removed')\n    }\n",
  );
  await edit(
    join(lib, "commands/ci.js"),
    "'`npm ci` does not work for global packages'",
    "'`npm ci` does not work for global packages; use `npm install -g` instead'",
  );
  await edit(
    join(lib, "commands/install.js"),
    "    // don't try to install the prefix into itself\n",
    "    // don't try to install the prefix into itself, whatever path form it was given in\n",
  );
  await write(join(lib, "utils/format-path.js"), FORMAT_PATH);
  await git(
    repo,
    "add",
    "lib/commands/ci.js",
    "lib/commands/install.js",
    "lib/utils/format-path.js",
  );
  await git(repo, "rm", "-q", "lib/commands/whoami.js");
  await git(repo, "mv", "lib/commands/ll.js", "lib/commands/list-long.js");

  await edit(
    join(lib, "commands/install.js"),
    "    if (isGlobalInstall && !args.length) {\n",
    "    if (isGlobalInstall && args.length === 0) {\n",
  );
  await edit(join(lib, "npm.js"), "      // TODO should we throw here?\n", "");
  await edit(
    join(lib, "npm.js"),
    "        log.verbose('node symlink', node)\n",
    "        log.verbose('node symlink', node, '->', process.execPath)\n",
  );
  await edit(
    join(lib, "npm.js"),
    "  get title () {\n    return this.#title\n  }\n",
    "  get title () {\n    return this.#title\n  }\n\n" +
      "  get commandName () {\n    return this.#command?.name\n  }\n",
  );
  await edit(
    join(lib, "utils/log-file.js"),
    "maxLogsPerFile = 50_000,",
    "maxLogsPerFile = 10_000,",
  );
  await edit(join(lib, "utils/log-file.js"), "maxFilesPerProcess = 5,", "maxFilesPerProcess = 10,");
  await edit(
    join(lib, "commands/publish.js"),
    "    await this.setWorkspaces()\n",
    "    await this.setWorkspaces()\n\n" +
      "    if (!this.workspaces.size) {\n" +
      "      log.warn(this.#command, 'No workspaces found to publish')\n" +
      "      return\n    }\n",
  );
  await edit(
    join(lib, "commands/publish.js"),
    "      args = ['.']\n",
    "      args = [this.npm.prefix]\n",
  );
  await bumpMinor(join(repo, "package.json"));
  await Deno.remove(join(lib, "utils/open-url.js"));
  await write(
    join(lib, "utils/retry.js"),
    "module.exports = async (fn) => fn().catch(() => fn())\n",
  );
  await write(join(repo, "docs/notes.md"), "# Notes\n\n- drop archy from fund too\n");
  await write(join(repo, "scratch/ping-times.txt"), "120ms\n98ms\n143ms\n");
  await write(join(repo, "scratch/tree.txt"), "npm@11\n└── tree-print\n");
  await write(join(lib, "commands/stage/TODO"), "split stage into its own package\n");
}

async function bumpMinor(path: string): Promise<void> {
  const text = await Deno.readTextFile(path);
  const bumped = text.replace(
    /"version": "(\d+)\.(\d+)\.\d+"/,
    (_, major, minor) => `"version": "${major}.${Number(minor) + 1}.0"`,
  );
  await Deno.writeTextFile(path, bumped);
}

const FORMAT_PATH = `const { relative, sep } = require('node:path')

// Paths under the prefix print relative to it, with a leading ./ so they read as paths.
const formatPath = (prefix, path) => {
  const rel = relative(prefix, path)
  return rel.startsWith('..') ? path : \`.\${sep}\${rel}\`
}

module.exports = formatPath
`;

// `git status --porcelain`: every path, and both sides of a rename.
async function statusFacts(repo: string): Promise<string[]> {
  const facts = [
    (await git(repo, "branch", "--show-current")).trim(),
    (await git(repo, "rev-parse", "--abbrev-ref", "@{u}")).trim(),
  ];
  for (const line of await gitLines(repo, "status", "--porcelain")) {
    const path = line.slice(3);
    facts.push(...path.split(" -> "));
  }
  return facts;
}

/** Runs every capture and writes its fixture directory. */
async function captureAll(captures: readonly Capture[]): Promise<void> {
  for (const c of captures) {
    const { stdout, code } = await exec(c.typed[0], c.typed.slice(1), c.cwd, {}, [0, 1]);
    const facts = [...c.facts];
    const lines = stdout.split("\n");
    if (c.hunkHeaders) facts.push(...lines.filter((l) => /^@@+ /.test(l)));
    if (c.normalCommands) facts.push(...lines.filter((l) => /^\d+(,\d+)?[acd]\d+(,\d+)?$/.test(l)));
    const meta = {
      filter: c.filter,
      typed: c.typed,
      ran: c.typed,
      exitCode: code,
      facts: [...new Set(facts)],
      factsSource: c.factsSource,
    };
    const dir = join(FIXTURES, c.name);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(join(dir, "raw.out"), stdout);
    await Deno.writeTextFile(join(dir, "shaped.out"), stdout);
    await Deno.writeTextFile(join(dir, "meta.json"), JSON.stringify(meta, null, 2) + "\n");
    console.log(`${c.name}: ${stdout.length} chars, exit ${code}, ${meta.facts.length} facts`);
  }
}

async function gitCaptures(repo: string): Promise<Capture[]> {
  const names = (...args: string[]) => gitLines(repo, ...args);
  const hash = async (rev: string) => (await git(repo, "log", "-1", "--format=%h", rev)).trim();
  const subject = async (rev: string) => (await git(repo, "log", "-1", "--format=%s", rev)).trim();
  const showFacts = async (rev: string) => [
    await hash(rev),
    await subject(rev),
    ...await names("show", "--format=", "--name-only", rev),
  ];
  const status = await statusFacts(repo);
  const local = await names("for-each-ref", "refs/heads", "--format=%(refname:short)");
  const remote = await names("for-each-ref", "refs/remotes", "--format=%(refname:lstrip=2)");
  const statusSource = "git status --porcelain: every path, both sides of a rename; " +
    "git branch --show-current, git rev-parse --abbrev-ref @{u}";
  const showSource = "git log -1 --format=%h and --format=%s, git show --format= --name-only, " +
    "the @@ lines of raw.out";
  return [
    {
      name: "git_status",
      filter: "git status",
      typed: ["git", "status"],
      cwd: repo,
      facts: status,
      factsSource: statusSource,
    },
    {
      name: "git_status_short",
      filter: "git status",
      typed: ["git", "status", "-s"],
      cwd: repo,
      facts: status.slice(2),
      factsSource: statusSource.replace(/; git branch.*$/, ""),
    },
    {
      name: "git_diff",
      filter: "git diff",
      typed: ["git", "diff"],
      cwd: repo,
      facts: await names("diff", "--name-only"),
      factsSource: "git diff --name-only, the @@ lines of raw.out",
      hunkHeaders: true,
    },
    {
      name: "git_diff_cached",
      filter: "git diff",
      typed: ["git", "diff", "--cached"],
      cwd: repo,
      facts: await names("diff", "--cached", "--name-only"),
      factsSource: "git diff --cached --name-only, the @@ lines of raw.out",
      hunkHeaders: true,
    },
    {
      name: "git_diff_head2",
      filter: "git diff",
      typed: ["git", "diff", "HEAD~2"],
      cwd: repo,
      facts: await names("diff", "--name-only", "HEAD~2"),
      factsSource: "git diff --name-only HEAD~2, the @@ lines of raw.out",
      hunkHeaders: true,
    },
    {
      name: "git_show",
      filter: "git show",
      typed: ["git", "show", "HEAD~1"],
      cwd: repo,
      facts: await showFacts("HEAD~1"),
      factsSource: showSource,
      hunkHeaders: true,
    },
    {
      name: "git_show_rename",
      filter: "git show",
      typed: ["git", "show", "HEAD~2"],
      cwd: repo,
      facts: await showFacts("HEAD~2"),
      factsSource: showSource,
      hunkHeaders: true,
    },
    {
      name: "git_show_tag",
      filter: "git show",
      typed: ["git", "show", "v11.1.0"],
      cwd: repo,
      facts: ["v11.1.0", ...await showFacts("v11.1.0^{commit}")],
      factsSource: `the tag name; of v11.1.0^{commit}: ${showSource}`,
      hunkHeaders: true,
    },
    {
      name: "git_branch",
      filter: "git branch",
      typed: ["git", "branch"],
      cwd: repo,
      facts: local,
      factsSource: "git for-each-ref refs/heads --format=%(refname:short)",
    },
    {
      name: "git_branch_all",
      filter: "git branch",
      typed: ["git", "branch", "-a"],
      cwd: repo,
      facts: [
        ...local,
        ...remote,
        (await git(repo, "symbolic-ref", "--short", "refs/remotes/origin/HEAD")).trim(),
      ],
      factsSource: "git for-each-ref refs/heads --format=%(refname:short) and refs/remotes " +
        "--format=%(refname:lstrip=2); git symbolic-ref --short refs/remotes/origin/HEAD",
    },
    {
      name: "git_branch_vv",
      filter: "git branch",
      typed: ["git", "branch", "-vv"],
      cwd: repo,
      facts: [
        ...local,
        ...await names("for-each-ref", "refs/heads", "--format=%(objectname:short)"),
        ...await names("for-each-ref", "refs/heads", "--format=%(upstream:short)"),
      ],
      factsSource: "git for-each-ref refs/heads --format=%(refname:short), " +
        "%(objectname:short), %(upstream:short)",
    },
  ];
}

// Two exported versions of lib/: the first commit and HEAD, with fixed mtimes.
async function exportTrees(repo: string, trees: string): Promise<void> {
  for (const [dir, rev] of [["old", "HEAD~5"], ["new", "HEAD"]]) {
    await Deno.mkdir(join(trees, dir), { recursive: true });
    const tar = join(trees, `${dir}.tar`);
    await exec("git", ["archive", "--format=tar", "-o", tar, rev, "lib"], repo);
    await exec("tar", ["-xf", tar, "-C", join(trees, dir)], trees);
    await Deno.remove(tar);
  }
  await setTimes(trees, new Date("2026-01-16T12:00:00Z"));
}

async function setTimes(dir: string, when: Date): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) await setTimes(path, when);
    await Deno.utime(path, when, when);
  }
}

async function diffCaptures(trees: string): Promise<Capture[]> {
  const file = "lib/commands/doctor.js";
  const brief = (await exec("diff", ["-rq", "old/lib", "new/lib"], trees, {}, [1])).stdout;
  const ruFacts: string[] = [];
  for (const line of brief.split("\n")) {
    const differ = /^Files old\/(\S+) and new\/\S+ differ$/.exec(line);
    const only = /^(Only in \S+): (.+)$/.exec(line);
    if (differ) ruFacts.push(differ[1]);
    if (only) ruFacts.push(only[1], only[2]);
  }
  return [
    {
      name: "diff_u",
      filter: "diff",
      typed: ["diff", "-u", `old/${file}`, `new/${file}`],
      cwd: trees,
      facts: [file],
      factsSource: "the path both arguments share, the @@ lines of raw.out",
      hunkHeaders: true,
    },
    {
      name: "diff_ru",
      filter: "diff",
      typed: ["diff", "-ru", "old/lib", "new/lib"],
      cwd: trees,
      facts: ruFacts,
      factsSource: "diff -rq old/lib new/lib: each differing file's path below the roots, each " +
        "`Only in <dir>` and its name; the @@ lines of raw.out",
      hunkHeaders: true,
    },
    {
      name: "diff_normal",
      filter: "diff",
      typed: ["diff", `old/${file}`, `new/${file}`],
      cwd: trees,
      facts: [],
      factsSource: "the command lines (12,14c12) of raw.out",
      normalCommands: true,
    },
  ];
}

/**
 * A detached worktree of `repo` where Grace and Ada take turns on `lib/commands/ping.js`, the
 * last turn moving `format-duration.js` into it (so `-C` finds lines copied from that file).
 * Detached, so `repo` gains no branch.
 */
async function buildBlameHistory(repo: string, worktree: string): Promise<void> {
  await git(repo, "worktree", "add", "-q", "--detach", worktree, "main");
  const ping = join(worktree, "lib/commands/ping.js");
  await edit(
    ping,
    "    log.notice('PING', cleanRegistry)\n",
    "    log.notice('PING', new URL(cleanRegistry).host)\n",
  );
  await commit(worktree, {
    message: "ping: log the registry host, not its whole URL",
    date: "2026-01-16T10:00:00Z",
    author: GRACE,
  });
  await edit(ping, "    const start = Date.now()\n", "    const start = performance.now()\n");
  await edit(
    ping,
    "    const time = Date.now() - start\n",
    "    const time = Math.round(performance.now() - start)\n",
  );
  await commit(worktree, {
    message: "ping: time the request with performance.now()",
    date: "2026-01-17T15:30:00Z",
  });
  const helper = join(worktree, "lib/utils/format-duration.js");
  const source = await Deno.readTextFile(helper);
  const body = source.slice(
    source.indexOf("const formatDuration"),
    source.indexOf("module.exports"),
  );
  await edit(ping, "const formatDuration = require('../utils/format-duration.js')\n", "");
  await edit(
    ping,
    "class Ping extends BaseCommand {\n",
    `${body}class Ping extends BaseCommand {\n`,
  );
  await Deno.remove(helper);
  await commit(worktree, {
    message: "ping: inline format-duration, its only user",
    date: "2026-01-18T09:10:00Z",
    author: GRACE,
  });
}

/**
 * What `git blame --porcelain` says of `args` run in `cwd`: each commit's `%h`, each author,
 * with `names` each file name, and each line as `<final line number>: <content>`.
 */
async function blameFacts(cwd: string, args: readonly string[], names: boolean): Promise<string[]> {
  const hashes = new Set<string>();
  const authors: string[] = [];
  const files: string[] = [];
  const lines: string[] = [];
  let final = "";
  for (const line of (await git(cwd, "blame", "--porcelain", ...args)).split("\n")) {
    const head = /^([0-9a-f]{40}) \d+ (\d+)/.exec(line);
    if (head) {
      if (!/^0+$/.test(head[1])) hashes.add(head[1]);
      final = head[2];
    } else if (line.startsWith("author ")) authors.push(line.slice("author ".length));
    else if (line.startsWith("filename ")) files.push(line.slice("filename ".length));
    else if (line.startsWith("\t")) lines.push(`${final}: ${line.slice(1)}`);
  }
  const short: string[] = [];
  for (const h of hashes) short.push((await git(cwd, "log", "-1", "--format=%h", h)).trim());
  return [...short, ...authors, ...(names ? files : []), ...lines];
}

async function blameCaptures(repo: string, worktree: string): Promise<Capture[]> {
  const source = "git blame --porcelain with the same arguments: each commit's " +
    "git log -1 --format=%h, each author, each line as `<final line number>: <content>`";
  const range = ["-L", "/get title/,+12", "lib/npm.js"];
  return [
    {
      name: "git_blame",
      filter: "git blame",
      typed: ["git", "blame", "lib/commands/ping.js"],
      cwd: worktree,
      facts: await blameFacts(worktree, ["lib/commands/ping.js"], false),
      factsSource: source,
    },
    {
      name: "git_blame_copies",
      filter: "git blame",
      typed: ["git", "blame", "-C", "lib/commands/ping.js"],
      cwd: worktree,
      facts: await blameFacts(worktree, ["-C", "lib/commands/ping.js"], true),
      factsSource: source.replace("each author, ", "each author, each file name, "),
    },
    {
      name: "git_blame_range",
      filter: "git blame",
      typed: ["git", "blame", ...range],
      cwd: repo,
      facts: await blameFacts(repo, range, false),
      factsSource: source,
    },
  ];
}

async function main(): Promise<void> {
  const npmRoot = (await exec("npm", ["root", "-g"], "/")).stdout.trim();
  const npmDir = join(npmRoot, "npm");
  const tmp = await Deno.makeTempDir({ prefix: "rtok-capture-git-" });
  try {
    const repo = join(tmp, "repo");
    await buildHistory(repo, npmDir, tmp);
    await buildBranches(repo, join(tmp, "remote.git"));
    await dirtyTree(repo);
    const trees = join(tmp, "trees");
    await exportTrees(repo, trees);
    await captureAll([...await gitCaptures(repo), ...await diffCaptures(trees)]);
    const worktree = join(tmp, "blame");
    await buildBlameHistory(repo, worktree);
    await captureAll(await blameCaptures(repo, worktree));
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) await main();
