/**
 * `rtok replay`'s report: the replayed calls summed per tool and per family, the facts the agent
 * used later and what became of them, and the worst calls. `--format json` prints
 * {@linkcode ReplayReport} as it is; its fields are documented in docs/replay.md and only ever
 * added to.
 *
 * @module
 */

import type { CallReplay, SessionReplay } from "./replay.ts";
import type { FactCounts, HiddenFact } from "./facts.ts";
import { noFacts } from "./facts.ts";
import { columns } from "../core/text.ts";

/** The version of the JSON report's shape. */
export const REPLAY_REPORT_VERSION = 1;

/** Calls summed. */
export interface ReplayTotals {
  /** Tool calls with a result. */
  calls: number;
  /** Of them, sent to the hook (a result of a shape rtok rebuilds, not an error). */
  replayed: number;
  /** Of them, those rtok's hook changed. */
  changed: number;
  /** Chars the model was sent. */
  rawChars: number;
  /** Chars it would have been sent through rtok. */
  rtokChars: number;
  /** Estimated tokens saved. */
  savedTokens: number;
  /** Estimated tokens saved times the requests that would have re-sent them. */
  tokenTurnsSaved: number;
  /** The facts the agent used later. */
  readonly facts: FactCounts;
  /** Reads shown as a view, and of them those whose file the agent then edited or wrote. */
  readonly readViews: { views: number; editedAfter: number };
  /** Calls whose hook answer failed (the output went through as it was). */
  errors: number;
  /**
   * Calls the transcript holds as rtok's view (recorded with rtok's hook installed): of them,
   * those whose raw output was in the archive and replayed, and of those, the replays that
   * answered exactly what the transcript holds.
   */
  readonly recordedThroughRtok: { calls: number; replayed: number; agree: number };
}

/** A call the report lists among the worst: what it hid that the agent used. */
export type WorstCall =
  & Pick<
    CallReplay,
    | "session"
    | "file"
    | "tool"
    | "family"
    | "subject"
    | "at"
    | "rawChars"
    | "rtokChars"
    | "facts"
  >
  & {
    /** Up to three hidden facts, those with no location first. */
    readonly hidden: readonly HiddenFact[];
  };

/** One call as `--calls` lists it: what it was, and what rtok made of it. No content. */
export type CallRow = Pick<
  CallReplay,
  | "session"
  | "conversation"
  | "id"
  | "tool"
  | "family"
  | "subject"
  | "at"
  | "rawChars"
  | "rtokChars"
  | "changed"
  | "recorded"
  | "agrees"
  | "archiveId"
  | "rawTextChars"
  | "viewTextChars"
  | "facts"
  | "skipped"
>;

/** The whole report. */
export interface ReplayReport {
  /** The shape's version ({@linkcode REPLAY_REPORT_VERSION}). */
  readonly version: number;
  /** The paths read. */
  readonly roots: readonly string[];
  /** `--since` as an ISO time, or `null`. */
  readonly since: string | null;
  /** `--project`, resolved, or `null`. */
  readonly project: string | null;
  /** Transcript files read. */
  files: number;
  /** Sessions (by id; subagents' files under their session). */
  sessions: number;
  /** Non-empty lines read. */
  lines: number;
  /** Claude Code versions the transcripts name. */
  readonly versions: string[];
  /** What was skipped. */
  readonly skipped: {
    badLines: number;
    unknownLines: number;
    unknownTranscripts: number;
    missingPaths: number;
    unreadable: number;
  };
  /** Every call. */
  readonly totals: ReplayTotals;
  /** Per tool. */
  readonly byTool: Record<string, ReplayTotals>;
  /** Per family. */
  readonly byFamily: Record<string, ReplayTotals>;
  /** The calls that hid most of what the agent used, worst first (at most 10). */
  readonly worst: WorstCall[];
  /** The first hook failures, as messages (at most 10). */
  readonly errorMessages: string[];
  /** Wall time of the replay, in milliseconds. */
  elapsedMs: number;
  /** Every call, in order, when asked for (`--calls`). */
  calls?: CallRow[];
}

/** An empty {@linkcode ReplayTotals}. */
export function emptyReplayTotals(): ReplayTotals {
  return {
    calls: 0,
    replayed: 0,
    changed: 0,
    rawChars: 0,
    rtokChars: 0,
    savedTokens: 0,
    tokenTurnsSaved: 0,
    facts: noFacts(),
    readViews: { views: 0, editedAfter: 0 },
    errors: 0,
    recordedThroughRtok: { calls: 0, replayed: 0, agree: 0 },
  };
}

