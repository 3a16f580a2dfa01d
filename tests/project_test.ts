import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { RTOK_PERMISSIONS } from "../scripts/permissions.ts";

const root = new URL("../", import.meta.url);
const manifest = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));

// The install task's launcher gets the same list from scripts/install.ts (tests/install_test.ts).
Deno.test("the rtok task grants exactly rtok's permission list, and no task uses -A", () => {
  const perms = RTOK_PERMISSIONS.join(" ");
  strictEqual(manifest.tasks.rtok, `deno run ${perms} cli.ts`);
  ok(/ scripts\/install\.ts$/.test(manifest.tasks.install), manifest.tasks.install);
  for (const [name, task] of Object.entries(manifest.tasks as Record<string, string>)) {
    ok(!/(^|\s)(-A|--allow-all)(\s|$)/.test(task), `task ${name} uses -A`);
  }
});

Deno.test("deno.json names the package, its entries and pinned npm imports", () => {
  strictEqual(manifest.name, "@rtok/cli");
  deepStrictEqual(manifest.exports, { ".": "./mod.ts", "./cli": "./cli.ts" });
  for (const spec of Object.values(manifest.imports as Record<string, string>)) {
    ok(/^npm:(@[\w-]+\/)?[\w.-]+@\d+\.\d+\.\d+$/.test(spec), `${spec} is a pinned npm version`);
  }
  for (const task of ["test", "check", "bench", "demo", "install", "compile"]) {
    ok(manifest.tasks[task], `task ${task}`);
  }
});

Deno.test("every plugin folder has a README saying what it does and measures", async () => {
  const plugins = new URL("src/plugins/", root);
  let count = 0;
  for await (const e of Deno.readDir(plugins)) {
    if (!e.isDirectory) continue;
    const readme = await Deno.readTextFile(new URL(`${e.name}/README.md`, plugins));
    ok(readme.startsWith(`# ${e.name}\n`), `${e.name}/README.md names the plugin`);
    ok(/measure/i.test(readme), `${e.name}/README.md says what it measures`);
    count++;
  }
  ok(count >= 3);
});
