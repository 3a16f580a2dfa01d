// The half of test:unit's honesty that permissions cannot give: the files it leaves out are
// exactly those that start a program or touch the network (scripts/test_unit.ts finds them), so
// no file drops out of the quick run unseen. The other half is the task's own: it grants
// neither, so a file it runs that tries fails there.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { directUse, externalTests, ignoredByTask } from "../scripts/test_unit.ts";

const denoJson = await Deno.readTextFile(new URL("../deno.json", import.meta.url));
const unit = (JSON.parse(denoJson).tasks as Record<string, string>)["test:unit"];

Deno.test("test:unit leaves out exactly the test files that start a program or touch the network", async () => {
  const external = await externalTests();
  const ignored = ignoredByTask(denoJson) ?? [];
  const want = [...external.keys()];
  deepStrictEqual(
    [...ignored].sort(),
    want,
    `test:unit should ignore these ${want.length} files (why each):\n` +
      [...external].map(([p, why]) => `  ${p}: ${why}`).join("\n") +
      "\nrun: deno run --allow-read --allow-write scripts/test_unit.ts",
  );
});

Deno.test("test:unit grants no program, no network, and names no path, so a new test file joins it", () => {
  ok(unit.startsWith("deno test --config dev.json "), unit);
  for (
    const flag of ["--allow-run", "--allow-net", "--allow-all", "-A ", "--allow-ffi", "--allow-sys"]
  ) {
    ok(!unit.includes(flag), `${flag} in ${unit}`);
  }
  const words = unit.split(/\s+/).slice(2);
  deepStrictEqual(words.filter((w) => !w.startsWith("-")), ["dev.json"]);
});

Deno.test("externalTests() reads a direct spawn, a socket and a spawning helper, not a local run()", async () => {
  // Built from parts, so that this file's own text starts nothing.
  strictEqual(directUse(["new Deno", 'Command("git", {})'].join(".")), "starts a program");
  strictEqual(directUse(["Deno", "listen({ port: 0 })"].join(".")), "opens a socket");
  strictEqual(directUse("const run = (x) => filter(x); run(raw);"), null);
  const external = await externalTests();
  ok(external.get("tests/claude_e2e_test.ts")?.includes("tests/_claude.ts"));
  ok(external.get("src/core/spawn_test.ts")?.includes("starts a program"));
  ok(external.get("tests/cli_test.ts")?.includes("tests/_helpers.ts"));
  strictEqual(external.get("filters/git_log_test.ts"), undefined);
  strictEqual(external.get("tests/fixtures_test.ts"), undefined);
});
