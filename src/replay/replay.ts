/**
 * `rtok replay`'s engine: each tool call of a session's transcripts, rebuilt as its PostToolUse
 * event and answered by the caller's hook (in process, the code path the hook and the server
 * use), compared with what the model was sent: the chars, the requests that re-sent them, and
 * the facts the agent went on to use (`facts.ts`). Nothing is stored.
 *
 * @module
 */

import type { TextClass } from "../core/tokens.ts";
import { estimateChars } from "../core/tokens.ts";
import { factSet } from "../core/fact_tokens.ts";
import { findPointers } from "../core/pointer.ts";
import type { SessionFiles } from "../claude/transcript_files.ts";
import {
  type Conversation,
  type ConversationItem,
  readConversations,
} from "../claude/transcript_calls.ts";
import { rebuildOutput } from "./rebuild.ts";
import { readNumbering, renderContext, renderOutput } from "./render.ts";
import {
  type FactCounts,
  type HiddenFact,
  inputFields,
  judgeFacts,
  noFacts,
  viewPlaces,
  type Written,
  WrittenIndex,
} from "./facts.ts";

/** What the hook answered one event with, read. */
export interface HookReply {
  /** The replacement output, in the tool's shape, when there is one. */
  readonly output?: unknown;
  /** Context the hook added, when it did. */
  readonly context?: string;
  /** The ledger family the hook's row named, when it recorded one. */
  readonly family?: string;
  /** How the row counted the text, when it recorded one. */
  readonly textClass?: TextClass;
  /** What went wrong, when something did (the output then went through as it was). */
  readonly failure?: string;
}

/** Answers one PostToolUse event (the JSON object Claude Code sends), in process. */
export type HookCall = (event: Record<string, unknown>) => Promise<HookReply>;

/** How a replay is narrowed and named. */
export interface ReplayOptions {
  /** Only calls made at or after this time count (earlier ones still set what was seen). */
  readonly since: Date | null;
  /** The command family a Bash call is counted under when no row names one. */
  readonly bashFamily: (command: string) => string;
  /**
   * The raw bytes rtok archived under `id`, or `null`: how a session recorded with rtok's hook
   * is replayed from what the model would have seen without it.
   */
  readonly archive?: (id: string) => Uint8Array | null;
}

/** One tool call, replayed. */
export interface CallReplay {
  /** Its `tool_use` id. */
  readonly id: string;
  /** The session id. */
  readonly session: string;
  /** The transcript file. */
  readonly file: string;
  /** `main`, or the subagent's id. */
  readonly conversation: string;
  /** The tool's name. */
  readonly tool: string;
  /** The family it is counted under: the hook row's, else the command's family, else the tool. */
  readonly family: string;
  /** What it was called on: a Bash command, a file path, a pattern (at most 200 chars). */
  readonly subject: string;
  /** When, where the transcript says. */
  readonly at: string | null;
  /** Chars the model was sent. */
  readonly rawChars: number;
  /** Chars it would have been sent through rtok. */
  readonly rtokChars: number;
  /** Estimated tokens saved (chars counted as the hook's row counts them, else as log text). */
  readonly savedTokens: number;
  /** Requests after this one that re-sent the result, before a compaction. */
  readonly turnsAfter: number;
  /** True when rtok's hook replaced the output or added to it. */
  readonly changed: boolean;
  /** What the transcript holds: the tool's output as it was, or rtok's view of it. */
  readonly recorded: "raw" | "rtok";
  /**
   * For a call recorded through rtok whose raw output is in the archive: whether the replay
   * answers exactly what the transcript holds; else `null`.
   */
  readonly agrees: boolean | null;
  /** The archive id rtok's view points at, when it cut something. */
  readonly archiveId: string | null;
  /** Chars of the text rtok reads (a ledger row's raw chars). */
  readonly rawTextChars: number;
  /** Chars of rtok's replacement text and added context (a ledger row's emitted chars). */
  readonly viewTextChars: number;
  /** Why the call was not sent to the hook (an error result, a shape not rebuilt), or `null`. */
  readonly skipped: string | null;
  /** What went wrong in the hook, or `null`. */
  readonly error: string | null;
  /** Its used facts, counted. */
  readonly facts: FactCounts;
  /** The used facts the view hid. */
  readonly hidden: readonly HiddenFact[];
  /** For a Read shown as a view: true when the agent later edited or wrote that file. */
  readonly editedAfterView: boolean;
}

