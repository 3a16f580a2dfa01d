/**
 * The `digests` table (migration 0006): one row per session, its latest digest. Written by
 * the drain from `memory.digest` spool entries, read by `rtok memory`.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import type { SpoolEntry } from "../../core/spool.ts";

/** A session's digest as the store keeps it. */
export interface DigestRow {
  /** The session. */
  readonly session: string;
  /** Its canonical working directory. */
  readonly project: string;
  /** When it was built, epoch ms. */
  readonly builtAt: number;
  /** What started the compaction (`manual`, `auto`), when known. */
  readonly trigger: string | null;
  /** The text (`""` when none could be built). */
  readonly text: string;
  /** Its estimated tokens. */
  readonly tokens: number;
  /** Transcript lines read. */
  readonly lines: number;
  /** Lines that were not JSON, skipped. */
  readonly badLines: number;
  /** Lines of a shape rtok does not know, skipped. */
  readonly unknownLines: number;
  /** Why there is no text, or what was odd, when something was. */
  readonly note: string | null;
}

function _int(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? Math.trunc(v) : 0;
}

function _str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** Applies `memory.digest` entries: each replaces its session's row (a newer compaction wins). */
export function ingestDigests(db: DatabaseSync, entries: readonly SpoolEntry[]): void {
  const put = db.prepare(
    "INSERT INTO digests (session, project, built_at, compact_trigger, text, tokens, lines, bad_lines, " +
      "unknown_lines, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) " +
      "ON CONFLICT(session) DO UPDATE SET project = excluded.project, built_at = excluded.built_at, " +
      "compact_trigger = excluded.compact_trigger, text = excluded.text, tokens = excluded.tokens, " +
      "lines = excluded.lines, bad_lines = excluded.bad_lines, " +
      "unknown_lines = excluded.unknown_lines, note = excluded.note " +
      "WHERE excluded.built_at >= digests.built_at",
  );
  for (const e of entries) {
    if (e.kind !== "memory.digest") continue;
    const d = e.data;
    const session = _str(d.session);
    if (!session) continue;
    put.run(
      session,
      _str(d.project) ?? "",
      _int(e.ts),
      _str(d.trigger),
      _str(d.text) ?? "",
      _int(d.tokens),
      _int(d.lines),
      _int(d.badLines),
      _int(d.unknownLines),
      _str(d.note),
    );
  }
}

/** The digest of `session`, or of the newest session of `project`; `null` when none. */
export function findDigest(
  db: DatabaseSync,
  by: { readonly session: string } | { readonly project: string },
): DigestRow | null {
  const row = "session" in by
    ? db.prepare("SELECT * FROM digests WHERE session = ?").get(by.session)
    : db.prepare("SELECT * FROM digests WHERE project = ? ORDER BY built_at DESC, session LIMIT 1")
      .get(by.project);
  if (!row) return null;
  const r = row as Record<string, unknown>;
  return {
    session: String(r.session),
    project: String(r.project),
    builtAt: Number(r.built_at),
    trigger: _str(r.compact_trigger),
    text: String(r.text),
    tokens: Number(r.tokens),
    lines: Number(r.lines),
    badLines: Number(r.bad_lines),
    unknownLines: Number(r.unknown_lines),
    note: _str(r.note),
  };
}
