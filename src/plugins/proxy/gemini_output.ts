/**
 * The layout Gemini CLI gives a tool's output inside a `functionResponse` (seen with 0.61.0):
 * the shell tool's result is
 *
 * ```text
 * <untrusted_context>
 * Output: <what the command printed>
 * Exit Code: 3                  (only when it is not 0)
 * Process Group PGID: 24501
 * </untrusted_context>
 * ```
 *
 * (with `Error: …`, `Signal: …` and `Background PIDs: …` lines in the same place when they
 * apply), and web fetches and MCP tools get the same `<untrusted_context>` wrapping. The proxy
 * compresses only the output inside, so the content engine sees the command's own first line
 * (a git log is read as a git log, not as text), and every line Gemini CLI added stays where
 * it was. A result whose status lines report a failure is an error and is never compressed.
 *
 * @module
 */

/** A tool result split into Gemini CLI's wrapping and the tool's own output. */
export interface ToolOutputParts {
  /** What comes before the output: `<untrusted_context>\nOutput: `, or a part of it. */
  readonly head: string;
  /** The tool's own output, the part that is compressed. */
  readonly body: string;
  /** What follows it: the status lines and the closing tag, each line with its `\n`. */
  readonly tail: string;
  /** True when a status line reports a failure: an exit code, a signal or an error. */
  readonly failed: boolean;
}

const OPEN = "<untrusted_context>\n";
const CLOSE = "\n</untrusted_context>";
const OUTPUT = "Output: ";

// The status lines the shell tool appends after its output, last first, each at most once;
// `failed` marks the ones that report a failure.
const STATUS: readonly { line: RegExp; failed: boolean }[] = [
  { line: /^Process Group PGID: \d+$/, failed: false },
  { line: /^Background PIDs: \d+(?:, \d+)*$/, failed: false },
  { line: /^Signal: \S.*$/, failed: true },
  { line: /^Exit Code: -?\d+$/, failed: true },
];

/**
 * `text` split into Gemini CLI's wrapping and the tool's output, or `null` when it has
 * neither the `<untrusted_context>` wrapping nor the shell tool's `Output: ` layout (then the
 * whole text is the output). An `Error: ` line after the first line of a shell result counts
 * as a failure too: Gemini CLI writes a process error there, and where it cannot be told from
 * the command's own output, the result is left alone.
 */
export function splitToolOutput(text: string): ToolOutputParts | null {
  let head = "", tail = "";
  let inner = text;
  if (
    inner.startsWith(OPEN) && inner.endsWith(CLOSE) && inner.length >= OPEN.length + CLOSE.length
  ) {
    head = OPEN;
    tail = CLOSE;
    inner = inner.slice(OPEN.length, inner.length - CLOSE.length);
  }
  if (!inner.startsWith(OUTPUT)) {
    return head ? { head, body: inner, tail, failed: false } : null;
  }
  head += OUTPUT;
  let body = inner.slice(OUTPUT.length);
  let status = "";
  let failed = false;
  for (const s of STATUS) {
    const nl = body.lastIndexOf("\n");
    if (nl < 0 || !s.line.test(body.slice(nl + 1))) continue;
    status = body.slice(nl) + status;
    body = body.slice(0, nl);
    failed ||= s.failed;
  }
  if (body.includes("\nError: ")) failed = true;
  return { head, body, tail: status + tail, failed };
}
