/**
 * The `archive` plugin: keeps the raw bytes behind every lossy output.
 *
 * @module
 */

import type { Ctx, Plugin, PostToolAnswer, PostToolEvent, RawMeta } from "../../core/plugin.ts";
import type { SpoolEntry } from "../../core/spool.ts";
import type { Store } from "../../core/store.ts";
import { archiveIdOfPath } from "./read_watch.ts";

type Archive = typeof import("./archive.ts");
let archive: Promise<Archive> | null = null;

// The archive's code loads on first use, or earlier through `prepare` while a tool runs.
function loadArchive(): Promise<Archive> {
  return archive ??= import("./archive.ts");
}

/** The `archive` plugin. */
export const archivePlugin: Plugin = {
  manifest: {
    id: "archive",
    surfaces: ["cli", "hook", "mcp", "proxy"],
    defaultOn: true,
    description: "Keeps every cut output's raw bytes for `rtok expand`, bounded in age and size.",
  },
  async prepare(): Promise<void> {
    await loadArchive();
  },
  async keepRaw(raw: Uint8Array, meta: RawMeta, ctx: Ctx): Promise<string> {
    if (!ctx.store) throw new Error("the store is not available");
    return (await loadArchive()).keepRaw(ctx.store, ctx.home, raw, meta, ctx.config.archive);
  },
  // The agent reading an archived output directly is an expand: the hook defers its record.
  postTool(ev: PostToolEvent, ctx: Ctx): PostToolAnswer | null {
    if (ev.tool !== "Read") return null;
    const id = archiveIdOfPath(ev.input.file_path, ctx.home, ev.cwd);
    if (id !== null) ctx.defer("archive.expand", { archiveId: id, surface: "hook" });
    return null;
  },
  ingest(entries: readonly SpoolEntry[], store: Store): void {
    const insert = store.db.prepare(
      "INSERT INTO expands (ts, archive_id, surface) VALUES (?, ?, ?)",
    );
    for (const e of entries) {
      const { archiveId, surface } = e.data as { archiveId?: unknown; surface?: unknown };
      if (e.kind !== "archive.expand" || typeof archiveId !== "string") continue;
      insert.run(e.ts, archiveId, typeof surface === "string" ? surface : "hook");
    }
  },
};
