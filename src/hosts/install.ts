/**
 * What `rtok init --host H` does for a host (install, `--uninstall`, `--dry-run`) and what
 * `rtok doctor` asks of it. An installer edits only the host's own files, keeps every byte it
 * did not add, and refuses a file it cannot parse (one line naming it and the line), touching
 * nothing.
 *
 * @module
 */

import type { ServeTarget } from "../claude/hooks_config.ts";
import type { HostInfo } from "./host.ts";

/** What an installer can ask of rtok's resident server (`rtok serve`). */
export interface ServerHooks {
  /** Where the hooks should post, when they go to the server (else a command per call). */
  target?(): ServeTarget;
  /** Starts the server now; one line saying how that went. */
  start(): Promise<string>;
  /** Stops a server that answers; one line saying so, or `null`. */
  stop(): Promise<string | null>;
}

/** What the installer is told. */
export interface InstallOptions {
  /** The words that run rtok (`rtok`, or `deno run … cli.ts`), for the hook commands. */
  readonly rtok: string;
  /** The environment the host will see (HOME, XDG_CONFIG_HOME, CODEX_HOME…). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The project directory, for a host whose settings can live in the project. */
  readonly cwd: string;
  /** Remove rtok's entries instead (and nothing else). */
  readonly uninstall: boolean;
  /** Say what would change; write nothing. */
  readonly dryRun: boolean;
  /** Edit the project's settings instead of the user's (a host whose `HOSTS` entry takes it). */
  readonly project?: boolean;
  /** Also register rtok's MCP server (idem). */
  readonly mcp?: boolean;
  /** Also retire rival rewriters' hooks (idem). */
  readonly replace?: boolean;
  /** rtok's resident server, for a host whose hooks can post to it. */
  readonly server?: ServerHooks;
}

/** One file the installer changed or would change. */
export interface FileChange {
  /** The file. */
  readonly path: string;
  /** Its content before (`null`: it did not exist). */
  readonly before: string | null;
  /** Its content after (`null`: it is removed). */
  readonly after: string | null;
}

/** What an install came to. */
export interface InstallResult {
  /** The files changed (or, for a dry run, that would be). */
  readonly changes: readonly FileChange[];
  /** Lines for the user: what was done, and anything that could not be, one line each. */
  readonly notes: readonly string[];
  /**
   * The report, for an installer that words its own (Claude Code's: the hooks that change as
   * `+`/`-` lines); then `changes` and `notes` are not listed.
   */
  readonly lines?: readonly string[];
  /** Warnings for stderr: what was left as it was without failing the install. */
  readonly warnings?: readonly string[];
  /** What failed after `lines` were done (the install then fails, after they are shown). */
  readonly failure?: Error;
}

/** One line of `rtok doctor` about a host. */
export interface HostCheck {
  /** `ok`, `warn` or `FAIL`. */
  readonly status: "ok" | "warn" | "FAIL";
  /** A short label (`codex hooks`). */
  readonly label: string;
  /** What was found, in one line. */
  readonly detail: string;
}

/** A host's installer. */
export interface HostInstaller {
  /** Installs (or with `uninstall`, removes) rtok's hooks; writes nothing on a dry run. */
  install(opts: InstallOptions): Promise<InstallResult>;
}

/** What `rtok doctor` tells a host's doctor: the install's words and places, and the host. */
export type DoctorOptions = Pick<InstallOptions, "rtok" | "env" | "cwd"> & {
  /** What rtok knows of the host (`HOSTS[id]`): its name, CLI and verified version. */
  readonly host: HostInfo;
};

/** A host's doctor. */
export interface HostDoctor {
  /**
   * What `rtok doctor` says of the host: whether rtok's hooks are installed and will run,
   * and whether the installed host's version speaks the hook format rtok was verified with.
   */
  check(opts: DoctorOptions): Promise<HostCheck[]>;
}
