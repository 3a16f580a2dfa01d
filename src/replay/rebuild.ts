/**
 * A transcript's tool call, rebuilt as the PostToolUse event Claude Code would have sent rtok's
 * hook for it: the tool's structured output (`tool_response`) from the line's `toolUseResult`
 * where it is whole, else from the text the model was sent, in the shape Claude Code 2.1 gives
 * each tool (`scripts/probe/claude_posttool.md`); any other tool's event carries its
 * `toolUseResult` (else its text) as it was. A result Claude Code marked an error fired
 * PostToolUseFailure, whose output no hook can replace: it is not rebuilt.
 *
 * @module
 */

/** A tool call and its result, as a transcript holds them. */
export interface RecordedCall {
  /** The tool's name. */
  readonly tool: string;
  /** Its input. */
  readonly input: Readonly<Record<string, unknown>>;
  /** The text the model was sent. */
  readonly text: string;
  /** The tool's structured output, when the transcript line carries it. */
  readonly structured: Record<string, unknown> | null;
}

/** A rebuilt tool output, or why there is none. */
export type Rebuilt =
  | {
    /** The tool's output in Claude Code's shape. */
    readonly response: unknown;
    /** The text of it rtok reads (a Read's file content, a Bash call's output…). */
    readonly raw: string;
    /** True when the model saw a preview of an output Claude Code saved to a file. */
    readonly persisted?: boolean;
  }
  | { readonly skip: string };

type _Obj = Record<string, unknown>;
const _str = (v: unknown): v is string => typeof v === "string";
const _isObj = (v: unknown): v is _Obj => typeof v === "object" && v !== null && !Array.isArray(v);

// Claude Code numbers a Read's lines `     1→` (1.0.x to 2.0) or `1\t` (2.1).
const _NUMBERED = /^\s*(\d+)(?:→|\t)(.*)$/;
// What older versions appended to a Read's text for the model.
const _REMINDER = /\n*<system-reminder>[\s\S]*<\/system-reminder>\s*$/;

/** The file's lines from a Read's numbered text: its content and the first line's number. */
export function unnumberRead(text: string): { content: string; startLine: number } | null {
  const body = text.replace(_REMINDER, "");
  const lines = body.split("\n");
  const out: string[] = [];
  let start = 0;
  for (const line of lines) {
    const m = _NUMBERED.exec(line);
    // Every line Claude Code renders is numbered: anything else is not a Read's text.
    if (!m) return null;
    if (out.length === 0) start = Number(m[1]);
    out.push(m[2]);
  }
  return out.length ? { content: out.join("\n"), startLine: start } : null;
}

/** The tool's output for `call`, rebuilt; see the module doc. */
export function rebuildOutput(call: RecordedCall): Rebuilt {
  const { tool, input, text, structured: s } = call;
  if (tool.startsWith("mcp__")) return { response: [{ type: "text", text }], raw: text };
  switch (tool) {
    case "Read": {
      if (s && s.type !== undefined && s.type !== "text") {
        return { skip: `a ${String(s.type)} read` };
      }
      const file = s && _isObj(s.file) ? s.file : null;
      const path = _str(file?.filePath)
        ? file.filePath
        : _str(input.file_path)
        ? input.file_path
        : null;
      if (!path) return { skip: "a Read with no file path" };
      let content = _str(file?.content) ? file.content : null;
      let startLine = typeof file?.startLine === "number" ? file.startLine : null;
      if (content === null) {
        const u = unnumberRead(text);
        if (!u) return { skip: "a Read whose text is not numbered lines" };
        content = u.content;
        startLine ??= u.startLine;
      }
      const numLines = content.split("\n").length;
      const ranged = input.offset !== undefined || input.limit !== undefined;
      const totalLines = typeof file?.totalLines === "number"
        ? file.totalLines
        : ranged
        ? Math.max(numLines, (startLine ?? 1) + numLines)
        : numLines;
      return {
        response: {
          type: "text",
          file: { filePath: path, content, numLines, startLine: startLine ?? 1, totalLines },
        },
        raw: content,
      };
    }
    case "Bash": {
      if (s && _str(s.stdout)) {
        if (s.isImage === true) return { skip: "an image" };
        const stderr = _str(s.stderr) ? s.stderr : "";
        if (s.persistedOutputPath !== undefined) {
          // The model saw a preview; the hook reads the whole output from Claude Code's file,
          // which is gone unless the replay runs where the session ran.
          const whole = _readable(s.persistedOutputPath);
          if (whole === null) return { skip: "a saved output whose file is gone" };
          return { response: { ...s, stderr }, raw: whole, persisted: true };
        }
        return {
          response: { ...s, stderr },
          raw: stderr ? `${s.stdout}\n${stderr}` : s.stdout,
        };
      }
      const out = text === "(Bash completed with no output)" ? "" : text;
      return {
        response: { stdout: out, stderr: "", interrupted: false, isImage: false },
        raw: out,
      };
    }
    case "Grep": {
      const mode = _str(s?.mode)
        ? s.mode
        : _str(input.output_mode)
        ? input.output_mode
        : s && _str(s.content)
        ? "content"
        : "files_with_matches";
      if (mode === "files_with_matches") {
        const names = s && Array.isArray(s.filenames) && s.filenames.every(_str)
          ? s.filenames as string[]
          : text.split("\n").filter((l, i) =>
            !(i === 0 && /^Found \d+ files?$/.test(l)) && l !== ""
          );
        return {
          response: { ...(s ?? {}), mode, filenames: names, numFiles: names.length },
          raw: names.join("\n"),
        };
      }
      if (mode === "content" || mode === "count") {
        const content = s && _str(s.content) ? s.content : _contentOf(text, mode);
        const numLines = content === "" ? 0 : content.split("\n").length;
        return { response: { ...(s ?? {}), mode, content, numLines }, raw: content };
      }
      return { skip: `a Grep of mode ${JSON.stringify(mode)}` };
    }
    case "Glob": {
      if (s && Array.isArray(s.filenames) && s.filenames.every(_str)) {
        return { response: { ...s }, raw: (s.filenames as string[]).join("\n") };
      }
      const lines = text.split("\n").filter((l) => l !== "");
      const truncated = lines.length > 0 &&
        /^\(Results are truncated/.test(lines[lines.length - 1]);
      const names = truncated ? lines.slice(0, -1) : lines;
      if (names.length === 1 && names[0] === "No files found") return { skip: "no files found" };
      return {
        response: { filenames: names, numFiles: names.length, truncated, durationMs: 0 },
        raw: names.join("\n"),
      };
    }
    default:
      // rtok's PostToolUse runs on every tool: one whose result it does not read still tells
      // it what the session did (an Edit of a file it showed as a view).
      return { response: s ?? text, raw: text };
  }
}

// The text of a file Claude Code saved an output to, or `null` when it cannot be read.
function _readable(path: unknown): string | null {
  if (!_str(path)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Deno.readFileSync(path));
  } catch {
    return null;
  }
}

// A Grep's content from the text the model saw: its pagination note and count line removed.
function _contentOf(text: string, mode: string): string {
  let t = text.replace(/\n\n\[Showing results with pagination = [^\]]*\]$/, "");
  if (mode === "count") t = t.replace(/\n\nFound \d+ total occurrences? across \d+ files?\.$/, "");
  return t === "No matches found" ? "" : t;
}
