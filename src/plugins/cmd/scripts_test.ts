import { deepStrictEqual, strictEqual } from "node:assert/strict";
import type { CommandFilter } from "../../core/filter.ts";
import { matchScript, scriptArgv, scriptCall } from "./scripts.ts";

Deno.test("scriptCall() finds the script and the arguments passed on to it", async (t) => {
  const cases: [string, { name: string; extra: string[] } | null][] = [
    ["npm test", { name: "test", extra: [] }],
    ["npm test -- --ci", { name: "test", extra: ["--ci"] }],
    ["npm run build", { name: "build", extra: [] }],
    ["npm run lint -- --fix", { name: "lint", extra: ["--fix"] }],
    ["yarn run lint --fix", { name: "lint", extra: ["--fix"] }],
    ["pnpm test", { name: "test", extra: [] }],
    ["bun test", null],
    ["npm run", null],
    ["npm install", null],
  ];
  for (const [line, expected] of cases) {
    await t.step(line, () => deepStrictEqual(scriptCall(line.split(" ")), expected));
  }
});

Deno.test("scriptArgv() reads one simple command and refuses chains", () => {
  deepStrictEqual(scriptArgv("jest --ci"), ["jest", "--ci"]);
  deepStrictEqual(scriptArgv("NODE_ENV=test cross-env CI=1 vitest run"), ["vitest", "run"]);
  strictEqual(scriptArgv("tsc && jest"), null);
  strictEqual(scriptArgv("jest | tee out"), null);
  strictEqual(scriptArgv("   "), null);
});

Deno.test({
  name: "matchScript() filters npm test with the script's own tool, banner removed",
  permissions: { read: true, write: true },
  async fn() {
    const dir = Deno.makeTempDirSync();
    try {
      Deno.writeTextFileSync(
        `${dir}/package.json`,
        JSON.stringify({ scripts: { test: "jest --ci" } }),
      );
      Deno.mkdirSync(`${dir}/sub`);
      const seen: { raw: string; args: readonly string[] }[] = [];
      const jest: CommandFilter = {
        name: "jest",
        textClass: "log",
        filter(raw, input) {
          seen.push({ raw, args: input.args });
          return { text: raw.toUpperCase(), cut: [] };
        },
      };
      const load = (f: string) => f === "jest" ? () => Promise.resolve(jest) : undefined;
      const m = await matchScript(["npm", "test", "--", "-i"], `${dir}/sub`, load);
      strictEqual(m?.filter.name, "jest");
      deepStrictEqual(m?.prefix, ["npm", "test", "--", "-i"]);
      strictEqual(m?.filter.shape, undefined, "the script's command is not reshaped");
      const out = m!.filter.filter("> app@1.0.0 test\n> jest --ci\n\nPASS a.test.js\n", {
        args: [],
        shaped: false,
        exitCode: 0,
      });
      strictEqual(out.text, "PASS A.TEST.JS\n");
      deepStrictEqual(seen[0].args, ["--ci", "-i"]);
      strictEqual(await matchScript(["npm", "run", "nope"], dir, load), null);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
