/**
 * Claude Code's hook protocol, in one place: the events rtok's hook serves (and the tool
 * matcher each needs in the settings), how an event's JSON is read into what the plugins see,
 * and how their answers are written back. The hook surface and `rtok init` both read the one
 * list of events here.
 *
 * @module
 */

import type { PreToolDecision } from "../core/plugin.ts";

/** One event rtok hooks, and the tool matcher its settings group needs. */
export interface HookEvent {
  /** Claude Code's event name. */
  readonly event: string;
  /** The `matcher` of its group, or `null` for events without tool matching. */
  readonly matcher: string | null;
}

/** The events rtok's hook serves, in the order `rtok init` adds them to the settings. */
export const HOOK_EVENTS: readonly HookEvent[] = [
  { event: "PreToolUse", matcher: "Bash" },
  { event: "PostToolUse", matcher: "*" },
  { event: "SessionStart", matcher: null },
  { event: "UserPromptSubmit", matcher: null },
  { event: "PreCompact", matcher: null },
  { event: "Stop", matcher: null },
];

/** The largest event the hook reads. */
export const MAX_HOOK_INPUT: number = 1024 * 1024;

/** One event, read: what the plugins are told, by kind. */
export type ClaudeEvent =
  & {
    /** The session it belongs to, when Claude Code says. */
    readonly session: string | null;
    /** The session's working directory (the hook's own when Claude Code does not say). */
    readonly cwd: string;
    /** The session's transcript (`transcript_path`), when Claude Code says. */
    readonly transcriptPath?: string;
  }
  & (
    | {
      /** The agent is about to call a tool. */
      readonly event: "PreToolUse";
      /** The tool's name (`Bash`, `Read`, `mcp__server__tool`). */
      readonly tool: string;
      /** Its input, as the agent wrote it. */
      readonly input: Record<string, unknown>;
      /** Claude Code's permission mode (`default`, `plan`…), when it says. */
      readonly mode?: string;
      /** The call's `tool_use_id`, when Claude Code says. */
      readonly callId?: string;
    }
    | {
      /** A tool call finished. */
      readonly event: "PostToolUse";
      /** The tool's name. */
      readonly tool: string;
      /** Its input. */
      readonly input: Record<string, unknown>;
      /** What it returned, in the tool's own shape. */
      readonly output: unknown;
      /** The call's `tool_use_id`, when Claude Code says. */
      readonly callId?: string;
    }
    | {
      /** A session starts, or the user sends a prompt. */
      readonly event: "SessionStart" | "UserPromptSubmit";
      /** The prompt, for UserPromptSubmit. */
      readonly prompt?: string;
      /** Why the session starts, for SessionStart (`startup`, `resume`, `clear`, `compact`). */
      readonly source?: string;
    }
    | {
      /** The context is about to be compacted, or the agent stops. */
      readonly event: "PreCompact" | "Stop";
      /** What started a compaction (`manual`, `auto`), for PreCompact. */
      readonly trigger?: string;
    }
  );

/** An event that cannot be read; its message says what is wrong, in one line. */
export class BadHookEvent extends TypeError {
  /** A `BadHookEvent` saying `message`. */
  constructor(message: string) {
    super(message);
    this.name = "BadHookEvent";
  }
}

function _bad(message: string): never {
  throw new BadHookEvent(message);
}

function _field(p: Record<string, unknown>, key: string, type: "string" | "object"): unknown {
  const v = p[key];
  if (type === "string" ? typeof v !== "string" : typeof v !== "object" || v === null) {
    _bad(`the ${p.hook_event_name} event has no "${key}" ${type}`);
  }
  return v;
}

/**
 * The event `input` (the hook's stdin, or an HTTP hook's body) holds. Throws a
 * {@linkcode BadHookEvent} when it is too big, not JSON, not an object, or not an event rtok
 * serves with the fields that event needs. `cwd` stands in when the event names none.
 */
export function readHookEvent(input: Uint8Array, cwd: string): ClaudeEvent {
  if (input.length > MAX_HOOK_INPUT) _bad(`the event is over ${MAX_HOOK_INPUT} bytes; not read`);
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
  const base = {
    session: typeof p.session_id === "string" ? p.session_id : null,
    cwd: typeof p.cwd === "string" ? p.cwd : cwd,
    ...(typeof p.transcript_path === "string" ? { transcriptPath: p.transcript_path } : {}),
  };
  const call = typeof p.tool_use_id === "string" ? { callId: p.tool_use_id } : {};
  switch (event) {
    case "PreToolUse":
      return {
        ...base,
        event,
        tool: _field(p, "tool_name", "string") as string,
        input: _field(p, "tool_input", "object") as Record<string, unknown>,
        mode: typeof p.permission_mode === "string" ? p.permission_mode : undefined,
        ...call,
      };
    case "PostToolUse":
      return {
        ...base,
        event,
        tool: _field(p, "tool_name", "string") as string,
        input: _field(p, "tool_input", "object") as Record<string, unknown>,
        output: p.tool_response,
        ...call,
      };
    case "SessionStart":
    case "UserPromptSubmit":
      return {
        ...base,
        event,
        ...(typeof p.prompt === "string" ? { prompt: p.prompt } : {}),
        ...(typeof p.source === "string" ? { source: p.source } : {}),
      };
    case "PreCompact":
    case "Stop":
      return { ...base, event, ...(typeof p.trigger === "string" ? { trigger: p.trigger } : {}) };
    default: {
      const served = HOOK_EVENTS.map((e) => e.event).join(", ");
      return _bad(`unknown event "${event.slice(0, 60)}"; rtok serves ${served}`);
    }
  }
}

/** The session id of a raw event, read from its first 4 KiB without parsing it; or `null`. */
export function sessionOf(input: Uint8Array): string | null {
  const m = /"session_id"\s*:\s*"([^"\\]{1,200})"/.exec(
    new TextDecoder().decode(input.subarray(0, 4096)),
  );
  return m ? m[1] : null;
}

/** The answer to a PreToolUse event for `d`: one JSON object, or `""` for no opinion. */
export function preToolAnswer(d: PreToolDecision | null): string {
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

/** The answer that adds `text` to the model's context on `event`. */
export function contextAnswer(event: string, text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
}

/**
 * The answer to a PostToolUse event: `context` added to the model's context, `output` in
 * place of the tool's (in the tool's own shape); `""` when there is neither.
 */
export function postToolAnswer(context: string | undefined, output: unknown): string {
  if (!context && output === undefined) return "";
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PostToolUse",
      ...(context ? { additionalContext: context } : {}),
      ...(output !== undefined ? { updatedToolOutput: output } : {}),
    },
  });
}
