/**
 * The one SQLite file (`$RTOK_HOME/rtok.db`) on `node:sqlite`: WAL, a busy timeout so
 * concurrent runs wait instead of failing, `BEGIN IMMEDIATE` writes, embedded migrations.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { joinPath, parentDir } from "./paths.ts";
import { type Migration, MIGRATIONS } from "./migrations.ts";

/** How long a write waits for another process's lock before failing. */
export const BUSY_TIMEOUT_MS = 10_000;

/** The store's path inside `home`. */
export function storePath(home: string): string {
  return joinPath(home, "rtok.db");
}

/** An open store. Open one per invocation; close it before exit. */
export class Store {
  /** The database handle, for the plugins' own queries. */
  readonly db: DatabaseSync;
  /** The file it was opened from. */
  readonly path: string;

  private constructor(db: DatabaseSync, path: string) {
    this.db = db;
    this.path = path;
  }

  /**
   * Opens (creating if needed) the store at `path` and applies pending migrations. Throws an
   * `Error` naming the file and what to do when it cannot.
   */
  static open(path: string, migrations: readonly Migration[] = MIGRATIONS): Store {
    let db: DatabaseSync | undefined;
    try {
      Deno.mkdirSync(parentDir(path), { recursive: true, mode: 0o700 });
      db = new DatabaseSync(path);
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA synchronous = NORMAL`);
      const store = new Store(db, path);
      store.migrate(migrations);
      return store;
    } catch (e) {
      try {
        db?.close();
      } catch { /* already failing; the first error is the one to report */ }
      const message = (e as Error).message;
      const hint = /not a database|malformed|corrupt/i.test(message)
        ? "move the file aside (rtok starts a new one) or set RTOK_HOME"
        : "make its directory writable, or set RTOK_HOME to one that is";
      throw new Error(`Cannot open store "${path}": ${message}; ${hint}`);
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

  private migrate(migrations: readonly Migration[]): void {
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
