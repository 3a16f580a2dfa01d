/**
 * The GitHub Copilot CLI host (`copilot`, verified with 1.0.102; see
 * `scripts/probe/copilot.md`). Copilot runs a command hook with one JSON object on stdin
 * (`sessionId`, `timestamp`, `cwd`, `toolName`, `toolArgs`, and after the call `toolResult`)
 * and reads one JSON object from its stdout. rtok installs one `postToolUse` hook, in a file
 * of its own in Copilot's user hooks directory (`$COPILOT_HOME/hooks/rtok.json`), and answers
 * a finished `bash` call with `modifiedResult`: the output filtered as `rtok <command>` would
 * print it, or compressed by content. It rewrites no command before it runs: Copilot checks
 * its permission rules against the rewritten command, so a rewrite would slip past a rule the
 * user set on the original one (and a hook's `allow` overrides even a deny rule).
 *
 * @module
 */

import type { PostToolAnswer, PreToolDecision } from "../core/plugin.ts";
import type { ToolResult } from "../core/tool_result.ts";
import { backupFile, writeAtomic } from "../core/settings_file.ts";
import {
  canonicalJson,
  hostHome,
  hostHookCommand,
  installedVersion,
  isObject,
  jsonErrorLine,
  originalBackup,
  runsRtokHook,
} from "./_shared.ts";
import { type HostAdapter, type HostEvent, readJsonObject } from "./host.ts";
import type {
  FileChange,
  HostCheck,
  HostInstaller,
  InstallOptions,
  InstallResult,
} from "./install.ts";

/** The Copilot CLI release whose hook format rtok was verified with. */
export const COPILOT_VERIFIED_VERSION = "1.0.102";

/** Copilot's name for its shell tool. */
export const COPILOT_SHELL_TOOL = "bash";

/** The name of rtok's file in Copilot's user hooks directory. */
export const COPILOT_HOOKS_FILE = "rtok.json";

/** The seconds Copilot gives rtok's hook (its own default). */
export const COPILOT_HOOK_TIMEOUT_SEC = 30;

const _HOST = "copilot";

// What Copilot appends to a finished synchronous bash call's output.
const _TRAILER = /\n?<shellId: [^<>\n]* completed with exit code (\d+)>\s*$/;

// The trailer each event's output carried, for an answer that keeps a failure's exit code.
const _trailers = new WeakMap<object, string>();

// `toolArgs` is an object; a JSON string holding one is read too.
function _args(p: Record<string, unknown>): Record<string, unknown> {
  let args = p.toolArgs;
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      throw new TypeError(`${_HOST}: the event's toolArgs is a string that is not JSON`);
    }
  }
  if (args === undefined || args === null) return {};
  if (!isObject(args)) throw new TypeError(`${_HOST}: the event's toolArgs is not an object`);
  return args;
}

function _command(args: Record<string, unknown>): string {
  if (typeof args.command !== "string") {
    throw new TypeError(`${_HOST}: the bash call's toolArgs has no command string`);
  }
  return args.command;
}

/**
 * A finished bash call's result, host-neutral: its output without the trailer Copilot adds,
 * and the exit code the trailer gives; `null` for any result rtok leaves alone (not a
 * success, a background call, a call still running).
 */
export function readShellResult(
  command: string,
  args: Readonly<Record<string, unknown>>,
  toolResult: Readonly<Record<string, unknown>>,
): { result: ToolResult; trailer: string } | null {
  const text = toolResult.textResultForLlm;
  if (toolResult.resultType !== "success" || typeof text !== "string") return null;
  if (args.mode === "async") return null;
  const m = _TRAILER.exec(text);
  if (!m) return null;
  const result: ToolResult = {
    kind: "shell",
    tool: COPILOT_SHELL_TOOL,
    text: text.slice(0, m.index),
    command,
    exitCode: Number(m[1]),
  };
  return { result, trailer: text.slice(m.index) };
}

