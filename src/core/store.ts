/**
 * The one SQLite file (`$RTOK_HOME/rtok.db`) on `node:sqlite`: WAL, a busy timeout so
 * concurrent runs wait instead of failing, `BEGIN IMMEDIATE` writes, embedded migrations.
 *
 * @module
 */

import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { joinPath, parentDir, pathExists } from "./paths.ts";
import { type Migration, MIGRATIONS } from "./migrations.ts";

/** How long a write waits for another process's lock before failing. */
export const BUSY_TIMEOUT_MS = 10_000;

/** The store's path inside `home`. */
export function storePath(home: string): string {
  return joinPath(home, "rtok.db");
}

/** How {@linkcode Store.open} opens a store. */
export interface StoreOptions {
  /** The migrations to apply (the embedded ones by default). */
  readonly migrations?: readonly Migration[];
  /**
   * Move a file that is not a database aside (`rtok.db.damaged-<UTC time>`, with its `-wal`
   * and `-shm`) and start a new store in its place, instead of throwing. Nothing is deleted.
   */
  readonly heal?: boolean;
}

/** The file name suffix a damaged store is moved aside under. */
export const DAMAGED_SUFFIX = ".damaged-";

// What SQLite says of a file that is not, or no longer, a database (NOTADB, CORRUPT).
const _DAMAGED = /not a database|malformed|corrupt/i;
// What a process may see when another one is moving a damaged store aside at that moment.
const _MOVING = /disk I\/O error/i;

function _cannotOpen(path: string, message: string): Error {
  const hint = _DAMAGED.test(message)
    ? "move the file aside (rtok starts a new one) or set RTOK_HOME"
    : "make its directory writable, or set RTOK_HOME to one that is";
  return new Error(`Cannot open store "${path}": ${message}; ${hint}`);
}

/** An open store. Open one per invocation; close it before exit. */
export class Store {
  /** The database handle, for the plugins' own queries. */
  readonly db: DatabaseSync;
  /** The file it was opened from. */
  readonly path: string;
  /** Where a damaged file at `path` was moved before this store was started, if one was. */
  readonly healed: string | null;

  private constructor(db: DatabaseSync, path: string, healed: string | null) {
    this.db = db;
    this.path = path;
    this.healed = healed;
  }

  /**
   * Opens (creating if needed) the store at `path` and applies pending migrations. With
   * `heal`, a file that is not a database is moved aside first (see {@linkcode StoreOptions}).
   * Throws an `Error` naming the file and what to do when it cannot.
   */
  static open(path: string, options: StoreOptions = {}): Store {
    const migrations = options.migrations ?? MIGRATIONS;
    try {
      return Store.#open(path, migrations, null);
    } catch (e) {
      const message = (e as Error).message;
      if (options.heal && (_DAMAGED.test(message) || _MOVING.test(message))) {
        return Store.#heal(path, migrations, message);
      }
      throw _cannotOpen(path, message);
    }
  }

  static #open(path: string, migrations: readonly Migration[], healed: string | null): Store {
    let db: DatabaseSync | undefined;
    try {
      if (path !== ":memory:") Deno.mkdirSync(parentDir(path), { recursive: true, mode: 0o700 });
      db = new DatabaseSync(path);
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA synchronous = NORMAL`);
      const store = new Store(db, path, healed);
      store.#migrate(migrations);
      return store;
    } catch (e) {
      try {
        db?.close();
      } catch { /* already failing; the first error is the one to report */ }
      throw e;
    }
  }

  /**
   * Opens the store at `path` for reading only: nothing is created, migrated or healed.
   * Returns `null` when there is no store yet. Throws an `Error` naming the file when it is
   * not a database, or older than this rtok's migrations (any `rtok gain` brings it up).
   */
  static openReadOnly(path: string, migrations: readonly Migration[] = MIGRATIONS): Store | null {
    if (!pathExists(path, false)) return null;
    let db: DatabaseSync | undefined;
    try {
      db = new DatabaseSync(path, { readOnly: true });
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      const v = db.prepare("PRAGMA user_version").get() as { user_version: number };
      const latest = migrations.length ? migrations[migrations.length - 1].version : 0;
      if (v.user_version < latest) {
        throw new Error(
          `it is at schema version ${v.user_version}, this rtok reads ${latest}; ` +
            "run rtok gain once to update it",
        );
      }
      return new Store(db, path, null);
    } catch (e) {
      try {
        db?.close();
      } catch { /* already failing */ }
      throw new Error(`Cannot read store "${path}": ${(e as Error).message}`);
    }
  }

  // One process moves the file aside, under `rtok.db.lock`; a process that waited for the lock
  // finds the store already new and opens it.
  static #heal(path: string, migrations: readonly Migration[], damage: string): Store {
    const cannot = (why: string) =>
      new Error(
        `Cannot open store "${path}": ${damage}, and it could not be moved aside (${why}); ` +
          "move it yourself (rtok starts a new one) or set RTOK_HOME",
      );
    let release: () => void;
    try {
      release = _lock(`${path}.lock`);
    } catch (e) {
      throw cannot((e as Error).message);
    }
    try {
      try {
        return Store.#open(path, migrations, null);
      } catch (e) {
        const message = (e as Error).message;
        if (!_DAMAGED.test(message)) throw _cannotOpen(path, message);
      }
      let moved: string;
      try {
        moved = moveAside(path);
      } catch (e) {
        throw cannot((e as Error).message);
      }
      return Store.#open(path, migrations, moved);
    } finally {
      release();
    }
  }
  /**
   * A store in memory holding this one's rows: rows added to it never reach the file. A reader
   * that must count what is not in the file yet (the spool) adds it there. Each table this
   * rtok's migrations make is copied, by the columns both sides have; a full-text index is
   * left empty.
   */
  copyInMemory(migrations: readonly Migration[] = MIGRATIONS): Store {
    const copy = Store.#open(":memory:", migrations, null);
    // Row by row: Deno's SQLite allows no ATTACH.
    try {
      const names = (db: DatabaseSync) =>
        db.prepare(
          `SELECT name FROM sqlite_master AS t WHERE type = 'table'
             AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'
             AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
             AND NOT EXISTS (SELECT 1 FROM sqlite_master AS v WHERE v.type = 'table'
               AND v.sql LIKE 'CREATE VIRTUAL TABLE%' AND t.name LIKE v.name || '\\_%' ESCAPE '\\')`,
        ).all().map((r) => String((r as { name: string }).name));
      const columns = (db: DatabaseSync, table: string) =>
        db.prepare("SELECT name FROM pragma_table_info(?)").all(table)
          .map((r) => String((r as { name: string }).name));
      const theirs = new Set(names(this.db));
      copy.write((db) => {
        for (const t of names(db).filter((n) => theirs.has(n))) {
          const have = new Set(columns(this.db, t));
          const both = columns(db, t).filter((c) => have.has(c)).map((c) => `"${c}"`);
          const insert = db.prepare(
            `INSERT INTO "${t}" (${both.join(", ")}) VALUES (${both.map(() => "?").join(", ")})`,
          );
          const rows = this.db.prepare(`SELECT ${both.join(", ")} FROM "${t}"`);
          for (const row of rows.iterate()) {
            insert.run(...(Object.values(row as object) as SQLInputValue[]));
          }
        }
      });
      return copy;
    } catch (e) {
      copy.close();
      throw new Error(`Cannot copy store "${this.path}": ${(e as Error).message}`);
    }
  }

  /** Runs `fn` inside `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws. */
  write<T>(fn: (db: DatabaseSync) => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn(this.db);
      this.db.exec("COMMIT");
      return result;
    } catch (e) {
      this.db.exec("ROLLBACK");
      throw e;
    }
  }

