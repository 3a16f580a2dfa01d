/**
 * Captures the golden fixtures of the search and listing filters (grep, rg, find, tree, ls)
 * from the real tools, run over a copy of the npm package installed on this machine so that
 * paths are relative and stable. Each case's facts come from the tool itself: a count flag, a
 * machine format, or a second listing, never from rtok's output.
 *
 * Run: `deno run -A scripts/capture/files.ts`
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandFilter } from "../../src/core/filter.ts";
import { plural } from "../../src/core/text.ts";
import { FIND_DIRS_COUNTED, FIND_NAMES_SHOWN, findFilter } from "../../filters/find.ts";
import {
  GREP_FILES_LISTED,
  GREP_ONE_FILE,
  GREP_PER_FILE,
  GREP_SHOWN,
  grepFilter,
  rgFilter,
} from "../../filters/grep.ts";
import { LS_ENTRIES_SHOWN, LS_NAMES_SHOWN, lsFilter } from "../../filters/ls.ts";
import { TREE_DIR_LIMIT, TREE_DIR_SHOWN, treeFilter } from "../../filters/tree.ts";

const FIXTURES = fileURLToPath(new URL("../../tests/fixtures/", import.meta.url));
// One fixed time for every copied file, so `ls -l` and `tree -D` print the same dates each run.
const MTIME = new Date("2025-01-02T03:04:05Z");
// Packages under the copied node_modules: the small ones, a few hundred files in all.
const MAX_PACKAGE_FILES = 8;
// A directory with well over 100 names; nothing in the npm package has more than 119.
const BIG_DIR = "/usr/lib/x86_64-linux-gnu";

/** What a run printed. */
interface Run {
  readonly stdout: string;
  readonly code: number;
}

/** One fixture: the command as an agent types it, and how its facts are derived. */
interface Case {
  readonly name: string;
  readonly filter: CommandFilter;
  readonly typed: readonly string[];
  readonly factsSource: string;
  facts(cwd: string, shaped: string): Promise<string[]>;
}

async function run(cmd: readonly string[], cwd: string): Promise<Run> {
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", LC_ALL: "C.UTF-8", TZ: "UTC" },
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  return { stdout: new TextDecoder().decode(out.stdout), code: out.code };
}

async function stdoutOf(cmd: readonly string[], cwd: string): Promise<string> {
  return (await run(cmd, cwd)).stdout;
}

async function countFiles(dir: string): Promise<number> {
  let count = 0;
  for await (const entry of Deno.readDir(dir)) {
    count += entry.isDirectory ? await countFiles(join(dir, entry.name)) : 1;
  }
  return count;
}

async function copyTree(from: string, to: string): Promise<void> {
  const info = await Deno.lstat(from);
  if (info.isSymlink) return await Deno.symlink(await Deno.readLink(from), to);
  if (!info.isDirectory) return await Deno.copyFile(from, to);
  await Deno.mkdir(to, { recursive: true });
  const names: string[] = [];
  for await (const entry of Deno.readDir(from)) names.push(entry.name);
  for (const name of names.sort()) await copyTree(join(from, name), join(to, name));
}

async function pinTimes(path: string): Promise<void> {
  const info = await Deno.lstat(path);
  if (info.isSymlink) return;
  if (info.isDirectory) {
    for await (const entry of Deno.readDir(path)) await pinTimes(join(path, entry.name));
  }
  await Deno.utime(path, MTIME, MTIME);
}

/** Copies npm's own files, its `lib/` and its small packages into `dest`. */
async function copyNpm(dest: string): Promise<void> {
  const root = join((await stdoutOf(["npm", "root", "-g"], "/")).trim(), "npm");
  await Deno.mkdir(dest, { recursive: true });
  for (const name of ["package.json", "README.md", "LICENSE", "index.js", "lib"]) {
    await copyTree(join(root, name), join(dest, name));
  }
  const modules = join(root, "node_modules");
  const packages: string[] = [];
  for await (const entry of Deno.readDir(modules)) {
    if (entry.isDirectory && !entry.name.startsWith("@")) packages.push(entry.name);
  }
  for (const name of packages.sort()) {
    if (await countFiles(join(modules, name)) > MAX_PACKAGE_FILES) continue;
    await copyTree(join(modules, name), join(dest, "node_modules", name));
  }
  await pinTimes(dest);
}

