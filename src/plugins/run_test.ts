import { deepStrictEqual } from "node:assert/strict";
import { BUILTIN_PLUGINS } from "./mod.ts";
import { RUN_PLUGINS } from "./run.ts";

Deno.test("RUN_PLUGINS holds every built-in plugin a command run calls, in catalogue order", () => {
  // What the run path asks of plugins: a filter, the raw bytes kept, the row, a failure.
  const calls = ["commandFilter", "keepRaw", "onMeasurement", "onFailure", "prepare"] as const;
  const needed = BUILTIN_PLUGINS.filter((p) => calls.some((c) => typeof p[c] === "function"));
  deepStrictEqual(RUN_PLUGINS.map((p) => p.manifest.id), needed.map((p) => p.manifest.id));
});
