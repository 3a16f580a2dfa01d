/**
 * What the model is sent for a tool's output, rendered as Claude Code renders it
 * (`scripts/probe/claude_posttool.md`): a Read's lines numbered from `startLine`, Grep's content
 * or its file list under `Found N files`, Glob's names, Bash's stdout then stderr. `rtok replay`
 * renders the original and the replacement alike and keeps whatever else the transcript's text
 * holds around them (an older version's reminder), so the two are compared on equal terms.
 *
 * @module
 */

type _Obj = Record<string, unknown>;
const _str = (v: unknown): v is string => typeof v === "string";
const _isObj = (v: unknown): v is _Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** How a transcript numbers a Read's lines: `1\t` (2.1) or `     1→` (1.0.x, 2.0). */
export type ReadNumbering = "tab" | "arrow";

/** The numbering of a Read's text as the model saw it. */
export function readNumbering(text: string): ReadNumbering {
  return /^\s*\d+→/.test(text) ? "arrow" : "tab";
}

/** The text the model is sent for `tool`'s `output`, or `null` for a shape not known here. */
export function renderOutput(
  tool: string,
  output: unknown,
  numbering: ReadNumbering = "tab",
): string | null {
  if (tool.startsWith("mcp__")) {
    if (_str(output)) return output;
    if (!Array.isArray(output)) return null;
    return output.map((b) => (_isObj(b) && _str(b.text) ? b.text : "")).join("");
  }
  if (!_isObj(output)) return null;
  switch (tool) {
    case "Read": {
      const file = output.file;
      if (!_isObj(file) || !_str(file.content)) return null;
      const start = typeof file.startLine === "number" ? file.startLine : 1;
      return file.content.split("\n").map((line, i) =>
        numbering === "arrow"
          ? `${String(start + i).padStart(6)}→${line}`
          : `${start + i}\t${line.replace(/\r$/, "")}`
      ).join("\n");
    }
    case "Grep": {
      if (output.mode === "files_with_matches") {
        if (!Array.isArray(output.filenames)) return null;
        const n = typeof output.numFiles === "number" ? output.numFiles : output.filenames.length;
        return `Found ${n} ${n === 1 ? "file" : "files"}\n${output.filenames.join("\n")}`;
      }
      if (!_str(output.content)) return null;
      if (output.mode === "count") {
        const m = typeof output.numMatches === "number" ? output.numMatches : 0;
        const n = typeof output.numFiles === "number" ? output.numFiles : 0;
        return `${output.content}\n\nFound ${m} total ${m === 1 ? "occurrence" : "occurrences"} ` +
          `across ${n} ${n === 1 ? "file" : "files"}.`;
      }
      return output.content;
    }
    case "Glob": {
      if (!Array.isArray(output.filenames)) return null;
      const names = output.filenames.join("\n");
      if (output.truncated !== true) return names;
      const total = typeof output.totalMatches === "number" ? output.totalMatches : null;
      const shown = output.filenames.length;
      return total === null
        ? `${names}\n(Results are truncated. Consider using a more specific path or pattern.)`
        : `${names}\n(Showing ${shown} of ${total} matching files; ${total - shown} more are ` +
          "not listed. Narrow the pattern or path to see the rest.)";
    }
    case "Bash": {
      if (!_str(output.stdout)) return null;
      const err = _str(output.stderr) ? output.stderr : "";
      const text = err ? `${output.stdout}\n${err}` : output.stdout;
      return text === "" ? "(Bash completed with no output)" : text;
    }
    default:
      return null;
  }
}

/** How a PostToolUse hook's added context reaches the model. */
export function renderContext(tool: string, context: string): string {
  return `PostToolUse:${tool} hook additional context: ${context}`;
}