/** An empty report over `roots`. */
export function emptyReplayReport(
  roots: readonly string[],
  since: Date | null,
  project: string | null,
): ReplayReport {
  return {
    version: REPLAY_REPORT_VERSION,
    roots,
    since: since?.toISOString() ?? null,
    project,
    files: 0,
    sessions: 0,
    lines: 0,
    versions: [],
    skipped: {
      badLines: 0,
      unknownLines: 0,
      unknownTranscripts: 0,
      missingPaths: 0,
      unreadable: 0,
    },
    totals: emptyReplayTotals(),
    byTool: {},
    byFamily: {},
    worst: [],
    errorMessages: [],
    elapsedMs: 0,
  };
}

function _add(t: ReplayTotals, c: CallReplay): void {
  t.calls++;
  if (c.skipped === null) t.replayed++;
  if (c.changed) t.changed++;
  if (c.error !== null) t.errors++;
  t.rawChars += c.rawChars;
  t.rtokChars += c.rtokChars;
  t.savedTokens += c.savedTokens;
  t.tokenTurnsSaved += c.savedTokens * c.turnsAfter;
  t.facts.used += c.facts.used;
  t.facts.kept += c.facts.kept;
  t.facts.located += c.facts.located;
  t.facts.unlocated += c.facts.unlocated;
  if (c.recorded === "rtok") {
    t.recordedThroughRtok.calls++;
    if (c.agrees !== null) t.recordedThroughRtok.replayed++;
    if (c.agrees === true) t.recordedThroughRtok.agree++;
  }
  if (c.tool === "Read" && c.changed) {
    t.readViews.views++;
    if (c.editedAfterView) t.readViews.editedAfter++;
  }
}

const _badness = (c: CallReplay | WorstCall) => c.facts.unlocated * 1000 + c.facts.located;

/** Adds a replayed session into `report`. */
export function addSession(report: ReplayReport, s: SessionReplay): void {
  report.sessions++;
  report.files += s.files.length;
  report.lines += s.lines;
  report.skipped.badLines += s.badLines;
  report.skipped.unknownLines += s.unknownLines;
  if (!s.known) report.skipped.unknownTranscripts += s.files.length;
  for (const v of s.versions) if (!report.versions.includes(v)) report.versions.push(v);
  report.versions.sort();
  for (const c of s.calls) {
    report.calls?.push({
      session: c.session,
      conversation: c.conversation,
      id: c.id,
      tool: c.tool,
      family: c.family,
      subject: c.subject,
      at: c.at,
      rawChars: c.rawChars,
      rtokChars: c.rtokChars,
      changed: c.changed,
      recorded: c.recorded,
      agrees: c.agrees,
      archiveId: c.archiveId,
      rawTextChars: c.rawTextChars,
      viewTextChars: c.viewTextChars,
      facts: c.facts,
      skipped: c.skipped,
    });
    _add(report.totals, c);
    _add(report.byTool[c.tool] ??= emptyReplayTotals(), c);
    _add(report.byFamily[c.family] ??= emptyReplayTotals(), c);
    if (c.error !== null && report.errorMessages.length < 10) {
      report.errorMessages.push(`${c.tool} ${c.subject}: ${c.error}`);
    }
    if (c.hidden.length === 0) continue;
    const worst = report.worst;
    if (worst.length === 10 && _badness(c) <= _badness(worst[worst.length - 1])) continue;
    worst.push({
      session: c.session,
      file: c.file,
      tool: c.tool,
      family: c.family,
      subject: c.subject,
      at: c.at,
      rawChars: c.rawChars,
      rtokChars: c.rtokChars,
      facts: c.facts,
      hidden: [...c.hidden].sort((a, b) => Number(a.located) - Number(b.located)).slice(0, 3),
    });
    worst.sort((a, b) => _badness(b) - _badness(a));
    worst.length = Math.min(worst.length, 10);
  }
}

const _n = (n: number): string => Math.round(n).toLocaleString("en-US");
const _pct = (part: number, whole: number): string =>
  whole === 0 ? "–" : `${(100 * part / whole).toFixed(1)} %`;

