/**
 * The hook's answering engine, shared by every transport of the hook: `rtok hook <host>` (one
 * event on stdin, at most 1 MiB), the resident server (`rtok serve`, one per request) and the
 * dry hook that `rtok replay`, `rtok discover` and the server's warm-up run. It dispatches an
 * event to the plugins and returns their answer as one JSON object, or nothing. Claude Code's
 * events are the plugins' own; another host's adapter maps its own. It never fails the agent:
 * whatever goes wrong, the answer is none, as if rtok were not there, and one line goes to the
 * ledger's failure table. No SQLite, no npm package, no process, no socket on this path: it
 * runs before every tool call.
 *
 * `rtok hook` itself is {@linkcode hookCommand}, here rather than in a module of its own: the
 * command table loads it from this file, so the hook's path loads no module more than it needs.
 *
 * @module
 */

import { type Config, defaultConfig, loadConfig, rtokHome } from "../core/config.ts";
import { DISABLE_VAR, disables, type RtokEnv, rtokEnv } from "../core/env.ts";
import type { Ctx, FailureRecord, Measurement, Plugin } from "../core/plugin.ts";
import { makeCtx, Registry } from "../core/registry.ts";
import { DISPATCH_ORDER } from "../plugins/catalogue.ts";
import { checkSpoolWritable } from "../core/spool.ts";
import { HOOK_PLUGINS } from "../plugins/hook.ts";
import { warn } from "./_io.ts";
import { lazyImport } from "../core/lazy.ts";
import type { HostAdapter, HostId } from "../hosts/host.ts";
import {
  type ClaudeEvent,
  contextAnswer,
  MAX_HOOK_INPUT,
  postToolAnswer,
  preToolAnswer,
  readHookEvent,
  sessionOf,
} from "../claude/hook_protocol.ts";

/** The largest event the hook reads. */
export { MAX_HOOK_INPUT };

/** The host whose payloads are the plugins' own events, answered by {@linkcode answerClaudeHook}. */
export const NATIVE_HOST = "claude";

/** Chars of context the plugins may add to one event. */
export const HOOK_CONTEXT_BUDGET: number = 4000;

/**
 * Chars of context the plugins may add to one tool result: a long file's outline goes there,
 * beside the file's first lines.
 */
export const POSTTOOL_CONTEXT_BUDGET: number = 16_000;

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
  /** True in a resident server, which sees each call's PostToolUse after its PreToolUse. */
  readonly resident?: boolean;
  /**
   * With {@linkcode HookSetup.holdRecords}: records the ledger rows held since the last call,
   * each marked delivered or not (the transport knows whether its answer reached the host).
   */
  release?(delivered: boolean): Promise<void>;
}

/** Answers one Claude Code hook event given as raw stdin bytes. Never rejects. */
export async function answerClaudeHook(input: Uint8Array, deps: HookDeps): Promise<HookResult> {
  try {
    return { answer: await _answer(readHookEvent(input, Deno.cwd()), deps), failure: null };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { answer: "", failure: message };
  }
}

async function _answer(ev: ClaudeEvent, deps: HookDeps): Promise<string> {
  const ctx = deps.ctx(ev.session);
  const r = deps.registry;
  const cwd = ev.cwd;
  switch (ev.event) {
    case "PreToolUse": {
      const { tool, input, mode, callId } = ev;
      const resident = deps.resident ?? false;
      const decision = await r.preTool(
        {
          tool,
          input,
          cwd,
          env: deps.env,
          mode,
          host: NATIVE_HOST,
          ...(callId ? { callId } : {}),
          resident,
        },
        ctx,
      );
      // A rewrite whose run could not be recorded would save tokens nobody can see: none.
      if (decision?.kind === "rewrite") deps.checkRecordable();
      return preToolAnswer(decision);
    }
    case "PostToolUse": {
      const { tool, input, output, callId } = ev;
      const { readToolOutput, writeToolOutput } = await _toolOutput();
      const read = disables(deps.env[DISABLE_VAR])
        ? { skip: `${DISABLE_VAR} is set` }
        : readToolOutput(tool, input, output);
      // A shape rtok does not know goes through as it is; one failure row says which.
      if ("unknown" in read) {
        r.errors.push({ plugin: "posttool", event: "postTool", error: new Error(read.unknown) });
      }
      const result = "result" in read ? read.result : undefined;
      const a = await r.postTool(
        {
          tool,
          input,
          output,
          cwd,
          host: NATIVE_HOST,
          ...(result ? { result } : {}),
          ...(callId ? { callId } : {}),
        },
        ctx,
        POSTTOOL_CONTEXT_BUDGET,
      );
      if (!a) return "";
      const replaced = a.text !== undefined && result
        ? writeToolOutput(tool, output, a.text)
        : a.output;
      return postToolAnswer(a.context, replaced);
    }
    case "SessionStart":
    case "UserPromptSubmit": {
      const which = ev.event === "SessionStart" ? "sessionStart" : "promptSubmit";
      const text = r.inject(
        which,
        { event: ev.event, prompt: ev.prompt, source: ev.source, ..._sessionFields(ev) },
        ctx,
        HOOK_CONTEXT_BUDGET,
      );
      return text ? contextAnswer(ev.event, text) : "";
    }
    case "PreCompact":
      await r.preCompact({ event: ev.event, trigger: ev.trigger, ..._sessionFields(ev) }, ctx);
      return "";
    case "Stop":
      r.notify("stop", { event: ev.event, ..._sessionFields(ev) }, ctx);
      return "";
  }
}

