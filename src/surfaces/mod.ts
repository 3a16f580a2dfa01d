/**
 * The CLI's surfaces: which permissions each needs, and how it is loaded. `cli.ts` revokes
 * every other permission before it loads one, so a surface cannot do what it does not need.
 *
 * @module
 */

import { lazyImport } from "../core/lazy.ts";
import { type HelpLine, renderHelp } from "./_help.ts";

// Lazily, by computed specifier: no rtok process walks another surface's modules (the MCP SDK,
// zod, the proxy, every filter) at start.
const _load = <M>(path: string): Promise<M> => lazyImport<M>(new URL(path, import.meta.url));

// One module serves the three words of the symbol index; each entry tells it which.
const _graphWord = (word: string) =>
  _load<typeof import("./graph.ts")>("./graph.ts").then((m) => ({
    main: (a: readonly string[]) => m.main([word, ...a]),
  }));

/** A permission a surface may keep. */
export type Perm = "read" | "write" | "net" | "env" | "run" | "ffi" | "sys";

/** How a run ended: an exit code, or the signal that killed the tool. */
export type Outcome = { readonly code: number; readonly signal: Deno.Signal | null };

/** A surface: its permissions, its lines in `rtok --help`, and its loader. */
export interface SurfaceEntry {
  /** Its lines in `rtok --help`: what follows `rtok`, and what it does. */
  readonly help: readonly HelpLine[];
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

/** rtok's own subcommands, in the order `rtok --help` lists them; every other first word is a tool to run. */
export const SURFACES: Readonly<Record<string, SurfaceEntry>> = {
  gain: {
    help: [
      ["gain", "tokens saved, from the ledger (--help for the views)"],
    ],
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./gain/mod.ts")>("./gain/mod.ts"),
  },
  // Reads one file; writes the ledger and the archive.
  read: {
    help: [
      [
        "read FILE",
        "a file as an agent should first see it: a long one as its first lines and an outline or summary (--outline, --lines A:B); rtok cat FILE does the same",
      ],
    ],
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./read.ts")>("./read.ts"),
  },
  expand: {
    help: [
      ["expand <id>", 'the raw output behind an "[rtok: cut …]" line'],
    ],
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./expand.ts")>("./expand.ts"),
  },
  search: {
    help: [
      [
        "search <query>",
        "which archived output mentioned something (--limit N, --all-projects, --format text|json)",
      ],
    ],
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./search.ts")>("./search.ts"),
  },
  // The symbol index: reads the project's files, lists them with git (run), writes the store.
  where: {
    help: [
      [
        "where NAME",
        "where NAME is defined: kind, file and line range, from the project's symbol index (--format text|json)",
      ],
    ],
    permissions: ["read", "write", "env", "run"],
    load: () => _graphWord("where"),
  },
  refs: {
    help: [
      ["refs NAME", "the files and lines that use NAME"],
    ],
    permissions: ["read", "write", "env", "run"],
    load: () => _graphWord("refs"),
  },
  symbols: {
    help: [
      ["symbols FILE|DIR", "every definition in a file or under a directory"],
    ],
    permissions: ["read", "write", "env", "run"],
    load: () => _graphWord("symbols"),
  },
  config: {
    help: [
      ["config", "where rtok keeps its state; the settings in effect"],
    ],
    permissions: ["read", "env"],
    load: () => _load<typeof import("./config.ts")>("./config.ts"),
  },
  // Asks the kernel for a free loopback port for the server (net) and starts it (run).
  init: {
    help: [
      [
        "init",
        "install the Claude Code hooks, served by rtok serve (--no-serve: command hooks; --project, --dry-run, --uninstall, --replace; --mcp also registers rtok mcp)",
      ],
    ],
    permissions: ["read", "write", "env", "net", "run"],
    load: () => _load<typeof import("./init.ts")>("./init.ts"),
  },
  // The MCP server: the SDK loads only here. Runs commands (rtok_run), writes the ledger.
  mcp: {
    help: [
      [
        "mcp",
        "the MCP server on stdio: rtok_run, rtok_read, rtok_expand, rtok_search, rtok_gain, rtok_symbols",
      ],
    ],
    permissions: ["read", "write", "env", "run"],
    load: () => _load<typeof import("./mcp/mod.ts")>("./mcp/mod.ts"),
  },
  // Listens and forwards to the model APIs; writes the ledger and the archive.
  proxy: {
    help: [
      [
        "proxy",
        "HTTP proxy for the model APIs: compresses tool results in each request (--help for the options); /metrics",
      ],
    ],
    permissions: ["read", "write", "env", "net"],
    load: () => _load<typeof import("./proxy.ts")>("./proxy.ts"),
  },
  // Serves the ledger's totals to Prometheus: listens, reads the store read-only per scrape;
  // or pushes them once, after moving what waits in the spool into the ledger (write).
  metrics: {
    help: [
      [
        "metrics",
        "the ledger's totals for Prometheus (--port, default 8788; --push URL sends them to a Pushgateway)",
      ],
    ],
    permissions: ["read", "write", "env", "net"],
    load: () => _load<typeof import("./metrics.ts")>("./metrics.ts"),
  },
  // The ledger as a local web page: listens, reads the store read-only per request.
  dashboard: {
    help: [
      [
        "dashboard",
        "the ledger as a local web page on loopback; prints its URL, updates itself (--port, --project)",
      ],
    ],
    permissions: ["read", "env", "net"],
    load: () => _load<typeof import("./dashboard/mod.ts")>("./dashboard/mod.ts"),
  },
  // Runs the installed hook to see that it answers; asks the resident server for its health.
  doctor: {
    help: [
      ["doctor", "check the install, the hook, the store, rival hooks"],
    ],
    permissions: ["read", "write", "env", "run", "net"],
    load: () => _load<typeof import("./doctor.ts")>("./doctor.ts"),
  },
  rewrite: {
    help: [
      ["rewrite <line>", "the hook's rewrite of a command line and its verdict"],
    ],
    permissions: ["read", "env"],
    load: () => _load<typeof import("./rewrite.ts")>("./rewrite.ts"),
  },
  filters: {
    help: [
      ["filters list|show|verify", "the filters in effect, one's definition, their tests"],
      ["filters reset FAMILY", "filter FAMILY again where rtok served it raw"],
    ],
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./filters.ts")>("./filters.ts"),
  },
  // Writes: the search index is filled when a search runs.
  // Prints a session's digest (what rtok keeps across compaction) from the store.
  memory: {
    help: [
      [
        "memory",
        "the session digest rtok keeps across compaction (--session ID, --format text|json)",
      ],
    ],
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./memory.ts")>("./memory.ts"),
  },
  // Reads Claude Code's transcripts and reports what rtok saved and missed: counts only.
  discover: {
    help: [
      [
        "discover",
        "what Claude Code's transcripts say rtok saved and missed (--since, --project, --format text|json; counts only)",
      ],
    ],
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./discover.ts")>("./discover.ts"),
  },
  // Replays Claude Code's transcripts through the hook, in process and dry: reads them, keeps
  // what the plugins remember of a session in a temporary folder it removes.
  replay: {
    help: [
      [
        "replay",
        "what rtok would have done to your Claude Code sessions: savings, and the facts the agent used that a view hid",
      ],
    ],
    permissions: ["read", "write", "env"],
    load: () => _load<typeof import("./replay.ts")>("./replay.ts"),
  },
  // One module serves both words; each entry tells it which.
  trust: {
    help: [
      [
        "trust",
        "use ./.rtok/filters.toml's filters (pins its sha256); $RTOK_HOME/filters.toml is always used",
      ],
    ],
    permissions: ["read", "write", "env"],
    load: () =>
      _load<typeof import("./trust.ts")>("./trust.ts").then((m) => ({
        main: (a) => m.main(["trust", ...a]),
      })),
  },
  untrust: {
    help: [
      ["untrust", "stop using ./.rtok/filters.toml"],
    ],
    permissions: ["read", "write", "env"],
    load: () =>
      _load<typeof import("./trust.ts")>("./trust.ts").then((m) => ({
        main: (a) => m.main(["untrust", ...a]),
      })),
  },
  // The agent's hook: reads settings, appends to the spool; never spawns, never listens.
  hook: {
    help: [
      ["hook claude", "the hook Claude Code runs (JSON event on stdin)"],
      [
        "hook codex|gemini|opencode|copilot",
        "the hook another host runs (rtok init --host installs it)",
      ],
    ],
    permissions: ["read", "write", "env"],
    // The engine serve and the dry hook share runs the command too: a module of its own would
    // be one more on the path that runs before every tool call (bench/budget.ts holds it).
    load: () =>
      _load<typeof import("./_hook_answer.ts")>("./_hook_answer.ts").then((m) => ({
        main: m.hookCommand,
      })),
  },
  // The hook as a resident loopback server: listens, reads settings, appends to the spool;
  // `--ensure` starts one (run).
  serve: {
    help: [
      ["serve", "the same hook as a resident loopback server (--help)"],
    ],
    permissions: ["read", "write", "env", "net", "run"],
    load: () => _load<typeof import("./serve/mod.ts")>("./serve/mod.ts"),
  },
};

/** `rtok <tool> [args…]`: runs any program, so it keeps `run`. */
export const RUN_SURFACE: SurfaceEntry = {
  help: [
    ["<tool> [args…]", "run a tool; filter its output where rtok has a filter"],
    ["run -- <tool> …", "the same, for a tool named like an rtok command"],
  ],
  permissions: ["read", "write", "env", "run"],
  load: () => _load<typeof import("./run.ts")>("./run.ts"),
};

/** Revokes every permission not in `keep`, for the rest of the process. */
export function revokeAllBut(keep: readonly Perm[]): void {
  for (const name of ALL_PERMISSIONS) {
    if (!keep.includes(name)) Deno.permissions.revokeSync({ name });
  }
}

/**
 * `rtok --help`: the command lines of {@linkcode RUN_SURFACE} and {@linkcode SURFACES}, and the
 * families of the family table (loaded only here).
 */
export async function helpText(): Promise<string> {
  const { FAMILY_TABLE } = await _load<typeof import("../../filters/families.ts")>(
    "../../filters/families.ts",
  );
  const commands = [RUN_SURFACE, ...Object.values(SURFACES)].flatMap((s) => s.help);
  return renderHelp(commands, Object.keys(FAMILY_TABLE));
}