function _table(title: string, by: Record<string, ReplayTotals>, limit: number): string {
  const entries = Object.entries(by).sort((a, b) =>
    b[1].rawChars - a[1].rawChars || (a[0] < b[0] ? -1 : 1)
  );
  if (entries.length === 0) return "";
  const row = (name: string, t: ReplayTotals) => [
    name,
    _n(t.calls),
    _n(t.rawChars),
    _n(t.rtokChars),
    _pct(t.rawChars - t.rtokChars, t.rawChars),
    _n(t.tokenTurnsSaved),
    _n(t.facts.used),
    _n(t.facts.kept),
    _n(t.facts.located),
    _n(t.facts.unlocated),
  ];
  return columns([
    [
      title,
      "calls",
      "without rtok",
      "through rtok",
      "saved",
      "token-turns saved",
      "facts used",
      "kept",
      "located",
      "unlocated",
    ],
    ...entries.slice(0, limit).map(([k, t]) => row(k, t)),
  ], "  ");
}

/** The report as text. */
export function replayText(r: ReplayReport): string {
  const t = r.totals;
  let out = `rtok replay: ${_n(r.sessions)} sessions, ${_n(t.calls)} tool calls ` +
    `(${_n(t.replayed)} replayed through the hook, ${_n(t.changed)} changed) from ${_n(r.files)} ` +
    `transcripts, ${_n(r.lines)} lines, in ${(r.elapsedMs / 1000).toFixed(1)} s` +
    (r.versions.length
      ? `; Claude Code ${r.versions[0]}–${r.versions[r.versions.length - 1]}`
      : "") +
    "\n";
  const s = r.skipped;
  const skipped = [
    s.badLines ? `${_n(s.badLines)} lines not JSON` : "",
    s.unknownLines ? `${_n(s.unknownLines)} lines of an unknown shape` : "",
    s.unknownTranscripts ? `${_n(s.unknownTranscripts)} files of an unknown format` : "",
    s.missingPaths ? `${_n(s.missingPaths)} missing paths` : "",
    s.unreadable ? `${_n(s.unreadable)} unreadable paths` : "",
  ].filter((x) => x);
  out += `Skipped: ${skipped.length ? skipped.join(", ") : "nothing"}\n`;
  if (r.since) out += `Since ${r.since}\n`;
  if (t.calls === 0) return out;
  out += `\nTool results as the model gets them: ${_n(t.rawChars)} chars without rtok, ` +
    `${_n(t.rtokChars)} through rtok ` +
    `(${_pct(t.rawChars - t.rtokChars, t.rawChars)} saved, ~${_n(t.savedTokens)} tokens, ` +
    `~${_n(t.tokenTurnsSaved)} token-turns: each saved token times the requests that re-sent it)\n`;
  const f = t.facts;
  out +=
    `Facts the agent used later: ${_n(f.used)}; kept ${_n(f.kept)} (${_pct(f.kept, f.used)}), ` +
    `hidden but located ${_n(f.located)} (${_pct(f.located, f.used)}), hidden without a location ` +
    `${_n(f.unlocated)} (${_pct(f.unlocated, f.used)})\n`;
  if (t.readViews.views) {
    out +=
      `Reads shown as a view: ${_n(t.readViews.views)}; of them, files the agent then edited: ` +
      `${_n(t.readViews.editedAfter)}\n`;
  }
  const rec = t.recordedThroughRtok;
  if (rec.calls) {
    out += `Recorded through rtok's hook: ${_n(rec.calls)} calls; raw output in the archive for ` +
      `${_n(rec.replayed)}, and the replay answers what the transcript holds for ${
        _n(rec.agree)
      }\n`;
  }
  out += `Hook errors: ${_n(t.errors)}\n`;
  for (const m of r.errorMessages) out += `  ${m}\n`;
  out += `\nBy tool\n${_table("tool", r.byTool, 20)}`;
  out += `\nBy family (the 20 that cost the most)\n${_table("family", r.byFamily, 20)}`;
  if (r.worst.length) {
    out += "\nWorst calls (facts the agent used that the view hid)\n";
    for (const w of r.worst) {
      out +=
        `  ${w.tool} ${w.subject} (${w.family}; ${_n(w.rawChars)} → ${_n(w.rtokChars)} chars; ` +
        `${w.facts.unlocated} unlocated, ${w.facts.located} located of ${w.facts.used} used)\n` +
        `    session ${w.session}, ${w.file}\n`;
      for (const h of w.hidden) {
        out += `    ${h.located ? "located  " : "unlocated"} ${JSON.stringify(h.fact)} ` +
          `at raw line ${h.line}: ${h.text}\n` +
          `      used next by ${h.next.by}${h.next.field ? ` (${h.next.field})` : ""}` +
          `${h.next.at ? ` at ${h.next.at}` : ""}\n`;
      }
    }
  }
  return out;
}
