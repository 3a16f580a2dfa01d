/**
 * A tool's result as rtok reads it, whatever host ran the tool: what kind of tool it was, the
 * text the model would see, and what the host said about it. A host adapter (Claude Code's is
 * `src/claude/tool_output.ts`) reads its own result shapes into this and writes a replacement
 * text back into the same shape, so the plugins that compress tool results know no host.
 *
 * @module
 */

/** What kind of tool produced a result. */
export type ToolKind = "file" | "shell" | "search" | "paths" | "mcp";

/** One tool result, host-neutral. */
export interface ToolResult {
  /** The kind of tool: a file read, a shell command, a content search, a path list, MCP. */
  readonly kind: ToolKind;
  /** The host's own name for the tool (`Read`, `Bash`, `mcp__db__query`). */
  readonly tool: string;
  /** The text the model sees: the file's content, stdout, the hits, the paths one per line. */
  readonly text: string;
  /** For `file`: the file's path as the host named it. */
  readonly path?: string;
  /** For `file`: true when the read asked for a range (an offset or a limit). */
  readonly ranged?: boolean;
  /** For `file`: the file's line count, when the host says. */
  readonly totalLines?: number;
  /** For `shell`: the command line. */
  readonly command?: string;
  /** For `shell`: its exit code, where the host says (a host that reports failed calls too). */
  readonly exitCode?: number;
  /** For `search`: the host's output mode (`content`, `files_with_matches`, `count`). */
  readonly mode?: string;
}
