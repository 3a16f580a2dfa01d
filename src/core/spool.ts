/**
 * The spool: store writes deferred as JSON lines in `$RTOK_HOME/spool.jsonl`, drained into
 * SQLite later in one transaction. A run appends one line (a lock, a write, no SQLite); the
 * store's own cost is paid once per drain, by a surface that reads the store anyway (`rtok
 * gain`) or by the run that finds the spool past its size limit.
 *
 * Appenders hold a shared lock and the drainer an exclusive one, so a line is never half
 * read, and no line is lost to the truncation that ends a drain.
 *
 * @module
 */

import type { Config } from "./config.ts";
import { joinPath } from "./paths.ts";

/** One deferred write. */
export interface SpoolEntry {
  /** `<plugin id>.<what>`: the plugin that applies it, and what it is. */
  readonly kind: string;
  /** When it happened, epoch ms. */
  readonly ts: number;
  /** The record. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** What a drain did. */
export interface Drained {
  /** Entries drained (handed to `apply` and not given back to stay spooled). */
  readonly entries: number;
  /** Lines that were not valid entries (a crash mid-write), dropped. */
  readonly malformed: number;
}

/** The spool's path inside `home`. */
export function spoolPath(home: string): string {
  return joinPath(home, "spool.jsonl");
}

// The spool's size after this process's last append, so the "past its limit?" question costs
// no further system call.
let sizeAfterAppend: number | null = null;

/** The spool's size in bytes: as this process's last append left it, else as the disk says. */
export function spoolSize(home: string): number {
  if (sizeAfterAppend !== null) return sizeAfterAppend;
  try {
    return Deno.statSync(spoolPath(home)).size;
  } catch {
    return 0;
  }
}

/** True when the spool at `home` has grown past `[ledger] spool_kb` and should be drained. */
export function spoolOverdue(home: string, config: Config): boolean {
  return spoolSize(home) > config.ledger.spoolKb * 1024;
}

/** Appends `entries` in one write. */
export function appendSpool(home: string, entries: readonly SpoolEntry[]): void {
  const bytes = new TextEncoder().encode(entries.map((e) => JSON.stringify(e) + "\n").join(""));
  const file = _openForAppend(home);
  try {
    file.lockSync(false);
    let off = 0;
    while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
    // In append mode the file position ends at the end of the file: its size.
    sizeAfterAppend = file.seekSync(0, Deno.SeekMode.Current);
  } finally {
    file.close();
  }
}

/** Throws, saying why, unless a record could be appended to the spool at `home`. */
export function checkSpoolWritable(home: string): void {
  if (!home) throw new Error("rtok's home is not known, so nothing can be recorded");
  _openForAppend(home).close();
}

function _openForAppend(home: string): Deno.FsFile {
  const path = spoolPath(home);
  let file: Deno.FsFile;
  try {
    try {
      file = Deno.openSync(path, { append: true, create: true, mode: 0o600 });
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
      Deno.mkdirSync(home, { recursive: true, mode: 0o700 });
      file = Deno.openSync(path, { append: true, create: true, mode: 0o600 });
    }
  } catch (e) {
    throw new Error(
      `Cannot record in "${path}": ${(e as Error).message}; ` +
        "make its directory writable, or set RTOK_HOME to one that is",
    );
  }
  return file;
}

/**
 * Hands every spooled entry to `apply`, then empties the spool, but for the entries `apply`
 * returns, which stay spooled for a later drain. When `apply` throws, the spool is kept whole
 * for the next drain and the error propagates.
 */
export function drainSpool(
  home: string,
  apply: (entries: SpoolEntry[]) => readonly SpoolEntry[] | unknown,
): Drained {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(spoolPath(home), { read: true, write: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { entries: 0, malformed: 0 };
    throw e;
  }
  try {
    file.lockSync(true);
    const size = file.statSync().size;
    if (size === 0) return { entries: 0, malformed: 0 };
    const buf = new Uint8Array(size);
    let off = 0;
    while (off < size) {
      const n = file.readSync(buf.subarray(off));
      if (n === null) break;
      off += n;
    }
    const { entries, malformed } = parseSpool(new TextDecoder().decode(buf.subarray(0, off)));
    const given = apply(entries);
    const kept = Array.isArray(given) ? given : [];
    file.truncateSync(0);
    sizeAfterAppend = null;
    if (kept.length > 0) {
      // The file was opened without append: write the kept entries from its start.
      file.seekSync(0, Deno.SeekMode.Start);
      const bytes = new TextEncoder().encode(kept.map((e) => JSON.stringify(e) + "\n").join(""));
      let at = 0;
      while (at < bytes.length) at += file.writeSync(bytes.subarray(at));
    }
    return { entries: entries.length - kept.length, malformed };
  } finally {
    file.close();
  }
}

/** Parses spool text; lines that are not entries are counted, not thrown. */
export function parseSpool(text: string): { entries: SpoolEntry[]; malformed: number } {
  const entries: SpoolEntry[] = [];
  let malformed = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      const e = JSON.parse(line);
      if (typeof e?.kind === "string" && typeof e.ts === "number" && typeof e.data === "object") {
        entries.push(e);
      } else malformed++;
    } catch {
      malformed++;
    }
  }
  return { entries, malformed };
}