/** A session, replayed. */
export interface SessionReplay {
  /** Its id. */
  readonly session: string;
  /** Its files. */
  readonly files: readonly string[];
  /** The working directory its lines name, else `null`. */
  readonly cwd: string | null;
  /** Its calls, replayed (those in the period). */
  readonly calls: CallReplay[];
  /** Claude Code versions its lines name. */
  readonly versions: string[];
  /** Lines read, lines not JSON, lines of an unknown shape. */
  readonly lines: number;
  /** Lines not JSON. */
  readonly badLines: number;
  /** JSON lines of a shape not known. */
  readonly unknownLines: number;
  /** False when no file held a line of a known kind. */
  readonly known: boolean;
}

const _EDITS = new Set(["Edit", "MultiEdit", "Write", "NotebookEdit"]);

/** Replays one session's files through `hook`. Throws only when a file cannot be read. */
export async function replaySession(
  files: SessionFiles,
  hook: HookCall,
  opts: ReplayOptions,
): Promise<SessionReplay> {
  const paths = [...(files.main ? [files.main] : []), ...files.agents];
  const out: SessionReplay = {
    session: files.session,
    files: paths,
    cwd: null,
    calls: [],
    versions: [],
    lines: 0,
    badLines: 0,
    unknownLines: 0,
    known: false,
  };
  const versions = new Set<string>();
  let cwd: string | null = null;
  let lines = 0, bad = 0, unknown = 0, known = false;
  for (const path of paths) {
    const text = await Deno.readTextFile(path);
    const agent = path === files.main ? null : path.slice(path.lastIndexOf("/") + 1, -6);
    const t = readConversations(text, agent);
    lines += t.lines;
    bad += t.badLines;
    unknown += t.unknownLines;
    known ||= t.known;
    for (const v of t.versions) versions.add(v);
    for (const c of t.conversations) {
      cwd ??= c.cwd;
      out.calls.push(...await _replayConversation(files.session, path, c, hook, opts));
    }
  }
  return {
    ...out,
    cwd,
    versions: [...versions].sort(),
    lines,
    badLines: bad,
    unknownLines: unknown,
    known,
  };
}

async function _replayConversation(
  session: string,
  file: string,
  c: Conversation,
  hook: HookCall,
  opts: ReplayOptions,
): Promise<CallReplay[]> {
  const items = c.items;
  const written: Written[] = [];
  const calls = new Map<string, Extract<ConversationItem, { kind: "call" }>>();
  // Requests left in the conversation from each item on, until the next compaction.
  const requestsFrom = new Array<number>(items.length + 1).fill(0);
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    requestsFrom[i] = it.kind === "compact"
      ? 0
      : requestsFrom[i + 1] + (it.kind === "request" ? 1 : 0);
  }
  const edits: { item: number; path: string }[] = [];
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (it.kind === "say") {
      written.push({ item: i, by: "text", fields: [[null, it.text]], at: null });
    }
    if (it.kind === "call") {
      calls.set(it.id, it);
      written.push({ item: i, by: it.tool, fields: inputFields(it.input), at: it.at });
      const p = it.input.file_path ?? it.input.notebook_path;
      if (_EDITS.has(it.tool) && typeof p === "string") edits.push({ item: i, path: p });
    }
  }
  const index = new WrittenIndex(written);
  const seen = new Set<string>();
  const since = opts.since?.toISOString() ?? null;
  const out: CallReplay[] = [];
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (it.kind === "prompt" || it.kind === "say") {
      for (const f of factSet(it.text)) seen.add(f);
      continue;
    }
    if (it.kind === "call") {
      for (const [, v] of inputFields(it.input)) for (const f of factSet(v)) seen.add(f);
      continue;
    }
    if (it.kind !== "result") continue;
    const call = calls.get(it.id);
    if (!call) {
      for (const f of factSet(it.text)) seen.add(f);
      continue;
    }
    const r = await _replayOne(session, file, c, call, it, hook, opts);
    const counted = since === null || (call.at ?? it.at ?? "") >= since;
    const fresh = new Set<string>();
    for (const f of factSet(r.raw)) if (!seen.has(f)) fresh.add(f);
    const counts = noFacts();
    const hidden = judgeFacts(
      fresh,
      r.raw,
      r.view,
      viewPlaces(r.view, call.tool === "Read"),
      i,
      index,
      counts,
    );
    for (const f of factSet(r.view)) seen.add(f);
    if (!counted) continue;
    const path = typeof call.input.file_path === "string" ? call.input.file_path : null;
    const cls = r.textClass ?? "log";
    const saved = estimateChars(r.rawChars, cls) - estimateChars(r.rtokChars, cls);
    out.push({
      id: call.id,
      session,
      file,
      conversation: c.key,
      tool: call.tool,
      family: r.family,
      subject: _subject(call.input),
      at: call.at ?? it.at,
      rawChars: r.rawChars,
      rtokChars: r.rtokChars,
      savedTokens: saved,
      turnsAfter: requestsFrom[i],
      changed: r.changed,
      recorded: r.recorded,
      agrees: r.agrees,
      archiveId: r.archiveId,
      rawTextChars: r.raw.length,
      viewTextChars: r.viewTextChars,
      skipped: r.skipped,
      error: r.error,
      facts: counts,
      hidden,
      editedAfterView: call.tool === "Read" && r.changed && path !== null &&
        edits.some((e) => e.item > i && e.path === path),
    });
  }
  return out;
}

