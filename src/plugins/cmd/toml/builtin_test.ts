import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { starHeight } from "./regex.ts";
import { type FilterDef, parseFilterFile } from "./spec.ts";
import { verifyDefs } from "./verify.ts";
import { FILTER_LOADERS } from "../loaders.ts";
import { loadTomlText } from "../../../../filters/index.ts";
import { builtinLabel, builtinTomlDefs, builtinTomlFiles } from "./builtin.ts";

const files = builtinTomlFiles();
// Parsed here, not through the run path's cache, so the test reads exactly the embedded text.
const defs: FilterDef[] = [];
for (const file of files) {
  defs.push(...parseFilterFile(await loadTomlText(file), builtinLabel(file)));
}

Deno.test("every filters/*.toml is embedded, and holds at least one filter", () => {
  const onDisk = [...Deno.readDirSync(new URL("../../../../filters/", import.meta.url))]
    .map((e) => e.name)
    .filter((n) => n.endsWith(".toml"))
    .sort();
  deepStrictEqual([...files].sort(), onDisk);
  for (const file of files) ok(defs.some((d) => d.file === `filters/${file}`), `${file} is empty`);
});

Deno.test("every built-in TOML filter has at least one embedded test", () => {
  ok(defs.length >= 2);
  for (const d of defs) ok(d.tests.length >= 1, `${d.name} (${d.file}) has no test`);
});

Deno.test("every built-in TOML filter passes its embedded tests", () => {
  const v = verifyDefs(defs);
  deepStrictEqual(
    v.failures.map((f) => `${f.filter}: ${f.test} (${f.file}:${f.line})\n${f.diff}`),
    [],
  );
  ok(v.tests >= defs.length);
});

Deno.test("no built-in pattern nests repetition (star height ≤ 1), so none backtracks catastrophically", () => {
  for (const d of defs) {
    const patterns = [d.match];
    for (const s of d.steps) {
      if (s.kind === "replace") patterns.push(s.pattern);
      if (s.kind === "short_circuit") patterns.push(s.pattern, ...(s.unless ? [s.unless] : []));
      if (s.kind === "strip" || s.kind === "keep") patterns.push(...s.patterns);
    }
    for (const p of patterns) {
      ok(starHeight(p) <= 1, `${d.name}: /${p}/ has star height ${starHeight(p)}`);
    }
  }
});

Deno.test("every built-in TOML filter is registered by its family, and loads compiled", async () => {
  for (const d of defs) {
    ok(Object.hasOwn(FILTER_LOADERS, d.name), `${d.name} is not in FILTER_LOADERS`);
    const f = await FILTER_LOADERS[d.name]();
    strictEqual(f.name, d.name);
    strictEqual(f.textClass, d.textClass);
    ok(f.matches?.(d.name), `${d.name}'s own pattern accepts its bare command`);
    strictEqual(f.filterWithin, undefined, "a built-in runs inline");
  }
});

Deno.test("builtinTomlDefs gives what parsing the embedded text gives", async () => {
  for (const file of files) {
    deepStrictEqual(
      await builtinTomlDefs(file),
      defs.filter((d) => d.file === builtinLabel(file)),
    );
  }
});
