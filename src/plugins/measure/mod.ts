/**
 * The `measure` plugin: the ledger every saving is recorded in.
 *
 * @module
 */

import type { Ctx, FailureRecord, Measurement, Plugin } from "../../core/plugin.ts";
import { insertFailure, insertRun } from "./ledger.ts";

/** The `measure` plugin. */
export const measurePlugin: Plugin = {
  manifest: {
    id: "measure",
    surfaces: ["cli", "hook", "mcp", "proxy"],
    defaultOn: true,
    description: "Records one ledger row per run and the filter failures, for `rtok gain`.",
  },
  onMeasurement(m: Measurement, ctx: Ctx): void {
    if (ctx.store) insertRun(ctx.store, m, ctx.config.ledger.retentionDays);
  },
  onFailure(f: FailureRecord, ctx: Ctx): void {
    if (ctx.store) insertFailure(ctx.store, f, ctx.config.ledger.retentionDays);
  },
};
