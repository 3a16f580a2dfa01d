/**
 * Claude Code's session transcript (`~/.claude/projects/<mangled cwd>/<session>.jsonl`, the
 * hook payload's `transcript_path`), read into what a digest needs: the user's own prompts,
 * the tool calls and their results. One JSON object a line; rtok reads lines of `type`
 * `user` and `assistant` (their `message` is an Anthropic Messages message) and passes over
 * the kinds it has no use for (`attachment`, `system`, `queue-operation`…). A line that is not
 * JSON, or not an object with a `type`, is skipped and counted, never thrown.
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

/** One fact of the session, in transcript order. */
export type TranscriptEntry =
  | {
    /** A prompt the user wrote. */
    readonly kind: "prompt";
    /** Its text, as written. */
    readonly text: string;
  }
  | {
    /** A tool call the model asked for. */
    readonly kind: "call";
    /** Its `tool_use` id. */
    readonly id: string;
    /** The tool's name. */
    readonly tool: string;
    /** Its input. */
    readonly input: Readonly<Record<string, unknown>>;
  }
  | {
    /** What a tool call returned. */
    readonly kind: "result";
    /** The `tool_use` id it answers. */
    readonly id: string;
    /** Its text. */
    readonly text: string;
    /** True when Claude Code marked it an error. */
    readonly isError: boolean;
  };

/** A transcript, read. */
export interface Transcript {
  /** The facts, in order. */
  readonly entries: readonly TranscriptEntry[];
  /** Non-empty lines read. */
  readonly lines: number;
  /** Lines that were not JSON (a torn last line, another program's file), skipped. */
  readonly badLines: number;
  /** JSON lines of a shape rtok does not know (no `type`, a message without content), skipped. */
  readonly unknownLines: number;
}

// Prompt text Claude Code writes itself in a user line: slash-command echoes, their output,
// caveats and reminders.
const _NOT_THE_USER =
  /^\s*<(?:command-name|command-message|local-command-|system-reminder|bash-|user-prompt-submit-hook)/;

/** Reads transcript `text` (JSONL). Never throws. */
export function readTranscript(text: string): Transcript {
  const entries: TranscriptEntry[] = [];
  const counts: LineCounts = { lines: 0, badLines: 0, unknownLines: 0 };
  for (const read of typedLines(text, counts)) {
    const row = read.value;
    if (read.type !== "user" && read.type !== "assistant") {
      if (read.type !== "attachment" && !NON_MESSAGE_LINES.has(read.type)) counts.unknownLines++;
      continue;
    }
    if (!_read(row, entries)) counts.unknownLines++;
  }
  return { entries, ...counts };
}

// Adds the facts of one user or assistant line; false when its shape is not known.
function _read(row: Record<string, unknown>, out: TranscriptEntry[]): boolean {
  const message = row.message;
  if (!isObject(message)) return false;
  const content = message.content;
  if (row.type === "user") {
    // Claude Code's own lines (a compaction summary, a meta note) are not the user's words.
    const own = row.isMeta === true || row.isCompactSummary === true ||
      row.isVisibleInTranscriptOnly === true || row.isSidechain === true;
    if (typeof content === "string") {
      if (!own && !_NOT_THE_USER.test(content) && content.trim()) {
        out.push({ kind: "prompt", text: content });
      }
      return true;
    }
    if (!Array.isArray(content)) return false;
    for (const b of content) {
      if (!isObject(b)) continue;
      if (b.type === "tool_result" && typeof b.tool_use_id === "string") {
        out.push({
          kind: "result",
          id: b.tool_use_id,
          text: toolResultText(b.content),
          isError: b.is_error === true,
        });
      } else if (b.type === "text" && typeof b.text === "string" && !own) {
        if (!_NOT_THE_USER.test(b.text) && b.text.trim()) {
          out.push({ kind: "prompt", text: b.text });
        }
      }
    }
    return true;
  }
  if (!Array.isArray(content)) return typeof content === "string";
  if (row.isSidechain === true) return true;
  for (const b of content) {
    if (!isObject(b) || b.type !== "tool_use") continue;
    if (typeof b.id !== "string" || typeof b.name !== "string") continue;
    out.push({
      kind: "call",
      id: b.id,
      tool: b.name,
      input: isObject(b.input) ? b.input : {},
    });
  }
  return true;
}

/** What reading a transcript file came to: the transcript, or why there is none. */
export type TranscriptRead =
  | { readonly ok: true; readonly transcript: Transcript }
  | { readonly ok: false; readonly reason: string };

/** The largest transcript read whole; a longer one is read from its last this-many bytes. */
export const MAX_TRANSCRIPT_BYTES: number = 64 * 1024 * 1024;

/**
 * Reads the transcript at `path`: its last {@linkcode MAX_TRANSCRIPT_BYTES} when longer (the
 * first line read then is usually torn, and counted bad). Never throws: a missing or
 * unreadable file is a reason.
 */
export function readTranscriptFile(path: string | undefined): TranscriptRead {
  if (!path) return { ok: false, reason: "the event names no transcript" };
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (e) {
    return { ok: false, reason: `the transcript cannot be read: ${(e as Error).message}` };
  }
  try {
    const size = file.statSync().size;
    if (size <= MAX_TRANSCRIPT_BYTES) {
      // The runtime's own read and decode: no buffer of ours to copy.
      return { ok: true, transcript: readTranscript(Deno.readTextFileSync(path)) };
    }
    const from = size - MAX_TRANSCRIPT_BYTES;
    file.seekSync(from, Deno.SeekMode.Start);
    const buf = new Uint8Array(size - from);
    let off = 0;
    while (off < buf.length) {
      const n = file.readSync(buf.subarray(off));
      if (n === null) break;
      off += n;
    }
    return { ok: true, transcript: readTranscript(new TextDecoder().decode(buf.subarray(0, off))) };
  } catch (e) {
    return { ok: false, reason: `the transcript cannot be read: ${(e as Error).message}` };
  } finally {
    file.close();
  }
}