const lines = (text: string): string[] => text.split("\n").filter((line) => line !== "");
const nulSplit = (text: string): string[] => text.split("\0").filter((part) => part !== "");
const matches = (count: number): string => plural(count, "match", "matches");

/** One hit as a machine format gives it. */
interface Hit {
  readonly path: string;
  readonly lineNo: string;
  readonly text: string;
}

// `path\0line:text` records, from `grep -Z` or `rg --null`.
function nulHits(text: string): Hit[] {
  return lines(text).map((line) => {
    const [path, rest] = line.split("\0");
    const m = /^(\d+):(.*)$/s.exec(rest);
    if (!m) throw new Error(`unexpected record: ${line}`);
    return { path, lineNo: m[1], text: m[2] };
  });
}

function hitFact(hit: Hit): string {
  return hit.text === "" ? `${hit.lineNo}:` : `${hit.lineNo}: ${hit.text.slice(0, 40)}`;
}

/**
 * Facts of a search over many files: the totals from the tool's count flag, and per file, in
 * the order the captured output shows them, the path with its count and the hits that fit the
 * budget (10 per file, 25 for a lone file, 50 in all), taken from a NUL-separated run.
 */
function manyFileFacts(counts: Map<string, number>, hits: Hit[], shaped: string): string[] {
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  if (total !== hits.length) throw new Error(`count ${total} but ${hits.length} hits`);
  const firstLine = (path: string) =>
    shaped.startsWith(`${path}:`) ? 0 : shaped.indexOf(`\n${path}:`);
  const files = [...counts.keys()].sort((a, b) => firstLine(a) - firstLine(b));
  const facts = [`${matches(total)} in ${plural(files.length, "file")}`];
  const perFile = files.length === 1 ? GREP_ONE_FILE : GREP_PER_FILE;
  let budget = GREP_SHOWN;
  let listed = 0;
  for (const path of files) {
    const count = counts.get(path) ?? 0;
    const quota = Math.min(count, perFile, budget);
    budget -= quota;
    if (quota === 0) listed++;
    if (quota > 0 || listed <= GREP_FILES_LISTED) facts.push(`${path} (${count})`);
    facts.push(...hits.filter((hit) => hit.path === path).slice(0, quota).map(hitFact));
  }
  return facts;
}

function countsOf(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines(text)) {
    const colon = line.lastIndexOf(":");
    const count = Number(line.slice(colon + 1));
    if (count > 0) counts.set(line.slice(0, colon), count);
  }
  return counts;
}

function grepManyCase(name: string, typed: string[], pattern: string, dir: string): Case {
  return {
    name,
    filter: grepFilter,
    typed,
    factsSource: `grep -rc ${pattern} ${dir}; grep -rn -Z ${pattern} ${dir}`,
    async facts(cwd, shaped) {
      const counts = countsOf(await stdoutOf(["grep", "-rc", pattern, dir], cwd));
      const hits = nulHits(await stdoutOf(["grep", "-rn", "-Z", pattern, dir], cwd));
      return manyFileFacts(counts, hits, shaped);
    },
  };
}

function rgManyCase(name: string, typed: string[], pattern: string, dir: string): Case {
  return {
    name,
    filter: rgFilter,
    typed,
    factsSource: `rg --count ${pattern} ${dir}; rg -n --null ${pattern} ${dir}`,
    async facts(cwd, shaped) {
      const counts = countsOf(await stdoutOf(["rg", "--count", pattern, dir], cwd));
      const hits = nulHits(await stdoutOf(["rg", "-n", "--null", pattern, dir], cwd));
      return manyFileFacts(counts, hits, shaped);
    },
  };
}

// One file searched: no names printed, and the lone file gets 25 matches shown.
function oneFileCase(name: string, filter: CommandFilter, pattern: string, file: string): Case {
  const tool = filter.name;
  return {
    name,
    filter,
    typed: [tool, pattern, file],
    factsSource: `${tool} -c ${pattern} ${file}; ${tool} -n -m ${GREP_ONE_FILE} ${pattern} ${file}`,
    async facts(cwd) {
      const total = Number((await stdoutOf([tool, "-c", pattern, file], cwd)).trim());
      const shown = lines(
        await stdoutOf([tool, "-n", "-m", String(GREP_ONE_FILE), pattern, file], cwd),
      );
      return [
        `${matches(total)} in ${file}`,
        ...shown.map((line) => {
          const m = /^(\d+):(.*)$/s.exec(line);
          if (!m) throw new Error(`unexpected line: ${line}`);
          return hitFact({ path: file, lineNo: m[1], text: m[2] });
        }),
      ];
    },
  };
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/") + 1);
}

