/**
 * The CLI's surfaces: which permissions each needs, and how it is loaded. `cli.ts` revokes
 * every other permission before it loads one, so a surface cannot do what it does not need.
 *
 * @module
 */

import { lazyImport } from "../core/lazy.ts";

// Lazily, by computed specifier: no rtok process walks another surface's modules (the MCP SDK,
// zod, the proxy, every filter) at start.
const _load = <M>(path: string): Promise<M> => lazyImport<M>(new URL(path, import.meta.url));

// One module serves the three words of the symbol index; each entry tells it which.
const _graphWord = (word: string) =>
  _load<typeof import("./graph_cmd.ts")>("./graph_cmd.ts").then((m) => ({
    main: (a: readonly string[]) => m.main([word, ...a]),
  }));

/** A permission a surface may keep. */
export type Perm = "read" | "write" | "net" | "env" | "run" | "ffi" | "sys";

/** How a run ended: an exit code, or the signal that killed the tool. */
export type Outcome = { readonly code: number; readonly signal: Deno.Signal | null };

/** A surface: its permissions and its loader. */
export interface SurfaceEntry {
  /** What it keeps; everything else is revoked before it loads. */
  readonly permissions: readonly Perm[];
  /** Loads its module. */
  readonly load: () => Promise<{ main(args: readonly string[]): Promise<number | Outcome> }>;
}

/** Every permission Deno has that rtok's install grants or could grant. */
export const ALL_PERMISSIONS: readonly Perm[] = [
  "read",
  "write",
  "net",
  "env",
  "run",
  "ffi",
  "sys",
];

/** rtok's own subcommands; every other first word is a tool to run. */
export const SURFACES: Readonly<Record<string, SurfaceEntry>> = {
  gain: {
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./gain.ts")>("./gain.ts"),
  },
  expand: {
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./expand.ts")>("./expand.ts"),
  },
  // Reads one file; writes the ledger and the archive.
  read: {
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./read_cmd.ts")>("./read_cmd.ts"),
  },
  config: {
    permissions: ["read", "env"],
    load: () => _load<typeof import("./config_cmd.ts")>("./config_cmd.ts"),
  },
  // The agent's hook: reads settings, appends to the spool; never spawns, never listens.
  hook: {
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./hook.ts")>("./hook.ts"),
  },
  rewrite: {
    permissions: ["read", "env"],
    load: () => _load<typeof import("./rewrite_cmd.ts")>("./rewrite_cmd.ts"),
  },
  // Asks the kernel for a free loopback port for the server (net) and starts it (run).
  init: {
    permissions: ["read", "write", "env", "net", "run"],
    load: () => _load<typeof import("./init.ts")>("./init.ts"),
  },
  filters: {
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./filters_cmd.ts")>("./filters_cmd.ts"),
  },
  // One module serves both words; each entry tells it which.
  trust: {
    permissions: ["read", "write", "env"],
    load: () =>
      _load<typeof import("./trust_cmd.ts")>("./trust_cmd.ts").then((m) => ({
        main: (a) => m.main(["trust", ...a]),
      })),
  },
  untrust: {
    permissions: ["read", "write", "env"],
    load: () =>
      _load<typeof import("./trust_cmd.ts")>("./trust_cmd.ts").then((m) => ({
        main: (a) => m.main(["untrust", ...a]),
      })),
  },
  // Listens and forwards to the model APIs; writes the ledger and the archive.
  proxy: {
    permissions: ["read", "write", "env", "net"],
    load: () => _load<typeof import("./proxy.ts")>("./proxy.ts"),
  },
  // Serves the ledger's totals to Prometheus: listens, reads the store read-only per scrape;
  // or pushes them once, after moving what waits in the spool into the ledger (write).
  metrics: {
    permissions: ["read", "write", "env", "net"],
    load: () => _load<typeof import("./metrics.ts")>("./metrics.ts"),
  },
  // The ledger as a local web page: listens, reads the store read-only per request.
  dashboard: {
    permissions: ["read", "env", "net"],
    load: () => _load<typeof import("./dashboard/mod.ts")>("./dashboard/mod.ts"),
  },
  // The MCP server: the SDK loads only here. Runs commands (rtok_run), writes the ledger.
  mcp: {
    permissions: ["read", "write", "env", "run"],
    load: () => _load<typeof import("./mcp.ts")>("./mcp.ts"),
  },
  // Writes: the search index is filled when a search runs.
  // Prints a session's digest (what rtok keeps across compaction) from the store.
  memory: {
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./memory_cmd.ts")>("./memory_cmd.ts"),
  },
  // Reads Claude Code's transcripts and reports what rtok saved and missed: counts only.
  discover: {
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./discover.ts")>("./discover.ts"),
  },
  // Replays Claude Code's transcripts through the hook, in process and dry: reads them, keeps
  // what the plugins remember of a session in a temporary folder it removes.
  replay: {
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./replay.ts")>("./replay.ts"),
  },
  search: {
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./search_cmd.ts")>("./search_cmd.ts"),
  },
  // The hook as a resident loopback server: listens, reads settings, appends to the spool;
  // `--ensure` starts one (run).
  serve: {
    permissions: ["read", "write", "env", "net", "run"],
    load: () => _load<typeof import("./serve.ts")>("./serve.ts"),
  },
  // The symbol index: reads the project's files, lists them with git (run), writes the store.
  where: {
    permissions: ["read", "write", "env", "run"],
    load: () => _graphWord("where"),
  },
  refs: {
    permissions: ["read", "write", "env", "run"],
    load: () => _graphWord("refs"),
  },
  symbols: {
    permissions: ["read", "write", "env", "run"],
    load: () => _graphWord("symbols"),
  },
  // Runs the installed hook to see that it answers; asks the resident server for its health.
  doctor: {
    permissions: ["read", "write", "env", "run", "net"],
    load: () => _load<typeof import("./doctor.ts")>("./doctor.ts"),
  },
};

/** `rtok <tool> [args…]`: runs any program, so it keeps `run`. */
export const RUN_SURFACE: SurfaceEntry = {
  permissions: ["read", "write", "env", "run"],
  load: () => _load<typeof import("./run.ts")>("./run.ts"),
};

/** Revokes every permission not in `keep`, for the rest of the process. */
export function revokeAllBut(keep: readonly Perm[]): void {
  for (const name of ALL_PERMISSIONS) {
    if (!keep.includes(name)) Deno.permissions.revokeSync({ name });
  }
}
