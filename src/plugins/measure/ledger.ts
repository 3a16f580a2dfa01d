/**
 * The ledger's writes: one row per run, failures apart, rows past the retention window swept
 * in the same write. Runs reach here through the spool (`measure.run`, `measure.failure`).
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import type { FailureRecord, Measurement } from "../../core/plugin.ts";
import type { SpoolEntry } from "../../core/spool.ts";
import type { Store } from "../../core/store.ts";
import { estimateChars } from "../../core/tokens.ts";

/** Longest command text the ledger keeps; longer commands are cut with an ellipsis. */
export const MAX_COMMAND_CHARS = 500;

function clip(text: string): string {
  return text.length > MAX_COMMAND_CHARS ? text.slice(0, MAX_COMMAND_CHARS - 1) + "…" : text;
}

const INSERT_RUN = `INSERT INTO runs (ts, surface, plugin, family, command, rtok_command,
  project, session, turn, raw_chars, emitted_chars, raw_tokens, emitted_tokens, text_class,
  stage, lossy, archive_id, exit_code, elapsed_ms, passthrough, host, call_id, delivered)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const INSERT_FAILURE = `INSERT INTO failures (ts, surface, plugin, family, command, error,
  fallback_ok) VALUES (?, ?, ?, ?, ?, ?, ?)`;

/** One tool call the hook saw (`measure.call`). */
export interface ToolCall {
  /** The agent session. */
  readonly session: string;
  /** The host's tool name. */
  readonly tool: string;
  /** The canonical working directory. */
  readonly project: string;
  /** For the shell tool, true when the command ran through rtok. */
  readonly viaRtok: boolean;
  /** The agent host whose hook saw it (`claude` when absent). */
  readonly host?: string;
}

const INSERT_CALL =
  `INSERT INTO tool_calls (ts, session, tool, project, host) VALUES (?, ?, ?, ?, ?)`;

// A run belongs to the session (and host) whose shell call, in the same project, ended just
// after it.
const CLAIM_RUNS = `UPDATE runs SET session = ?, host = ? WHERE session IS NULL
  AND surface = 'cli' AND project = ? AND ts <= ? AND ts >= ?`;

/** How long before its shell call ended a run may have ended and still belong to it. */
export const CLAIM_WINDOW_MS = 10 * 60_000;

function runValues(m: Measurement, ts: number): (string | number | null)[] {
  return [
    ts,
    m.surface,
    m.plugin,
    m.family,
    clip(m.command),
    clip(m.rtokCommand),
    m.project,
    m.session,
    m.turn,
    m.rawChars,
    m.emittedChars,
    estimateChars(m.rawChars, m.textClass),
    estimateChars(m.emittedChars, m.textClass),
    m.textClass,
    m.stage,
    m.lossy ? 1 : 0,
    m.archiveId,
    m.exitCode,
    Math.round(m.elapsedMs * 10) / 10,
    m.passthrough,
    m.host ?? null,
    typeof m.callId === "string" ? m.callId : null,
    typeof m.delivered === "boolean" ? (m.delivered ? 1 : 0) : null,
  ];
}

function failureValues(f: FailureRecord, ts: number): (string | number)[] {
  return [ts, f.surface, f.plugin, f.family, clip(f.command), f.error, f.fallbackOk ? 1 : 0];
}

/**
 * Applies spooled `measure.run` and `measure.failure` entries inside the caller's write, then
 * sweeps rows older than `retentionDays`.
 */
export function ingestLedger(
  db: DatabaseSync,
  entries: readonly SpoolEntry[],
  retentionDays: number,
  now: number = Date.now(),
): void {
  const run = db.prepare(INSERT_RUN);
  const failure = db.prepare(INSERT_FAILURE);
  const call = db.prepare(INSERT_CALL);
  const claim = db.prepare(CLAIM_RUNS);
  for (const e of entries) {
    if (e.kind === "measure.run") {
      const m = e.data as unknown as Measurement;
      run.run(...runValues(m, typeof m.at === "number" ? m.at : e.ts));
    }
    if (e.kind === "measure.failure") {
      failure.run(...failureValues(e.data as unknown as FailureRecord, e.ts));
    }
    if (e.kind === "measure.call") {
      const c = e.data as unknown as ToolCall;
      if (typeof c.session !== "string" || typeof c.tool !== "string") continue;
      const project = String(c.project ?? "");
      const host = typeof c.host === "string" ? c.host : "claude";
      call.run(e.ts, c.session, c.tool, project, host);
      if (c.viaRtok) claim.run(c.session, host, project, e.ts, e.ts - CLAIM_WINDOW_MS);
    }
  }
  sweep(db, retentionDays, now);
}

/** Writes one run directly, in its own transaction, and sweeps old rows. */
export function insertRun(
  store: Store,
  m: Measurement,
  retentionDays: number,
  now: number = Date.now(),
): void {
  store.write((db) =>
    ingestLedger(db, [{ kind: "measure.run", ts: now, data: { ...m } }], retentionDays, now)
  );
}

// One exec, not three prepared statements.
function sweep(db: DatabaseSync, retentionDays: number, now: number): void {
  const cutoff = Math.floor(now - retentionDays * 86_400_000);
  db.exec(
    `DELETE FROM runs WHERE ts < ${cutoff}; DELETE FROM failures WHERE ts < ${cutoff};
     DELETE FROM expands WHERE ts < ${cutoff}; DELETE FROM tool_calls WHERE ts < ${cutoff};`,
  );
}
