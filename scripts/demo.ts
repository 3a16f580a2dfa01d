/**
 * `deno task demo`: rtok on a throwaway repository with a temporary `RTOK_HOME`. For
 * `git log`, `git status`, `git diff` and `grep`, runs the raw command and its rtok form side
 * by side, prints the saving of each, then `rtok gain`.
 *
 * @module
 */

import { estimate, type TextClass } from "../src/core/tokens.ts";
import { RTOK_PERMISSIONS } from "./permissions.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;
const WIDTH = 96;

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Ada Lovelace",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada Lovelace",
  GIT_COMMITTER_EMAIL: "ada@example.com",
};

async function exec(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const out = await new Deno.Command(cmd, {
    args,
    cwd,
    env: { ...GIT_ENV, NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    out: new TextDecoder().decode(out.stdout),
    err: new TextDecoder().decode(out.stderr),
  };
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const r = await exec("git", args, cwd);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")}: ${r.err}`);
}

const TOPICS = ["parser", "lexer", "store", "archive", "ledger", "config", "cli", "filters"];

function module(topic: string, version: number): string {
  const lines = [`// The ${topic} module.`, `import { parse } from "./shared.ts";`, ""];
  for (let f = 0; f < 12; f++) {
    lines.push(
      `/** Reads one ${topic} record (${f}). */`,
      `export function read${topic[0].toUpperCase()}${topic.slice(1)}${f}(input: string): string {`,
      `  const value = parse(input, { strict: ${version % 2 === 0}, depth: ${f + version} });`,
      `  if (!value) throw new TypeError("${topic} ${f}: expected a record");`,
      `  return value.trim();`,
      `}`,
      "",
    );
  }
  return lines.join("\n");
}

async function buildRepo(dir: string): Promise<void> {
  await git(".", "init", "-q", "-b", "main", dir);
  await Deno.mkdir(`${dir}/src`);
  await Deno.writeTextFile(
    `${dir}/src/shared.ts`,
    "export function parse(s: string, _o: object) { return s; }\n",
  );
  for (let i = 0; i < 24; i++) {
    const topic = TOPICS[i % TOPICS.length];
    await Deno.writeTextFile(`${dir}/src/${topic}.ts`, module(topic, i));
    await git(dir, "add", "-A");
    const body = i % 3 === 0
      ? [
        `-m`,
        `The ${topic} reader now checks its input before parsing it, so a bad\nrecord fails with its own name instead of deep inside the parser.\n\nSigned-off-by: Ada Lovelace <ada@example.com>`,
      ]
      : [];
    await git(dir, "commit", "-q", "-m", `feat(${topic}): strict mode for reader ${i}`, ...body);
  }
  for (const topic of TOPICS.slice(0, 5)) {
    const text = await Deno.readTextFile(`${dir}/src/${topic}.ts`);
    await Deno.writeTextFile(
      `${dir}/src/${topic}.ts`,
      text.replace(/depth: (\d+)/g, (_, d) => `depth: ${Number(d) + 1}, trace: true`).replace(
        "// The",
        "// The revised",
      ),
    );
  }
  await git(dir, "add", "src/parser.ts");
  await Deno.writeTextFile(`${dir}/src/notes.md`, "todo\n");
  await Deno.writeTextFile(`${dir}/scratch.txt`, "scratch\n");
}

function rule(title: string): string {
  return `── ${title} ${"─".repeat(Math.max(3, WIDTH - title.length - 4))}`;
}

function indent(text: string, max: number): string {
  const lines = text.trimEnd().split("\n");
  const shown = lines.slice(0, max).map((l) =>
    "  " + (l.length > WIDTH - 2 ? l.slice(0, WIDTH - 3) + "…" : l)
  );
  if (lines.length > max) shown.push(`  … (${lines.length - max} more lines of the demo's view)`);
  return shown.join("\n");
}

if (import.meta.main) {
  const tmp = await Deno.makeTempDir({ prefix: "rtok-demo-" });
  const repo = `${tmp}/repo`;
  const env = { RTOK_HOME: `${tmp}/home` };
  try {
    console.log(`rtok demo: a throwaway repository in ${repo}, RTOK_HOME=${env.RTOK_HOME}\n`);
    await buildRepo(repo);
    const cases: [string[], TextClass][] = [
      [["git", "log"], "log"],
      [["git", "status"], "paths"],
      [["git", "diff"], "diff"],
      [["grep", "-rn", "parse(input", "src"], "code"],
    ];
    for (const [argv, cls] of cases) {
      const raw = await exec(argv[0], argv.slice(1), repo);
      const ours = await exec(
        Deno.execPath(),
        ["run", ...RTOK_PERMISSIONS, CLI, ...argv],
        repo,
        env,
      );
      const [a, b] = [estimate(raw.out, cls), estimate(ours.out, cls)];
      const saved = a ? Math.round((1 - b / a) * 1000) / 10 : 0;
      console.log(rule(argv.join(" ")));
      console.log(
        `raw:  ${raw.out.length} chars ≈ ${a} tokens    rtok: ${ours.out.length} chars ≈ ${b} tokens    ` +
          `saved ${saved}% (estimated, ${cls} text)`,
      );
      console.log(`\nraw ${argv.join(" ")} (first lines):\n${indent(raw.out, 8)}\n`);
      console.log(`rtok ${argv.join(" ")}:\n${indent(ours.out, 24)}\n`);
    }
    console.log(rule("rtok gain"));
    const gain = await exec(Deno.execPath(), ["run", ...RTOK_PERMISSIONS, CLI, "gain"], repo, env);
    console.log(gain.out);
    console.log(
      "Every cut output names its archive id on its last line: `rtok expand <id>` prints the raw bytes.",
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}
