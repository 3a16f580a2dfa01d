/**
 * Counts over Claude Code's session transcripts (`~/.claude/projects/<mangled cwd>/<id>.jsonl`,
 * one JSON object a line, as Claude Code 2.1.332 writes them): the tool calls by tool and
 * command family, the chars of their results that went through rtok and those that did not,
 * and the Bash commands rtok would have filtered. Only counts, commands and paths leave this
 * module; no transcript text does.
 *
 * What is read: `assistant` lines (their `message.content` holds the `tool_use` blocks),
 * `user` lines (`tool_result` blocks) and `attachment` lines of a hook's answer
 * (`hook_success`…, naming the `toolUseID`, the hook's `command` or URL and its `stdout`).
 * Every other kind Claude Code writes (`api-request-blob` copies of whole requests,
 * `queue-operation`, `system`…) is passed over, so no call is counted twice. A line that is
 * not JSON, or JSON of a shape rtok does not know, is skipped and counted, never thrown.
 *
 * The reader knows nothing of rtok's rewrite rules: the caller passes a {@linkcode Classifier}.
 *
 * @module
 */

import { hasPointer } from "../core/pointer.ts";
import { estimateChars } from "../core/tokens.ts";
import { isObject, NON_MESSAGE_LINES, readLine, toolResultText } from "./_transcript_line.ts";

/** What the caller's rewrite rules say of one Bash command line. */
export interface CommandView {
  /** The command family the line's output is counted under (`git log`, `make`). */
  readonly family: string;
  /** The filter family rtok's hook would rewrite the line to, or `null` when none. */
  readonly filterFamily: string | null;
  /** True when the line already runs a command as `rtok …`. */
  readonly runsRtok: boolean;
}

/** How the caller judges commands and hooks: the rewrite rules live outside this module. */
export interface Classifier {
  /** The view of Bash command `line`. */
  command(line: string): CommandView;
  /** True when a hook's command (or URL, for an HTTP hook) is rtok's. */
  isRtokHook(command: string): boolean;
  /** The measured saving of filter `family` in percent, or `null` when none was measured. */
  saving(family: string): number | null;
}

/** One tool call of a session, joined with its result and any hook's answer to it. */
export interface CallRecord {
  /** Its `tool_use` id. */
  readonly id: string;
  /** The tool's name (`Bash`, `Read`, `mcp__server__tool`). */
  readonly tool: string;
  /** The Bash command, as the agent wrote it; `null` for other tools. */
  readonly command: string | null;
  /** When the call was asked for (ISO), when the line says. */
  readonly at: string | null;
  /** True when a result for it was found. */
  readonly answered: boolean;
  /** Chars of the result text the model got (0 without one; images count 0). */
  readonly chars: number;
  /** True when its result carries rtok's pointer line. */
  readonly pointer: boolean;
  /** True when rtok's hook answered for this call (installed and run). */
  readonly hooked: boolean;
  /** True when rtok's hook replaced its output or rewrote it to `rtok …`. */
  readonly hookFiltered: boolean;
  /** The command rtok's hook had run instead, when it rewrote the call. */
  readonly rewrittenTo: string | null;
}

/** One transcript, read. */
export interface SessionRead {
  /** The session id (`sessionId`, else the file's name without `.jsonl`). */
  readonly session: string;
  /** The project: the session's working directory (`cwd`), else `null`. */
  readonly cwd: string | null;
  /** The calls, in order. */
  readonly calls: readonly CallRecord[];
  /** Non-empty lines read. */
  readonly lines: number;
  /** Lines that were not JSON, skipped. */
  readonly badLines: number;
  /** JSON lines of a shape rtok does not know, skipped. */
  readonly unknownLines: number;
  /** True when at least one line was a `user` or `assistant` message: the format is known. */
  readonly known: boolean;
  /** The newest line timestamp (ISO), when any line has one. */
  readonly last: string | null;
}

type _Json = Record<string, unknown>;

function _str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

interface _Hook {
  hooked: boolean;
  filtered: boolean;
  rewrittenTo: string | null;
}

