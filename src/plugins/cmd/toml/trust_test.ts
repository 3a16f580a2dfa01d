import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { isTrusted, readTrust, sha256Text, trust, trustFile, untrust } from "./trust.ts";

Deno.test("trust pins a file's content by canonical path; a change untrusts it", async () => {
  const home = Deno.makeTempDirSync();
  const dir = Deno.makeTempDirSync();
  try {
    const file = `${dir}/filters.toml`;
    Deno.writeTextFileSync(file, "a");
    strictEqual(await isTrusted(home, file, "a"), false);
    const pinned = await trust(home, file, "a");
    strictEqual(pinned.path, Deno.realPathSync(file));
    strictEqual(pinned.sha256, await sha256Text("a"));
    deepStrictEqual(readTrust(home), { [pinned.path]: pinned.sha256 });
    strictEqual(Deno.statSync(trustFile(home)).mode! & 0o777, 0o600);
    ok(await isTrusted(home, file, "a"));
    // The same file through another path is the same file.
    ok(await isTrusted(home, `${dir}/./filters.toml`, "a"));
    strictEqual(await isTrusted(home, file, "b"), false, "a changed file is not trusted");
    strictEqual(untrust(home, file), true);
    strictEqual(untrust(home, file), false);
    strictEqual(await isTrusted(home, file, "a"), false);
  } finally {
    Deno.removeSync(home, { recursive: true });
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a trust table that is not valid JSON, or holds bad values, trusts nothing", async () => {
  const home = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(trustFile(home), "{nope");
    deepStrictEqual(readTrust(home), {});
    Deno.writeTextFileSync(trustFile(home), JSON.stringify({ "/x": "short", "/y": 3 }));
    deepStrictEqual(readTrust(home), {});
    strictEqual(await isTrusted(home, "/definitely/absent", "a"), false);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
