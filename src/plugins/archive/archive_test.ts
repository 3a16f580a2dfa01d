import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import { Store, storePath } from "../../core/store.ts";
import {
  archiveDir,
  findArchived,
  ID_LENGTH,
  keepRaw,
  readArchived,
  sha256Hex,
} from "./archive.ts";

const perms = { read: true, write: true } as const;
const META = { command: "git log", cwd: "/repo", exitCode: 0, family: "git log" };
const LIMITS = { maxAgeDays: 30, maxTotalMb: 256 };

function setup(): { home: string; store: Store } & Disposable {
  const home = Deno.makeTempDirSync();
  const store = Store.open(storePath(home));
  return {
    home,
    store,
    [Symbol.dispose]() {
      store.close();
      Deno.removeSync(home, { recursive: true });
    },
  };
}

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test({
  name: "keepRaw() stores the exact bytes owner-only, named by their sha256",
  permissions: perms,
  async fn() {
    using s = setup();
    const raw = bytes("raw output\n".repeat(100));
    const id = await keepRaw(s.store, s.home, raw, META, LIMITS);
    const sha = await sha256Hex(raw);
    strictEqual(id, sha.slice(0, ID_LENGTH));
    const file = `${archiveDir(s.home)}/${sha}`;
    strictEqual((await Deno.stat(file)).mode! & 0o777, 0o600);
    strictEqual((await Deno.stat(archiveDir(s.home))).mode! & 0o777, 0o700);
    deepStrictEqual(await readArchived(s.home, findArchived(s.store, id)), raw);
  },
});

Deno.test({
  name: "keepRaw() keeps the same bytes once and renews their age",
  permissions: perms,
  async fn() {
    using s = setup();
    const raw = bytes("same\n");
    await keepRaw(s.store, s.home, raw, META, LIMITS, 1000);
    const id = await keepRaw(s.store, s.home, raw, META, LIMITS, 2000);
    strictEqual(findArchived(s.store, id).created, 2000);
    strictEqual([...Deno.readDirSync(archiveDir(s.home))].length, 1);
  },
});

Deno.test({
  name: "keepRaw() removes outputs past the age limit, never the one just kept",
  permissions: perms,
  async fn() {
    using s = setup();
    const day = 86_400_000;
    const old = await keepRaw(s.store, s.home, bytes("old\n"), META, LIMITS, 0);
    const fresh = await keepRaw(s.store, s.home, bytes("fresh\n"), META, LIMITS, 31 * day);
    throws(() => findArchived(s.store, old), RangeError);
    ok(findArchived(s.store, fresh));
    strictEqual([...Deno.readDirSync(archiveDir(s.home))].length, 1);
  },
});

Deno.test({
  name: "keepRaw() removes the oldest outputs past the size cap, never the one just kept",
  permissions: perms,
  async fn() {
    using s = setup();
    const half = new Uint8Array(600 * 1024);
    const limits = { maxAgeDays: 30, maxTotalMb: 1 };
    const a = await keepRaw(s.store, s.home, half.fill(1), META, limits, 1);
    const b = await keepRaw(s.store, s.home, new Uint8Array(600 * 1024).fill(2), META, limits, 2);
    throws(() => findArchived(s.store, a), RangeError);
    ok(findArchived(s.store, b));
    const big = await keepRaw(
      s.store,
      s.home,
      new Uint8Array(2 * 1024 * 1024).fill(3),
      META,
      limits,
      3,
    );
    ok(
      findArchived(s.store, big),
      "an output larger than the cap is still kept while it is the newest",
    );
  },
});

Deno.test({
  name: "findArchived() accepts a unique prefix and names bad, unknown and ambiguous ids",
  permissions: perms,
  async fn() {
    using s = setup();
    const id = await keepRaw(s.store, s.home, bytes("x\n"), META, LIMITS);
    strictEqual(findArchived(s.store, id.slice(0, 6)).id, id);
    throws(() => findArchived(s.store, "xyz"), /an id is 6 to 64 hex digits/);
    throws(
      () => findArchived(s.store, "000000000000"),
      /No archived output with id "000000000000"/,
    );
  },
});

Deno.test({
  name: "readArchived() refuses bytes that no longer match their sha256",
  permissions: perms,
  async fn() {
    using s = setup();
    const raw = bytes("original\n");
    const id = await keepRaw(s.store, s.home, raw, META, LIMITS);
    await Deno.writeTextFile(`${archiveDir(s.home)}/${await sha256Hex(raw)}`, "tampered\n");
    await rejects(readArchived(s.home, findArchived(s.store, id)), /is damaged/);
  },
});

Deno.test({
  name: "findArchived() with home finds an output the index lost, by its file's sha256",
  permissions: perms,
  async fn() {
    using s = setup();
    const raw = bytes("archived before the store was replaced\n");
    const id = await keepRaw(s.store, s.home, raw, META, LIMITS);
    s.store.write((db) => db.exec("DELETE FROM archive"));
    throws(() => findArchived(s.store, id), RangeError, "without home the index alone answers");
    const found = findArchived(s.store, id, s.home);
    strictEqual(found.id, id);
    strictEqual(found.size, raw.byteLength);
    deepStrictEqual(await readArchived(s.home, found), raw);
    throws(() => findArchived(s.store, "abcdef0123", s.home), /never existed/);
  },
});