interface _One {
  readonly recorded: "raw" | "rtok";
  readonly agrees: boolean | null;
  readonly archiveId: string | null;
  readonly viewTextChars: number;
  /** The chars the model would have been sent without rtok (a recorded call's, rebuilt). */
  readonly rawChars: number;
  /** The text rtok reads (a Read's content, a Bash call's output). */
  readonly raw: string;
  /** What the model would have read of it through rtok (the raw text when unchanged). */
  readonly view: string;
  readonly rtokChars: number;
  readonly changed: boolean;
  readonly family: string;
  readonly textClass: TextClass | null;
  readonly skipped: string | null;
  readonly error: string | null;
}

async function _replayOne(
  session: string,
  file: string,
  c: Conversation,
  call: Extract<ConversationItem, { kind: "call" }>,
  res: Extract<ConversationItem, { kind: "result" }>,
  hook: HookCall,
  opts: ReplayOptions,
): Promise<_One> {
  const fallbackFamily = call.tool === "Bash" && typeof call.input.command === "string"
    ? opts.bashFamily(call.input.command)
    : call.tool;
  const unchanged = (skipped: string | null, error: string | null, raw = res.text): _One => ({
    recorded: "raw",
    agrees: null,
    archiveId: null,
    viewTextChars: raw.length,
    rawChars: res.chars,
    raw,
    view: raw,
    rtokChars: res.chars,
    changed: false,
    family: fallbackFamily,
    textClass: null,
    skipped,
    error,
  });
  if (res.isError) return unchanged("an error result (PostToolUseFailure: not replaceable)", null);
  const context = c.contexts.get(call.id) ?? null;
  const pointer = findPointers(res.text).at(-1) ??
    (context ? findPointers(context).at(-1) : undefined);
  if (pointer && res.structured) {
    return await _recordedThroughRtok(session, file, c, call, res, context, pointer.id, hook, opts);
  }
  const rebuilt = rebuildOutput({
    tool: call.tool,
    input: call.input,
    text: res.text,
    structured: res.structured,
  });
  if ("skip" in rebuilt) return unchanged(rebuilt.skip, null);
  const reply = await hook(_event(session, file, c, call, rebuilt.response));
  if (reply.failure) return unchanged(null, reply.failure, rebuilt.raw);
  if (reply.output === undefined && reply.context === undefined) {
    return unchanged(null, null, rebuilt.raw);
  }
  const numbering = readNumbering(res.text);
  let chars = res.chars;
  let text = rebuilt.raw;
  if (reply.output !== undefined) {
    const before = renderOutput(call.tool, rebuilt.response, numbering);
    const after = renderOutput(call.tool, reply.output, numbering);
    if (after !== null && rebuilt.persisted) {
      // The model saw a 2 KB preview; through rtok it sees the view of the whole output.
      chars = after.length;
    } else if (before !== null && after !== null) {
      // What the transcript's text holds around the output (an older version's reminder) stays.
      chars = Math.max(0, res.chars - (before.length - after.length));
    }
    text = _readable(call.tool, reply.output) ?? text;
  }
  if (reply.context !== undefined) {
    chars += renderContext(call.tool, reply.context).length;
    text = `${text}\n${reply.context}`;
  }
  const pointed = findPointers(text).at(-1);
  return {
    recorded: "raw",
    agrees: null,
    archiveId: pointed?.id ?? null,
    viewTextChars: (_readable(call.tool, reply.output) ?? "").length + (reply.context?.length ?? 0),
    rawChars: res.chars,
    raw: rebuilt.raw,
    view: text,
    rtokChars: chars,
    changed: true,
    family: reply.family ?? fallbackFamily,
    textClass: reply.textClass ?? null,
    skipped: null,
    error: null,
  };
}

// The PostToolUse event Claude Code sends for `call`, with `response` as the tool's output.
function _event(
  session: string,
  file: string,
  c: Conversation,
  call: Extract<ConversationItem, { kind: "call" }>,
  response: unknown,
): Record<string, unknown> {
  return {
    session_id: session,
    transcript_path: file,
    cwd: c.cwd ?? "/",
    permission_mode: "default",
    hook_event_name: "PostToolUse",
    tool_name: call.tool,
    tool_input: call.input,
    tool_response: response,
    tool_use_id: call.id,
  };
}

