/**
 * The ledger's totals as `rtok metrics` exports them: runs and estimated tokens per surface,
 * tokens saved per family, filter failures. Read on a read-only handle, one query each.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** Runs and estimated tokens of one surface. */
export interface SurfaceTotals {
  /** The surface. */
  readonly surface: string;
  /** Its runs. */
  readonly runs: number;
  /** Estimated tokens the tools printed. */
  readonly raw: number;
  /** Estimated tokens rtok emitted instead. */
  readonly emitted: number;
}

// Rows of answers that never reached the host are no saving.
const _REACHED = "(delivered IS NULL OR delivered = 1)";

/** Runs and estimated tokens per surface, undelivered answers left out. */
export function totalsBySurface(db: DatabaseSync): SurfaceTotals[] {
  const rows = db.prepare(
    `SELECT surface, count(*) AS n, coalesce(sum(raw_tokens), 0) AS raw,
       coalesce(sum(emitted_tokens), 0) AS emitted FROM runs
     WHERE ${_REACHED} GROUP BY surface`,
  ).all() as Record<string, unknown>[];
  return rows.map((r) => ({
    surface: String(r.surface),
    runs: Number(r.n),
    raw: Number(r.raw),
    emitted: Number(r.emitted),
  }));
}

/** Estimated tokens saved by each filter family that saved any (passthroughs left out). */
export function savedByFamily(db: DatabaseSync): { family: string; saved: number }[] {
  const rows = db.prepare(
    `SELECT family, sum(raw_tokens - emitted_tokens) AS saved FROM runs
     WHERE passthrough IS NULL AND ${_REACHED}
     GROUP BY family HAVING saved > 0`,
  ).all() as Record<string, unknown>[];
  return rows.map((r) => ({ family: String(r.family), saved: Number(r.saved) }));
}

/** The filter failures recorded. */
export function failureCount(db: DatabaseSync): number {
  return Number((db.prepare("SELECT count(*) AS n FROM failures").get() as { n: number }).n);
}
