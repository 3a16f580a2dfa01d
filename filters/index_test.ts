import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { FILTER_LOADERS } from "./index.ts";
import { COMMAND_FILTERS } from "./mod.ts";

Deno.test("FILTER_LOADERS loads exactly the filters COMMAND_FILTERS lists", async () => {
  deepStrictEqual(Object.keys(FILTER_LOADERS).sort(), COMMAND_FILTERS.map((f) => f.name).sort());
  for (const f of COMMAND_FILTERS) strictEqual(await FILTER_LOADERS[f.name](), f);
});
