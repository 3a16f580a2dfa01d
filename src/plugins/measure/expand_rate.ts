/**
 * The expand rate: of a filter's lossy outputs, how many were asked for again in full
 * (`rtok expand`, MCP `rtok_expand`, or the agent reading the archived file). A filter whose
 * rate passes {@linkcode EXPAND_RATE_LIMIT_PCT} cuts what agents need: too aggressive.
 *
 * @module
 */

import type { Store } from "../../core/store.ts";

/** Above this rate (per cent) a filter is flagged as cutting too much. */
export const EXPAND_RATE_LIMIT_PCT = 5;

/** One filter family's expand rate. */
export interface ExpandRate {
  /** The family: "git log", "grep". */
  readonly family: string;
  /** Its runs that cut something (and archived the raw output). */
  readonly lossyRuns: number;
  /** Expands of the outputs those runs archived. */
  readonly expands: number;
  /** expands ÷ lossy runs × 100, one decimal. */
  readonly ratePct: number;
  /** True above {@linkcode EXPAND_RATE_LIMIT_PCT}. */
  readonly flagged: boolean;
}

/**
 * Expand rates per family over the ledger's lossy runs in `project` and below (or all, for
 * `null`), highest rate first. An expand counts against the family whose latest lossy run
 * archived that output; every expand counts, so an output asked for twice counts twice.
 */
export function expandRates(store: Store, project: string | null): ExpandRate[] {
  const scope = _under(project);
  const rows = store.db.prepare(
    `WITH lossy AS (
       SELECT family, archive_id, ts FROM runs
       WHERE lossy = 1 AND archive_id IS NOT NULL AND (delivered IS NULL OR delivered = 1)
       ${scope.sql}
     ),
     owner AS (SELECT archive_id, family, max(ts) FROM lossy GROUP BY archive_id),
     expanded AS (
       SELECT o.family, count(*) AS n FROM expands e JOIN owner o ON o.archive_id = e.archive_id
       GROUP BY o.family
     )
     SELECT l.family, count(*) AS lossyRuns, coalesce(x.n, 0) AS expands
     FROM lossy l LEFT JOIN expanded x ON x.family = l.family GROUP BY l.family`,
  ).all(...scope.params) as { family: string; lossyRuns: number; expands: number }[];
  return rows.map((r) => {
    const lossyRuns = Number(r.lossyRuns);
    const expands = Number(r.expands);
    const ratePct = Math.round((expands / lossyRuns) * 1000) / 10;
    return {
      family: String(r.family),
      lossyRuns,
      expands,
      ratePct,
      flagged: ratePct > EXPAND_RATE_LIMIT_PCT,
    };
  }).sort((a, b) =>
    b.ratePct - a.ratePct || b.lossyRuns - a.lossyRuns || a.family.localeCompare(b.family)
  );
}

// GLOB, not LIKE: `_` and `%` are ordinary in paths; GLOB's own metacharacters are escaped.
function _under(root: string | null): { sql: string; params: string[] } {
  if (root === null) return { sql: "", params: [] };
  const dir = root.replace(/\/+$/, "") || "/";
  const escaped = dir.replace(/[*?[]/g, (c) => `[${c}]`);
  return {
    sql: "AND (project = ? OR project GLOB ?)",
    params: [dir, `${escaped === "/" ? "" : escaped}/*`],
  };
}
