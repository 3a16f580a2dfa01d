/**
 * The proxy's rows in the ledger: one per request in `proxy_requests` (real usage from the
 * provider, tool-result chars seen and saved), one per compressed result in `proxy_results`.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import type { Store } from "../../core/store.ts";
import { estimateChars } from "../../core/tokens.ts";
import type { ProxyRow } from "./row.ts";

/** Writes requests and their results in one transaction; sweeps rows past `retentionDays`. */
export function insertProxyRows(
  store: Store,
  rows: readonly ProxyRow[],
  retentionDays: number,
): void {
  if (rows.length === 0) return;
  store.write((db) => {
    for (const row of rows) insertProxyRow(db, row);
    const cutoff = Math.floor(rows[0].ts - retentionDays * 86_400_000);
    db.prepare(
      `DELETE FROM proxy_results WHERE request_id IN
         (SELECT id FROM proxy_requests WHERE ts < ?)`,
    ).run(cutoff);
    db.prepare("DELETE FROM proxy_requests WHERE ts < ?").run(cutoff);
  });
}

/** Writes one request and its results, inside the caller's transaction. */
export function insertProxyRow(db: DatabaseSync, row: ProxyRow): void {
  const u = row.usage;
  const info = db.prepare(
    `INSERT INTO proxy_requests (ts, provider, route, model, status, streamed, latency_ms,
       duration_ms, input_tokens, output_tokens, cache_write_tokens, cache_read_tokens,
       results_seen, results_compressed, chars_seen, chars_saved, note, style_arm, caller)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.ts,
    row.provider,
    row.route,
    u.model,
    row.status,
    row.streamed ? 1 : 0,
    row.latencyMs,
    row.durationMs,
    u.input,
    u.output,
    u.cacheWrite,
    u.cacheRead,
    row.resultsSeen,
    row.results.length,
    row.charsSeen,
    row.charsSaved,
    row.note,
    row.style ?? null,
    row.caller ?? null,
  );
  const insert = db.prepare(
    `INSERT INTO proxy_results (request_id, shape, raw_chars, emitted_chars, raw_tokens,
       emitted_tokens, text_class, archive_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const r of row.results) {
    insert.run(
      info.lastInsertRowid,
      r.shape,
      r.rawChars,
      r.emittedChars,
      estimateChars(r.rawChars, r.textClass),
      estimateChars(r.emittedChars, r.textClass),
      r.textClass,
      r.archiveId,
    );
  }
}
