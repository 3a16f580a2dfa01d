/**
 * The ledger's writes: one row per run, failures apart, rows past the retention window swept
 * in the same transaction.
 *
 * @module
 */

import type { FailureRecord, Measurement } from "../../core/plugin.ts";
import type { Store } from "../../core/store.ts";
import { estimateChars } from "../../core/tokens.ts";

/** Longest command text the ledger keeps; longer commands are cut with an ellipsis. */
export const MAX_COMMAND_CHARS = 500;

function clip(text: string): string {
  return text.length > MAX_COMMAND_CHARS ? text.slice(0, MAX_COMMAND_CHARS - 1) + "…" : text;
}

/** Writes one run and sweeps rows older than `retentionDays`. */
export function insertRun(
  store: Store,
  m: Measurement,
  retentionDays: number,
  now: number = Date.now(),
): void {
  store.write((db) => {
    db.prepare(
      `INSERT INTO runs (ts, surface, plugin, family, command, rtok_command, project, session,
         turn, raw_chars, emitted_chars, raw_tokens, emitted_tokens, text_class, stage, lossy,
         archive_id, exit_code, elapsed_ms, passthrough)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      now,
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
    );
    sweep(store, retentionDays, now);
  });
}

/** Writes one filter failure and sweeps old rows. */
export function insertFailure(
  store: Store,
  f: FailureRecord,
  retentionDays: number,
  now: number = Date.now(),
): void {
  store.write((db) => {
    db.prepare(
      `INSERT INTO failures (ts, surface, plugin, family, command, error, fallback_ok)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(now, f.surface, f.plugin, f.family, clip(f.command), f.error, f.fallbackOk ? 1 : 0);
    sweep(store, retentionDays, now);
  });
}

function sweep(store: Store, retentionDays: number, now: number): void {
  const cutoff = now - retentionDays * 86_400_000;
  store.db.prepare("DELETE FROM runs WHERE ts < ?").run(cutoff);
  store.db.prepare("DELETE FROM failures WHERE ts < ?").run(cutoff);
  store.db.prepare("DELETE FROM expands WHERE ts < ?").run(cutoff);
}
