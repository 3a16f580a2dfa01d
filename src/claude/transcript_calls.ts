/**
 * A Claude Code transcript read as conversations, for `rtok replay`: in each, in order, what the
 * user asked, what the agent wrote (its text, its tool calls with their inputs), what each tool
 * returned (the text the model was sent and, where the line carries it, the tool's own
 * structured output `toolUseResult`), what PostToolUse hooks added beside a result, the API
 * requests the agent made, and compactions.
 *
 * One file may hold several conversations: a 1.0.x or 2.0 session file also carries its
 * subagents' sidechains (`isSidechain: true`), each a conversation of its own (by `agentId`
 * when the line says). Every layout and version seen is read: 1.0.x lines (`toolUseResult`
 * absent, or a string, and Grep results without a `mode`), 2.0 and 2.1. A line that is not JSON,
 * or of a shape rtok does not know, is skipped and counted, never thrown.
 *
 * @module
 */

import {
  isObject,
  type LineCounts,
  NON_MESSAGE_LINES,
  toolResultText,
  typedLines,
} from "./_transcript_line.ts";

/** One thing that happened in a conversation. */
export type ConversationItem =
  | {
    /** Words the user wrote. */
    readonly kind: "prompt";
    /** The text. */
    readonly text: string;
  }
  | {
    /** Text the agent wrote in its answer. */
    readonly kind: "say";
    /** The text. */
    readonly text: string;
  }
  | {
    /** A tool call the agent made. */
    readonly kind: "call";
    /** The `tool_use` id. */
    readonly id: string;
    /** The tool's name. */
    readonly tool: string;
    /** Its input. */
    readonly input: Readonly<Record<string, unknown>>;
    /** When (ISO), when the line says. */
    readonly at: string | null;
  }
  | {
    /** What a tool call returned. */
    readonly kind: "result";
    /** The `tool_use` id it answers. */
    readonly id: string;
    /** The text the model was sent (text blocks joined by newlines). */
    readonly text: string;
    /** The chars the model was sent (text blocks as they are). */
    readonly chars: number;
    /** True when Claude Code marked it an error. */
    readonly isError: boolean;
    /** The tool's structured output (`toolUseResult`), when the line carries an object. */
    readonly structured: Record<string, unknown> | null;
    /** When (ISO), when the line says. */
    readonly at: string | null;
  }
  | {
    /** One API request: the agent's next message began (every later request re-sends all). */
    readonly kind: "request";
  }
  | {
    /** Context was compacted: what came before is no longer re-sent. */
    readonly kind: "compact";
  };

/** One conversation: the session's own, or a subagent's. */
export interface Conversation {
  /** `main`, or the subagent's id (`agentId`, else `sidechain`). */
  readonly key: string;
  /** Its items, in order. */
  readonly items: ConversationItem[];
  /** The working directory its lines name (the first one seen), else `null`. */
  cwd: string | null;
  /** What PostToolUse hooks added to the context beside a call's result, by `tool_use` id. */
  readonly contexts: Map<string, string>;
}

/** A transcript file, read. */
export interface TranscriptConversations {
  /** Its conversations, the main one first. */
  readonly conversations: Conversation[];
  /** The Claude Code versions its lines name. */
  readonly versions: string[];
  /** The newest line time (ISO), when any line has one. */
  readonly last: string | null;
  /** Non-empty lines read. */
  readonly lines: number;
  /** Lines that were not JSON. */
  readonly badLines: number;
  /** JSON lines of a shape rtok does not know. */
  readonly unknownLines: number;
  /** True when at least one line was a `user` or `assistant` message. */
  readonly known: boolean;
}

// Prompt text Claude Code writes itself in a user line.
const _NOT_THE_USER =
  /^\s*<(?:command-name|command-message|command-args|local-command-|system-reminder|bash-|user-prompt-submit-hook)/;

