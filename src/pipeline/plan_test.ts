import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { defaultConfig } from "../core/config.ts";
import type { CommandFilter } from "../core/filter.ts";
import type { Plugin } from "../core/plugin.ts";
import { Registry } from "../core/registry.ts";
import { readServedRaw, writeServedRaw } from "../plugins/measure/served_raw.ts";
import { catOfOneFile, catPath, planRun, servedRawRate } from "./plan.ts";

function _tmp(): string {
  return Deno.makeTempDirSync({ prefix: "rtok-plan-" });
}

// A registry whose one plugin gives `filter` to every `tool …`.
function _registry(filter: CommandFilter): Registry {
  const plugin: Plugin = {
    manifest: { id: "cmd", surfaces: ["cli"], defaultOn: true, description: "Test filter." },
    commandFilter: (argv) => ({ filter, prefix: [argv[0]], args: argv.slice(1) }),
  };
  return new Registry([plugin], defaultConfig());
}

const FILTER: CommandFilter = {
  name: "tool",
  textClass: "log",
  passthrough: (args) => args.includes("--json") ? "a format the caller chose" : null,
  shape: (args) => args.includes("-v") ? null : ["-q", ...args],
  filter: (raw) => ({ text: raw, cut: [] }),
};

Deno.test("catOfOneFile() is true only for cat of one regular UTF-8 file within the cap", () => {
  const dir = _tmp();
  try {
    Deno.writeTextFileSync(`${dir}/a.txt`, "hello\n");
    Deno.writeFileSync(`${dir}/b.bin`, new Uint8Array([0xff, 0xfe, 0]));
    strictEqual(catOfOneFile(["cat", `${dir}/a.txt`], 100), true);
    strictEqual(catOfOneFile(["cat", `${dir}/a.txt`], 3), false);
    strictEqual(catOfOneFile(["cat", `${dir}/b.bin`], 100), false);
    strictEqual(catOfOneFile(["cat", dir], 100), false);
    strictEqual(catOfOneFile(["cat", "-n", `${dir}/a.txt`], 100), false);
    strictEqual(catOfOneFile(["head", `${dir}/a.txt`], 100), false);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("catPath() resolves a cat line's one operand against the directory", () => {
  deepStrictEqual(catPath("cat src/a.ts", "/p"), { operand: "src/a.ts", path: "/p/src/a.ts" });
  deepStrictEqual(catPath("cat /etc/hosts", "/p"), { operand: "/etc/hosts", path: "/etc/hosts" });
  strictEqual(catPath("cat -n a.ts", "/p"), null);
  strictEqual(catPath("cat a b", "/p"), null);
});

Deno.test("planRun() shapes a filtered run, and passes through what its filter refuses", async () => {
  const registry = _registry(FILTER);
  const env = { registry, home: null };
  const shaped = await planRun(env, ["tool", "x"], "/p", () => {});
  deepStrictEqual(
    [shaped.filter?.name, shaped.runArgs, shaped.filterArgs, shaped.shaped, shaped.passthrough],
    ["tool", ["-q", "x"], ["-q", "x"], true, null],
  );
  const json = await planRun(env, ["tool", "--json"], "/p", () => {});
  deepStrictEqual([json.filter, json.runArgs, json.passthrough], [
    null,
    ["--json"],
    "a format the caller chose",
  ]);
  const none = await planRun(
    { registry: new Registry([], defaultConfig()), home: null },
    [
      "tool",
    ],
    "/p",
    () => {},
  );
  deepStrictEqual([none.filter, none.passthrough, none.plugin], [null, "no filter", "cmd"]);
});

Deno.test("planRun() serves a family raw where agents kept fetching it again, and says so once", async () => {
  const home = _tmp();
  try {
    const r = { lossyRuns: 10, refetched: 4, ratePct: 40, told: false };
    writeServedRaw(home, { projects: { "/p": { tool: r } }, resets: {} });
    const said: string[] = [];
    const env = { registry: _registry(FILTER), home };
    const first = await planRun(env, ["tool", "x"], "/p", (l) => said.push(l));
    strictEqual(first.filter, null);
    strictEqual(first.passthrough, "served raw in this project (re-fetch rate 40 %)");
    await planRun(env, ["tool", "x"], "/p", (l) => said.push(l));
    strictEqual(said.length, 1);
    strictEqual(readServedRaw(home).projects["/p"].tool.told, true);
    // Another project filters it.
    strictEqual((await planRun(env, ["tool", "x"], "/q", () => {})).filter?.name, "tool");
    strictEqual(servedRawRate(home, "/q", "tool"), null);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
