/**
 * One tool result through the content engine: what it is, how it is cut, the archive and the
 * ledger row. Loaded only for a result long enough to be compressed.
 *
 * @module
 */

import type { Ctx, PostToolAnswer, PostToolEvent } from "../../core/plugin.ts";
import type { TextClass } from "../../core/tokens.ts";
import type { ToolResult } from "../../core/tool_result.ts";
import { isFile } from "../../core/paths.ts";
import { decodeText } from "../../core/text.ts";
import { withPointer } from "../../core/pointer.ts";
import { deliver, ledgerRow } from "../../pipeline/deliver.ts";
import { catPath } from "../../pipeline/plan.ts";
import { type FileThresholds, type FileView, renderView, viewFile } from "../../content/file.ts";
import type { ContentResult } from "../../content/engine.ts";
import { editedBefore, noteRead, readBefore, turnOf } from "./session.ts";
import type { PosttoolSettings } from "./settings.ts";

// The engine and its filter modules load only for a result that is not a file read.
const _engineModule = () => import("../../content/engine.ts");
const _engine = async () => await (await _engineModule()).loadContentEngine();

/** What a result became, before the archive id is known. */
interface _Cut {
  /** The ledger family: the tool (`Read`, `Grep`, `Glob`) or the shape the text was read as. */
  readonly family: string;
  /** The replacement text, pointer line not yet added. */
  readonly text: string;
  /** What goes to the hook's context instead of the result (a Read's outline), if anything. */
  readonly context?: string;
  /** What was cut. */
  readonly cut: readonly string[];
  /** How it is counted. */
  readonly textClass: TextClass;
}

/** `r` compressed, archived and recorded; `null` to let it through as it is. */
export async function compressResult(
  r: ToolResult,
  ev: PostToolEvent,
  ctx: Ctx,
  settings: PosttoolSettings,
): Promise<PostToolAnswer | null> {
  const started = performance.now();
  const thresholds = { lines: settings.readLines, chars: settings.readChars };
  const made = await _cut(r, ev, ctx, thresholds, settings.readMinSaving);
  if (!made) return null;
  const sent = await deliver(ctx.archive, r.text, {
    lossy: made.cut.length > 0,
    text: (id) => withPointer({ text: made.context ?? made.text, cut: made.cut }, id),
  }, { command: _command(r), cwd: ev.cwd, exitCode: null, family: made.family });
  // Nothing may be cut that cannot be had again.
  if (sent.whole) return null;
  const answer: PostToolAnswer = made.context === undefined
    ? { text: sent.text }
    : { text: made.text, context: sent.text };
  const emitted = (answer.text?.length ?? 0) + (answer.context?.length ?? 0);
  await ctx.record(ledgerRow({
    surface: "hook",
    plugin: "posttool",
    family: made.family,
    command: _command(r),
    rtokCommand: _command(r),
    project: _project(ev.cwd),
    session: ctx.session,
    turn: ctx.session && ctx.home ? turnOf(ctx.home, ctx.session) : null,
    rawChars: r.text.length,
    emittedChars: emitted,
    textClass: made.textClass,
    stage: "filter",
    lossy: made.cut.length > 0,
    archiveId: sent.archiveId,
    exitCode: null,
    host: ev.host ?? "claude",
    ...(ev.callId ? { callId: ev.callId } : {}),
    started,
  }));
  return answer;
}

