/**
 * What `rtok init --host H` does for a host: the same verbs as for Claude Code (install,
 * `--uninstall`, `--dry-run`) and a check for `rtok doctor`. An installer edits only the
 * host's own files, keeps every byte it did not add, and refuses a file it cannot parse
 * (one line naming it and the line), touching nothing.
 *
 * @module
 */

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
  /**
   * What `rtok doctor` says of the host: whether rtok's hooks are installed and will run,
   * and whether the installed host's version speaks the hook format rtok was verified with.
   */
  doctor(opts: Pick<InstallOptions, "rtok" | "env" | "cwd">): Promise<HostCheck[]>;
}
