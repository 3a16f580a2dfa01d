/**
 * Every case of `tests/rewrite_cases.ts`, run against both surfaces: `rtok rewrite` (`--json`,
 * and plain for its exit code) and `rtok hook claude` fed the PreToolUse event Claude Code
 * sends. Every case goes through both surfaces' handlers in this process; every other case
 * also runs as a real `rtok` process, in one of the three modes in turn, so each mode meets
 * the whole program (argument parsing, permissions, stdin) on a third of those cases without
 * the table costing 1,400 process starts. Each group's processes run four at a time first;
 * the steps then check what came back, one per line.
 *
 * The processes get a clean environment: a temp HOME whose `.claude/settings.json` holds the
 * case's rules, a temp project as the working directory, a temp `RTOK_HOME`, and a stub
 * executable named `rtok` first on PATH, so the words the rewrite inserts are exactly `rtok`.
 *
 * @module
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { familyOf } from "../src/core/command.ts";
import { FAMILY_TABLE } from "../filters/index.ts";
import { defaultConfig } from "../src/core/config.ts";
import { answerClaudeHook, makeHookDeps } from "../src/surfaces/_hook_answer.ts";
import { rewriteLine } from "../src/rewrite/host.ts";
import { VERDICT_EXIT } from "../src/surfaces/rewrite.ts";
import { CLI, denoDir, RTOK_PERMS } from "./_helpers.ts";
import {
  type CaseRules,
  type CaseVerdict,
  REWRITE_CASE_GROUPS,
  REWRITE_CASES,
  type RewriteCase,
} from "./rewrite_cases.ts";

/** `rtok rewrite`'s exit code for each verdict. */
const EXIT: Readonly<Record<CaseVerdict, number>> = { allow: 0, none: 1, deny: 2, ask: 3 };

/** How many rtok processes run at once. */
const CONCURRENCY = 4;

interface Proc {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

interface Outcome {
  readonly json?: Proc;
  readonly plain?: Proc;
  readonly hook?: Proc;
  readonly toolInput: Readonly<Record<string, unknown>>;
}

async function rtokProc(
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  stdin?: string,
): Promise<Proc> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...RTOK_PERMS, CLI, ...args],
    cwd,
    env,
    clearEnv: true,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const o = await child.output();
  const dec = new TextDecoder();
  return { code: o.code, out: dec.decode(o.stdout), err: dec.decode(o.stderr) };
}

/** Runs `tasks` with at most `limit` in flight; results in task order. */
async function pool<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** The temp world one group runs in. */
class World implements Disposable {
  readonly root = Deno.makeTempDirSync({ prefix: "rtok-rewrite-table-" });
  readonly bin = `${this.root}/bin`;
  readonly project = `${this.root}/project`;
  readonly rtokHome = `${this.root}/rtok-home`;
  readonly #homes = new Map<string, string>();

