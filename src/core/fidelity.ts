/**
 * The two promises every lossy view keeps (DESIGN rule 11), applied where a filter's output
 * becomes a view — the command runner, the content engine, file views: the lines that say what
 * failed or what to do are never cut (`actionable.ts`), and the view says where the lines it
 * hides are (`hidden_lines.ts`).
 *
 * @module
 */

import type { Filtered } from "./filter.ts";
import { keepActionable } from "./actionable.ts";
import { withHiddenSpans } from "./hidden_lines.ts";

/** How a view is finished. */
export interface FinishOptions {
  /**
   * False for output that quotes content (commits, source lines, file names, a file read)
   * rather than reporting on a run: a line of it that reads like an error is data, and its
   * filter's own rules decide what stays.
   */
  readonly reports: boolean;
}

/** `filtered`, a view of `raw`, with its actionable lines put back and its hidden lines located. */
export function finishView(raw: string, filtered: Filtered, opts: FinishOptions): Filtered {
  if (filtered.cut.length === 0) return filtered;
  const kept = opts.reports ? keepActionable(raw, filtered) : filtered;
  return withHiddenSpans(raw, kept);
}
