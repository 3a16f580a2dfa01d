import { deepStrictEqual, ok } from "node:assert/strict";
import {
  ALLOWED,
  fileCycles,
  importsOf,
  layerCycles,
  layerOf,
  layerViolations,
  resolvePath,
  sqlOutsidePlugins,
  surfaceCrossings,
} from "./_layers.ts";

const ROOT = new URL("../", import.meta.url);

// Every module of the layered code, tests beside the code left out: a test may reach anything.
async function _modules(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(new URL(dir, ROOT))) {
      const path = `${dir}${e.name}`;
      if (e.isDirectory) await walk(`${path}/`);
      else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) {
        out.set(path, await Deno.readTextFile(new URL(path, ROOT)));
      }
    }
  };
  await walk("src/");
  await walk("filters/");
  return out;
}

Deno.test("every import points the way the layers are drawn", async () => {
  const modules = await _modules();
  ok(modules.size > 100, `${modules.size} modules read`);
  deepStrictEqual(layerViolations(modules), []);
});

Deno.test("surfaceCrossings(): no surface imports another, nor does a shared helper", async () => {
  deepStrictEqual(surfaceCrossings(await _modules()), []);
  const modules = new Map([
    ["src/surfaces/mod.ts", `const g = import("./gain/mod.ts");\nimport { x } from "./_io.ts";`],
    ["src/surfaces/gain/mod.ts", `import { v } from "./verify.ts";\nimport { r } from "../_r.ts";`],
    ["src/surfaces/gain/verify.ts", `import { h } from "../hook.ts";`],
    ["src/surfaces/serve/mod.ts", `import type { G } from "../gain/mod.ts";`],
    ["src/surfaces/doctor.ts", `import { s } from "./serve/mod.ts";\nimport "./_x/a.ts";`],
    ["src/surfaces/_r.ts", `const m = await import("./metrics.ts");`],
    ["src/surfaces/_x/a.ts", `import { t } from "../mod.ts";\nimport { r } from "../_r.ts";`],
    ["src/surfaces/metrics.ts", `import { c } from "../core/c.ts";`],
  ]);
  deepStrictEqual(surfaceCrossings(modules), [
    "src/surfaces/gain/verify.ts → src/surfaces/hook.ts: the surface gain imports the surface hook",
    "src/surfaces/serve/mod.ts → src/surfaces/gain/mod.ts: the surface serve imports the surface gain",
    "src/surfaces/doctor.ts → src/surfaces/serve/mod.ts: the surface doctor imports the surface serve",
    "src/surfaces/_r.ts → src/surfaces/metrics.ts: the shared helper _r.ts imports the surface metrics",
    "src/surfaces/_x/a.ts → src/surfaces/mod.ts: the shared helper _x imports the command table",
  ]);
});

Deno.test("no surface holds SQL: the ledger's queries are the measure and proxy plugins'", async () => {
  deepStrictEqual(sqlOutsidePlugins(await _modules()), []);
  const modules = new Map([
    ["src/surfaces/a.ts", "const rows = db.prepare(`SELECT family, count(*) AS n\n FROM runs`);"],
    ["src/surfaces/b.ts", `db.exec("DELETE FROM runs WHERE ts < ?");`],
    ["src/surfaces/c.ts", `// SELECT x FROM y in a comment\ndb.exec("SAVEPOINT spool");`],
    ["src/plugins/measure/d.ts", "db.prepare(`SELECT x FROM runs`);"],
  ]);
  deepStrictEqual(sqlOutsidePlugins(modules), [
    "src/surfaces/a.ts: SELECT family, count(*) AS n FROM",
    "src/surfaces/b.ts: DELETE FROM",
  ]);
});

Deno.test("the layers the imports may follow form no cycle", () => {
  deepStrictEqual(layerCycles(ALLOWED), []);
  deepStrictEqual(layerCycles({ a: ["b"], b: ["c"], c: ["a"] }), ["a → b → c → a"]);
});

Deno.test("no module imports itself through others", async () => {
  deepStrictEqual(fileCycles(await _modules()), []);
  const circle = new Map([
    ["src/core/a.ts", `import type { B } from "./b.ts";`],
    ["src/core/b.ts", `import { c } from "./c.ts";`],
    ["src/core/c.ts", `const a = await import("./a.ts");`],
  ]);
  deepStrictEqual(fileCycles(circle), [
    "src/core/a.ts → src/core/b.ts → src/core/c.ts → src/core/a.ts",
  ]);
  circle.delete("src/core/c.ts");
  deepStrictEqual(fileCycles(circle), []);
});