// The tool outputs' shapes load with the first PostToolUse: a PreToolUse never reads one, and
// its path (the one the host table joins, for the rules' owner) stays at its module count.
function _toolOutput(): Promise<typeof import("../claude/tool_output.ts")> {
  return lazyImport<typeof import("../claude/tool_output.ts")>(
    new URL("../claude/tool_output.ts", import.meta.url),
  );
}

// What every session event tells a plugin about where the session is.
function _sessionFields(ev: ClaudeEvent): { cwd: string; transcriptPath?: string } {
  return { cwd: ev.cwd, ...(ev.transcriptPath ? { transcriptPath: ev.transcriptPath } : {}) };
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
  /** True for a resident server (see {@linkcode HookDeps.resident}). */
  readonly resident?: boolean;
  /**
   * Hold the ledger rows an event produces until the transport says whether its answer was
   * delivered ({@linkcode HookDeps.release}): a saving counts only when it reached the host.
   */
  readonly holdRecords?: boolean;
}

/** The hook's dependencies from a setup. */
export function makeHookDeps(setup: HookSetup): HookDeps {
  const plugins = setup.plugins ?? HOOK_PLUGINS;
  const registry = new Registry(plugins, setup.config, DISPATCH_ORDER);
  const { config, home } = setup;
  const held: { m: Measurement; ctx: Ctx }[] = [];
  const ctx = (session: string | null): Ctx => {
    const c = makeCtx(registry, { config, store: null, home, session });
    if (!setup.holdRecords) return c;
    return {
      ...c,
      record: (m) => {
        held.push({ m, ctx: c });
        return Promise.resolve();
      },
    };
  };
  return {
    registry,
    env: setup.env,
    ctx,
    checkRecordable: () => checkSpoolWritable(home),
    resident: setup.resident ?? false,
    ...(setup.holdRecords
      ? {
        async release(delivered: boolean): Promise<void> {
          for (const { m, ctx } of held.splice(0)) {
            await registry.record({ ...m, delivered }, ctx);
          }
        },
      }
      : {}),
  };
}

/**
 * The live dependencies: config from `$RTOK_HOME`, the built-in plugins; with `holdRecords`,
 * rows wait for {@linkcode HookDeps.release}.
 */
