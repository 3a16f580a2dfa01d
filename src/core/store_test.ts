import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { join } from "node:path";
import { MIGRATIONS } from "./migrations.ts";
import { Store } from "./store.ts";

const perms = { read: true, write: true } as const;

Deno.test({
  name: "Store.open() applies every migration once and records it",
  permissions: perms,
  fn() {
    const dir = Deno.makeTempDirSync();
    const path = join(dir, "rtok.db");
    const a = Store.open(path);
    deepStrictEqual(a.appliedMigrations(), MIGRATIONS.map((m) => m.version));
    a.close();
    const b = Store.open(path);
    deepStrictEqual(b.appliedMigrations(), MIGRATIONS.map((m) => m.version));
    const tables = b.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()
      .map((r) => (r as { name: string }).name);
    for (const t of ["runs", "failures", "archive", "expands", "schema_migrations"]) {
      ok(tables.includes(t), `table ${t}`);
    }
    b.close();
    Deno.removeSync(dir, { recursive: true });
  },
});

Deno.test({
  name: "Store.open() applies a later migration to a store made by an earlier version",
  permissions: perms,
  fn() {
    const dir = Deno.makeTempDirSync();
    const path = join(dir, "rtok.db");
    Store.open(path, MIGRATIONS).close();
    const next = [...MIGRATIONS, {
      version: 999,
      name: "extra",
      sql: "CREATE TABLE extra (x INTEGER);",
    }];
    const store = Store.open(path, next);
    deepStrictEqual(store.appliedMigrations().at(-1), 999);
    store.db.prepare("INSERT INTO extra (x) VALUES (1)").run();
    store.close();
    Deno.removeSync(dir, { recursive: true });
  },
});

Deno.test({
  name: "Store.open() uses WAL and a busy timeout",
  permissions: perms,
  fn() {
    const dir = Deno.makeTempDirSync();
    const store = Store.open(join(dir, "rtok.db"));
    const mode = store.db.prepare("PRAGMA journal_mode").get() as { journal_mode: string };
    strictEqual(mode.journal_mode, "wal");
    const busy = store.db.prepare("PRAGMA busy_timeout").get() as Record<string, number>;
    ok(Object.values(busy)[0] >= 1000);
    store.close();
    Deno.removeSync(dir, { recursive: true });
  },
});

Deno.test({
  name: "Store.write() rolls back everything when the callback throws",
  permissions: perms,
  fn() {
    const dir = Deno.makeTempDirSync();
    const store = Store.open(join(dir, "rtok.db"));
    throws(() =>
      store.write((db) => {
        db.prepare("INSERT INTO expands (ts, archive_id, surface) VALUES (1, 'x', 'cli')").run();
        throw new Error("boom");
      }), /boom/);
    const n = store.db.prepare("SELECT count(*) AS n FROM expands").get() as { n: number };
    strictEqual(n.n, 0);
    store.close();
    Deno.removeSync(dir, { recursive: true });
  },
});

Deno.test({
  name: "Store.open() names a corrupt file and says what to do",
  permissions: perms,
  fn() {
    const dir = Deno.makeTempDirSync();
    const path = join(dir, "rtok.db");
    Deno.writeTextFileSync(path, "this is not a database, just text ".repeat(200));
    throws(() => Store.open(path), (e: Error) => {
      ok(e.message.startsWith(`Cannot open store "${path}": `), e.message);
      ok(e.message.includes("move the file aside"), e.message);
      return true;
    });
    Deno.removeSync(dir, { recursive: true });
  },
});
