import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { FILTER_LOADERS } from "./index.ts";
import { COMMAND_FILTERS } from "./mod.ts";

Deno.test("FILTER_LOADERS loads exactly the filters COMMAND_FILTERS lists", async () => {
  // Besides the declarative built-ins (filters/*.toml), which filters/toml_test.ts checks.
  const handWritten: string[] = [];
  for (const [family, load] of Object.entries(FILTER_LOADERS)) {
    if (!("def" in await load())) handWritten.push(family);
  }
  deepStrictEqual(handWritten.sort(), COMMAND_FILTERS.map((f) => f.name).sort());
  for (const f of COMMAND_FILTERS) strictEqual(await FILTER_LOADERS[f.name](), f);
});

Deno.test("the catalogue filters at least 60 command families, each loading a filter of its name", async () => {
  const families = Object.keys(FILTER_LOADERS);
  strictEqual(new Set(families).size, families.length);
  for (const family of families) strictEqual((await FILTER_LOADERS[family]()).name, family);
  // Families that only spell another one differently (`npm i`, `pnpm i`, `bun i`) do not count.
  const distinct = families.filter((f) => !/ i$/.test(f));
  strictEqual(distinct.length >= 60, true, `${distinct.length} families: ${distinct.join(", ")}`);
});
