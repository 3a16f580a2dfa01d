/**
 * Claude Code's tool results, read into rtok's host-neutral {@linkcode ToolResult} and
 * written back with a replacement text, in each tool's own shape. The shapes are the ones
 * Claude Code 2.1.332 sends to a PostToolUse hook and accepts as `updatedToolOutput`
 * (`scripts/probe/claude_posttool.md` records what was seen):
 *
 * - Read: `{type: "text", file: {filePath, content, numLines, startLine, totalLines}}`; the
 *   model sees `content` numbered `N\t` from `startLine`, so a replacement `content` must hold
 *   only the file's own lines from its first (rtok puts everything else in the hook's context).
 *   Other `type`s (image, notebook, pdf) are never touched.
 * - Grep: `{mode, content, numLines, …}` in content and count modes, `{mode, filenames,
 *   numFiles}` with files; the model sees `content`, or `filenames` one per line.
 * - Glob: `{filenames, numFiles, truncated, totalMatches, …}`; the model sees `filenames` one
 *   per line, and for a truncated list a note counting its lines as the files shown (so a
 *   replacement that groups names says the true counts itself and clears `truncated`).
 * - Bash: `{stdout, stderr, interrupted, isImage, noOutputExpected}`; output Claude Code
 *   saved to a file (`persistedOutputPath`, past 30,000 chars) shows the model a 2 KB preview:
 *   rtok reads the whole output from that file, and its replacement drops those two fields so
 *   the model sees the text.
 * - MCP (`mcp__server__tool`): the content array `[{type: "text", text}]`, or a string.
 *
 * @module
 */

import type { ToolResult } from "../core/tool_result.ts";

/** What reading a tool's response came to. */
export type ToolRead =
  | { readonly result: ToolResult }
  /** A result rtok leaves alone by design (an image, a ranged read's own shape, an error). */
  | { readonly skip: string }
  /** A response whose shape rtok does not know: it goes through, and one failure row says so. */
  | { readonly unknown: string };

type _Obj = Record<string, unknown>;

const _isObj = (v: unknown): v is _Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const _str = (v: unknown): v is string => typeof v === "string";

/** The tools whose results rtok reads. */
export const READ_TOOLS: readonly string[] = ["Read", "Grep", "Glob", "Bash"];

/** The host-neutral reading of `tool`'s `response` to `input`. */
export function readToolOutput(tool: string, input: _Obj, response: unknown): ToolRead {
  const bad = (what: string): ToolRead => ({ unknown: `${tool}: ${what}` });
  if (tool.startsWith("mcp__")) return _readMcp(tool, response);
  if (!READ_TOOLS.includes(tool)) return { skip: `${tool} results are not read` };
  if (!_isObj(response)) return bad("the response is not an object");
  switch (tool) {
    case "Read": {
      if (response.type !== "text") return { skip: `a ${String(response.type)} read` };
      const file = response.file;
      if (!_isObj(file) || !_str(file.content) || !_str(file.filePath)) {
        return bad('no "file" with "filePath" and "content"');
      }
      const ranged = input.offset !== undefined || input.limit !== undefined ||
        (typeof file.startLine === "number" && file.startLine !== 1);
      return {
        result: {
          kind: "file",
          tool,
          text: file.content,
          path: file.filePath,
          ranged,
          ...(typeof file.totalLines === "number" ? { totalLines: file.totalLines } : {}),
        },
      };
    }
    case "Grep": {
      const mode = response.mode;
      if (mode === "files_with_matches") {
        if (!Array.isArray(response.filenames) || !response.filenames.every(_str)) {
          return bad('no "filenames" list');
        }
        return { result: { kind: "paths", tool, text: response.filenames.join("\n"), mode } };
      }
      if (mode === "content" || mode === "count") {
        if (!_str(response.content)) return bad('no "content" string');
        return { result: { kind: "search", tool, text: response.content, mode } };
      }
      return bad(`unknown mode ${JSON.stringify(mode)}`);
    }
    case "Glob": {
      if (!Array.isArray(response.filenames) || !response.filenames.every(_str)) {
        return bad('no "filenames" list');
      }
      return { result: { kind: "paths", tool, text: response.filenames.join("\n") } };
    }
    default: { // Bash
      if (!_str(response.stdout)) return bad('no "stdout" string');
      if (response.isImage === true) return { skip: "an image" };
      const command = _str(input.command) ? input.command : "";
      if (response.persistedOutputPath !== undefined) {
        // Claude Code shows the model a 2 KB preview of output it saved to a file: the whole
        // output, read from there, is what rtok compresses instead.
        const whole = _persisted(response.persistedOutputPath);
        if (whole === null) return { skip: "a persisted output rtok cannot read" };
        return { result: { kind: "shell", tool, text: whole, command } };
      }
      return { result: { kind: "shell", tool, text: response.stdout, command } };
    }
  }
}

/** Persisted outputs larger than this stay as Claude Code shows them. */
const _PERSISTED_MAX = 10 * 1024 * 1024;

function _persisted(path: unknown): string | null {
  if (!_str(path)) return null;
  try {
    if (Deno.statSync(path).size > _PERSISTED_MAX) return null;
    return new TextDecoder("utf-8", { fatal: true }).decode(Deno.readFileSync(path));
  } catch {
    return null;
  }
}

function _readMcp(tool: string, response: unknown): ToolRead {
  if (_str(response)) return { result: { kind: "mcp", tool, text: response } };
  if (!Array.isArray(response)) return { unknown: `${tool}: the response is not content blocks` };
  // One text block is what rtok can replace whole; images or several blocks go through.
  if (response.length !== 1) return { skip: `${response.length} content blocks` };
  const [block] = response;
  if (!_isObj(block) || block.type !== "text" || !_str(block.text)) {
    return { skip: "a content block that is not text" };
  }
  return { result: { kind: "mcp", tool, text: block.text } };
}

/**
 * `response` with its text replaced by `text`, in the tool's own shape (the fields the model
 * does not see kept as they were). `lines` is the replacement's line count, for Read.
 */
export function writeToolOutput(tool: string, response: unknown, text: string): unknown {
  if (tool.startsWith("mcp__")) {
    return _str(response) ? text : [{ type: "text", text }];
  }
  const r = response as _Obj;
  switch (tool) {
    case "Read": {
      const file = r.file as _Obj;
      return { ...r, file: { ...file, content: text, numLines: text.split("\n").length } };
    }
    case "Grep":
      if (r.mode === "files_with_matches") return { ...r, filenames: text.split("\n") };
      return { ...r, content: text, numLines: text.split("\n").length };
    case "Glob": {
      if (r.truncated !== true) return { ...r, filenames: text.split("\n") };
      // Claude Code counts a truncated list's lines as the files shown ("Showing 6 of 250"):
      // the replacement groups names several to a line, so it says the true counts itself.
      const shown = Array.isArray(r.filenames) ? r.filenames.length : 0;
      const total = typeof r.totalMatches === "number" ? r.totalMatches : null;
      const note = total === null
        ? `(Claude Code listed only the first ${shown} matching files, all above; more are not ` +
          "listed. Narrow the pattern or path to see the rest.)"
        : `(Claude Code listed the first ${shown} of ${total} matching files, all above; ` +
          `${total - shown} more are not listed. Narrow the pattern or path to see the rest.)`;
      return { ...r, truncated: false, filenames: [...text.split("\n"), note] };
    }
    default: {
      // Without the persisted-output fields the model sees the text itself, not a preview.
      const { persistedOutputPath: _path, persistedOutputSize: _size, ...rest } = r;
      return { ...rest, stdout: text };
    }
  }
}
