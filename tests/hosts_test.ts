import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { HOST_IDS, NATIVE_HOST } from "../src/hosts/hosts.ts";
import { failureRows, rtok, tempDir } from "./_helpers.ts";

Deno.test("rtok hook <host> answers a payload of an unknown shape with nothing, exit 0, one failures row", async (t) => {
  // Each adapter's message names its host; Claude Code's (the native protocol) is hook_test's.
  for (const host of HOST_IDS.filter((id) => id !== NATIVE_HOST)) {
    await t.step(host, async () => {
      using tmp = tempDir();
      const home = `${tmp.path}/rtok`;
      const r = await rtok(home, ["hook", host], {
        cwd: tmp.path,
        stdin: JSON.stringify({ surprise: [1, 2, 3] }),
      });
      strictEqual(r.code, 0, r.err);
      strictEqual(r.out, "", "no answer");
      const rows = failureRows(home);
      deepStrictEqual(rows.map((f) => f.family), [`hook ${host}`]);
      strictEqual(rows[0].error.includes("\n"), false, rows[0].error);
      match(rows[0].error, new RegExp(`^${host}`), "the message names the host");
    });
  }
});

Deno.test("rtok hook and rtok init --host refuse a host rtok does not know, naming the ones it does", async () => {
  using tmp = tempDir();
  const home = `${tmp.path}/rtok`;
  const hook = await rtok(home, ["hook", "cursor"], { cwd: tmp.path, stdin: "{}" });
  strictEqual(hook.code, 1);
  match(
    hook.err,
    /^rtok: unknown hook "cursor"; the hooks are: rtok hook claude\|codex\|gemini\|opencode\|copilot\n$/,
  );
  const init = await rtok(home, ["init", "--host", "cursor"], { cwd: tmp.path });
  strictEqual(init.code, 1);
  match(
    init.err,
    /unknown host "cursor" for rtok init --host; the hosts are: claude, codex, gemini/,
  );
});
