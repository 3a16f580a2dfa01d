/**
 * The Codex CLI host's hook protocol (`codex`, verified with the release `HOSTS` names; see
 * `scripts/probe/codex.md`). Codex runs
 * a command hook with one JSON object on stdin (`session_id`, `turn_id`, `transcript_path`,
 * `cwd`, `hook_event_name`, `tool_name`, `tool_input`, `tool_use_id`, and after the call
 * `tool_response`) and reads one JSON object from its stdout. rtok installs one `PostToolUse`
 * hook (matcher `Bash`, Codex's name for its shell tool `exec_command`) in
 * `$CODEX_HOME/hooks.json`, trusts it in `config.toml` the way Codex's own `/hooks` screen
 * does, and answers a finished shell call with `{"decision":"block","reason":<rtok's text>}`:
 * the one answer that puts a hook's text in place of the output the model sees.
 *
 * It rewrites no command before it runs: Codex takes a rewrite (`updatedInput`) only with
 * `permissionDecision: "allow"`, which would grant what Codex may have asked about, and the
 * command would then run in Codex's sandbox, where `rtok` cannot write its archive.
 *
 * @module
 */

import type { PostToolAnswer, PreToolDecision } from "../../core/plugin.ts";
import type { ToolResult } from "../../core/tool_result.ts";
import { isObject } from "../shared.ts";
import { type HostAdapter, type HostEvent, readJsonObject } from "../host.ts";

/** The tool name Codex's hooks give its shell tool (and the matcher rtok installs). */
export const CODEX_SHELL_TOOL: string = "Bash";

const _HOST = "codex";

// How much of the transcript's end is read for the call's exit code.
const _TAIL_BYTES = 512 * 1024;

// The exit codes of finished calls, for an answer that keeps a failure's exit code in sight.
const _exits = new WeakMap<object, number>();

function _string(p: Record<string, unknown>, key: string): string | null {
  return typeof p[key] === "string" && p[key] !== "" ? p[key] as string : null;
}

function _input(p: Record<string, unknown>): Record<string, unknown> {
  if (!isObject(p.tool_input)) {
    throw new TypeError(`${_HOST}: the event's tool_input is not an object`);
  }
  return p.tool_input;
}

function _command(input: Record<string, unknown>): string {
  if (typeof input.command !== "string") {
    throw new TypeError(`${_HOST}: the Bash call's tool_input has no command string`);
  }
  return input.command;
}

// The last `size` bytes of a file, as text from its first whole line.
function _tail(path: string, size: number): string {
  using f = Deno.openSync(path, { read: true });
  const length = f.statSync().size;
  const start = Math.max(0, length - size);
  f.seekSync(start, Deno.SeekMode.Start);
  const buf = new Uint8Array(length - start);
  let at = 0;
  while (at < buf.length) {
    const n = f.readSync(buf.subarray(at));
    if (n === null || n === 0) break;
    at += n;
  }
  const text = new TextDecoder().decode(buf.subarray(0, at));
  return start === 0 ? text : text.slice(text.indexOf("\n") + 1);
}

/**
 * The exit code Codex recorded for the shell call `callId` in its session transcript (the
 * `item_completed` event of its `CommandExecution`, written before PostToolUse runs), or
 * `null` when the transcript does not say (a call still running, a file it cannot read).
 */
export function transcriptExitCode(transcript: string, callId: string): number | null {
  let text: string;
  try {
    text = _tail(transcript, _TAIL_BYTES);
  } catch {
    return null;
  }
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (!line.includes(callId) || !line.includes("CommandExecution")) continue;
    try {
      const item = (JSON.parse(line) as { payload?: { item?: Record<string, unknown> } })
        .payload?.item;
      if (item?.type !== "CommandExecution" || item.id !== callId) continue;
      return typeof item.exit_code === "number" ? item.exit_code : null;
    } catch { /* a line cut short: not this one */ }
  }
  return null;
}