// A directory's line starts with the directory written in full: `./node_modules/glob/: …`.
function dirFact(dir: string, rest: string): string {
  return `${dir}: ${rest}`;
}

/**
 * Facts of a find listing, from the same search with `-print0`: the totals, each directory's
 * line with the names that fit the name budget, then directories given as counts.
 */
function findCase(name: string, typed: string[]): Case {
  return {
    name,
    filter: findFilter,
    typed,
    factsSource: `${typed.join(" ")} -print0`,
    async facts(cwd) {
      const paths = nulSplit(await stdoutOf([...typed, "-print0"], cwd));
      const groups = new Map<string, string[]>();
      for (const path of paths) groups.set(parentOf(path), []);
      for (const path of paths) {
        if (!groups.has(`${path}/`)) {
          groups.get(parentOf(path))?.push(path.slice(parentOf(path).length));
        }
      }
      const facts = [`${plural(paths.length, "path")} in ${plural(groups.size, "dir")}`];
      let budget = FIND_NAMES_SHOWN;
      let counted = 0;
      for (const [dir, names] of groups) {
        if (names.length === 0) continue;
        if (budget > 0) facts.push(dirFact(dir, names[0]), ...names.slice(1, budget));
        else if (counted++ < FIND_DIRS_COUNTED) {
          facts.push(dirFact(dir, plural(names.length, "entry", "entries")));
        }
        budget = Math.max(0, budget - names.length);
      }
      return facts;
    },
  };
}

/** A node of `tree -J`. */
interface JsonNode {
  readonly type: string;
  readonly name?: string;
  readonly contents?: JsonNode[];
  readonly directories?: number;
  readonly files?: number;
}

// A directory's line and the lines of the directories below it, down to `maxDepth`: its path in
// full then its first name (`./lib/: arborist-cmd.js`), then its other names, within the
// per-directory cap.
function treeFacts(
  path: string,
  nodes: readonly JsonNode[],
  depth: number,
  maxDepth: number,
): string[] {
  if (depth > maxDepth || nodes.length === 0) return [];
  const shown = nodes.length > TREE_DIR_LIMIT ? nodes.slice(0, TREE_DIR_SHOWN) : nodes;
  const dir = path.endsWith("/") ? path : `${path}/`;
  const names = shown.map((node) => node.name ?? "");
  return [
    `${dir}: ${names[0]}`,
    ...names.slice(1),
    ...shown.flatMap((node) =>
      treeFacts(dir + node.name, node.contents ?? [], depth + 1, maxDepth)
    ),
  ];
}

// Facts of a tree listing from `tree -J`: the report, and the lines of the first two levels
// within the per-directory cap (the deeper levels may be folded by the entry budget).
function treeCase(name: string, typed: string[]): Case {
  return {
    name,
    filter: treeFilter,
    typed,
    factsSource: `${typed.join(" ")} -J`,
    async facts(cwd) {
      const json: JsonNode[] = JSON.parse(await stdoutOf([...typed, "-J"], cwd));
      const report = json.find((node) => node.type === "report");
      const dirs = report?.directories ?? 0;
      const files = report?.files ?? 0;
      const roots = json.filter((node) => node.type !== "report");
      return [
        `${plural(dirs, "directory", "directories")}, ${plural(files, "file")}`,
        ...roots.flatMap((root) => treeFacts(root.name ?? "", root.contents ?? [], 1, 2)),
      ];
    },
  };
}

async function dirCounts(dir: string, cwd: string): Promise<string[]> {
  const count = async (type: string) =>
    (await stdoutOf([
      "find",
      dir,
      "-mindepth",
      "1",
      "-maxdepth",
      "1",
      "-type",
      type,
      "-printf",
      "x",
    ], cwd))
      .length;
  const names = nulSplit(await stdoutOf(["ls", "-A", "--zero", dir], cwd));
  const facts = [plural(names.length, "entry", "entries")];
  const dirs = await count("d");
  const files = await count("f");
  if (dirs) facts.push(plural(dirs, "dir"));
  if (files) facts.push(plural(files, "file"));
  return [...facts, ...names.slice(0, LS_ENTRIES_SHOWN)];
}

