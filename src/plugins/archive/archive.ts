/**
 * Raw-output escrow: the bytes a filter cut, kept byte for byte under
 * `$RTOK_HOME/archive/<sha256>` (owner-only), indexed in the store, bounded in age and total
 * size on every write.
 *
 * @module
 */

import { joinPath, pathExists } from "../../core/paths.ts";
import type { RawMeta } from "../../core/plugin.ts";
import type { Store } from "../../core/store.ts";

/** Hex digits of the sha256 that make an archive id. */
export const ID_LENGTH = 12;

/** Retention limits, from `[archive]` in config. */
export interface ArchiveLimits {
  /** Outputs older than this many days go on the next write. */
  readonly maxAgeDays: number;
  /** The archive's total size cap in MiB; the oldest outputs go first. */
  readonly maxTotalMb: number;
}

/** An archived output's index row. */
export interface ArchivedOutput {
  /** The id (`rtok expand <id>`). */
  readonly id: string;
  /** The full sha256 of the bytes, hex. */
  readonly sha256: string;
  /** Size in bytes. */
  readonly size: number;
  /** The command that printed them. */
  readonly command: string;
  /** Where it ran. */
  readonly cwd: string;
  /** Its exit code. */
  readonly exitCode: number | null;
  /** The filter whose cut sent it here. */
  readonly family: string | null;
  /** When it was (last) archived, epoch ms. */
  readonly created: number;
}

/** The archive directory inside `home`. */
export function archiveDir(home: string): string {
  return joinPath(home, "archive");
}

/** The hex sha256 of `bytes`. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The archive id of `bytes`: the first {@linkcode ID_LENGTH} hex digits of their sha256. */
export async function archiveId(bytes: Uint8Array): Promise<string> {
  return (await sha256Hex(bytes)).slice(0, ID_LENGTH);
}

/**
 * Writes `bytes` into the archive directory under their sha256 (once) without touching the
 * store, and returns the index row the store should get: for a surface with no store on its
 * path (the hook), which defers the row. `rtok expand` finds the file before the row lands.
 */
export async function keepFile(
  home: string,
  bytes: Uint8Array,
  meta: RawMeta,
  now: number = Date.now(),
): Promise<ArchivedOutput> {
  const sha = await sha256Hex(bytes);
  const dir = archiveDir(home);
  const file = joinPath(dir, sha);
  if (!pathExists(file)) writePrivate(dir, file, bytes);
  return {
    id: sha.slice(0, ID_LENGTH),
    sha256: sha,
    size: bytes.byteLength,
    command: meta.command,
    cwd: meta.cwd,
    exitCode: meta.exitCode,
    family: meta.family,
    created: now,
  };
}

/**
 * Keeps `bytes` and returns their id. The same bytes archived again share one file and have
 * their age renewed. Retention runs in the same write.
 */
export async function keepRaw(
  store: Store,
  home: string,
  bytes: Uint8Array,
  meta: RawMeta,
  limits: ArchiveLimits,
  now: number = Date.now(),
): Promise<string> {
  const sha = await sha256Hex(bytes);
  const id = sha.slice(0, ID_LENGTH);
  const dir = archiveDir(home);
  const file = joinPath(dir, sha);
  if (!pathExists(file)) writePrivate(dir, file, bytes);
  const doomed = store.write((db) => {
    db.prepare(
      `INSERT INTO archive (id, sha256, size, command, cwd, exit_code, family, created)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET created = excluded.created, command = excluded.command,
         cwd = excluded.cwd, exit_code = excluded.exit_code, family = excluded.family`,
    ).run(id, sha, bytes.byteLength, meta.command, meta.cwd, meta.exitCode, meta.family, now);
    return expire(store, id, limits, now);
  });
  for (const old of doomed) {
    try {
      Deno.removeSync(joinPath(dir, old));
    } catch { /* already gone */ }
  }
  return id;
}

// Deletes index rows past the age or size limit (never `keep`); returns their files' names.
const _CHECK_MS = 5000;
const _checked = new WeakMap<object, { at: number; total: number }>();

