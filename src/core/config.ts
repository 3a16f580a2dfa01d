/**
 * `$RTOK_HOME/config.toml`: where rtok keeps its state, and the few numbers a user may tune.
 * Every key is validated; an error names the file, the line, the key and what was expected.
 *
 * @module
 */

import { lazyImport } from "./lazy.ts";
import { joinPath } from "./paths.ts";

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

/** `$RTOK_HOME`, else `~/.rtok`. Throws when neither `RTOK_HOME` nor `HOME` is set. */
export function rtokHome(): string {
  const home = Deno.env.get("RTOK_HOME");
  if (home) return home;
  const user = Deno.env.get("HOME");
  if (!user) throw new Error("Cannot find rtok's home: set RTOK_HOME or HOME");
  return joinPath(user, ".rtok");
}

/** The config file's path inside `home`. */
export function configPath(home: string): string {
  return joinPath(home, "config.toml");
}

/**
 * Reads `config.toml` in `home`. A missing file gives the defaults; anything invalid throws a
 * `SyntaxError` or `TypeError` whose message names the file, line and key.
 */
export async function loadConfig(home: string): Promise<Config> {
  const path = configPath(home);
  let text: string;
  try {
    // Sync: a fresh process's first async file read costs more than the read itself.
    text = Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) {
      return defaultConfig();
    }
    throw new Error(`Cannot read config "${path}": ${(e as Error).message}`);
  }
  // The parser and its validation load only when a config file exists.
  const { parseConfig } = await lazyImport<typeof import("./config_parse.ts")>(
    new URL("./config_parse.ts", import.meta.url),
  );
  return parseConfig(text, path);
}
