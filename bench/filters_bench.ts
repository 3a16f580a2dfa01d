/**
 * `deno bench`: filter cost per golden fixture, the grep filter's growth with input size,
 * the estimator, and whole-process start-up against git and an empty Deno program.
 *
 * @module
 */

import { grepFilter } from "../filters/grep.ts";
import { composeOutput } from "../src/pipeline/compose.ts";
import { estimate } from "../src/core/tokens.ts";
import { fixtureNames, runFixture } from "../tests/_fixtures.ts";
import { RTOK_PERMISSIONS } from "../scripts/permissions.ts";
import { grepOutput } from "./_corpus.ts";

for (const name of await fixtureNames()) {
  const { match, shaped, input } = await runFixture(name);
  Deno.bench({
    name: `${match.filter.name}: ${name} (${shaped.length} chars)`,
    group: "fixtures",
    fn: () => {
      composeOutput(match.filter, shaped, input).text("000000000000");
    },
  });
}

const GREP_INPUT = { args: ["-rn", "parse", "src"], shaped: false, exitCode: 0 };
for (const mib of [1, 10, 20]) {
  const text = grepOutput(mib * 1024 * 1024);
  Deno.bench({
    name: `grep filter, ${mib} MiB`,
    group: "grep growth",
    baseline: mib === 10,
    n: 5,
    fn: () => {
      grepFilter.filter(text, GREP_INPUT);
    },
  });
}

const TEN = grepOutput(10 * 1024 * 1024);
Deno.bench({ name: "estimate, 10 MiB", group: "estimator", fn: () => void estimate(TEN, "code") });

const CLI = new URL("../cli.ts", import.meta.url).pathname;
const DIR = Deno.makeTempDirSync({ prefix: "rtok-bench-" });
new Deno.Command("git", { args: ["init", "-q", DIR] }).outputSync();
Deno.writeTextFileSync(`${DIR}/a.txt`, "a\n");
Deno.writeTextFileSync(`${DIR}/empty.ts`, "");

function spawn(cmd: string, args: string[]): void {
  const out = new Deno.Command(cmd, {
    args,
    cwd: DIR,
    env: { RTOK_HOME: `${DIR}/.home` },
    stdout: "null",
    stderr: "null",
  }).outputSync();
  if (out.code !== 0) throw new Error(`${cmd} exited ${out.code}`);
}

Deno.bench({ name: "git status", group: "start-up", n: 20, fn: () => spawn("git", ["status"]) });
Deno.bench({
  name: "deno run empty.ts",
  group: "start-up",
  baseline: true,
  n: 20,
  fn: () => spawn(Deno.execPath(), ["run", "empty.ts"]),
});
Deno.bench({
  name: "rtok git status",
  group: "start-up",
  n: 20,
  fn: () => spawn(Deno.execPath(), ["run", ...RTOK_PERMISSIONS, CLI, "git", "status"]),
});
