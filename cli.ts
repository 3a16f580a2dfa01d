/**
 * The `rtok` command. Each surface is loaded by dynamic import only when it runs, after the
 * permissions it does not need are revoked.
 *
 * @module
 */

import { VERSION } from "./src/surfaces/_help.ts";
import { print, warn } from "./src/surfaces/_io.ts";
import { helpText, type Outcome, revokeAllBut, RUN_SURFACE, SURFACES } from "./src/surfaces/mod.ts";

export type { Outcome };

/** Runs rtok with `args`; returns the exit code, or the signal to die by. */
export async function main(args: readonly string[]): Promise<Outcome> {
  const [first, ...rest] = args;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    await print(await helpText());
    return { code: 0, signal: null };
  }
  if (first === "--version" || first === "-V") {
    await print(`rtok ${VERSION}\n`);
    return { code: 0, signal: null };
  }
  const entry = Object.hasOwn(SURFACES, first) ? SURFACES[first] : null;
  let surfaceArgs: readonly string[] = entry ? rest : args;
  if (first === "run") {
    surfaceArgs = rest[0] === "--" ? rest.slice(1) : rest;
    if (surfaceArgs.length === 0) {
      throw new TypeError("expected a command to run, like: rtok run -- git log");
    }
  }
  const surface = entry ?? RUN_SURFACE;
  revokeAllBut(surface.permissions);
  const mod = await surface.load();
  const result = await mod.main(surfaceArgs);
  return typeof result === "number" ? { code: result, signal: null } : result;
}

if (import.meta.main) {
  let outcome: Outcome;
  try {
    outcome = await main(Deno.args);
  } catch (e) {
    warn(e instanceof Error ? e.message : String(e));
    outcome = { code: 1, signal: null };
  }
  if (outcome.signal) {
    // Die the way the tool died, so the shell reports the same signal.
    try {
      Deno.kill(Deno.pid, outcome.signal);
      await new Promise((r) => setTimeout(r, 100));
    } catch { /* fall back to the shell's 128+n convention */ }
  }
  Deno.exit(outcome.code);
}