/** Reads one Copilot hook payload; throws a one-line `TypeError` for a shape it does not know. */
export function readCopilotEvent(input: Uint8Array, cwd: string): HostEvent {
  const p = readJsonObject(input, _HOST);
  const session = typeof p.sessionId === "string" && p.sessionId ? p.sessionId : null;
  const where = typeof p.cwd === "string" && p.cwd ? p.cwd : cwd;
  if (typeof p.toolName !== "string" || p.toolName === "") {
    throw new TypeError(
      `${_HOST}: the event has no toolName: not a preToolUse or postToolUse payload`,
    );
  }
  const tool = p.toolName;
  const args = _args(p);
  if ("error" in p && !("toolResult" in p)) {
    return { event: "Other", name: `postToolUseFailure:${tool}`, session, cwd: where };
  }
  if ("toolResult" in p) {
    if (!isObject(p.toolResult)) {
      throw new TypeError(`${_HOST}: the event's toolResult is not an object`);
    }
    if (tool !== COPILOT_SHELL_TOOL) {
      return { event: "Other", name: `postToolUse:${tool}`, session, cwd: where };
    }
    const read = readShellResult(_command(args), args, p.toolResult);
    const ev: HostEvent = {
      event: "PostToolUse",
      tool,
      input: args,
      result: read?.result ?? null,
      session,
      cwd: where,
    };
    if (read) _trailers.set(ev, read.trailer);
    return ev;
  }
  if (tool !== COPILOT_SHELL_TOOL) {
    return { event: "Other", name: `preToolUse:${tool}`, session, cwd: where };
  }
  return { event: "PreToolUse", command: _command(args), input: args, session, cwd: where };
}

/**
 * The answer before a bash call: a deny as Copilot's `permissionDecision`, and nothing for a
 * rewrite. Copilot would check its permission rules against the rewritten command only (so a
 * user's rule on the original would no longer apply) and a hook's `allow` overrides even
 * `--deny-tool`: rtok leaves the command alone and filters its output afterwards.
 */
export function copilotPreToolAnswer(d: PreToolDecision | null): string {
  if (d?.kind !== "deny") return "";
  return JSON.stringify({ permissionDecision: "deny", permissionDecisionReason: d.reason });
}

/**
 * The answer after a bash call: `modifiedResult` with the plugins' replacement text (a
 * failure's exit-code trailer kept after it), and their context as `additionalContext`.
 */
export function copilotPostToolAnswer(
  a: PostToolAnswer | null,
  ev: HostEvent & { event: "PostToolUse" },
): string {
  if (!a) return "";
  const out: Record<string, unknown> = {};
  if (a.text !== undefined && ev.result) {
    const trailer = ev.result.exitCode ? _trailers.get(ev) ?? "" : "";
    out.modifiedResult = { resultType: "success", textResultForLlm: a.text + trailer };
  }
  if (a.context) out.additionalContext = a.context;
  return Object.keys(out).length ? JSON.stringify(out) : "";
}

/** The hook protocol. */
export const ADAPTER: HostAdapter = {
  id: "copilot",
  name: "GitHub Copilot CLI",
  readEvent: readCopilotEvent,
  preToolAnswer: (d) => copilotPreToolAnswer(d),
  postToolAnswer: copilotPostToolAnswer,
};

// ---------------------------------------------------------------------------------------
// The installer

/** Copilot's home: `$COPILOT_HOME`, else `~/.copilot`. */
export function copilotHome(env: Readonly<Record<string, string | undefined>>): string {
  return hostHome(env, "COPILOT_HOME", ".copilot", "Copilot");
}

/** The hook command rtok installs. */
export function copilotHookCommand(rtok: string): string {
  return hostHookCommand(rtok, "copilot");
}

/** True for a hook entry rtok installed (`… rtok hook copilot`, or Deno running cli.ts). */
export function isRtokCopilotEntry(entry: unknown): boolean {
  if (!isObject(entry) || entry.type !== "command" || typeof entry.bash !== "string") {
    return false;
  }
  return runsRtokHook(entry.bash, "copilot");
}