  constructor() {
    Deno.mkdirSync(this.bin);
    Deno.mkdirSync(this.project);
    Deno.mkdirSync(this.rtokHome);
    // The rewrite rules' own table: the guard (its own table in src/plugins/guard) stays out.
    Deno.writeTextFileSync(`${this.rtokHome}/config.toml`, "[plugins.guard]\nenabled = false\n");
    Deno.writeTextFileSync(`${this.bin}/rtok`, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    Deno.chmodSync(`${this.bin}/rtok`, 0o755);
  }

  /** A HOME whose Claude Code settings hold `rules`; one per distinct set. */
  home(rules: CaseRules | undefined): string {
    const permissions = {
      ...(rules?.allow ? { allow: rules.allow } : {}),
      ...(rules?.ask ? { ask: rules.ask } : {}),
      ...(rules?.deny ? { deny: rules.deny } : {}),
    };
    const key = JSON.stringify(permissions);
    let home = this.#homes.get(key);
    if (!home) {
      home = `${this.root}/home-${this.#homes.size}`;
      Deno.mkdirSync(`${home}/.claude`, { recursive: true });
      Deno.writeTextFileSync(`${home}/.claude/settings.json`, JSON.stringify({ permissions }));
      this.#homes.set(key, home);
    }
    return home;
  }

  /** The failures the hook left in the ledger's spool. */
  hookFailures(): string[] {
    let text = "";
    try {
      text = Deno.readTextFileSync(`${this.rtokHome}/spool.jsonl`);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return [];
      throw e;
    }
    return text.split("\n").filter((l) => l.includes("failure"));
  }

  [Symbol.dispose](): void {
    Deno.removeSync(this.root, { recursive: true });
  }
}

/** One case's environment, event and tool input. */
function caseSetup(world: World, c: RewriteCase, dir: string) {
  const env: Record<string, string> = {
    PATH: `${world.bin}:${Deno.env.get("PATH") ?? ""}`,
    HOME: world.home(c.rules),
    RTOK_HOME: world.rtokHome,
    DENO_DIR: dir,
    DENO_NO_UPDATE_CHECK: "1",
    NO_COLOR: "1",
    ...c.env,
  };
  const toolInput = { command: c.line, description: "d", timeout: 5000 };
  const payload = JSON.stringify({
    session_id: "rewrite-table",
    transcript_path: `${world.root}/transcript.jsonl`,
    cwd: world.project,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: toolInput,
    tool_use_id: "t",
  });
  return { env, toolInput, payload };
}

type Mode = "json" | "plain" | "hook";
const MODES: readonly Mode[] = ["json", "plain", "hook"];

// Both surfaces' handlers, in this process, with the case's environment.
async function inProcess(world: World, c: RewriteCase, dir: string): Promise<Outcome> {
  const { env, toolInput, payload } = caseSetup(world, c, dir);
  const d = rewriteLine(c.line, env, world.project);
  const printed = d.verdict === "allow" || d.verdict === "ask" ? `${d.command}\n` : "";
  const config = defaultConfig();
  config.plugins.guard = { enabled: false };
  const deps = makeHookDeps({ config, home: world.rtokHome, env });
  const h = await answerClaudeHook(new TextEncoder().encode(payload), deps);
  const failure = h.failure ?? deps.registry.errors.map((e) => String(e.error)).join("; ");
  return {
    toolInput,
    json: {
      code: 0,
      out: JSON.stringify({ command: d.command, verdict: d.verdict, reason: d.reason }) + "\n",
      err: "",
    },
    plain: { code: VERDICT_EXIT[d.verdict], out: printed, err: "" },
    hook: { code: 0, out: h.answer ? `${h.answer}\n` : "", err: failure },
  };
}

/** Runs a group: every case in process, every other case also as a process in one mode. */
async function runGroup(
  world: World,
  cases: readonly RewriteCase[],
  offset: number,
): Promise<{ local: Outcome[]; spawned: (Outcome | null)[] }> {
  const dir = await denoDir();
  const local: Outcome[] = [];
  for (const c of cases) local.push(await inProcess(world, c, dir));
  const tasks = cases.map((c, i) => {
    const n = offset + i;
    if (n % 2 !== 0) return null;
    const mode = MODES[(n / 2) % 3];
    const { env, toolInput, payload } = caseSetup(world, c, dir);
    const args = mode === "json"
      ? ["rewrite", "--json", c.line]
      : mode === "plain"
      ? ["rewrite", c.line]
      : ["hook", "claude"];
    return async (): Promise<Outcome> => ({
      toolInput,
      [mode]: await rtokProc(args, world.project, env, mode === "hook" ? payload : undefined),
    });
  });
  const ran = await pool(
    tasks.filter((t) => t !== null) as (() => Promise<Outcome>)[],
    CONCURRENCY,
  );
  let k = 0;
  const spawned = tasks.map((t) => (t ? ran[k++] : null));
  return { local, spawned };
}

function rewrites(v: CaseVerdict): boolean {
  return v === "allow" || v === "ask";
}

function stepName(c: RewriteCase): string {
  let name = c.name ? `${c.name}: ${JSON.stringify(c.line)}` : JSON.stringify(c.line);
  if (c.rules) name += ` with ${JSON.stringify(c.rules)}`;
  if (c.env) name += ` with env ${JSON.stringify(c.env)}`;
  return name;
}

function show(what: string, p: Proc): string {
  return `${what}: exit ${p.code}, stdout ${JSON.stringify(p.out)}, stderr ${
    JSON.stringify(p.err)
  }`;
}

function check(c: RewriteCase, o: Outcome): void {
  const expected = rewrites(c.verdict) ? c.command! : c.line;

  if (o.json) checkJson(c, o.json, expected);
  if (o.plain) {
    strictEqual(o.plain.code, EXIT[c.verdict], show("rewrite", o.plain));
    strictEqual(o.plain.out, rewrites(c.verdict) ? `${expected}\n` : "", show("rewrite", o.plain));
  }
  if (o.hook) checkHook(c, o.hook, o.toolInput, expected);
}

function checkJson(c: RewriteCase, json: Proc, expected: string): void {
  const o = { json };
  strictEqual(o.json.code, 0, show("rewrite --json", o.json));
  const j = JSON.parse(o.json.out);
  deepStrictEqual(Object.keys(j).sort(), ["command", "reason", "verdict"], o.json.out);
  strictEqual(j.verdict, c.verdict, `rewrite --json said ${o.json.out}`);
  strictEqual(j.command, expected, `rewrite --json said ${o.json.out}`);
  ok(typeof j.reason === "string" && j.reason !== "", o.json.out);
}

function checkHook(
  c: RewriteCase,
  hook: Proc,
  toolInput: Readonly<Record<string, unknown>>,
  expected: string,
): void {
  const o = { hook, toolInput };
  strictEqual(o.hook.code, 0, show("hook claude", o.hook));
  if (!rewrites(c.verdict)) {
    strictEqual(o.hook.out, "", show("hook claude", o.hook));
    return;
  }
  ok(o.hook.out.endsWith("\n"), show("hook claude", o.hook));
  const lines = o.hook.out.slice(0, -1).split("\n");
  strictEqual(lines.length, 1, show("hook claude", o.hook));
  const h = JSON.parse(lines[0]);
  const reason = h?.hookSpecificOutput?.permissionDecisionReason;
  strictEqual(typeof reason, "string", show("hook claude", o.hook));
  deepStrictEqual(h, {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      ...(c.verdict === "allow" ? { permissionDecision: "allow" } : {}),
      permissionDecisionReason: reason,
      updatedInput: { ...o.toolInput, command: expected },
    },
  });
}

