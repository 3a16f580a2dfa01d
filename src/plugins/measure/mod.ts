/**
 * The `measure` plugin: the ledger every saving is recorded in. A run defers its row to the
 * spool (no SQLite on its path); the row lands in the store when the spool is drained.
 *
 * @module
 */

import type {
  Ctx,
  FailureRecord,
  Measurement,
  Plugin,
  PostToolAnswer,
  PostToolEvent,
} from "../../core/plugin.ts";
import type { SpoolEntry } from "../../core/spool.ts";
import type { Store } from "../../core/store.ts";
import { ingestLedger } from "./ledger.ts";
import { updateServedRaw } from "./refetch.ts";
import { manifest } from "./manifest.ts";

/** The `measure` plugin. */
export const measurePlugin: Plugin = {
  manifest,
  onMeasurement(m: Measurement, ctx: Ctx): void {
    ctx.defer("measure.run", { ...m });
  },
  // Counts the session's tool calls, so `gain` can weigh a saving by the requests that would
  // have re-sent it. Says nothing to the agent.
  postTool(ev: PostToolEvent, ctx: Ctx): PostToolAnswer | null {
    if (!ctx.session) return null;
    const command = (ev.input as { command?: unknown }).command;
    let project = ev.cwd;
    try {
      project = Deno.realPathSync(ev.cwd);
    } catch { /* a directory gone since: keep the path as given */ }
    ctx.defer("measure.call", {
      session: ctx.session,
      tool: ev.tool,
      project,
      viaRtok: typeof command === "string" && /(^|[\s;&|/'])(rtok|cli\.ts)'? /.test(command),
      host: ev.host ?? "claude",
    });
    return null;
  },
  onFailure(f: FailureRecord, ctx: Ctx): void {
    ctx.defer("measure.failure", { ...f });
  },
  ingest(entries: readonly SpoolEntry[], store: Store, ctx: Ctx): void {
    ingestLedger(store.db, entries, ctx.config.ledger.retentionDays);
    // Which families agents keep fetching again, per project: those are served raw there.
    if (ctx.home && entries.some((e) => e.kind === "measure.run")) {
      updateServedRaw(store, ctx.home);
    }
  },
};
