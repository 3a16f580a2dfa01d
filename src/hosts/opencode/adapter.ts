/**
 * The OpenCode host (`opencode-ai` on npm). OpenCode has no command hooks; rtok installs one
 * plain-JavaScript plugin file (`plugin.ts`) into its plugins folder, which sends each
 * finished `bash` call to `rtok hook opencode` as one JSON event (rtok's own protocol, read
 * here) and puts rtok's answer in place of the output. Commands are not rewritten: OpenCode
 * runs `tool.execute.before` before its own permission check, which would then judge the
 * rewritten command against the user's `permission.bash` rules instead of the agent's.
 * Verified with the OpenCode release `HOSTS` names (`scripts/probe/opencode.md`).
 *
 * @module
 */

import type { PostToolAnswer } from "../../core/plugin.ts";
import type { ToolResult } from "../../core/tool_result.ts";
import { joinPath } from "../../core/paths.ts";
import { isObject } from "../shared.ts";
import { type HostAdapter, type HostEvent, readJsonObject } from "../host.ts";

/** The event the plugin sends for a finished tool call. */
export const AFTER_EVENT = "tool.execute.after";

/** The event OpenCode fires before a tool runs (rtok's plugin does not send it). */
export const BEFORE_EVENT = "tool.execute.before";

/** OpenCode's shell tool. */
export const SHELL_TOOL = "bash";

const _HOST = "opencode";

function _resolve(dir: string, path: string): string {
  return path.startsWith("/") ? path : joinPath(dir, path);
}

// The result rtok may cut: a bash call's whole output, exit code known. A truncated output
// (OpenCode kept the rest in a file), or one ended by a timeout or an abort, is left alone.
function _shellResult(
  tool: string,
  args: Record<string, unknown>,
  output: string,
  meta: Record<string, unknown>,
): ToolResult | null {
  if (tool !== SHELL_TOOL || typeof args.command !== "string") return null;
  if (meta.truncated === true || typeof meta.exit !== "number") return null;
  if (output.includes("\n<shell_metadata>\n")) return null;
  return { kind: "shell", tool, text: output, command: args.command, exitCode: meta.exit };
}

/** Reads one event of rtok's OpenCode plugin (see `plugin.ts`). */
export function readOpenCodeEvent(input: Uint8Array, cwd: string): HostEvent {
  const p = readJsonObject(input, _HOST);
  const event = p.event;
  if (typeof event !== "string") throw new TypeError(`${_HOST}: the event has no "event" name`);
  const session = typeof p.sessionID === "string" ? p.sessionID : null;
  const dir = typeof p.directory === "string" && p.directory.startsWith("/") ? p.directory : cwd;
  const callId = typeof p.callID === "string" ? { callId: p.callID } : {};
  if (event === BEFORE_EVENT) return { event: "Other", name: event, session, cwd: dir, ...callId };
  if (event !== AFTER_EVENT) throw new TypeError(`${_HOST}: unknown event "${event}"`);
  if (typeof p.tool !== "string") throw new TypeError(`${_HOST}: ${event} has no tool name`);
  if (!isObject(p.args)) throw new TypeError(`${_HOST}: ${event} of ${p.tool} has no args object`);
  if (typeof p.output !== "string") {
    throw new TypeError(`${_HOST}: ${event} of ${p.tool} has no string output`);
  }
  if (!isObject(p.metadata) || !("exit" in p.metadata)) {
    throw new TypeError(`${_HOST}: ${event} of ${p.tool} has no metadata.exit`);
  }
  const args = p.args;
  const workdir = typeof args.workdir === "string" && args.workdir ? args.workdir : null;
  return {
    event: "PostToolUse",
    session,
    cwd: workdir ? _resolve(dir, workdir) : dir,
    ...callId,
    tool: p.tool,
    input: args,
    result: _shellResult(p.tool, args, p.output, p.metadata),
  };
}

/** The plugin's answer to a finished call: `{"output": <replacement>}`, or `""` to leave it. */
export function openCodePostAnswer(
  a: PostToolAnswer | null,
  ev: HostEvent & { event: "PostToolUse" },
): string {
  if (!a || a.keep || !ev.result) return "";
  const text = a.text ?? ev.result.text;
  const context = a.context ? `\n\n${a.context}` : "";
  if (a.text === undefined && !context) return "";
  return JSON.stringify({ output: text + context });
}

/** The hook protocol of rtok's OpenCode plugin. */
export const ADAPTER: HostAdapter = {
  id: "opencode",
  readEvent: readOpenCodeEvent,
  // No rewrite: the plugin never asks (see the module's note on OpenCode's permission check).
  preToolAnswer: () => "",
  postToolAnswer: openCodePostAnswer,
};