Deno.test("every folder of src/ is a drawn layer", async () => {
  const folders: string[] = [];
  for await (const e of Deno.readDir(new URL("src/", ROOT))) {
    if (e.isDirectory && e.name !== "plugins") folders.push(e.name);
  }
  for await (const e of Deno.readDir(new URL("src/plugins/", ROOT))) {
    if (e.isDirectory) folders.push(`plugins/${e.name}`);
  }
  for (const f of folders) ok(Object.hasOwn(ALLOWED, f), `src/${f}/ is not in ALLOWED`);
});

Deno.test("importsOf() reads static, type, lazy and URL imports, not comments", () => {
  const source = [
    `import { a } from "./a.ts";`,
    `import type { B } from "../core/b.ts";`,
    `export { c } from "./c.ts";`,
    `const d = await import("./d.ts");`,
    `const e = new URL("./e.ts", import.meta.url);`,
    `const f = _at("./f.ts");`,
    `// lazyImport<typeof import("./not_me.ts")>()`,
    `/** import { z } from "./nor_me.ts" */`,
    `const msg = "see ./g.ts";`,
  ].join("\n");
  deepStrictEqual(importsOf("src/plugins/x.ts", source), [
    "src/plugins/a.ts",
    "src/core/b.ts",
    "src/plugins/c.ts",
    "src/plugins/d.ts",
    "src/plugins/e.ts",
    "src/plugins/f.ts",
  ]);
  deepStrictEqual(resolvePath("filters/index.ts", "../src/core/x.ts"), "src/core/x.ts");
});

Deno.test("layerViolations() names each import against the layers", () => {
  const modules = new Map([
    ["src/core/a.ts", `import { x } from "../rewrite/x.ts";`],
    ["filters/b.ts", `import { y } from "../src/plugins/cmd/y.ts";`],
    ["src/content/c.ts", `import { t } from "../../filters/_text.ts";`],
    ["src/claude/d.ts", `import { l } from "../rewrite/lexer.ts";`],
    ["src/core/e.ts", `import { m } from "./m.ts";\nimport s from "../../migrations/1.sql";`],
    ["src/surfaces/x/f.ts", `import { h } from "../_h.ts";`],
    ["src/surfaces/g.ts", `import { h } from "./x/_h.ts";`],
    ["src/plugins/cmd/f.ts", `import { g } from "../archive/mod.ts";`],
    ["src/plugins/cmd/g.ts", `import { q } from "../archive/search.ts";`],
  ]);
  deepStrictEqual(layerViolations(modules), [
    "src/core/a.ts → src/rewrite/x.ts: core may not import rewrite",
    "filters/b.ts → src/plugins/cmd/y.ts: filters may not import plugins/cmd",
    "src/content/c.ts → filters/_text.ts: a private helper of filters/",
    "src/claude/d.ts → src/rewrite/lexer.ts: claude may not import rewrite",
    "src/surfaces/g.ts → src/surfaces/x/_h.ts: a private helper of src/surfaces/x/",
    "src/plugins/cmd/g.ts → src/plugins/archive/search.ts: a plugin imports another plugin only " +
    "through its mod.ts",
  ]);
  deepStrictEqual(
    ["src/core/x.ts", "src/plugins/cmd/x.ts", "src/plugins/mod.ts", "filters/x.ts", "cli.ts"].map(
      layerOf,
    ),
    ["core", "plugins/cmd", "plugins", "filters", null],
  );
});

Deno.test("every module no published entry point reaches is left out of the package", async () => {
  const modules = await _modules();
  for (const entry of ["mod.ts", "cli.ts"]) {
    modules.set(entry, await Deno.readTextFile(new URL(entry, ROOT)));
  }
  // filters/index.ts loads a family's module by the file name the family table gives.
  const byName = [...modules.get("filters/families.ts")!.matchAll(/file: "([a-z0-9_]+\.ts)"/g)]
    .map((m) => `filters/${m[1]}`);
  ok(byName.length > 30, `${byName.length} filter modules named by the family table`);
  const reached = new Set<string>();
  const visit = (path: string) => {
    if (reached.has(path) || !modules.has(path)) return;
    reached.add(path);
    const loads = path === "filters/index.ts" ? byName : [];
    for (const to of [...importsOf(path, modules.get(path)!), ...loads]) visit(to);
  };
  visit("mod.ts");
  visit("cli.ts");
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const excluded: string[] = config.publish.exclude;
  const left = (path: string) =>
    path.endsWith("_test.ts") ||
    excluded.some((e) => e.endsWith("/") ? path.startsWith(e) : path === e);
  const stray = [...modules.keys()].filter((p) => !reached.has(p) && !left(p));
  deepStrictEqual(stray, [], "published but unreachable: a test helper belongs in publish.exclude");
  const shipped = excluded.filter((e) => !e.includes("*") && !e.endsWith("/") && reached.has(e));
  deepStrictEqual(shipped, [], "excluded but imported by the package");
});
