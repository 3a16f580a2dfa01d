/**
 * `rtok gain`: SQL over the ledger. The percentage is token-weighted (saved ÷ raw over all
 * rows), so one large output outweighs many small ones, as it does in the context window.
 *
 * @module
 */

import type { Store } from "../../core/store.ts";

/** Which rows a report covers. */
export interface Scope {
  /** Only runs in this directory or below it; `null` for every project. */
  readonly project: string | null;
}

/** Token totals over some rows. */
export interface Totals {
  /** Runs. */
  readonly runs: number;
  /** Estimated tokens the tools printed (after stage 1). */
  readonly rawTokens: number;
  /** Estimated tokens rtok emitted. */
  readonly emittedTokens: number;
  /** raw − emitted. */
  readonly savedTokens: number;
  /** saved ÷ raw × 100, or 0 with no raw tokens. */
  readonly savedPct: number;
  /** Total wall time, milliseconds. */
  readonly elapsedMs: number;
}

/** Totals for one command family. */
export interface CommandTotals extends Totals {
  /** The family: "git log", "grep", or a passthrough tool's name. */
  readonly command: string;
}

/** The summary report. */
export interface GainSummary extends Totals {
  /** The project subtree, or `null` for all projects. */
  readonly project: string | null;
  /** Runs whose output a filter changed. */
  readonly filtered: number;
  /** Runs passed through unchanged. */
  readonly passedThrough: number;
  /** Runs where something was cut (and archived). */
  readonly lossy: number;
  /** Recorded filter failures. */
  readonly failures: number;
  /**
   * Hook answers that never reached the host (it had given up on the hook, and the model got
   * the raw output): left out of every other figure, counted here.
   */
  readonly undelivered: Totals;
  /** Per family, most tokens saved first. */
  readonly commands: readonly CommandTotals[];
  /** The agent sessions the hook saw. */
  readonly sessions: SessionTotals;
  /**
   * Per agent host whose hook saw runs (`claude`, `codex`…), most tokens saved first; runs
   * no host's hook saw (a terminal, the proxy, MCP) are not in it.
   */
  readonly hosts: readonly HostTotals[];
}

/** Totals for one agent host. */
export interface HostTotals extends Totals {
  /** The host: `claude`, `codex`, `gemini`, `opencode`, `copilot`. */
  readonly host: string;
}

/** What the hook saw of the agent's sessions, and what a saving is worth across them. */
export interface SessionTotals {
  /** Sessions with at least one tool call. */
  readonly sessions: number;
  /** Tool calls the hook saw. */
  readonly toolCalls: number;
  /** Runs tied to a session (by the shell call that ran them). */
  readonly runs: number;
  /**
   * Σ over those runs of tokens saved × the session's tool calls from that run on: each call
   * is one more request that would have re-sent the output.
   */
  readonly contextTokenTurns: number;
}

/** One agent session: its tool calls, the runs tied to it, and what their savings were worth. */
export interface SessionRow {
  /** The host's session id. */
  readonly session: string;
  /** The agent host whose hook saw it, when one did. */
  readonly host: string | null;
  /** Its first and last activity (a tool call or a run), ISO 8601 UTC. */
  readonly first: string;
  /** See `first`. */
  readonly last: string;
  /** Tool calls the hook saw. */
  readonly toolCalls: number;
  /** Runs tied to it. */
  readonly runs: number;
  /** Estimated tokens those runs saved. */
  readonly savedTokens: number;
  /** Σ tokens saved × the session's tool calls from that run on, as in the summary. */
  readonly contextTokenTurns: number;
}

/** Totals for one day, week or month. */
export interface PeriodTotals extends Totals {
  /** `2026-12-03`, `2026-W48`, `2026-12`. */
  readonly period: string;
}

/** One ledger row, for `--history`. */
export interface HistoryRow {
  /** When, ISO 8601 UTC. */
  readonly time: string;
  /** The command as given. */
  readonly command: string;
  /** Its family. */
  readonly family: string;
  /** Estimated raw tokens. */
  readonly rawTokens: number;
  /** Estimated emitted tokens. */
  readonly emittedTokens: number;
  /** The stage that acted. */
  readonly stage: string;
  /** True when something was cut. */
  readonly lossy: boolean;
  /** The archive id, when the raw bytes were kept. */
  readonly archiveId: string | null;
  /**
   * The tool's exit code; `null` for a command killed by a signal, and for a run of a surface
   * that sees no exit code (a hook's tool result, the proxy's).
   */
  readonly exitCode: number | null;
  /** The surface that recorded it (`cli`, `hook`, `mcp`, `proxy`). */
  readonly surface: string;
  /** Wall time, milliseconds. */
  readonly elapsedMs: number;
  /** Why it was not filtered, when it was not. */
  readonly passthrough: string | null;
}

