import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import {
  appendSpool,
  drainSpool,
  parseSpool,
  type SpoolEntry,
  spoolPath,
  spoolSize,
} from "./spool.ts";

const perms = { read: true, write: true } as const;
const entry = (n: number): SpoolEntry => ({ kind: "measure.run", ts: n, data: { n } });

Deno.test({
  name: "drainSpool() hands over every appended entry in order, then empties the spool",
  permissions: perms,
  fn() {
    const home = Deno.makeTempDirSync();
    appendSpool(home, [entry(1)]);
    appendSpool(home, [entry(2), entry(3)]);
    strictEqual(spoolSize(home), Deno.statSync(spoolPath(home)).size);
    const seen: SpoolEntry[] = [];
    deepStrictEqual(drainSpool(home, (es) => seen.push(...es)), { entries: 3, malformed: 0 });
    deepStrictEqual(seen.map((e) => e.ts), [1, 2, 3]);
    strictEqual(Deno.statSync(spoolPath(home)).size, 0);
    deepStrictEqual(drainSpool(home, () => {}), { entries: 0, malformed: 0 });
    Deno.removeSync(home, { recursive: true });
  },
});

Deno.test({
  name: "drainSpool() keeps the spool whole when applying fails",
  permissions: perms,
  fn() {
    const home = Deno.makeTempDirSync();
    appendSpool(home, [entry(1), entry(2)]);
    throws(() =>
      drainSpool(home, () => {
        throw new Error("store is locked");
      }), /store is locked/);
    const seen: number[] = [];
    drainSpool(home, (es) => seen.push(...es.map((e) => e.ts)));
    deepStrictEqual(seen, [1, 2]);
    Deno.removeSync(home, { recursive: true });
  },
});

Deno.test({
  name: "appendSpool() creates rtok's home owner-only and names an unwritable one",
  permissions: perms,
  fn() {
    const tmp = Deno.makeTempDirSync();
    appendSpool(`${tmp}/new/home`, [entry(1)]);
    strictEqual(Deno.statSync(`${tmp}/new/home`).mode! & 0o777, 0o700);
    strictEqual(Deno.statSync(spoolPath(`${tmp}/new/home`)).mode! & 0o777, 0o600);
    Deno.writeTextFileSync(`${tmp}/file`, "");
    throws(
      () => appendSpool(`${tmp}/file/home`, [entry(1)]),
      /^Error: Cannot record in ".*spool.jsonl": .*set RTOK_HOME/,
    );
    Deno.removeSync(tmp, { recursive: true });
  },
});

Deno.test("parseSpool() counts a torn or foreign line instead of throwing", () => {
  const text = JSON.stringify(entry(1)) + '\n{"kind":"measure.run","ts":2,"da\n' +
    JSON.stringify({ other: true }) + "\n" + JSON.stringify(entry(3)) + "\n";
  const { entries, malformed } = parseSpool(text);
  deepStrictEqual(entries.map((e) => e.ts), [1, 3]);
  strictEqual(malformed, 2);
});

Deno.test({
  name: "drainSpool() leaves spooled the entries apply gives back, and only those",
  permissions: { read: true, write: true },
  fn() {
    const home = Deno.makeTempDirSync();
    appendSpool(home, [1, 2, 3, 4].map((n) => ({ kind: `p${n % 2}.x`, ts: n, data: { n } })));
    const back = drainSpool(home, (es) => es.filter((e) => e.kind === "p1.x"));
    deepStrictEqual(back, { entries: 2, malformed: 0 });
    const seen: number[] = [];
    drainSpool(home, (es) => seen.push(...es.map((e) => e.ts)));
    deepStrictEqual(seen, [1, 3]);
    deepStrictEqual(drainSpool(home, () => {}), { entries: 0, malformed: 0 });
    Deno.removeSync(home, { recursive: true });
  },
});
