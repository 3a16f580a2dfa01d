import { deepStrictEqual } from "node:assert/strict";
import { MEASURED_SAVINGS } from "../src/rewrite/savings.ts";
import { measuredSavings } from "./_savings.ts";

Deno.test("MEASURED_SAVINGS is what the golden fixtures measure today", async () => {
  deepStrictEqual({ ...MEASURED_SAVINGS }, await measuredSavings());
});
