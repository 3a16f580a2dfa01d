import { deepStrictEqual } from "node:assert/strict";
import { FILTER_LOADERS } from "../../filters/index.ts";
import { REWRITE_RULES } from "./rules.ts";

Deno.test("REWRITE_RULES has a rule for every family with a filter, and only those", () => {
  deepStrictEqual(Object.keys(REWRITE_RULES).sort(), Object.keys(FILTER_LOADERS).sort());
});