/** One recorded filter failure, for `--failures`. */
export interface FailureRow {
  /** When, ISO 8601 UTC. */
  readonly time: string;
  /** The family whose filter threw. */
  readonly family: string;
  /** The command as given. */
  readonly command: string;
  /** What it threw. */
  readonly error: string;
  /** True when the raw output still arrived. */
  readonly fallbackOk: boolean;
}

/** How periods are bucketed. */
export type Period = "daily" | "weekly" | "monthly";

const PERIOD_FORMAT: Record<Period, string> = {
  daily: "%Y-%m-%d",
  weekly: "%Y-W%W",
  monthly: "%Y-%m",
};

const TOTALS_SQL = `count(*) AS runs, coalesce(sum(raw_tokens), 0) AS rawTokens,
  coalesce(sum(emitted_tokens), 0) AS emittedTokens, coalesce(sum(elapsed_ms), 0) AS elapsedMs`;

// GLOB, not LIKE: `_` and `%` are ordinary in paths; GLOB's own metacharacters are escaped.
function where(scope: Scope): { sql: string; params: string[] } {
  if (!scope.project) return { sql: "", params: [] };
  const root = scope.project.replace(/\/+$/, "") || "/";
  const escaped = root.replace(/[*?[]/g, (c) => `[${c}]`);
  return {
    sql: "WHERE (project = ? OR project GLOB ?)",
    params: [root, `${escaped === "/" ? "" : escaped}/*`],
  };
}

// Rows of answers that never reached the host are no saving: every total leaves them out.
const _REACHED = "(delivered IS NULL OR delivered = 1)";

// `where`'s clause over runs, with the undelivered rows left out.
function _delivered(sql: string): string {
  return sql ? `${sql} AND ${_REACHED}` : `WHERE ${_REACHED}`;
}

function totals(row: Record<string, unknown>): Totals {
  const raw = Number(row.rawTokens);
  const emitted = Number(row.emittedTokens);
  const saved = raw - emitted;
  return {
    runs: Number(row.runs),
    rawTokens: raw,
    emittedTokens: emitted,
    savedTokens: saved,
    savedPct: raw > 0 ? Math.round((saved / raw) * 1000) / 10 : 0,
    elapsedMs: Math.round(Number(row.elapsedMs)),
  };
}

/** Totals, counts and the per-command table. */
export function gainSummary(store: Store, scope: Scope): GainSummary {
  const w = where(scope);
  const all = store.db.prepare(
    `SELECT ${TOTALS_SQL}, coalesce(sum(passthrough IS NULL), 0) AS filtered,
       coalesce(sum(lossy), 0) AS lossy FROM runs ${_delivered(w.sql)}`,
  ).get(...w.params) as Record<string, unknown>;
  const commands = (store.db.prepare(
    `SELECT family AS command, ${TOTALS_SQL} FROM runs ${_delivered(w.sql)} GROUP BY family`,
  ).all(...w.params) as Record<string, unknown>[])
    .map((r) => ({ command: String(r.command), ...totals(r) }))
    .sort((a, b) =>
      b.savedTokens - a.savedTokens || b.runs - a.runs || a.command.localeCompare(b.command)
    );
  const hosts = (store.db.prepare(
    `SELECT host, ${TOTALS_SQL} FROM runs ${_delivered(w.sql)} AND host IS NOT NULL
       GROUP BY host`,
  ).all(...w.params) as Record<string, unknown>[])
    .map((r) => ({ host: String(r.host), ...totals(r) }))
    .sort((a, b) => b.savedTokens - a.savedTokens || a.host.localeCompare(b.host));
  const failures = store.db.prepare("SELECT count(*) AS n FROM failures").get() as { n: number };
  const lost = store.db.prepare(
    `SELECT ${TOTALS_SQL} FROM runs ${w.sql ? `${w.sql} AND` : "WHERE"} delivered = 0`,
  ).get(...w.params) as Record<string, unknown>;
  const t = totals(all);
  const calls = store.db.prepare(
    `SELECT count(DISTINCT session) AS sessions, count(*) AS calls FROM tool_calls ${w.sql}`,
  ).get(...w.params) as Record<string, unknown>;
  const turns = store.db.prepare(
    `SELECT count(*) AS runs, coalesce(sum((raw_tokens - emitted_tokens) *
       (SELECT count(*) FROM tool_calls c WHERE c.session = r.session AND c.ts >= r.ts)), 0)
       AS turns FROM runs r ${_delivered(w.sql)} AND session IS NOT NULL`,
  ).get(...w.params) as Record<string, unknown>;
  return {
    project: scope.project,
    ...t,
    filtered: Number(all.filtered),
    passedThrough: t.runs - Number(all.filtered),
    lossy: Number(all.lossy),
    failures: Number(failures.n),
    undelivered: totals(lost),
    commands,
    hosts,
    sessions: {
      sessions: Number(calls.sessions),
      toolCalls: Number(calls.calls),
      runs: Number(turns.runs),
      contextTokenTurns: Number(turns.turns),
    },
  };
}

/** Totals per day, week or month (local time), newest first. */
export function gainPeriods(store: Store, scope: Scope, period: Period): PeriodTotals[] {
  const w = where(scope);
  const rows = store.db.prepare(
    `SELECT strftime('${PERIOD_FORMAT[period]}', ts / 1000, 'unixepoch', 'localtime') AS period,
       ${TOTALS_SQL} FROM runs ${_delivered(w.sql)} GROUP BY period ORDER BY period DESC`,
  ).all(...w.params) as Record<string, unknown>[];
  return rows.map((r) => ({ period: String(r.period), ...totals(r) }));
}

/** The newest `limit` runs, newest first. */
export function gainHistory(store: Store, scope: Scope, limit: number): HistoryRow[] {
  const w = where(scope);
  const rows = store.db.prepare(
    `SELECT ts, command, family, raw_tokens, emitted_tokens, stage, lossy, archive_id, exit_code,
       surface, elapsed_ms, passthrough FROM runs ${_delivered(w.sql)}
     ORDER BY ts DESC, id DESC LIMIT ?`,
  ).all(...w.params, limit) as Record<string, unknown>[];
  return rows.map((r) => ({
    time: new Date(Number(r.ts)).toISOString(),
    command: String(r.command),
    family: String(r.family),
    rawTokens: Number(r.raw_tokens),
    emittedTokens: Number(r.emitted_tokens),
    stage: String(r.stage),
    lossy: Number(r.lossy) === 1,
    archiveId: r.archive_id === null ? null : String(r.archive_id),
    exitCode: r.exit_code === null ? null : Number(r.exit_code),
    surface: String(r.surface),
    elapsedMs: Number(r.elapsed_ms),
    passthrough: r.passthrough === null ? null : String(r.passthrough),
  }));
}

/** The newest `limit` filter failures, newest first. */
export function gainFailures(store: Store, limit: number): FailureRow[] {
  const rows = store.db.prepare(
    `SELECT ts, family, command, error, fallback_ok FROM failures ORDER BY ts DESC, id DESC
     LIMIT ?`,
  ).all(limit) as Record<string, unknown>[];
  return rows.map((r) => ({
    time: new Date(Number(r.ts)).toISOString(),
    family: String(r.family),
    command: String(r.command),
    error: String(r.error),
    fallbackOk: Number(r.fallback_ok) === 1,
  }));
}

/**
 * The newest `limit` sessions (by last activity) with their context-token-turns; over every
 * session, their sum is the summary's `sessions.contextTokenTurns`.
 */
export function gainSessions(store: Store, scope: Scope, limit: number): SessionRow[] {
  const w = where(scope);
  const calls = store.db.prepare(
    `SELECT session, max(host) AS host, count(*) AS calls, min(ts) AS first, max(ts) AS last
     FROM tool_calls ${w.sql} GROUP BY session`,
  ).all(...w.params) as Record<string, unknown>[];
  const runs = store.db.prepare(
    `SELECT session, max(host) AS host, count(*) AS runs, min(ts) AS first, max(ts) AS last,
       coalesce(sum(raw_tokens - emitted_tokens), 0) AS saved,
       coalesce(sum((raw_tokens - emitted_tokens) *
         (SELECT count(*) FROM tool_calls c WHERE c.session = r.session AND c.ts >= r.ts)), 0)
       AS turns
     FROM runs r ${_delivered(w.sql)} AND session IS NOT NULL GROUP BY session`,
  ).all(...w.params) as Record<string, unknown>[];
  const by = new Map<string, { host: string | null; first: number; last: number }>();
  const n = (v: unknown) => Number(v ?? 0);
  for (const r of [...calls, ...runs]) {
    const id = String(r.session);
    const had = by.get(id);
    by.set(id, {
      host: had?.host ?? (r.host === null ? null : String(r.host)),
      first: Math.min(had?.first ?? Infinity, n(r.first)),
      last: Math.max(had?.last ?? -Infinity, n(r.last)),
    });
  }
  const callsOf = new Map(calls.map((r) => [String(r.session), n(r.calls)]));
  const runsOf = new Map(runs.map((r) => [String(r.session), r]));
  return [...by].map(([session, s]) => {
    const r = runsOf.get(session);
    return {
      session,
      host: s.host,
      first: new Date(s.first).toISOString(),
      last: new Date(s.last).toISOString(),
      toolCalls: callsOf.get(session) ?? 0,
      runs: n(r?.runs),
      savedTokens: n(r?.saved),
      contextTokenTurns: n(r?.turns),
    };
  }).sort((a, b) => b.last.localeCompare(a.last) || a.session.localeCompare(b.session))
    .slice(0, limit);
}

/** A hook row `rtok gain --verify` checks against the host's transcript. */
export interface HookRow {
  /** The session. */
  readonly session: string;
  /** The host's tool call id. */
  readonly callId: string;
  /** The family. */
  readonly family: string;
  /** The archive id its pointer names, when it cut something. */
  readonly archiveId: string | null;
  /** Chars rtok emitted. */
  readonly emittedChars: number;
  /** Estimated tokens it saved. */
  readonly savedTokens: number;
}

/** The delivered hook rows of Claude Code sessions with a call id, oldest first. */
export function hookRows(store: Store, scope: Scope): HookRow[] {
  const w = where(scope);
  return (store.db.prepare(
    `SELECT session, call_id AS callId, family, archive_id AS archiveId,
       emitted_chars AS emittedChars, raw_tokens - emitted_tokens AS savedTokens
     FROM runs ${_delivered(w.sql)} AND surface = 'hook' AND coalesce(host, 'claude') = 'claude'
       AND call_id IS NOT NULL AND session IS NOT NULL ORDER BY ts, id`,
  ).all(...w.params) as Record<string, unknown>[]).map((r) => ({
    session: String(r.session),
    callId: String(r.callId),
    family: String(r.family),
    archiveId: r.archiveId === null ? null : String(r.archiveId),
    emittedChars: Number(r.emittedChars),
    savedTokens: Number(r.savedTokens),
  }));
}

/** Hook rows the ledger holds that no call id ties to a host's tool call (older rows). */
export function untiedHookRows(store: Store, scope: Scope): number {
  const w = where(scope);
  const r = store.db.prepare(
    `SELECT count(*) AS n FROM runs ${_delivered(w.sql)} AND surface = 'hook'
       AND coalesce(host, 'claude') = 'claude' AND (call_id IS NULL OR session IS NULL)`,
  ).get(...w.params) as { n: number };
  return Number(r.n);
}

/** One day's estimated tokens saved by one family on one surface. */
export interface DaySaving {
  /** The local date, `YYYY-MM-DD`. */
  readonly day: string;
  /** The family. */
  readonly family: string;
  /** The surface that ran it. */
  readonly surface: string;
  /** Estimated tokens saved. */
  readonly saved: number;
}

/** Estimated tokens saved since `start` (epoch ms), by local day, family and surface. */
export function savedByDay(store: Store, scope: Scope, start: number): DaySaving[] {
  const w = where(scope);
  const rows = store.db.prepare(
    `SELECT strftime('%Y-%m-%d', ts / 1000, 'unixepoch', 'localtime') AS day, family, surface,
       sum(raw_tokens - emitted_tokens) AS saved
     FROM runs ${_delivered(w.sql)} AND ts >= ? GROUP BY day, family, surface`,
  ).all(...w.params, start) as Record<string, unknown>[];
  return rows.map((r) => ({
    day: String(r.day),
    family: String(r.family),
    surface: String(r.surface),
    saved: Number(r.saved),
  }));
}
