/**
 * The `rtok` command. Each surface is loaded by dynamic import only when it runs, after the
 * permissions it does not need are revoked.
 *
 * @module
 */

import { HELP, VERSION } from "./src/surfaces/_help.ts";

type Perm = "read" | "write" | "net" | "env" | "run" | "ffi" | "sys";

interface SurfaceEntry {
  readonly permissions: readonly Perm[];
  readonly load: () => Promise<{ main(args: readonly string[]): Promise<number | Outcome> }>;
}

type Outcome = { readonly code: number; readonly signal: Deno.Signal | null };

const ALL: readonly Perm[] = ["read", "write", "net", "env", "run", "ffi", "sys"];

/** rtok's own subcommands; every other first word is a tool to run. */
const SURFACES: Record<string, SurfaceEntry> = {
  gain: {
    permissions: ["read", "write", "env"],
    load: () => import("./src/surfaces/gain.ts"),
  },
  expand: {
    permissions: ["read", "write", "env"],
    load: () => import("./src/surfaces/expand.ts"),
  },
  config: {
    permissions: ["read", "env"],
    load: () => import("./src/surfaces/config_cmd.ts"),
  },
};

const RUN: SurfaceEntry = {
  permissions: ["read", "write", "env", "run"],
  load: () => import("./src/surfaces/run.ts"),
};

function revokeAllBut(keep: readonly Perm[]): void {
  for (const name of ALL) {
    if (!keep.includes(name)) Deno.permissions.revokeSync({ name });
  }
}

/** Runs rtok with `args`; returns the exit code or the signal to re-raise. */
export async function main(args: readonly string[]): Promise<Outcome> {
  const [first, ...rest] = args;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    await Deno.stdout.write(new TextEncoder().encode(HELP));
    return { code: 0, signal: null };
  }
  if (first === "--version" || first === "-V") {
    await Deno.stdout.write(new TextEncoder().encode(`rtok ${VERSION}\n`));
    return { code: 0, signal: null };
  }
  const entry = SURFACES[first];
  const surface = entry ?? RUN;
  const surfaceArgs = entry ? rest : first === "run" ? rest.filter((a, i) => i > 0 || a !== "--") : args;
  if (!entry && surfaceArgs.length === 0) {
    throw new TypeError("rtok run: expected a command to run, like: rtok run -- git log");
  }
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
    const message = e instanceof Error ? e.message : String(e);
    try {
      Deno.stderr.writeSync(new TextEncoder().encode(`rtok: ${message}\n`));
    } catch { /* stderr closed */ }
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
