/**
 * The `memory` plugin: memory across compaction. At PreCompact it builds a digest of the
 * session from Claude Code's transcript (the user's requests, failing tests, build errors,
 * files changed and read, commands, the largest cut outputs) under `[plugins.memory]
 * budget_tokens` (default 600 estimated tokens), keeps it in `$RTOK_HOME/sessions/<id>.digest.json`
 * and defers its store row; at SessionStart after a compaction (or on resume) it injects it.
 * The building loads only when a compaction comes; SessionStart reads one small file.
 *
 * @module
 */

import type { Ctx, Injection, Plugin, SessionEvent } from "../../core/plugin.ts";
import type { SpoolEntry } from "../../core/spool.ts";
import type { Store } from "../../core/store.ts";
import { lazyImport } from "../../core/lazy.ts";
import { readDigestFile } from "./digest_file.ts";
import { ingestDigests } from "./rows.ts";
import { manifest } from "./manifest.ts";

type _Compact = typeof import("./compact.ts");

/** The SessionStart sources after which the digest is injected. */
export const INJECT_SOURCES: readonly string[] = ["compact", "resume"];

/** The digest's injection priority: ahead of every other injection while the budget lasts. */
export const MEMORY_PRIORITY: number = 100;

/** The `memory` plugin. */
export const memoryPlugin: Plugin = {
  manifest,
  async preCompact(ev: SessionEvent, ctx: Ctx): Promise<void> {
    const { keepDigest } = await lazyImport<_Compact>(new URL("./compact.ts", import.meta.url));
    keepDigest(ev, ctx);
  },
  sessionStart(ev: SessionEvent, ctx: Ctx): Injection | null {
    if (!ctx.session || !ctx.home || !INJECT_SOURCES.includes(ev.source ?? "")) return null;
    const rec = readDigestFile(ctx.home, ctx.session);
    return rec?.text ? { text: rec.text, priority: MEMORY_PRIORITY } : null;
  },
  ingest(entries: readonly SpoolEntry[], store: Store, _ctx: Ctx): void {
    ingestDigests(store.db, entries);
  },
};
