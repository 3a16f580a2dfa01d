/**
 * The GitHub Copilot CLI host's hook protocol (`copilot`, verified with the release `HOSTS`
 * names; see `scripts/probe/copilot.md`). Copilot runs a command hook with one JSON object on stdin
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

import type { PostToolAnswer, PreToolDecision } from "../../core/plugin.ts";
import type { ToolResult } from "../../core/tool_result.ts";
import { isObject } from "../shared.ts";
import { type HostAdapter, type HostEvent, readJsonObject } from "../host.ts";

/** Copilot's name for its shell tool. */
export const COPILOT_SHELL_TOOL = "bash";

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
  readEvent: readCopilotEvent,
  preToolAnswer: (d) => copilotPreToolAnswer(d),
  postToolAnswer: copilotPostToolAnswer,
};