/** Reads one transcript line by line; `finish` joins calls, results and hooks. */
export class TranscriptReader {
  #session: string;
  #cwd: string | null = null;
  #last: string | null = null;
  #lines = 0;
  #bad = 0;
  #unknown = 0;
  #known = false;
  #calls = new Map<string, { tool: string; command: string | null; at: string | null }>();
  #results = new Map<string, { chars: number; pointer: boolean }>();
  #hooks = new Map<string, _Hook>();
  #classifier: Classifier;

  /** A reader for the transcript of session `session` (its file name, until a line says). */
  constructor(session: string, classifier: Classifier) {
    this.#session = session;
    this.#classifier = classifier;
  }

  /** Reads one line (without its newline); blank lines are not counted. */
  line(text: string): void {
    if (text.trim() === "") return;
    this.#lines++;
    const read = readLine(text.trim());
    if (read.kind !== "line") {
      if (read.kind === "bad") this.#bad++;
      else this.#unknown++;
      return;
    }
    const { value, type } = read;
    if (NON_MESSAGE_LINES.has(type)) {
      this.#meta(value);
      return;
    }
    if (type === "user" || type === "assistant") {
      const message = value.message;
      if (!isObject(message) || (!Array.isArray(message.content) && !_str(message.content))) {
        this.#unknown++;
        return;
      }
      this.#known = true;
      this.#meta(value);
      if (Array.isArray(message.content)) this.#blocks(message.content, _str(value.timestamp));
      return;
    }
    if (type === "attachment") {
      this.#meta(value);
      if (isObject(value.attachment)) this.#attachment(value.attachment);
      else this.#unknown++;
      return;
    }
    this.#unknown++;
  }

