/**
 * The `posttool` plugin: the results of the host's own tools (a whole-file Read, Grep, Glob,
 * the shell commands the hook left alone, MCP tools) through the content engine, in the hook's
 * PostToolUse. A result is replaced only when strictly smaller; whatever is cut is archived
 * (`rtok expand <id>` on the pointer line) and each replacement is a ledger row.
 *
 * @module
 */

import type {
  Ctx,
  Plugin,
  PostToolAnswer,
  PostToolEvent,
  SessionEvent,
} from "../../core/plugin.ts";
import type { ToolKind, ToolResult } from "../../core/tool_result.ts";
import { lazyImport } from "../../core/lazy.ts";
import { hasPointer } from "../../core/pointer.ts";
import { noteEdit, noteTurn } from "./session.ts";
import { type PosttoolSettings, readSettings } from "./settings.ts";
import { manifest } from "./manifest.ts";

/** The host's tools that change a file (Claude Code's names). */
export const EDIT_TOOLS: ReadonlySet<string> = new Set([
  "Edit",
  "MultiEdit",
  "Write",
  "NotebookEdit",
]);

/** Results shorter than this go through: the content engine's own floor (a test holds them equal). */
export const POSTTOOL_MIN_CHARS = 500;

type _Compress = typeof import("./compress.ts");
let _compress: Promise<_Compress> | null = null;

/** The `posttool` plugin. */
export const posttoolPlugin: Plugin = {
  manifest,
  async postTool(ev: PostToolEvent, ctx: Ctx): Promise<PostToolAnswer | null> {
    // What the session edits is read whole from then on: the agent is working in that file.
    if (EDIT_TOOLS.has(ev.tool)) {
      const path = ev.input.file_path ?? ev.input.notebook_path;
      if (typeof path === "string" && ctx.session && ctx.home) {
        noteEdit(ctx.home, ctx.session, path);
      }
      return null;
    }
    const r = ev.result;
    if (!r || !_worthReading(r)) return null;
    const settings = readSettings(ctx.pluginConfig("posttool"));
    if (!settings.tools[_switch(r.kind, r.tool)]) return null;
    // The work loads only for a result that may be compressed, by a computed specifier so
    // that no process walks its graph (the engine, the parsers) before it runs.
    const { compressResult } = await (_compress ??= lazyImport<_Compress>(
      new URL("./compress.ts", import.meta.url),
    ));
    return await compressResult(r, ev, ctx, settings);
  },
  promptSubmit(_ev: SessionEvent, ctx: Ctx): null {
    if (ctx.session && ctx.home) noteTurn(ctx.home, ctx.session);
    return null;
  },
};

// An rtok command anywhere in a line (`cd x && rtok git log`, by path or through cli.ts).
const _RTOK_COMMAND = /(?:^|[\s;&|(/'"])(?:rtok|cli\.ts)['"]?(?:\s|$)/;

// Output rtok made (a pointer line, an `rtok …` command's, rtok's own MCP server's) and short
// output are left alone.
function _worthReading(r: ToolResult): boolean {
  if (r.text.length < POSTTOOL_MIN_CHARS) return false;
  if (r.kind === "shell" && _RTOK_COMMAND.test(r.command ?? "")) return false;
  if (r.kind === "mcp" && r.tool.startsWith("mcp__rtok__")) return false;
  return !hasPointer(r.text);
}

// Which `[plugins.posttool]` switch governs a result.
function _switch(kind: ToolKind, tool: string): keyof PosttoolSettings["tools"] {
  if (kind === "file") return "read";
  if (kind === "shell") return "bash";
  if (kind === "mcp") return "mcp";
  return tool === "Glob" ? "glob" : "grep";
}
