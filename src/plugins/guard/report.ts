/**
 * The guard's section of `rtok gain`: its interventions, per rule, and how many were false
 * blocks (the agent re-issued the command as it was).
 *
 * @module
 */

import type { Store } from "../../core/store.ts";

/** One rule's interventions. */
export interface GuardRuleTotals {
  /** The rule. */
  readonly rule: string;
  /** Interventions. */
  readonly interventions: number;
  /** Of those, rewrites. */
  readonly rewrites: number;
  /** Of those, reasons. */
  readonly reasons: number;
  /** Of those, false blocks. */
  readonly falseBlocks: number;
  /** falseBlocks ÷ interventions × 100, or 0 with none. */
  readonly falseBlockPct: number;
}

/** The guard's report: totals over every rule, then each rule, most interventions first. */
export interface GuardReport extends Omit<GuardRuleTotals, "rule"> {
  /** Per rule. */
  readonly rules: readonly GuardRuleTotals[];
}

const _SQL = `SELECT rule, COUNT(*) AS n,
  SUM(action = 'rewrite') AS rewrites, SUM(action = 'reason') AS reasons,
  SUM(false_block) AS false_blocks
  FROM interventions WHERE (? IS NULL OR project = ? OR project LIKE ? ESCAPE '\\')
  GROUP BY rule ORDER BY n DESC, rule`;

function _pct(part: number, whole: number): number {
  return whole ? Math.round((part / whole) * 1000) / 10 : 0;
}

/** The guard's interventions in the ledger, for `project` and below (`null`: every project). */
export function guardReport(store: Store, scope: { readonly project: string | null }): GuardReport {
  const p = scope.project?.replace(/\/+$/, "") ?? null;
  const like = p === null ? null : `${p.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
  const rows = store.db.prepare(_SQL).all(p, p, like) as {
    rule: string;
    n: number;
    rewrites: number;
    reasons: number;
    false_blocks: number;
  }[];
  const rules = rows.map((r) => ({
    rule: r.rule,
    interventions: r.n,
    rewrites: r.rewrites,
    reasons: r.reasons,
    falseBlocks: r.false_blocks,
    falseBlockPct: _pct(r.false_blocks, r.n),
  }));
  const sum = (k: "interventions" | "rewrites" | "reasons" | "falseBlocks") =>
    rules.reduce((a, r) => a + r[k], 0);
  return {
    interventions: sum("interventions"),
    rewrites: sum("rewrites"),
    reasons: sum("reasons"),
    falseBlocks: sum("falseBlocks"),
    falseBlockPct: _pct(sum("falseBlocks"), sum("interventions")),
    rules,
  };
}

/** The report as `rtok gain` prints it; `""` when the guard never intervened. */
export function guardText(r: GuardReport): string {
  if (r.interventions === 0) return "";
  const lines = [
    "",
    `Guard: ${r.interventions} interventions (${r.rewrites} rewritten, ${r.reasons} explained); ` +
    `false blocks: ${r.falseBlocks} (${r.falseBlockPct} %)`,
  ];
  for (const x of r.rules) {
    lines.push(
      `  ${x.rule.padEnd(12)} ${String(x.interventions).padStart(5)}  ` +
        `false blocks: ${x.falseBlocks} (${x.falseBlockPct} %)`,
    );
  }
  return lines.join("\n") + "\n";
}
