/**
 * `rtok hook claude`: Claude Code's hook. Reads one event as JSON on stdin (at most 1 MiB),
 * dispatches it to the plugins, and prints their answer as one JSON object, or nothing. It
 * never fails the agent: whatever goes wrong, it exits 0 with no answer, as if rtok were not
 * there, and leaves one line in the ledger's failure table. No SQLite, no npm package, no
 * process, no socket on this path: it runs before every tool call.
 *
 * @module
 */

import { type Config, defaultConfig, loadConfig, rtokHome } from "../core/config.ts";
import { type RtokEnv, rtokEnv } from "../core/env.ts";
import type { Ctx, FailureRecord, Plugin, PreToolDecision } from "../core/plugin.ts";
import { CATALOGUE, makeCtx, Registry } from "../core/registry.ts";
import { checkSpoolWritable } from "../core/spool.ts";
import { HOOK_PLUGINS } from "../plugins/hook.ts";
import { warn } from "./_io.ts";

/** The largest event the hook reads. */
export const MAX_HOOK_INPUT: number = 1024 * 1024;

/** Chars of context the plugins may add to one event. */
export const HOOK_CONTEXT_BUDGET: number = 4000;

/** The events Claude Code sends that the hook serves. */
export const HOOK_EVENTS: readonly string[] = [
  "PreToolUse",
  "PostToolUse",
  "SessionStart",
  "UserPromptSubmit",
  "PreCompact",
  "Stop",
];

/** What one event came to: the JSON to print (or `""`), and what went wrong, if anything. */
export interface HookResult {
  /** The answer, one JSON object, or `""` for none. */
  readonly answer: string;
  /** Why there is no answer, when something went wrong. */
  readonly failure: string | null;
}

/** The hook's world: the plugins, the environment rtok reads, and where records go. */
export interface HookDeps {
  /** The enabled plugins. */
  readonly registry: Registry;
  /** The environment variables rtok reads. */
  readonly env: RtokEnv;
  /** A plugin context for a session. */
  ctx(session: string | null): Ctx;
  /** Throws unless the run a rewrite starts could be recorded. */
  checkRecordable(): void;
}

class _BadEvent extends Error {}

function _bad(message: string): never {
  throw new _BadEvent(message);
}

/** Answers one Claude Code hook event given as raw stdin bytes. Never rejects. */
export async function answerClaudeHook(input: Uint8Array, deps: HookDeps): Promise<HookResult> {
  try {
    return { answer: await _answer(input, deps), failure: null };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { answer: "", failure: message };
  }
}

