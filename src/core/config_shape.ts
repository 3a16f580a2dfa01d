/**
 * The shape of rtok's settings and their defaults: apart from `config.ts` so the parser that
 * `config.ts` loads lazily can read them without importing its own importer.
 *
 * @module
 */

/** The settings rtok runs with: the defaults, overlaid with `config.toml`. */
export interface Config {
  /** Raw-output archive retention. */
  archive: {
    /** Archived outputs older than this are deleted on the next write. */
    maxAgeDays: number;
    /** The archive's total size cap; the oldest outputs go first. */
    maxTotalMb: number;
  };
  /** Ledger retention and write-behind. */
  ledger: {
    /** Ledger rows older than this are swept on write. */
    retentionDays: number;
    /** The spool of deferred writes is drained into the store past this size, in KiB. */
    spoolKb: number;
  };
  /** Command filters. */
  cmd: {
    /** Outputs larger than this pass through unfiltered, streamed, never held whole. */
    maxFilterMb: number;
    /**
     * How long a filter from a user's or a project's file may run on one output before it is
     * abandoned and the raw output goes out instead (a failure is recorded).
     */
    filterTimeoutMs: number;
  };
  /** `[plugins.<id>]` tables: `enabled` and anything the plugin reads itself. */
  plugins: Record<string, Record<string, unknown>>;
}

/** A fresh copy of the defaults, used where `config.toml` is silent or absent. */
export function defaultConfig(): Config {
  return {
    archive: { maxAgeDays: 30, maxTotalMb: 256 },
    ledger: { retentionDays: 90, spoolKb: 64 },
    cmd: { maxFilterMb: 10, filterTimeoutMs: 2000 },
    plugins: {},
  };
}

/** The defaults, frozen, for reading. */
export const DEFAULT_CONFIG: Readonly<Config> = Object.freeze(defaultConfig());
