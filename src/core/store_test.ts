import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { join } from "node:path";
import { MIGRATIONS } from "./migrations.ts";
import { moveAside, Store } from "./store.ts";

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
    Store.open(path, { migrations: MIGRATIONS }).close();
    const next = [...MIGRATIONS, {
      version: 999,
      name: "extra",
      sql: "CREATE TABLE extra (x INTEGER);",
    }];
    const store = Store.open(path, { migrations: next });
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

function _damage(path: string): Uint8Array {
  const bytes = crypto.getRandomValues(new Uint8Array(8192));
  Deno.writeFileSync(path, bytes);
  return bytes;
}

Deno.test({
  name: "Store.open() with heal moves a file that is not a database aside and starts a new one",
  permissions: perms,
  fn() {
    const dir = Deno.makeTempDirSync();
    const path = join(dir, "rtok.db");
    Store.open(path).close();
    const bytes = _damage(path);
    const store = Store.open(path, { heal: true });
    try {
      ok(store.healed !== null);
      ok(/\/rtok\.db\.damaged-\d{8}T\d{6}Z$/.test(store.healed), store.healed);
      deepStrictEqual(Deno.readFileSync(store.healed), bytes);
      deepStrictEqual(store.appliedMigrations(), MIGRATIONS.map((m) => m.version));
      strictEqual([...Deno.readDirSync(dir)].some((e) => e.name.endsWith(".lock")), false);
    } finally {
      store.close();
    }
    const again = Store.open(path, { heal: true });
    strictEqual(again.healed, null, "a sound store is opened, not moved");
    again.close();
    Deno.removeSync(dir, { recursive: true });
  },
});

Deno.test({
  name: "moveAside() never moves over an existing file and takes -wal and -shm along",
  permissions: perms,
  fn() {
    const dir = Deno.makeTempDirSync();
    const path = join(dir, "rtok.db");
    const now = new Date("2026-12-04T14:33:45.123Z");
    const first = `${path}.damaged-20261204T143345Z`;
    Deno.writeTextFileSync(first, "an earlier one");
    Deno.writeTextFileSync(path, "main");
    Deno.writeTextFileSync(path + "-wal", "wal");
    Deno.writeTextFileSync(path + "-shm", "shm");
    const moved = moveAside(path, now);
    strictEqual(moved, `${first}-2`);
    strictEqual(Deno.readTextFileSync(first), "an earlier one");
    strictEqual(Deno.readTextFileSync(moved), "main");
    strictEqual(Deno.readTextFileSync(moved + "-wal"), "wal");
    strictEqual(Deno.readTextFileSync(moved + "-shm"), "shm");
    deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "rtok.db.damaged-20261204T143345Z",
      "rtok.db.damaged-20261204T143345Z-2",
      "rtok.db.damaged-20261204T143345Z-2-shm",
      "rtok.db.damaged-20261204T143345Z-2-wal",
    ]);
    Deno.removeSync(dir, { recursive: true });
  },
});

Deno.test({
  name: "moveAside() moves the main file last, so a store created in its place keeps its -wal",
  permissions: perms,
  fn() {
    const dir = Deno.makeTempDirSync();
    const path = join(dir, "rtok.db");
    for (const side of ["", "-wal", "-shm"]) Deno.writeTextFileSync(path + side, side || "main");
    const order: string[] = [];
    moveAside(path, new Date(), (from, to) => {
      order.push(from.slice(path.length) || "main");
      Deno.renameSync(from, to);
    });
    deepStrictEqual(order, ["-wal", "-shm", "main"]);
    Deno.removeSync(dir, { recursive: true });
  },
});

Deno.test({
  name: "Store.open() with heal that cannot move the file aside throws one line and moves nothing",
  permissions: perms,
  fn() {
    const dir = Deno.makeTempDirSync();
    const path = join(dir, "rtok.db");
    const bytes = _damage(path);
    // A lock left by a dead process that cannot be taken over (a directory with a file in it).
    Deno.mkdirSync(`${path}.lock`);
    Deno.writeTextFileSync(`${path}.lock/x`, "");
    const old = new Date(Date.now() - 120_000);
    Deno.utimeSync(`${path}.lock`, old, old);
    throws(() => Store.open(path, { heal: true }), (e: Error) => {
      ok(!e.message.includes("\n"), e.message);
      ok(e.message.startsWith(`Cannot open store "${path}": `), e.message);
      ok(e.message.includes("could not be moved aside"), e.message);
      ok(e.message.includes("move it yourself"), e.message);
      return true;
    });
    deepStrictEqual(Deno.readFileSync(path), bytes);
    deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "rtok.db",
      "rtok.db.lock",
    ]);
    Deno.removeSync(dir, { recursive: true });
  },
});

Deno.test({
  name: "Store.open() with heal in four processes at once moves the damaged file once",
  permissions: { read: true, write: true, run: true },
  async fn() {
    const dir = Deno.makeTempDirSync();
    const path = join(dir, "rtok.db");
    _damage(path);
    const script = join(dir, "open.ts");
    const store = new URL("./store.ts", import.meta.url).href;
    Deno.writeTextFileSync(
      script,
      `import { Store } from ${JSON.stringify(store)};\n` +
        `const s = Store.open(${JSON.stringify(path)}, { heal: true });\n` +
        `s.write((db) => db.exec("SELECT 1"));\nconsole.log(s.healed ?? "-");\ns.close();\n`,
    );
    const runs = await Promise.all([1, 2, 3, 4].map(() =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-config", "--allow-read", "--allow-write", script],
        stdout: "piped",
        stderr: "piped",
      }).output()
    ));
    const said = runs.map((r) => {
      strictEqual(r.code, 0, new TextDecoder().decode(r.stderr));
      return new TextDecoder().decode(r.stdout).trim();
    });
    strictEqual(said.filter((s) => s !== "-").length, 1, said.join(", "));
    const damaged = Deno.readDirSync(dir).filter((e) => e.name.includes(".damaged-")).toArray();
    strictEqual(damaged.length, 1);
    Deno.removeSync(dir, { recursive: true });
  },
});

Deno.test({
  name: "Store.copyInMemory() holds the file's rows, and rows added to it never reach the file",
  permissions: perms,
  fn() {
    const dir = Deno.makeTempDirSync();
    const path = join(dir, "rtok.db");
    const file = Store.open(path);
    file.db.exec(
      `INSERT INTO expands (ts, archive_id, surface) VALUES (1, 'aaaaaaaaaaaa', 'cli'),
         (2, 'bbbbbbbbbbbb', 'hook')`,
    );
    file.close();
    const reader = Store.openReadOnly(path)!;
    const copy = reader.copyInMemory();
    reader.close();
    const rows = (s: Store) =>
      s.db.prepare("SELECT ts, archive_id, surface FROM expands ORDER BY ts").all()
        .map((r) => ({ ...r }));
    deepStrictEqual(rows(copy), [
      { ts: 1, archive_id: "aaaaaaaaaaaa", surface: "cli" },
      { ts: 2, archive_id: "bbbbbbbbbbbb", surface: "hook" },
    ]);
    deepStrictEqual(copy.appliedMigrations(), MIGRATIONS.map((m) => m.version));
    copy.db.exec("INSERT INTO expands (ts, archive_id, surface) VALUES (3, 'cccccccccccc', 'cli')");
    strictEqual(rows(copy).length, 3);
    copy.close();
    const again = Store.openReadOnly(path)!;
    strictEqual(rows(again).length, 2);
    again.close();
    Deno.removeSync(dir, { recursive: true });
  },
});