function expire(store: Store, keep: string, limits: ArchiveLimits, now: number): string[] {
  const db = store.db;
  const cutoff = now - limits.maxAgeDays * 86_400_000;
  const cap = limits.maxTotalMb * 1024 * 1024;
  // The check scans the whole index (5 ms at 50,000 outputs), and a proxy keeps outputs many
  // times a second: while the archive is under half its cap and nothing was old, it is
  // skipped for a few seconds, which lets it pass its cap by at most those seconds' outputs.
  const last = _checked.get(db);
  if (last && now - last.at >= 0 && now - last.at < _CHECK_MS && last.total <= cap / 2) return [];
  const state = db.prepare(
    "SELECT coalesce(sum(size), 0) AS total, coalesce(sum(created < ?), 0) AS old FROM archive",
  ).get(cutoff) as { total: number; old: number };
  if (Number(state.old) === 0 && Number(state.total) <= cap) {
    _checked.set(db, { at: now, total: Number(state.total) });
    return [];
  }
  _checked.delete(db);
  const doomed = db.prepare("SELECT sha256 FROM archive WHERE created < ? AND id != ?")
    .all(cutoff, keep).map((r) => String((r as { sha256: string }).sha256));
  db.prepare("DELETE FROM archive WHERE created < ? AND id != ?").run(cutoff, keep);
  const total = Number(
    (db.prepare("SELECT coalesce(sum(size), 0) AS n FROM archive").get() as { n: number }).n,
  );
  if (total <= cap) return doomed;
  let over = total - cap;
  const oldest = db.prepare(
    "SELECT id, sha256, size FROM archive WHERE id != ? ORDER BY created, id",
  ).all(keep) as { id: string; sha256: string; size: number }[];
  const remove = db.prepare("DELETE FROM archive WHERE id = ?");
  for (const row of oldest) {
    if (over <= 0) break;
    remove.run(row.id);
    doomed.push(row.sha256);
    over -= Number(row.size);
  }
  return doomed;
}

/**
 * The archived output whose id is `id` or starts with it (at least 6 hex digits). With `home`,
 * an id the index does not know is looked for among the archive's files too (their names are
 * the full sha256), so outputs archived before a damaged store was replaced still expand.
 * Throws a `RangeError` for an unknown or ambiguous id.
 */
export function findArchived(store: Store, id: string, home?: string): ArchivedOutput {
  if (!/^[0-9a-f]{6,64}$/.test(id)) {
    throw new RangeError(
      `No archived output with id "${id}": an id is 6 to 64 hex digits, as printed after "rtok expand"`,
    );
  }
  const rows = store.db.prepare(
    `SELECT id, sha256, size, command, cwd, exit_code AS exitCode, family, created
     FROM archive WHERE sha256 LIKE ? || '%' LIMIT 2`,
  ).all(id) as unknown as ArchivedOutput[];
  if (rows.length === 0 && home !== undefined) rows.push(..._unindexed(home, id));
  if (rows.length === 0) {
    throw new RangeError(
      `No archived output with id "${id}": it never existed or retention removed it; run the command again`,
    );
  }
  if (rows.length > 1) {
    throw new RangeError(`Archive id "${id}" is ambiguous: give more of its digits`);
  }
  return rows[0];
}

// Archive files named by a sha256 starting with `id`, at most two, with what a file can tell.
function _unindexed(home: string, id: string): ArchivedOutput[] {
  const found: ArchivedOutput[] = [];
  try {
    for (const e of Deno.readDirSync(archiveDir(home))) {
      if (!e.isFile || !/^[0-9a-f]{64}$/.test(e.name) || !e.name.startsWith(id)) continue;
      const info = Deno.statSync(joinPath(archiveDir(home), e.name));
      found.push({
        id: e.name.slice(0, ID_LENGTH),
        sha256: e.name,
        size: info.size,
        command: "",
        cwd: "",
        exitCode: null,
        family: null,
        created: info.mtime?.getTime() ?? 0,
      });
      if (found.length > 1) break;
    }
  } catch { /* no archive yet: the id is unknown */ }
  return found;
}

/** The archived bytes, checked against their sha256. */
export async function readArchived(home: string, out: ArchivedOutput): Promise<Uint8Array> {
  const file = joinPath(archiveDir(home), out.sha256);
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (e) {
    throw new Error(`Cannot read archived output ${out.id} ("${file}"): ${(e as Error).message}`);
  }
  if ((await sha256Hex(bytes)) !== out.sha256) {
    throw new Error(
      `Archived output ${out.id} ("${file}") is damaged: its sha256 no longer matches`,
    );
  }
  return bytes;
}

/** Records that an archived output was asked for again (the expand rate's numerator). */
export function recordExpand(store: Store, id: string, surface: string): void {
  store.write((db) => {
    db.prepare("INSERT INTO expands (ts, archive_id, surface) VALUES (?, ?, ?)")
      .run(Date.now(), id, surface);
  });
}

// Writes through a temp file and a rename, so a reader never sees half an output; creates
// the owner-only directory on first use. Sync on purpose: Deno's first async file write in a
// process costs milliseconds of set-up, and every rtok run is a fresh process.
function writePrivate(dir: string, file: string, bytes: Uint8Array): void {
  const tmp = `${file}.${Deno.pid}.tmp`;
  try {
    Deno.writeFileSync(tmp, bytes, { mode: 0o600 });
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    Deno.chmodSync(dir, 0o700);
    Deno.writeFileSync(tmp, bytes, { mode: 0o600 });
  }
  Deno.renameSync(tmp, file);
}
