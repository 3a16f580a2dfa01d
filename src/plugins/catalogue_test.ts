import { deepStrictEqual, ok } from "node:assert/strict";
import type { Surface } from "../core/plugin.ts";
import { BUILTINS, CATALOGUE, DISPATCH_ORDER, loadBuiltins } from "./catalogue.ts";
import { BUILTIN_PLUGINS } from "./mod.ts";
import { HOOK_PLUGINS } from "./hook.ts";
import { RUN_PLUGINS } from "./run.ts";

Deno.test("BUILTINS: each entry loads the plugin its manifest names, for every surface", async () => {
  for (const b of BUILTINS) {
    deepStrictEqual((await b.load()).manifest, b.manifest);
    for (const s of b.manifest.surfaces) {
      const p = await b.load(s);
      deepStrictEqual([p.manifest.id, p.manifest.defaultOn], [b.manifest.id, b.manifest.defaultOn]);
    }
  }
});

Deno.test("BUILTINS holds every plugin folder of src/plugins/, once", async () => {
  const folders: string[] = [];
  for await (const e of Deno.readDir(new URL("./", import.meta.url))) {
    if (e.isDirectory) folders.push(e.name);
  }
  deepStrictEqual(BUILTINS.map((b) => b.manifest.id).sort(), folders.sort());
});

Deno.test("CATALOGUE and DISPATCH_ORDER are BUILTINS' ids and defaults, in order", () => {
  deepStrictEqual(
    CATALOGUE,
    BUILTINS.map((b) => ({ id: b.manifest.id, defaultOn: b.manifest.defaultOn })),
  );
  deepStrictEqual(DISPATCH_ORDER, BUILTINS.map((b) => b.manifest.id));
});

Deno.test("the plugin lists are the catalogue's plugins whose manifest names the surface", () => {
  const ids = (ps: readonly { manifest: { id: string } }[]) => ps.map((p) => p.manifest.id);
  const serving = (s: Surface) =>
    BUILTINS.filter((b) => b.manifest.surfaces.includes(s)).map((b) => b.manifest.id);
  deepStrictEqual(ids(BUILTIN_PLUGINS), DISPATCH_ORDER);
  deepStrictEqual(ids(HOOK_PLUGINS), serving("hook"));
  deepStrictEqual(ids(RUN_PLUGINS), serving("cli"));
  deepStrictEqual(ids(HOOK_PLUGINS), ["measure", "cmd", "guard", "archive", "posttool", "memory"]);
  deepStrictEqual(ids(RUN_PLUGINS), ["measure", "cmd", "archive"]);
});

Deno.test("loadBuiltins() gives the hook the cmd plugin's rewrite form, which loads no filter", async () => {
  const hook = (await loadBuiltins("hook")).find((p) => p.manifest.id === "cmd")!;
  const run = (await loadBuiltins("cli")).find((p) => p.manifest.id === "cmd")!;
  ok(hook.preTool && !hook.commandFilter);
  ok(run.commandFilter);
});
