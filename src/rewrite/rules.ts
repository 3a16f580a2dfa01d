/**
 * The rewrite rules, read from the family table: one per built-in family and only those. Each
 * says whether the filter stays right when the command reads a pipe, and which of its arguments
 * keep it a read-only command — the commands Claude Code itself runs without asking, so the
 * hook may say "allow" for their rtok form without granting anything the agent did not already
 * have. The rules themselves are declared by each family's filter module.
 *
 * @module
 */

import { readsOnly } from "../core/family.ts";
import { FAMILY_TABLE } from "../../filters/families.ts";

/** One family's rule. */
export interface RewriteRule {
  /** True when the filter is right on the last stage of a pipeline (input from a pipe). */
  readonly pipeSafe: boolean;
  /**
   * True when the command with these arguments (after the family's own words) only reads,
   * as far as rtok can tell from the text: no flag that writes a file or runs a program.
   */
  readOnly(args: readonly string[]): boolean;
  /** Its median saving on its fixtures, in percent, or `null` without one. */
  readonly saving: number | null;
}

/** The rule of `family`, or `null` when rtok has no built-in filter for it. */
export function rewriteRule(family: string): RewriteRule | null {
  if (!Object.hasOwn(FAMILY_TABLE, family)) return null;
  const e = FAMILY_TABLE[family];
  return {
    pipeSafe: e.pipeSafe,
    readOnly: (args) => readsOnly(e.readOnly, args),
    saving: e.saving,
  };
}
