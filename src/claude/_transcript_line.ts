/**
 * One line of Claude Code's session transcript (JSONL, as Claude Code 2.1.332 writes it), for
 * the two readers of transcripts: the memory digest's (`transcript.ts`) and discover's counts
 * (`transcript_stats.ts`). Never throws.
 *
 * @module
 */

/**
 * Line kinds Claude Code writes that carry no message, tool call or tool result (its own
 * bookkeeping, copies of whole API requests); `attachment` lines are each reader's choice.
 */
export const NON_MESSAGE_LINES: ReadonlySet<string> = new Set([
  "system",
  "summary",
  "queue-operation",
  "last-prompt",
  "mode",
  "atis-latch",
  "cost-state",
  "tools-used",
  "api-request",
  "api-request-shape",
  "api-request-blob",
  "file-history-snapshot",
  "custom-title",
  "progress",
]);

/** A transcript line, read: a JSON object with its `type`, or why it was skipped. */
export type TranscriptLine =
  | { readonly kind: "line"; readonly type: string; readonly value: Record<string, unknown> }
  | { readonly kind: "bad" }
  | { readonly kind: "untyped" };

/**
 * Parses one line (trimmed, non-empty): not JSON is `bad`; JSON that is not an object with a
 * `type` is `untyped` (a shape rtok does not know).
 */
export function readLine(line: string): TranscriptLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: "bad" };
  }
  return isObject(value) && typeof value.type === "string"
    ? { kind: "line", type: value.type, value }
    : { kind: "untyped" };
}

/** True for a plain object (not an array, not `null`). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * A `tool_result`'s content as text: a string, or its text blocks joined by `separator` (a
 * newline for reading; `""` to count the chars the model was sent).
 */
export function toolResultText(content: unknown, separator = "\n"): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => (isObject(b) && typeof b.text === "string" ? b.text : ""))
    .filter((t) => t !== "")
    .join(separator);
}

/** What reading a transcript's lines counted. */
export interface LineCounts {
  /** Non-empty lines read. */
  lines: number;
  /** Lines that were not JSON. */
  badLines: number;
  /** JSON lines of a shape rtok does not know (no `type`): the caller adds its own to these. */
  unknownLines: number;
}

/**
 * The typed lines of transcript `text` (JSONL), in order, each parsed once; blank lines are
 * skipped, and lines that are not JSON or have no `type` are counted in `counts`, not yielded.
 */
export function* typedLines(
  text: string,
  counts: LineCounts,
): Generator<{ readonly type: string; readonly value: Record<string, unknown> }> {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (line === "") continue;
    counts.lines++;
    const read = readLine(line);
    if (read.kind === "line") yield read;
    else if (read.kind === "bad") counts.badLines++;
    else counts.unknownLines++;
  }
}