for (const [group, cases] of Object.entries(REWRITE_CASE_GROUPS)) {
  Deno.test(`rewrite table: ${group} (rtok rewrite and rtok hook claude)`, async (t) => {
    using world = new World();
    const offset = REWRITE_CASES.indexOf(cases[0]);
    const { local, spawned } = await runGroup(world, cases, offset);
    for (const [i, c] of cases.entries()) {
      await t.step(stepName(c), () => {
        check(c, local[i]);
        if (spawned[i]) check(c, spawned[i]!);
      });
    }
    await t.step("the hook recorded no failure", () => {
      deepStrictEqual(world.hookFailures(), []);
    });
  });
}

// The families a rewritten line sends through rtok: the words after each inserted `rtok`.
function rewrittenFamilies(command: string): string[] {
  const families: string[] = [];
  for (const m of command.matchAll(/(?:^|[\s;&|])rtok ([^;&|\n#]*)/g)) {
    const words = m[1].replace(/["'\\]/g, "").split(/\s+/).filter((w) => w !== "");
    families.push(familyOf(words));
  }
  return families;
}

Deno.test("the rewrite table has 200+ cases, every family twice, and deny and ask verdicts", () => {
  ok(REWRITE_CASES.length >= 200, `only ${REWRITE_CASES.length} cases`);
  for (const c of REWRITE_CASES) {
    strictEqual(
      typeof c.command === "string",
      rewrites(c.verdict),
      `${JSON.stringify(c.line)}: a command goes with allow and ask only`,
    );
  }
  const seen = new Map<string, number>();
  for (const c of REWRITE_CASES) {
    if (!c.command) continue;
    for (const f of new Set(rewrittenFamilies(c.command))) seen.set(f, (seen.get(f) ?? 0) + 1);
  }
  for (const family of Object.keys(FAMILY_TABLE)) {
    ok((seen.get(family) ?? 0) >= 2, `family "${family}" is rewritten in fewer than 2 cases`);
  }
  for (const f of seen.keys()) {
    ok(Object.hasOwn(FAMILY_TABLE, f), `a case rewrites "${f}", which has no rule`);
  }
  ok(REWRITE_CASES.some((c) => c.verdict === "deny"), "no deny case");
  ok(REWRITE_CASES.some((c) => c.verdict === "ask"), "no ask case");
  ok(REWRITE_CASES.some((c) => c.verdict === "allow"), "no allow case");
  ok(REWRITE_CASES.some((c) => c.verdict === "none"), "no none case");
});