// A call the transcript holds as rtok's view (recorded with rtok's hook installed): the raw
// output from the archive, put back in the tool's shape, answered again; the model saw what the
// transcript says. Without the raw bytes, nothing is claimed: what was seen both ways is the same.
async function _recordedThroughRtok(
  session: string,
  file: string,
  c: Conversation,
  call: Extract<ConversationItem, { kind: "call" }>,
  res: Extract<ConversationItem, { kind: "result" }>,
  context: string | null,
  id: string,
  hook: HookCall,
  opts: ReplayOptions,
): Promise<_One> {
  const seen = res.chars + (context === null ? 0 : renderContext(call.tool, context).length);
  const shown = (_readable(call.tool, res.structured) ?? res.text) +
    (context === null ? "" : `\n${context}`);
  const family = call.tool === "Bash" && typeof call.input.command === "string"
    ? opts.bashFamily(call.input.command)
    : call.tool;
  const bytes = opts.archive?.(id) ?? null;
  const raw = bytes === null ? null : new TextDecoder().decode(bytes);
  const original = raw === null ? null : _withText(call.tool, res.structured, raw);
  if (raw === null || original === null) {
    return {
      recorded: "rtok",
      agrees: null,
      archiveId: id,
      viewTextChars: shown.length,
      rawChars: seen,
      raw: shown,
      view: shown,
      rtokChars: seen,
      changed: true,
      family,
      textClass: null,
      skipped: "recorded through rtok; its raw output is not in this archive",
      error: null,
    };
  }
  const reply = await hook(_event(session, file, c, call, original));
  const numbering = readNumbering(res.text);
  const rendered = renderOutput(call.tool, original, numbering);
  // Claude Code saves a Bash output over 30,000 chars to a file and shows the model a preview.
  const plain = call.tool === "Bash" && rendered !== null && rendered.length > _PERSIST_OVER
    ? _PREVIEW_CHARS
    : rendered?.length ?? seen;
  const replayedText = reply.output === undefined ? null : _readable(call.tool, reply.output);
  const agrees = replayedText === _readable(call.tool, res.structured) &&
    (reply.context ?? null) === context;
  return {
    recorded: "rtok",
    agrees,
    archiveId: id,
    viewTextChars: shown.length - (context === null ? 0 : 1),
    rawChars: plain,
    raw,
    view: shown,
    rtokChars: seen,
    changed: true,
    family: reply.family ?? family,
    textClass: reply.textClass ?? null,
    skipped: null,
    error: reply.failure ?? null,
  };
}

/** Bash output longer than this Claude Code 2.1 saves to a file (`claude_posttool.md`). */
const _PERSIST_OVER = 30_000;
/**
 * What the model is sent instead of such an output: a 2 KB preview in a short frame naming the
 * file (2,274 chars for the probe's 106 KB output; the path's length varies). An estimate.
 */
const _PREVIEW_CHARS = 2_300;

// `output` (a tool's output in its shape) with its text replaced by `text`; `null` for a shape
// not known.
function _withText(tool: string, output: Record<string, unknown> | null, text: string): unknown {
  if (tool.startsWith("mcp__")) return [{ type: "text", text }];
  if (output === null) return null;
  if (tool === "Read") {
    const f = output.file as Record<string, unknown> | undefined;
    if (!f) return null;
    return { ...output, file: { ...f, content: text, numLines: text.split("\n").length } };
  }
  if (tool === "Glob" || output.mode === "files_with_matches") {
    return { ...output, filenames: text.split("\n") };
  }
  if (tool === "Grep") return { ...output, content: text, numLines: text.split("\n").length };
  if (tool === "Bash") return { ...output, stdout: text };
  return null;
}

// The text of a replacement output, as rtok wrote it (unnumbered).
function _readable(tool: string, output: unknown): string | null {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) {
    return output.map((b) => (typeof b?.text === "string" ? b.text : "")).join("\n");
  }
  if (typeof output !== "object" || output === null) return null;
  const o = output as Record<string, unknown>;
  if (tool === "Read") {
    const f = o.file as Record<string, unknown> | undefined;
    return typeof f?.content === "string" ? f.content : null;
  }
  if (Array.isArray(o.filenames) && (tool === "Glob" || o.mode === "files_with_matches")) {
    return o.filenames.join("\n");
  }
  if (typeof o.content === "string") return o.content;
  if (typeof o.stdout === "string") {
    return typeof o.stderr === "string" && o.stderr ? `${o.stdout}\n${o.stderr}` : o.stdout;
  }
  return null;
}

function _subject(input: Readonly<Record<string, unknown>>): string {
  const v = input.command ?? input.file_path ?? input.pattern ?? input.url ?? input.query ?? "";
  const s = typeof v === "string" ? v.replace(/\s+/g, " ") : JSON.stringify(v);
  return s.length > 200 ? `${s.slice(0, 199)}…` : s;
}