  #meta(value: _Json): void {
    const cwd = _str(value.cwd);
    if (cwd && this.#cwd === null) this.#cwd = cwd;
    const session = _str(value.sessionId);
    if (session) this.#session = session;
    const at = _str(value.timestamp);
    if (at && (this.#last === null || at > this.#last)) this.#last = at;
  }

  #blocks(blocks: readonly unknown[], at: string | null): void {
    for (const b of blocks) {
      if (!isObject(b)) continue;
      if (b.type === "tool_use") {
        const id = _str(b.id);
        const tool = _str(b.name);
        if (!id || !tool || this.#calls.has(id)) continue;
        const input = isObject(b.input) ? b.input : {};
        const command = tool === "Bash" ? _str(input.command) : null;
        this.#calls.set(id, { tool, command, at });
      } else if (b.type === "tool_result") {
        const id = _str(b.tool_use_id);
        if (!id) continue;
        const text = toolResultText(b.content, "");
        this.#results.set(id, { chars: text.length, pointer: hasPointer(text) });
      }
    }
  }

  #attachment(a: _Json): void {
    const kind = _str(a.type) ?? "";
    const id = _str(a.toolUseID);
    const command = _str(a.command);
    if (!kind.startsWith("hook_") || !id || !command) return;
    if (!this.#classifier.isRtokHook(command)) return;
    const hook = this.#hooks.get(id) ?? { hooked: true, filtered: false, rewrittenTo: null };
    this.#hooks.set(id, hook);
    let answer: unknown;
    try {
      answer = JSON.parse(_str(a.stdout) ?? "");
    } catch {
      return;
    }
    const out = isObject(answer) && isObject(answer.hookSpecificOutput)
      ? answer.hookSpecificOutput
      : null;
    if (!out) return;
    if (out.updatedToolOutput !== undefined) hook.filtered = true;
    const input = isObject(out.updatedInput) ? _str(out.updatedInput.command) : null;
    if (input !== null) {
      hook.rewrittenTo = input;
      if (this.#classifier.command(input).runsRtok) hook.filtered = true;
    }
  }

  /** The transcript, read. */
  finish(): SessionRead {
    const calls: CallRecord[] = [];
    for (const [id, c] of this.#calls) {
      const r = this.#results.get(id);
      const h = this.#hooks.get(id);
      calls.push({
        id,
        tool: c.tool,
        command: c.command,
        at: c.at,
        answered: r !== undefined,
        chars: r?.chars ?? 0,
        pointer: r?.pointer ?? false,
        hooked: h?.hooked ?? false,
        hookFiltered: h?.filtered ?? false,
        rewrittenTo: h?.rewrittenTo ?? null,
      });
    }
    return {
      session: this.#session,
      cwd: this.#cwd,
      calls,
      lines: this.#lines,
      badLines: this.#bad,
      unknownLines: this.#unknown,
      known: this.#known,
      last: this.#last,
    };
  }
}

/** Reads a whole transcript `text` (JSONL). Never throws. */
export function readTranscriptStats(
  text: string,
  session: string,
  classifier: Classifier,
): SessionRead {
  const r = new TranscriptReader(session, classifier);
  for (const line of text.split("\n")) r.line(line.endsWith("\r") ? line.slice(0, -1) : line);
  return r.finish();
}

/** Calls and the chars of their results. */
export interface Tally {
  /** Tool calls. */
  calls: number;
  /** Chars of their results. */
  chars: number;
}

/** A command family's counts (Bash calls). */
export interface FamilyTally extends Tally {
  /** True when rtok has a filter the hook rewrites this family to. */
  readonly filtered: boolean;
  /** Of them, calls whose output went through rtok. */
  throughCalls: number;
}

/** One command rtok would have filtered, with its count. */
export interface MissedCommand extends Tally {
  /** The command as written (cut to 200 chars). */
  readonly command: string;
  /** The filter family it would go through. */
  readonly family: string;
  /** Chars its filter would have saved, by the family's measured saving (0 without one). */
  missedChars: number;
}

/** What a set of calls comes to. */
export interface Totals {
  /** Sessions counted. */
  sessions: number;
  /** Every call. */
  readonly all: Tally;
  /** Calls per tool. */
  readonly byTool: Record<string, Tally>;
  /** Bash calls per command family. */
  readonly byFamily: Record<string, FamilyTally>;
  /** Calls whose output went through rtok (a pointer line, `rtok …`, or rtok's hook replaced it). */
  readonly through: Tally;
  /** Calls whose output did not. */
  readonly notThrough: Tally;
  /** Calls rtok's hook answered for (whether or not it changed anything). */
  readonly hooked: Tally;
  /**
   * Calls not through rtok, not seen by its hook, that its hook would have cut: every tool's,
   * as a replay through the hook found (Bash calls by their family's measured saving where no
   * replay was made).
   */
  readonly wouldFilter: Tally & {
    /** Chars rtok would have saved. */
    missedChars: number;
    /** Those chars as estimated tokens (read as log text). */
    missedTokens: number;
    /** Of the calls, those estimated from a family with no measured saving (counted as 0 saved). */
    unmeasured: number;
  };
  /** The calls rtok would have cut (a Bash command, else the tool and its path), most chars first. */
  readonly commands: MissedCommand[];
  /** The Bash families with no filter that cost the most (not through rtok), most first. */
  readonly unfiltered: { readonly family: string; calls: number; chars: number }[];
}

/** An empty {@linkcode Totals}. */
export function emptyTotals(): Totals {
  return {
    sessions: 0,
    all: { calls: 0, chars: 0 },
    byTool: {},
    byFamily: {},
    through: { calls: 0, chars: 0 },
    notThrough: { calls: 0, chars: 0 },
    hooked: { calls: 0, chars: 0 },
    wouldFilter: { calls: 0, chars: 0, missedChars: 0, missedTokens: 0, unmeasured: 0 },
    commands: [],
    unfiltered: [],
  };
}

function _add(t: Tally, chars: number, calls = 1): void {
  t.calls += calls;
  t.chars += chars;
}

const _MAX_COMMAND = 200;

/** True when `call` went through rtok: a pointer line, `rtok …`, or rtok's hook filtered it. */
export function throughRtok(call: CallRecord, classifier: Classifier): boolean {
  if (call.pointer || call.hookFiltered) return true;
  return call.command !== null && classifier.command(call.command).runsRtok;
}

/** What a replay through rtok's hook made of one call (see `src/replay/`). */
export interface ReplayedCall {
  /** Chars the model would have been sent through rtok. */
  readonly rtokChars: number;
  /** True when the hook changed the result. */
  readonly changed: boolean;
  /** The family the hook's row named, else the command's or the tool's. */
  readonly family: string;
  /** What the call was on: a command, a path. */
  readonly subject: string;
}

/**
 * Adds `calls` (one session's, already narrowed to the period) into `t`. `replayed` (by call
 * id) says what rtok's hook would have made of each call; without it, a Bash call of a filtered
 * family is estimated at the family's measured saving and other tools are not estimated.
 */
export function addCalls(
  t: Totals,
  calls: readonly CallRecord[],
  classifier: Classifier,
  replayed: ReadonlyMap<string, ReplayedCall> | null = null,
): void {
  const unfiltered = new Map(t.unfiltered.map((u) => [u.family, u]));
  const commands = new Map(t.commands.map((c) => [c.command, c]));
  const miss = (label: string, family: string, chars: number, missed: number) => {
    _add(t.wouldFilter, chars);
    t.wouldFilter.missedChars += missed;
    const text = label.length > _MAX_COMMAND ? `${label.slice(0, _MAX_COMMAND - 1)}…` : label;
    const c = commands.get(text) ?? { command: text, family, calls: 0, chars: 0, missedChars: 0 };
    commands.set(text, c);
    _add(c, chars);
    c.missedChars += missed;
  };
  for (const call of calls) {
    _add(t.all, call.chars);
    _add(t.byTool[call.tool] ??= { calls: 0, chars: 0 }, call.chars);
    const through = throughRtok(call, classifier);
    _add(through ? t.through : t.notThrough, call.chars);
    if (call.hooked) _add(t.hooked, call.chars);
    const view = call.command === null ? null : classifier.command(call.command);
    if (view && call.command !== null) {
      const fam = t.byFamily[view.family] ??= {
        calls: 0,
        chars: 0,
        filtered: view.filterFamily !== null,
        throughCalls: 0,
      };
      _add(fam, call.chars);
      if (through) fam.throughCalls++;
    }
    if (through) continue;
    const r = replayed?.get(call.id) ?? null;
    const cuts = r ? r.changed && r.rtokChars < call.chars : view?.filterFamily != null;
    if (!cuts) {
      // A family with no filter costs whether or not rtok's hook saw it.
      if (view && view.filterFamily === null) _unfiltered(unfiltered, view.family, call.chars);
      continue;
    }
    // Seen by rtok's hook and left whole: not a call the hook would have cut.
    if (call.hooked) continue;
    if (r) {
      miss(
        call.command ?? `${call.tool} ${r.subject}`.trim(),
        r.family,
        call.chars,
        call.chars - r.rtokChars,
      );
      continue;
    }
    const saving = classifier.saving(view!.filterFamily!);
    if (saving === null) t.wouldFilter.unmeasured++;
    miss(
      call.command!,
      view!.filterFamily!,
      call.chars,
      saving === null ? 0 : Math.round(call.chars * saving / 100),
    );
  }
  t.wouldFilter.missedTokens = estimateChars(t.wouldFilter.missedChars, "log");
  t.commands.splice(0, t.commands.length, ..._mostFirst([...commands.values()]));
  t.unfiltered.splice(0, t.unfiltered.length, ..._mostFirst([...unfiltered.values()]));
}

function _unfiltered(
  unfiltered: Map<string, { family: string; calls: number; chars: number }>,
  family: string,
  chars: number,
): void {
  const u = unfiltered.get(family) ?? { family, calls: 0, chars: 0 };
  unfiltered.set(family, u);
  _add(u, chars);
}

function _mostFirst<T extends Tally & ({ command: string } | { family: string })>(xs: T[]): T[] {
  const key = (x: T) => "command" in x ? x.command : x.family;
  return xs.sort((a, b) => b.chars - a.chars || b.calls - a.calls || (key(a) < key(b) ? -1 : 1));
}

/** The calls of `read` made at or after `since` (all when `since` is `null`). */
export function callsSince(read: SessionRead, since: Date | null): CallRecord[] {
  if (since === null) return [...read.calls];
  const iso = since.toISOString();
  // A call without a timestamp belongs to its session's period: its newest line's.
  return read.calls.filter((c) => (c.at ?? read.last ?? "") >= iso);
}