async function _cut(
  r: ToolResult,
  ev: PostToolEvent,
  ctx: Ctx,
  thresholds: FileThresholds,
  minSaving: number,
): Promise<_Cut | null> {
  switch (r.kind) {
    case "file": {
      if (r.ranged || !r.path) return null;
      _mustBeText(r.path, r.text, r.tool);
      const view = await _viewOnce(ctx, r.path, r.text, thresholds, minSaving);
      if (!view) return null;
      // The host numbers the head's lines from 1: only the file's own lines may stand there.
      return {
        family: r.tool,
        text: view.head,
        context: view.body,
        cut: view.cut,
        textClass: view.textClass,
      };
    }
    case "shell": {
      const path = _catPath(r.command ?? "", ev.cwd);
      if (path !== null) {
        _mustBeText(path, r.text, "cat");
        const view = await _viewOnce(ctx, path, r.text, thresholds, minSaving);
        if (!view) return null;
        return { family: "cat", text: renderView(view), cut: view.cut, textClass: view.textClass };
      }
      return _asCut((await _engine()).compress(r.text));
    }
    case "search": {
      if (r.mode !== "content") return _asCut((await _engine()).compress(r.text));
      const input = ev.input as Record<string, unknown>;
      // Whether the hits carry line numbers: as the call asked, else as the text shows (Claude
      // Code 1.0.x printed none unless asked; 2.x numbers them by default).
      const numbered = typeof input["-n"] === "boolean" ? input["-n"] : _numbered(r.text);
      const args = ["-H", ...(numbered ? ["-n"] : [])];
      for (const flag of ["-A", "-B", "-C"]) {
        if (typeof input[flag] === "number") args.push(flag, String(input[flag]));
      }
      return _asCut(await (await _engineModule()).compressWith("rg", r.text, args), r.tool);
    }
    case "paths":
      return _asCut(await (await _engineModule()).compressWith("find", r.text), r.tool);
    case "mcp":
      return _asCut((await _engine()).compress(r.text));
  }
}

// A file view, unless the agent needs the file itself: the session read this file whole, as it
// is now, before (it asked twice), or has edited it (it is working in it), or the view would
// not save enough of it to be worth a second read. The first view is noted.
async function _viewOnce(
  ctx: Ctx,
  path: string,
  text: string,
  thresholds: FileThresholds,
  minSaving: number,
): Promise<FileView | null> {
  const digest = await _digest(text);
  if (ctx.session && ctx.home) {
    if (readBefore(ctx.home, ctx.session, path, digest)) return null;
    if (editedBefore(ctx.home, ctx.session, path)) return null;
  }
  const view = await viewFile(path, text, thresholds);
  if (!view) return null;
  const shown = view.head.length + view.body.length;
  if (shown > text.length * (1 - minSaving)) return null;
  if (ctx.session && ctx.home) noteRead(ctx.home, ctx.session, path, digest);
  return view;
}

// True when most hit lines of `text` read `path:12:` or `path-12-` (a numbered search).
function _numbered(text: string): boolean {
  const lines = text.split("\n", 200).filter((l) => l !== "" && l !== "--");
  const numbered = lines.filter((l) => /^[^\s:][^:]*?[:-]\d+[:-]/.test(l)).length;
  return lines.length > 0 && numbered / lines.length >= 0.8;
}

// The engine's result as a cut of `family` (the shape it read, unless the tool names it).
function _asCut(c: ContentResult | null, family: string | null = null): _Cut | null {
  return c ? { family: family ?? c.shape, text: c.text, cut: c.cut, textClass: c.textClass } : null;
}

// A file that is not UTF-8 text reached the agent as the host decoded it: it goes through as
// it is, and the thrown line is the failure row that says why.
function _mustBeText(path: string, text: string, tool: string): void {
  // What decoded cleanly needs no second look at the file.
  if (!text.includes("\uFFFD") && !text.includes("\0")) return;
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch {
    return; // gone since the tool read it: the text the host sent is all there is
  }
  if (decodeText(bytes) === null) {
    throw new Error(`${tool} ${path}: not UTF-8 text (binary); sent as the host gave it`);
  }
}

// `cat FILE` of one regular file: its path.
function _catPath(command: string, cwd: string): string | null {
  const cat = catPath(command, cwd);
  return cat !== null && isFile(cat.path) ? cat.path : null;
}

function _command(r: ToolResult): string {
  if (r.kind === "shell") return r.command ?? r.tool;
  if (r.kind === "file") return `${r.tool} ${r.path ?? ""}`.trim();
  return r.tool;
}

function _project(cwd: string): string {
  try {
    return Deno.realPathSync(cwd);
  } catch {
    return cwd;
  }
}

async function _digest(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}