export async function liveDeps(env: RtokEnv, holdRecords = false): Promise<HookDeps> {
  let home = "";
  let config = defaultConfig();
  try {
    home = rtokHome();
    config = await loadConfig(home);
  } catch { /* no home or a bad config: the defaults; `rtok config` says why */ }
  return makeHookDeps({ config, home, env, holdRecords });
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

/**
 * Answers one event and records what went wrong (one failures row each), the way every
 * transport of the hook does: the command's stdin, the server's request body. Never rejects
 * for the event's sake; returns the answer, or `""`.
 */
export async function answerAndRecord(
  input: Uint8Array,
  deps: HookDeps,
  answer: (input: Uint8Array, deps: HookDeps) => Promise<HookResult> = answerClaudeHook,
  host: string = NATIVE_HOST,
): Promise<string> {
  const result = await answer(input, deps);
  const errors = deps.registry.errors.splice(0);
  const problems = [
    ...(result.failure ? [result.failure] : []),
    ...errors.map((e) =>
      `${
        e.error instanceof Error ? e.error.message : String(e.error)
      } (plugin ${e.plugin}, ${e.event})`
    ),
  ];
  for (const problem of problems) {
    await recordHookFailure(deps, sessionOf(input), `hook ${host}`, problem);
  }
  return result.answer;
}

/**
 * How `host`'s hook events are answered: Claude Code's whole, by {@linkcode answerClaudeHook};
 * any other host's through its adapter (loaded now, with the code that maps its payloads).
 */
export async function hostAnswerer(
  host: HostId,
): Promise<(input: Uint8Array, deps: HookDeps) => Promise<HookResult>> {
  const { loadAdapter } = await _hosts();
  const adapter = await loadAdapter(host);
  if ("native" in adapter) return answerClaudeHook;
  return (bytes, d) => answerHostHook(adapter, bytes, d);
}

// Another host's hook (`rtok hook codex|gemini|copilot|opencode`) runs on the same handlers:
// the host's adapter reads its payload into one host-neutral event; the plugins answer it (the
// rewrite of a shell command, the replacement of a tool's output); the adapter writes the
// answer in the host's shape. Like Claude Code's hook it never fails the agent.

/** The tool name the plugins know a shell call by. */
const _SHELL = "Bash";

/** Answers one event of `adapter`'s host given as raw stdin bytes. Never rejects. */
export async function answerHostHook(
  adapter: HostAdapter,
  input: Uint8Array,
  deps: HookDeps,
): Promise<HookResult> {
  try {
    const ev = adapter.readEvent(input, Deno.cwd());
    const ctx = deps.ctx(ev.session);
    const r = deps.registry;
    const call = ev.callId ? { callId: ev.callId } : {};
    if (ev.event === "PreToolUse") {
      const d = await r.preTool({
        tool: _SHELL,
        input: { command: ev.command },
        cwd: ev.cwd,
        env: deps.env,
        host: adapter.id,
        resident: false,
        ...call,
      }, ctx);
      if (d?.kind === "rewrite") deps.checkRecordable();
      return { answer: adapter.preToolAnswer(d, ev), failure: null };
    }
    if (ev.event === "PostToolUse") {
      const shell = ev.result?.kind === "shell";
      const a = await r.postTool(
        {
          tool: shell ? _SHELL : ev.tool,
          input: shell ? { command: ev.result!.command ?? "" } : ev.input,
          output: undefined,
          cwd: ev.cwd,
          host: adapter.id,
          ...(ev.result ? { result: ev.result } : {}),
          ...call,
        },
        ctx,
        POSTTOOL_CONTEXT_BUDGET,
      );
      return { answer: adapter.postToolAnswer(a, ev), failure: null };
    }
    return { answer: "", failure: null };
  } catch (e) {
    return { answer: "", failure: e instanceof Error ? e.message : String(e) };
  }
}

function _hosts(): Promise<typeof import("../hosts/hosts.ts")> {
  return lazyImport<typeof import("../hosts/hosts.ts")>(
    new URL("../hosts/hosts.ts", import.meta.url),
  );
}

/** Runs `rtok hook <host>` (`claude`, `codex`…): always exit 0. */
export async function hookCommand(args: readonly string[]): Promise<number> {
  const host = args[0] ?? "";
  // The one place the hook names a host: Claude Code's hook runs before every tool call, and
  // its payloads need no adapter, so it is answered without loading the host table or an
  // adapter module (bench/budget.ts holds that path at Deno's floor). `HOSTS.claude`'s adapter
  // says the same (`native`), for every caller that has the table loaded anyway.
  const hosts = host === NATIVE_HOST ? null : await _hosts();
  if ((hosts !== null && !hosts.isHostId(host)) || args.length > 1) {
    const { HOST_IDS } = hosts ?? await _hosts();
    throw new TypeError(
      `unknown hook "${args.join(" ")}"; the hooks are: rtok hook ${HOST_IDS.join("|")}`,
    );
  }
  const env = rtokEnv();
  let deps: HookDeps | null = null;
  try {
    deps = await liveDeps(env, true);
    const input = readStdinCapped(MAX_HOOK_INPUT);
    const answer = hosts === null
      ? await answerAndRecord(input, deps)
      : await answerAndRecord(input, deps, await hostAnswerer(host as HostId), host);
    // A row counts once its answer is out: a write that fails reached no host.
    let delivered = true;
    try {
      if (answer) Deno.stdout.writeSync(new TextEncoder().encode(answer + "\n"));
    } catch (e) {
      delivered = false;
      throw e;
    } finally {
      await deps.release?.(delivered);
    }
  } catch (e) {
    // Reached only when stdout or the plugins' set-up themselves fail: still exit 0.
    warn(`hook: ${(e as Error).message}`);
    if (deps) await recordHookFailure(deps, null, `hook ${host}`, (e as Error).message);
  }
  return 0;
}
