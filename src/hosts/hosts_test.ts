import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { HOST_ENV, RTOK_ENV } from "../core/permissions.ts";
import { NATIVE_HOST as HOOK_NATIVE_HOST } from "../surfaces/_hook_answer.ts";
import { COMMAND_HOOK_HOSTS } from "./command_hook.ts";
import { SURFACES } from "../surfaces/mod.ts";
import {
  HOST_IDS,
  HOSTS,
  isHostId,
  loadAdapter,
  loadDoctor,
  loadInstaller,
  NATIVE_HOST,
} from "./hosts.ts";

Deno.test("HOSTS gives each host an adapter, an installer and a doctor that load and name it", async () => {
  deepStrictEqual(HOST_IDS, ["claude", "codex", "gemini", "opencode", "copilot"]);
  for (const id of HOST_IDS) {
    strictEqual(HOSTS[id].id, id);
    ok(/^\d+\.\d+\.\d+$/.test(HOSTS[id].verifiedVersion), HOSTS[id].verifiedVersion);
    const adapter = await loadAdapter(id);
    strictEqual(adapter.id, id);
    strictEqual(typeof (await loadInstaller(id)).install, "function");
    strictEqual(typeof (await loadDoctor(id)).check, "function");
  }
});

Deno.test("NATIVE_HOST is the one host whose adapter is native, as the hook surface names it", async () => {
  const native: string[] = [];
  for (const id of HOST_IDS) if ("native" in await loadAdapter(id)) native.push(id);
  deepStrictEqual(native, [NATIVE_HOST]);
  strictEqual(HOOK_NATIVE_HOST, NATIVE_HOST);
  ok(HOSTS[NATIVE_HOST].watched && HOSTS[NATIVE_HOST].readsRules);
});

Deno.test("isHostId knows the HOSTS ids and nothing else", () => {
  for (const id of HOST_IDS) ok(isHostId(id));
  for (const name of ["cursor", "", "toString", "__proto__"]) strictEqual(isHostId(name), false);
});

Deno.test("the permission lists grant every variable a host's entry in HOSTS names", () => {
  const wanted = new Set(HOST_IDS.flatMap((id) => HOSTS[id].env));
  for (const name of wanted) ok(RTOK_ENV.includes(name), `${name} is not in RTOK_ENV`);
  // HOST_ENV is the installers' list besides Claude Code's own (which RTOK_ENV grants).
  const claude = new Set(HOSTS.claude.env);
  deepStrictEqual(
    new Set(HOST_ENV),
    new Set(["HOME", ...[...wanted].filter((name) => !claude.has(name))]),
  );
});

Deno.test("COMMAND_HOOK_HOSTS are the hosts whose HOSTS entry runs a command per call", () => {
  deepStrictEqual(COMMAND_HOOK_HOSTS, ["codex", "gemini", "copilot"]);
});

Deno.test("rtok's help lists the hook of every host in HOSTS, and no other", () => {
  // The command table is loaded by every command, the hook's included, so its help lines are
  // written out rather than built from HOSTS.
  const named = SURFACES.hook.help.flatMap(([usage]) =>
    /^hook ([a-z|]+)/.exec(usage)?.[1].split("|") ?? []
  );
  deepStrictEqual(new Set(named), new Set(HOST_IDS));
});
