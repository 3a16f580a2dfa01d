/**
 * The `archive` plugin: keeps the raw bytes behind every lossy output.
 *
 * @module
 */

import type { Ctx, Plugin, PostToolAnswer, PostToolEvent, RawMeta } from "../../core/plugin.ts";
import type { SpoolEntry } from "../../core/spool.ts";
import type { Store } from "../../core/store.ts";
import type { ArchivedOutput } from "./archive.ts";
import { archiveIdOfPath } from "./read_watch.ts";
import { lazyImport } from "../../core/lazy.ts";
import { manifest } from "./manifest.ts";

type Archive = typeof import("./archive.ts");
let archive: Promise<Archive> | null = null;

// The archive's code loads on first use, or earlier through `prepare` while a tool runs.
function loadArchive(): Promise<Archive> {
  return archive ??= lazyImport<Archive>(new URL("./archive.ts", import.meta.url));
}

/** The `archive` plugin. */
export const archivePlugin: Plugin = {
  manifest,
  async prepare(): Promise<void> {
    await loadArchive();
  },
  // Without a store on its path (the hook), the file is written and its index row deferred.
  async keepRaw(raw: Uint8Array, meta: RawMeta, ctx: Ctx): Promise<string> {
    const a = await loadArchive();
    if (ctx.store) return a.keepRaw(ctx.store, ctx.home, raw, meta, ctx.config.archive);
    if (!ctx.home) throw new Error("the archive has no home (RTOK_HOME)");
    const row = await a.keepFile(ctx.home, raw, meta);
    ctx.defer("archive.keep", { ...row });
    return row.id;
  },
  // The agent reading an archived output directly is an expand: the hook defers its record.
  postTool(ev: PostToolEvent, ctx: Ctx): PostToolAnswer | null {
    if (ev.tool !== "Read") return null;
    const id = archiveIdOfPath(ev.input.file_path, ctx.home, ev.cwd);
    if (id !== null) ctx.defer("archive.expand", { archiveId: id, surface: "hook" });
    return null;
  },
  ingest(entries: readonly SpoolEntry[], store: Store): void {
    ingestArchive(entries, store);
  },
};

/** Applies spooled `archive.keep` and `archive.expand` entries to `store`. */
export function ingestArchive(entries: readonly SpoolEntry[], store: Store): void {
  const kept = entries.filter((e) => e.kind === "archive.keep").map((e) => e.data)
    .filter(_isRow);
  if (kept.length) _indexKept(store, kept);
  const insert = store.db.prepare(
    "INSERT INTO expands (ts, archive_id, surface) VALUES (?, ?, ?)",
  );
  for (const e of entries) {
    const { archiveId, surface } = e.data as { archiveId?: unknown; surface?: unknown };
    if (e.kind !== "archive.expand" || typeof archiveId !== "string") continue;
    insert.run(e.ts, archiveId, typeof surface === "string" ? surface : "hook");
  }
}

// A deferred index row as `keepFile` made it; anything else in the spool is skipped.
function _isRow(
  d: Readonly<Record<string, unknown>>,
): d is ArchivedOutput & Record<string, unknown> {
  return typeof d.sha256 === "string" && /^[0-9a-f]{64}$/.test(d.sha256) &&
    typeof d.id === "string" && d.id.length >= 6 && d.sha256.startsWith(d.id) &&
    typeof d.size === "number" && typeof d.created === "number" && typeof d.command === "string" &&
    typeof d.cwd === "string";
}

// Here, not in archive.ts: `ingest` is synchronous and archive.ts loads lazily.
function _indexKept(store: Store, rows: readonly ArchivedOutput[]): void {
  const insert = store.db.prepare(
    `INSERT INTO archive (id, sha256, size, command, cwd, exit_code, family, created)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET created = max(created, excluded.created)`,
  );
  for (const r of rows) {
    insert.run(
      r.id,
      r.sha256,
      r.size,
      r.command,
      r.cwd,
      r.exitCode ?? null,
      r.family ?? null,
      r.created,
    );
  }
}