/**
 * A finished shell call's result, host-neutral: `tool_response` as the output and the exit
 * code the transcript gives; `null` when the output is not text or the exit code is unknown.
 */
export function readShellResult(
  command: string,
  response: unknown,
  exitCode: number | null,
): ToolResult | null {
  if (typeof response !== "string" || exitCode === null) return null;
  return { kind: "shell", tool: CODEX_SHELL_TOOL, text: response, command, exitCode };
}

/** Reads one Codex hook payload; throws a one-line `TypeError` for a shape it does not know. */
export function readCodexEvent(input: Uint8Array, cwd: string): HostEvent {
  const p = readJsonObject(input, _HOST);
  const name = _string(p, "hook_event_name");
  if (name === null) {
    throw new TypeError(`${_HOST}: the event has no hook_event_name`);
  }
  const session = _string(p, "session_id");
  const where = _string(p, "cwd") ?? cwd;
  const callId = _string(p, "tool_use_id");
  const call = callId ? { callId } : {};
  if (name !== "PreToolUse" && name !== "PostToolUse") {
    return { event: "Other", name, session, cwd: where, ...call };
  }
  const tool = _string(p, "tool_name");
  if (tool === null) throw new TypeError(`${_HOST}: the ${name} event has no tool_name`);
  if (tool !== CODEX_SHELL_TOOL) {
    return { event: "Other", name: `${name}:${tool}`, session, cwd: where, ...call };
  }
  const args = _input(p);
  const command = _command(args);
  if (name === "PreToolUse") {
    return { event: "PreToolUse", command, input: args, session, cwd: where, ...call };
  }
  if (!("tool_response" in p)) {
    throw new TypeError(`${_HOST}: the PostToolUse event has no tool_response`);
  }
  const transcript = _string(p, "transcript_path");
  const exit = transcript && callId ? transcriptExitCode(transcript, callId) : null;
  const result = readShellResult(command, p.tool_response, exit);
  const ev: HostEvent = {
    event: "PostToolUse",
    tool,
    input: args,
    result,
    session,
    cwd: where,
    ...call,
  };
  if (result && exit !== null) _exits.set(ev, exit);
  return ev;
}

/**
 * The answer before a shell call: a deny as Codex's `permissionDecision`, and nothing for a
 * rewrite (Codex applies `updatedInput` only with `permissionDecision: "allow"`, which rtok
 * never grants, and the rewritten command would run in Codex's sandbox).
 */
export function codexPreToolAnswer(d: PreToolDecision | null): string {
  if (d?.kind !== "deny") return "";
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: d.reason.trim() || "denied by rtok",
    },
  });
}

/**
 * The answer after a shell call: `decision: "block"` with the plugins' replacement text as
 * the `reason` (Codex hands the model exactly that text in place of the output; a failure's
 * exit code goes first, as Codex's own output shows it), and their context as
 * `additionalContext`.
 */
export function codexPostToolAnswer(
  a: PostToolAnswer | null,
  ev: HostEvent & { event: "PostToolUse" },
): string {
  if (!a) return "";
  const out: Record<string, unknown> = {};
  if (a.text !== undefined && ev.result && a.text.trim() !== "") {
    const exit = _exits.get(ev) ?? 0;
    out.decision = "block";
    out.reason = exit === 0 ? a.text : `Process exited with code ${exit}\nOutput:\n${a.text}`;
  }
  if (a.context) {
    out.hookSpecificOutput = { hookEventName: "PostToolUse", additionalContext: a.context };
  }
  return Object.keys(out).length ? JSON.stringify(out) : "";
}

/** The hook protocol. */
export const ADAPTER: HostAdapter = {
  id: "codex",
  readEvent: readCodexEvent,
  preToolAnswer: (d) => codexPreToolAnswer(d),
  postToolAnswer: codexPostToolAnswer,
};
