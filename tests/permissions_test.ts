import { deepStrictEqual } from "node:assert/strict";
import { run, tempDir } from "./_helpers.ts";

const PROBE = new URL("./_revoke_probe.ts", import.meta.url).pathname;

Deno.test("each surface runs without the permissions it does not need", async (t) => {
  using tmp = tempDir();
  // Grant everything the probe could try, so a refusal can only come from the revocation.
  const grant = [
    "--allow-read",
    "--allow-write",
    "--allow-env",
    "--allow-run",
    "--allow-net",
    "--allow-ffi",
  ];
  const cases: [string, Record<string, boolean>][] = [
    ["gain", { connect: true, spawn: true, listen: true, ffi: true, write: false }],
    ["expand", { connect: true, spawn: true, listen: true, ffi: true, write: false }],
    ["config", { connect: true, spawn: true, listen: true, ffi: true, write: true }],
    ["run", { connect: true, spawn: false, listen: true, ffi: true, write: false }],
    // The hook runs before every tool call: it can neither start a process nor open a socket.
    ["hook", { connect: true, spawn: true, listen: true, ffi: true, write: false }],
    ["rewrite", { connect: true, spawn: true, listen: true, ffi: true, write: true }],
    ["init", { connect: false, spawn: false, listen: false, ffi: true, write: false }],
    // Doctor asks the resident server for its health; the server listens and, for --ensure,
    // starts itself.
    ["doctor", { connect: false, spawn: false, listen: false, ffi: true, write: false }],
    ["serve", { connect: false, spawn: false, listen: false, ffi: true, write: false }],
    // The dashboard listens and reads the store; it writes nothing and starts nothing.
    ["dashboard", { connect: false, spawn: true, listen: false, ffi: true, write: true }],
  ];
  for (const [surface, expected] of cases) {
    await t.step(surface, async () => {
      const r = await run(Deno.execPath(), ["run", ...grant, PROBE, surface, tmp.path]);
      deepStrictEqual(JSON.parse(r.out), expected, r.err);
    });
  }
});
