import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { parseCached } from "./cache.ts";

const GOOD = "[[filter]]\nname = \"t\"\nmatch = '^t'\n";

Deno.test("parseCached parses, keeps one slot per source, and reads it back while the text is the same", async () => {
  const home = Deno.makeTempDirSync();
  try {
    const first = await parseCached(GOOD, "a.toml", "/x/a.toml", home);
    strictEqual(first.defs[0].name, "t");
    const slots = () => [...Deno.readDirSync(`${home}/cache`)].map((e) => e.name).sort();
    strictEqual(slots().length, 1);
    match(slots()[0], /^filters-_x_a\.toml-[0-9a-f]{8}\.json$/);
    // The slot is what a second parse reads: edit it, and the edit shows.
    const file = `${home}/cache/${slots()[0]}`;
    const slot = JSON.parse(Deno.readTextFileSync(file));
    slot.defs[0].description = "from the cache";
    Deno.writeTextFileSync(file, JSON.stringify(slot));
    strictEqual(
      (await parseCached(GOOD, "a.toml", "/x/a.toml", home)).defs[0].description,
      "from the cache",
    );
    // Another text for the same source replaces the slot; another source gets its own.
    strictEqual(
      (await parseCached(GOOD + "\n", "a.toml", "/x/a.toml", home)).defs[0].description,
      "",
    );
    await parseCached(GOOD, "b.toml", "/x/b.toml", home);
    strictEqual(slots().length, 2);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("parseCached keeps a parse error too, and needs no home", async () => {
  const bad = await parseCached("[[filter]]\nname = 1\n", "bad.toml", "/bad.toml", null);
  deepStrictEqual(bad.defs, []);
  match(bad.error!, /^Cannot read filters "bad\.toml": line 2: /);
});

Deno.test("parseCached makes no home that does not exist", async () => {
  const parent = Deno.makeTempDirSync();
  try {
    await parseCached(GOOD, "a.toml", "/a.toml", `${parent}/absent`);
    deepStrictEqual([...Deno.readDirSync(parent)], []);
  } finally {
    Deno.removeSync(parent, { recursive: true });
  }
});