  /** The applied migration versions, ascending. */
  appliedMigrations(): number[] {
    const rows = this.db.prepare("SELECT version FROM schema_migrations ORDER BY version").all();
    return rows.map((r) => Number((r as { version: number }).version));
  }

  /** Closes the handle. */
  close(): void {
    this.db.close();
  }

  #migrate(migrations: readonly Migration[]): void {
    const latest = migrations.length ? migrations[migrations.length - 1].version : 0;
    // user_version mirrors the newest applied migration: one cheap read on the common path.
    const current = this.db.prepare("PRAGMA user_version").get() as { user_version: number };
    if (current.user_version >= latest) return;
    // WAL is a property of the file: set once, when the store is new or older.
    this.db.exec("PRAGMA journal_mode = WAL");
    this.write((db) => {
      db.exec(
        "CREATE TABLE IF NOT EXISTS schema_migrations " +
          "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)",
      );
      const applied = new Set(
        db.prepare("SELECT version FROM schema_migrations").all()
          .map((r) => Number((r as { version: number }).version)),
      );
      const record = db.prepare(
        "INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)",
      );
      for (const m of migrations) {
        if (applied.has(m.version)) continue;
        db.exec(m.sql);
        record.run(m.version, m.name, Date.now());
      }
      db.exec(`PRAGMA user_version = ${latest}`);
    });
  }
}

/**
 * Moves the store at `path` (and its `-wal` and `-shm`) to `<path>.damaged-<UTC time>`,
 * never over an existing file, and returns where the store went. `rename` is the move.
 */
export function moveAside(
  path: string,
  now: Date = new Date(),
  rename: (from: string, to: string) => void = Deno.renameSync,
): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  let target = `${path}${DAMAGED_SUFFIX}${stamp}`;
  for (let n = 2; _taken(target); n++) target = `${path}${DAMAGED_SUFFIX}${stamp}-${n}`;
  // The side files go first: once the main file is gone, another process may create a new
  // store in its place, and its own -wal and -shm must stay where they are.
  for (const side of ["-wal", "-shm"]) {
    if (pathExists(path + side, false)) rename(path + side, target + side);
  }
  rename(path, target);
  return target;
}

function _taken(target: string): boolean {
  return ["", "-wal", "-shm"].some((side) => pathExists(target + side, true));
}

/** How old a lock file may grow before its holder is taken to have died. */
const _STALE_LOCK_MS = 30_000;

// An exclusive lock file: created new or waited for; a lock older than any heal takes is
// taken over. Returns the release.
function _lock(lockPath: string): () => void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      Deno.openSync(lockPath, { write: true, createNew: true, mode: 0o600 }).close();
      return () => {
        try {
          Deno.removeSync(lockPath);
        } catch { /* gone already: a stale-lock takeover by another process */ }
      };
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
    let age = 0;
    try {
      age = Date.now() - (Deno.statSync(lockPath).mtime?.getTime() ?? Date.now());
    } catch { /* released meanwhile: try again */ }
    if (age > _STALE_LOCK_MS) {
      try {
        Deno.removeSync(lockPath);
      } catch (e) {
        // NotFound: another process took it over first. Anything else would loop forever.
        if (!(e instanceof Deno.errors.NotFound)) {
          throw new Error(`stale lock "${lockPath}" cannot be removed: ${(e as Error).message}`);
        }
      }
      continue;
    }
    if (Date.now() > deadline) throw new Error(`"${lockPath}" is held by another process`);
    Atomics.wait(pause, 0, 0, 50);
  }
}