/** Reads transcript `text` (JSONL) into conversations. `agent` names a subagent's own file. */
export function readConversations(
  text: string,
  agent: string | null = null,
): TranscriptConversations {
  const by = new Map<string, Conversation>();
  const versions = new Set<string>();
  // Per conversation, the message id of its last line when that line was the agent's.
  const seenMessages = { last: new Map<string, string | null>() };
  let last: string | null = null;
  const counts: LineCounts = { lines: 0, badLines: 0, unknownLines: 0 };
  let known = false;
  const conv = (key: string): Conversation => {
    let c = by.get(key);
    if (!c) {
      c = { key, items: [], cwd: null, contexts: new Map() };
      by.set(key, c);
    }
    return c;
  };
  for (const read of typedLines(text, counts)) {
    const row = read.value;
    if (typeof row.version === "string") versions.add(row.version);
    if (typeof row.timestamp === "string" && (last === null || row.timestamp > last)) {
      last = row.timestamp;
    }
    const key = agent ??
      (row.isSidechain === true
        ? (typeof row.agentId === "string" ? row.agentId : "sidechain")
        : "main");
    if (read.type === "system") {
      if (row.subtype === "compact_boundary") conv(key).items.push({ kind: "compact" });
      continue;
    }
    if (read.type === "attachment") {
      _attachment(row.attachment, conv(key));
      continue;
    }
    if (read.type !== "user" && read.type !== "assistant") {
      if (!NON_MESSAGE_LINES.has(read.type)) counts.unknownLines++;
      continue;
    }
    const c = conv(key);
    if (c.cwd === null && typeof row.cwd === "string") c.cwd = row.cwd;
    const message = row.message;
    if (!isObject(message)) {
      counts.unknownLines++;
      continue;
    }
    known = true;
    const at = typeof row.timestamp === "string" ? row.timestamp : null;
    if (read.type === "assistant") {
      _assistant(message, c, at, seenMessages);
    } else {
      seenMessages.last.set(key, null);
      if (!_user(row, message, c, at)) counts.unknownLines++;
    }
  }
  const conversations = [...by.values()].sort((a, b) =>
    a.key === "main" ? -1 : b.key === "main" ? 1 : 0
  );
  return {
    conversations,
    versions: [...versions].sort(),
    last,
    ...counts,
    known,
  };
}

// A hook's added context beside a tool result (`hook_additional_context`, 2.1).
function _attachment(a: unknown, c: Conversation): void {
  if (!isObject(a) || a.type !== "hook_additional_context" || typeof a.toolUseID !== "string") {
    return;
  }
  const content = Array.isArray(a.content)
    ? a.content.filter((x) => typeof x === "string").join("\n")
    : typeof a.content === "string"
    ? a.content
    : "";
  if (content === "") return;
  const before = c.contexts.get(a.toolUseID);
  c.contexts.set(a.toolUseID, before ? `${before}\n${content}` : content);
}

function _assistant(
  message: Record<string, unknown>,
  c: Conversation,
  at: string | null,
  seen: { last: Map<string, string | null> },
): void {
  // Claude Code writes one line per content block of a message, one after another: a line
  // begins a new request unless the line before it in the conversation was its message's.
  const id = typeof message.id === "string" ? message.id : null;
  if (id === null || seen.last.get(c.key) !== id) c.items.push({ kind: "request" });
  seen.last.set(c.key, id);
  const content = message.content;
  if (typeof content === "string") {
    if (content.trim()) c.items.push({ kind: "say", text: content });
    return;
  }
  if (!Array.isArray(content)) return;
  for (const b of content) {
    if (!isObject(b)) continue;
    if (b.type === "text" && typeof b.text === "string" && b.text.trim()) {
      c.items.push({ kind: "say", text: b.text });
    } else if (b.type === "tool_use" && typeof b.id === "string" && typeof b.name === "string") {
      c.items.push({
        kind: "call",
        id: b.id,
        tool: b.name,
        input: isObject(b.input) ? b.input : {},
        at,
      });
    }
  }
}

// The user line's facts; false when its shape is not known.
function _user(
  row: Record<string, unknown>,
  message: Record<string, unknown>,
  c: Conversation,
  at: string | null,
): boolean {
  if (row.isCompactSummary === true) {
    c.items.push({ kind: "compact" });
    return true;
  }
  const own = row.isMeta === true || row.isVisibleInTranscriptOnly === true;
  const content = message.content;
  if (typeof content === "string") {
    if (!own && !_NOT_THE_USER.test(content) && content.trim()) {
      c.items.push({ kind: "prompt", text: content });
    }
    return true;
  }
  if (!Array.isArray(content)) return false;
  const structured = isObject(row.toolUseResult) ? row.toolUseResult : null;
  const results = content.filter((b) => isObject(b) && b.type === "tool_result");
  for (const b of content) {
    if (!isObject(b)) continue;
    if (b.type === "tool_result" && typeof b.tool_use_id === "string") {
      c.items.push({
        kind: "result",
        id: b.tool_use_id,
        text: toolResultText(b.content),
        chars: toolResultText(b.content, "").length,
        isError: b.is_error === true,
        // A line's `toolUseResult` is its one tool result's; with several it is no one's.
        structured: results.length === 1 ? structured : null,
        at,
      });
    } else if (b.type === "text" && typeof b.text === "string" && !own) {
      if (!_NOT_THE_USER.test(b.text) && b.text.trim()) {
        c.items.push({ kind: "prompt", text: b.text });
      }
    }
  }
  return true;
}