/** Where a JSON text fails to parse, as a one-line reason naming the line. */
export function jsonErrorReason(text: string, error: Error): string {
  const reason = error.message.replace(/\s+/g, " ").replace(/, \.\.\.".*$/, "").slice(0, 80);
  return `line ${jsonErrorLine(text) ?? 1}: ${reason}`;
}

interface _Read {
  readonly text: string | null;
  readonly config: Record<string, unknown> | null;
}

async function _readConfig(path: string): Promise<_Read> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { text: null, config: null };
    throw new Error(`Cannot read "${path}": ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new SyntaxError(
      `Cannot edit "${path}": not valid JSON at ${jsonErrorReason(text, e as Error)}; ` +
        "fix it or move it aside, then run rtok init --host copilot again",
    );
  }
  if (!isObject(value) || (value.hooks !== undefined && !isObject(value.hooks))) {
    throw new SyntaxError(
      `Cannot edit "${path}": line 1: not a Copilot hooks file (an object with a "hooks" ` +
        "object); fix it or move it aside, then run rtok init --host copilot again",
    );
  }
  return { text, config: value };
}

function _entries(config: Record<string, unknown>, event: string): unknown[] {
  const hooks = config.hooks as Record<string, unknown> | undefined;
  const list = hooks?.[event];
  return Array.isArray(list) ? list : [];
}

/** The content of rtok's hooks file for `rtok`. */
export function copilotHooksConfig(rtok: string): Record<string, unknown> {
  return {
    version: 1,
    hooks: {
      postToolUse: [{
        type: "command",
        bash: copilotHookCommand(rtok),
        timeoutSec: COPILOT_HOOK_TIMEOUT_SEC,
      }],
    },
  };
}

function _render(config: Record<string, unknown>): string {
  return JSON.stringify(config, null, 2) + "\n";
}

// `config` without rtok's entries: events left empty and a hooks object left empty go too.
function _without(config: Record<string, unknown>): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const [event, list] of Object.entries((config.hooks ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(list)) {
      hooks[event] = list;
      continue;
    }
    const kept = list.filter((e) => !isRtokCopilotEntry(e));
    if (kept.length) hooks[event] = kept;
  }
  const out: Record<string, unknown> = { ...config };
  if (Object.keys(hooks).length) out.hooks = hooks;
  else delete out.hooks;
  return out;
}

// Only rtok's own content is left: the file can go.
function _onlyRtok(config: Record<string, unknown>): boolean {
  const rest = _without(config);
  return Object.keys(rest).every((k) => k === "version");
}

async function _isEmptyDir(path: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(path)) return false;
    return true;
  } catch {
    return false;
  }
}

/** What the installer reads besides files: the installed Copilot's version. */
export interface CopilotInstallerDeps {
  /** The installed `copilot --version` (`1.0.102`), or `null` when none is found. */
  readonly version?: () => Promise<string | null>;
}

/** The installed Copilot CLI's version from `copilot --version` on PATH, or `null`. */
export function installedCopilotVersion(): Promise<string | null> {
  return installedVersion("copilot", { COPILOT_AUTO_UPDATE: "false", COPILOT_OFFLINE: "true" });
}

async function _install(opts: InstallOptions): Promise<InstallResult> {
  const home = copilotHome(opts.env);
  const dir = `${home}/hooks`;
  const path = `${dir}/${COPILOT_HOOKS_FILE}`;
  const { text, config } = await _readConfig(path);
  const changes: FileChange[] = [];
  const notes: string[] = [];
  if (opts.uninstall) {
    if (text === null || config === null) {
      return { changes, notes: [`no rtok hooks in ${path}: nothing to remove`] };
    }
    const hooks = (config.hooks ?? {}) as Record<string, unknown>;
    if (!Object.keys(hooks).some((ev) => _entries(config, ev).some(isRtokCopilotEntry))) {
      return { changes, notes: [`no rtok hooks in ${path}: nothing to remove`] };
    }
    // A file rtok added to goes back to the bytes it had, when only rtok's entries changed.
    const after = await originalBackup(path, _without(config)) ??
      (_onlyRtok(config) ? null : _render(_without(config)));
    changes.push({ path, before: text, after });
    if (!opts.dryRun) {
      if (after === null) {
        await Deno.remove(path);
        // The hooks directory rtok made goes too, when nothing else is in it.
        if (await _isEmptyDir(dir)) await Deno.remove(dir).catch(() => {});
      } else {
        notes.push(
          `backed up ${path} to ${await backupFile(path, new TextEncoder().encode(text))}`,
        );
        await writeAtomic(path, after);
      }
    }
    notes.push("Copilot CLI no longer runs rtok after its bash calls");
    return { changes, notes };
  }
  const entry = copilotHooksConfig(opts.rtok);
  const wanted = (entry.hooks as Record<string, unknown[]>).postToolUse[0];
  let after: string;
  if (config === null) after = _render(entry);
  else {
    const rest = _without(config);
    const hooks = { ...(rest.hooks ?? {}) as Record<string, unknown> };
    const post = Array.isArray(hooks.postToolUse) ? hooks.postToolUse : [];
    hooks.postToolUse = [...post, wanted];
    after = _render({ ...rest, hooks });
  }
  if (text !== null && canonicalJson(JSON.parse(text)) === canonicalJson(JSON.parse(after))) {
    notes.push(`rtok's hook is already installed in ${path}`);
  } else {
    changes.push({ path, before: text, after });
    if (!opts.dryRun) {
      if (text !== null) {
        notes.push(
          `backed up ${path} to ${await backupFile(path, new TextEncoder().encode(text))}`,
        );
      }
      await writeAtomic(path, after);
    }
  }
  notes.push(
    `Copilot CLI runs "${copilotHookCommand(opts.rtok)}" after each bash call, in every mode: ` +
      "rtok replaces the output of a command it filters (git log, grep, ls…) or compresses a " +
      "long one, and keeps the raw bytes for rtok expand",
    "not done: rtok does not rewrite Copilot's commands before they run (Copilot would check " +
      "its permission rules against the rewritten command, not the agent's); it filters their " +
      "output instead",
  );
  return { changes, notes };
}

async function _doctor(
  opts: Pick<InstallOptions, "rtok" | "env" | "cwd">,
  version: () => Promise<string | null>,
): Promise<HostCheck[]> {
  let path: string;
  try {
    path = `${copilotHome(opts.env)}/hooks/${COPILOT_HOOKS_FILE}`;
  } catch {
    return [];
  }
  const [installed, read] = await Promise.all([
    version(),
    _readConfig(path).then((r) => ({ r, error: null }), (e: Error) => ({ r: null, error: e })),
  ]);
  const configured = read.error !== null || read.r?.text !== null;
  if (installed === null && !configured) return [];
  const checks: HostCheck[] = [];
  const hooks = "copilot hooks";
  if (read.error) {
    checks.push({ status: "FAIL", label: hooks, detail: read.error.message });
  } else if (read.r?.config == null) {
    checks.push({
      status: "warn",
      label: hooks,
      detail: `not installed (no ${path}); run rtok init --host copilot`,
    });
  } else {
    const config = read.r.config;
    const ours = _entries(config, "postToolUse").filter(isRtokCopilotEntry);
    const stray = Object.keys((config.hooks ?? {}) as Record<string, unknown>)
      .filter((ev) => ev !== "postToolUse" && _entries(config, ev).some(isRtokCopilotEntry));
    const want = copilotHookCommand(opts.rtok);
    const exact = ours.find((e) => (e as Record<string, unknown>).bash === want) as
      | Record<string, unknown>
      | undefined;
    if (ours.length === 0) {
      checks.push({
        status: "warn",
        label: hooks,
        detail: `${path} has no rtok postToolUse hook; run rtok init --host copilot`,
      });
    } else if ((config.version ?? 1) !== 1 || stray.length || !exact || ours.length > 1) {
      const why = (config.version ?? 1) !== 1
        ? `"version" is ${JSON.stringify(config.version)}, not 1`
        : stray.length
        ? `rtok's hook is also under ${stray.join(", ")}, which rtok does not answer`
        : ours.length > 1
        ? "rtok's postToolUse hook is there more than once"
        : `the hook runs "${(ours[0] as Record<string, unknown>).bash}", not "${want}"`;
      checks.push({
        status: "warn",
        label: hooks,
        detail: `${path} differs from the format rtok installs: ${why}; run rtok init --host ` +
          "copilot again",
      });
    } else if (exact.type !== "command" || (exact.timeoutSec ?? 30) !== 30) {
      checks.push({
        status: "warn",
        label: hooks,
        detail: `${path}: rtok's entry has unexpected fields; run rtok init --host copilot again`,
      });
    } else {
      checks.push({
        status: "ok",
        label: hooks,
        detail: `postToolUse runs "${want}" after each bash call (${path})`,
      });
    }
  }
  const label = "copilot version";
  if (installed === null) {
    checks.push({
      status: "warn",
      label,
      detail: "copilot was not found on PATH (or did not answer --version): the hook runs " +
        "only inside Copilot CLI",
    });
  } else if (installed === COPILOT_VERIFIED_VERSION) {
    checks.push({
      status: "ok",
      label,
      detail: `Copilot CLI ${installed}, the release rtok's hook format was verified with`,
    });
  } else {
    checks.push({
      status: "warn",
      label,
      detail: `Copilot CLI ${installed}; rtok's hook format was verified with ` +
        `${COPILOT_VERIFIED_VERSION} only: check that a git log's output still comes back filtered`,
    });
  }
  return checks;
}

/** An installer whose version probe is `deps.version` (`copilot --version` by default). */
export function copilotInstaller(deps: CopilotInstallerDeps = {}): HostInstaller {
  const version = deps.version ?? installedCopilotVersion;
  return {
    install: _install,
    doctor: (opts) => _doctor(opts, version),
  };
}

/** The installer. */
export const INSTALLER: HostInstaller = copilotInstaller();
