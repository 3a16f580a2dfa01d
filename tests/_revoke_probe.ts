/**
 * Revokes what a surface does not need, as `cli.ts` does, then tries what it should no
 * longer be able to do; prints what was refused as JSON.
 *
 * @module
 */

import { revokeAllBut, RUN_SURFACE, SURFACES } from "../src/surfaces/mod.ts";

const name = Deno.args[0];
revokeAllBut(name === "run" ? RUN_SURFACE.permissions : SURFACES[name].permissions);

function refused(fn: () => unknown): boolean {
  try {
    const r = fn();
    if (r && typeof (r as { close?: () => void }).close === "function") {
      (r as { close: () => void }).close();
    }
    return false;
  } catch (e) {
    return e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied;
  }
}

async function refusedAsync(fn: () => Promise<{ close(): void }>): Promise<boolean> {
  try {
    (await fn()).close();
    return false;
  } catch (e) {
    return e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied;
  }
}

console.log(JSON.stringify({
  connect: await refusedAsync(() => Deno.connect({ hostname: "127.0.0.1", port: 9 })),
  spawn: refused(() => new Deno.Command("true").outputSync()),
  listen: refused(() => Deno.listen({ hostname: "127.0.0.1", port: 0 })),
  ffi: refused(() => Deno.dlopen("libc.so.6", {})),
  write: refused(() => Deno.writeTextFileSync(`${Deno.args[1]}/probe.txt`, "x")),
}));
