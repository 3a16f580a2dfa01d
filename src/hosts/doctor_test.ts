import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { checkHost, type DoctorSpec, type HooksFinding } from "./doctor.ts";
import { HOSTS } from "./hosts.ts";

const _opts = { rtok: "rtok", env: { HOME: "/home/u" }, cwd: "/", host: HOSTS.codex };

function _spec(version: string | null, hooks: HooksFinding, extra: Partial<DoctorSpec> = {}) {
  return {
    config: () => "/home/u/.codex",
    version: () => Promise.resolve(version),
    hooks: () => Promise.resolve(hooks),
    ...extra,
  };
}

const _absent: HooksFinding = { configured: false, status: "warn", detail: "not installed" };
const _ok: HooksFinding = { configured: true, status: "ok", detail: "installed" };

Deno.test("checkHost says nothing of a host neither installed nor configured, or without a home", async () => {
  deepStrictEqual(await checkHost(_spec(null, _absent), _opts), []);
  const homeless = _spec(HOSTS.codex.verifiedVersion, _ok, {
    config: () => {
      throw new TypeError("no HOME");
    },
  });
  deepStrictEqual(await checkHost(homeless, _opts), []);
});

Deno.test("checkHost reports the hooks, then the version against the one HOSTS names", async () => {
  const verified = await checkHost(_spec(HOSTS.codex.verifiedVersion, _ok), _opts);
  deepStrictEqual(verified.map((c) => [c.label, c.status]), [
    ["codex hooks", "ok"],
    ["codex version", "ok"],
  ]);
  const other = await checkHost(_spec("0.1.0", _ok), _opts);
  strictEqual(other[1].status, "warn");
  ok(other[1].detail.includes(HOSTS.codex.verifiedVersion), other[1].detail);
  const missing = await checkHost(_spec(null, _ok), _opts);
  strictEqual(missing[1].status, "warn");
  ok(missing[1].detail.includes("not found on PATH"), missing[1].detail);
  // Installed but not configured: the hooks' verdict still shows.
  const bare = await checkHost(_spec(HOSTS.codex.verifiedVersion, _absent), _opts);
  deepStrictEqual(bare.map((c) => c.status), ["warn", "ok"]);
});

Deno.test("checkHost takes a host's closer look at an unverified version", async () => {
  const spec = _spec("9.9.9", _ok, {
    unverified: (v) =>
      Promise.resolve({ status: "FAIL" as const, detail: `format of ${v} changed` }),
  });
  const checks = await checkHost(spec, _opts);
  deepStrictEqual(checks[1], {
    label: "codex version",
    status: "FAIL",
    detail: "format of 9.9.9 changed",
  });
});