async function _answer(input: Uint8Array, deps: HookDeps): Promise<string> {
  if (input.length > MAX_HOOK_INPUT) {
    _bad(`the event is over ${MAX_HOOK_INPUT} bytes; not read`);
  }
  const text = new TextDecoder().decode(input);
  if (text.trim() === "") _bad("the event is empty");
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (e) {
    _bad(`the event is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    _bad("the event is not a JSON object");
  }
  const p = payload as Record<string, unknown>;
  const event = p.hook_event_name;
  if (typeof event !== "string") _bad('the event has no "hook_event_name"');
  const session = typeof p.session_id === "string" ? p.session_id : null;
  const cwd = typeof p.cwd === "string" ? p.cwd : Deno.cwd();
  const ctx = deps.ctx(session);
  const r = deps.registry;
  switch (event) {
    case "PreToolUse": {
      const tool = _field(p, "tool_name", "string") as string;
      const input = _field(p, "tool_input", "object") as Record<string, unknown>;
      const mode = typeof p.permission_mode === "string" ? p.permission_mode : undefined;
      const decision = await r.preTool({ tool, input, cwd, env: deps.env, mode }, ctx);
      // A rewrite whose run could not be recorded would save tokens nobody can see: none.
      if (decision?.kind === "rewrite") deps.checkRecordable();
      return _preToolAnswer(decision);
    }
    case "PostToolUse": {
      const tool = _field(p, "tool_name", "string") as string;
      const input = _field(p, "tool_input", "object") as Record<string, unknown>;
      const a = r.postTool({ tool, input, output: p.tool_response, cwd }, ctx, HOOK_CONTEXT_BUDGET);
      return a?.context ? _context("PostToolUse", a.context) : "";
    }
    case "SessionStart":
    case "UserPromptSubmit": {
      const prompt = typeof p.prompt === "string" ? p.prompt : undefined;
      const which = event === "SessionStart" ? "sessionStart" : "promptSubmit";
      const text = r.inject(which, { event, prompt }, ctx, HOOK_CONTEXT_BUDGET);
      return text ? _context(event, text) : "";
    }
    case "PreCompact":
      r.notify("preCompact", { event }, ctx);
      return "";
    case "Stop":
      r.notify("stop", { event }, ctx);
      return "";
    default:
      _bad(`unknown event "${event.slice(0, 60)}"; rtok serves ${HOOK_EVENTS.join(", ")}`);
  }
}

function _field(p: Record<string, unknown>, key: string, type: "string" | "object"): unknown {
  const v = p[key];
  if (type === "string" ? typeof v !== "string" : typeof v !== "object" || v === null) {
    _bad(`the ${p.hook_event_name} event has no "${key}" ${type}`);
  }
  return v;
}

function _preToolAnswer(d: PreToolDecision | null): string {
  if (!d) return "";
  if (d.kind === "deny") {
    return JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: d.reason,
      },
    });
  }
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      ...(d.allow ? { permissionDecision: "allow" } : {}),
      permissionDecisionReason: d.reason,
      updatedInput: d.input,
    },
  });
}

function _context(event: string, text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
}

/** Reads stdin up to one byte past `limit`, synchronously: the hook has nothing else to do. */
export function readStdinCapped(limit: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buf = new Uint8Array(64 * 1024);
  while (total <= limit) {
    const n = Deno.stdin.readSync(buf);
    if (n === null || n === 0) break;
    chunks.push(buf.slice(0, n));
    total += n;
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

/** What the hook's dependencies are built from. */
export interface HookSetup {
  /** The effective config. */
  readonly config: Config;
  /** `$RTOK_HOME` (`""` when unknown: nothing can be recorded). */
  readonly home: string;
  /** The environment variables rtok reads. */
  readonly env: RtokEnv;
  /** The plugins to dispatch to (`HOOK_PLUGINS` by default). */
  readonly plugins?: readonly Plugin[];
}

/** The hook's dependencies from a setup. */
export function makeHookDeps(setup: HookSetup): HookDeps {
  const plugins = setup.plugins ?? HOOK_PLUGINS;
  const registry = new Registry(plugins, setup.config, CATALOGUE.map((c) => c.id));
  const { config, home } = setup;
  return {
    registry,
    env: setup.env,
    ctx: (session) => makeCtx(registry, { config, store: null, home, session }),
    checkRecordable: () => checkSpoolWritable(home),
  };
}

/** The live dependencies: config from `$RTOK_HOME`, the built-in plugins. */
export async function liveDeps(env: RtokEnv): Promise<HookDeps> {
  let home = "";
  let config = defaultConfig();
  try {
    home = rtokHome();
    config = await loadConfig(home);
  } catch { /* no home or a bad config: the defaults; `rtok config` says why */ }
  return makeHookDeps({ config, home, env });
}

/** Records a failure through the plugins (one ledger line); a failure to record is dropped. */
export async function recordHookFailure(
  deps: HookDeps,
  session: string | null,
  family: string,
  error: string,
): Promise<void> {
  const f: FailureRecord = {
    surface: "hook",
    plugin: "hook",
    family,
    command: "rtok hook claude",
    error,
    fallbackOk: true,
  };
  try {
    await deps.registry.failure(f, deps.ctx(session));
  } catch { /* the agent goes on either way */ }
}

/** Runs `rtok hook claude`: always exit 0. */
export async function main(args: readonly string[]): Promise<number> {
  if (args[0] !== "claude" || args.length > 1) {
    throw new TypeError(
      `unknown hook "${args.join(" ")}"; the hook Claude Code runs is: rtok hook claude`,
    );
  }
  const env = rtokEnv();
  let deps: HookDeps | null = null;
  try {
    deps = await liveDeps(env);
    const input = readStdinCapped(MAX_HOOK_INPUT);
    const result = await answerClaudeHook(input, deps);
    const errors = deps.registry.errors.splice(0);
    if (result.answer) {
      Deno.stdout.writeSync(new TextEncoder().encode(result.answer + "\n"));
    }
    const problems = [
      ...(result.failure ? [result.failure] : []),
      ...errors.map((e) =>
        `${
          e.error instanceof Error ? e.error.message : String(e.error)
        } (plugin ${e.plugin}, ${e.event})`
      ),
    ];
    for (const problem of problems) {
      await recordHookFailure(deps, _sessionOf(input), "hook claude", problem);
    }
  } catch (e) {
    // Reached only when stdout or the plugins' set-up themselves fail: still exit 0.
    warn(`hook: ${(e as Error).message}`);
    if (deps) await recordHookFailure(deps, null, "hook claude", (e as Error).message);
  }
  return 0;
}

function _sessionOf(input: Uint8Array): string | null {
  const m = /"session_id"\s*:\s*"([^"\\]{1,200})"/.exec(
    new TextDecoder().decode(input.subarray(0, 4096)),
  );
  return m ? m[1] : null;
}