// Facts of a long listing: every name from `ls -A`, the totals and kinds from `find -type`.
function lsLongCase(name: string, typed: string[], dir: string): Case {
  return {
    name,
    filter: lsFilter,
    typed,
    factsSource: `ls -A --zero ${dir}; find ${dir} -mindepth 1 -maxdepth 1 -type d|f`,
    facts: (cwd) => dirCounts(dir, cwd),
  };
}

const CASES: readonly Case[] = [
  grepManyCase("grep_rn_many_files", ["grep", "-rn", "require(", "lib"], "require(", "lib"),
  grepManyCase("grep_r_shaped", ["grep", "-r", "this.npm", "lib"], "this.npm", "lib"),
  oneFileCase("grep_one_file", grepFilter, "this", "lib/npm.js"),
  grepManyCase("grep_context", ["grep", "-rn", "-C2", "log.", "lib"], "log.", "lib"),
  rgManyCase("rg_many_files", ["rg", "require\\(", "node_modules"], "require\\(", "node_modules"),
  oneFileCase("rg_one_file", rgFilter, "this\\.", "lib/npm.js"),
  findCase("find_name_js", ["find", ".", "-name", "*.js"]),
  findCase("find_type_f", ["find", ".", "-type", "f"]),
  treeCase("tree_big", ["tree"]),
  treeCase("tree_L2", ["tree", "-L", "2"]),
  lsLongCase("ls_la", ["ls", "-la", "lib"], "lib"),
  lsLongCase("ls_l_big_dir", ["ls", "-l", "lib/commands"], "lib/commands"),
  lsLongCase("ls_lh", ["ls", "-lh", "lib/utils"], "lib/utils"),
  {
    name: "ls_plain_big_dir",
    filter: lsFilter,
    typed: ["ls", BIG_DIR],
    factsSource: `ls --zero ${BIG_DIR}`,
    async facts(cwd) {
      const names = nulSplit(await stdoutOf(["ls", "--zero", BIG_DIR], cwd));
      return [
        plural(names.length, "entry", "entries"),
        `+${names.length - LS_NAMES_SHOWN} more`,
        ...names.slice(0, LS_NAMES_SHOWN),
      ];
    },
  },
  {
    name: "ls_lR",
    filter: lsFilter,
    typed: ["ls", "-lR", "lib"],
    factsSource: "find lib -type d; ls -A --zero <each dir>; find <each dir> -type d|f",
    async facts(cwd) {
      const dirs = lines(await stdoutOf(["find", "lib", "-type", "d"], cwd));
      const facts: string[] = [];
      for (const dir of dirs) facts.push(`${dir}:`, ...await dirCounts(dir, cwd));
      return facts;
    },
  },
];

async function capture(test: Case, cwd: string): Promise<void> {
  const typedRun = await run(test.typed, cwd);
  const shapedArgs = test.filter.shape?.(test.typed.slice(1)) ?? null;
  const ran = shapedArgs ? [test.typed[0], ...shapedArgs] : [...test.typed];
  // Without stage 1 the typed bytes are the shaped bytes: rg's parallel order differs per run.
  const shapedRun = shapedArgs ? await run(ran, cwd) : typedRun;
  const facts = await test.facts(cwd, shapedRun.stdout);
  const dir = join(FIXTURES, test.name);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "raw.out"), typedRun.stdout);
  await Deno.writeTextFile(join(dir, "shaped.out"), shapedRun.stdout);
  const meta = {
    filter: test.filter.name,
    typed: test.typed,
    ran,
    exitCode: shapedRun.code,
    facts,
    factsSource: test.factsSource,
  };
  await Deno.writeTextFile(join(dir, "meta.json"), JSON.stringify(meta, null, 2) + "\n");
  console.log(`${test.name}: ${typedRun.stdout.length} chars, ${facts.length} facts`);
}

if (import.meta.main) {
  const tmp = await Deno.makeTempDir({ prefix: "rtok-capture-files-" });
  try {
    const cwd = join(tmp, "npm");
    await copyNpm(cwd);
    for (const test of CASES) await capture(test, cwd);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}
