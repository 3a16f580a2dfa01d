/**
 * `$RTOK_HOME/config.toml`: where rtok keeps its state, and the few numbers a user may tune.
 * Every key is validated; an error names the file, the line, the key and what was expected.
 *
 * @module
 */

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
  /** Ledger retention. */
  ledger: {
    /** Ledger rows older than this are swept on write. */
    retentionDays: number;
  };
  /** Command filters. */
  cmd: {
    /** Outputs larger than this pass through unfiltered, streamed, never held whole. */
    maxFilterMb: number;
  };
  /** `[plugins.<id>]` tables: `enabled` and anything the plugin reads itself. */
  plugins: Record<string, Record<string, unknown>>;
}

/** The defaults, used where `config.toml` is silent or absent. */
export const DEFAULT_CONFIG: Readonly<Config> = Object.freeze({
  archive: { maxAgeDays: 30, maxTotalMb: 256 },
  ledger: { retentionDays: 90 },
  cmd: { maxFilterMb: 10 },
  plugins: {},
});

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

type Field = { table: keyof Omit<Config, "plugins">; key: string; prop: string; min: number };

const FIELDS: readonly Field[] = [
  { table: "archive", key: "max_age_days", prop: "maxAgeDays", min: 0 },
  { table: "archive", key: "max_total_mb", prop: "maxTotalMb", min: 0 },
  { table: "ledger", key: "retention_days", prop: "retentionDays", min: 1 },
  { table: "cmd", key: "max_filter_mb", prop: "maxFilterMb", min: 0 },
];

/**
 * Reads `config.toml` in `home`. A missing file gives the defaults; anything invalid throws a
 * `SyntaxError` or `TypeError` whose message names the file, line and key.
 */
export async function loadConfig(home: string): Promise<Config> {
  const path = configPath(home);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) {
      return structuredClone(DEFAULT_CONFIG) as Config;
    }
    throw new Error(`Cannot read config "${path}": ${(e as Error).message}`);
  }
  return parseConfig(text, path);
}

/** Parses and validates config text; `path` only names the file in errors. */
export async function parseConfig(text: string, path: string): Promise<Config> {
  // The TOML parser loads only when a config file exists, off the common path.
  const { parse } = await import("smol-toml");
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (e) {
    const line = (e as { line?: number }).line;
    const first = String((e as Error).message).split("\n")[0].replace(
      /^Invalid TOML document: /,
      "",
    );
    throw new SyntaxError(`Cannot read config "${path}": ${line ? `line ${line}: ` : ""}${first}`);
  }
  const config = structuredClone(DEFAULT_CONFIG) as Config;
  const fail = (table: string, key: string, what: string): never => {
    const line = lineOf(text, table, key);
    const name = key ? `[${table}] ${key}` : `[${table}]`;
    throw new TypeError(
      `Cannot read config "${path}": ${line ? `line ${line}: ` : ""}${name}: ${what}`,
    );
  };
  for (const [table, value] of Object.entries(doc)) {
    if (table === "plugins") {
      config.plugins = readPlugins(value, (key, what) => fail("plugins", key, what));
      continue;
    }
    const fields = FIELDS.filter((f) => f.table === table);
    if (fields.length === 0) {
      fail(table, "", `unknown table; expected one of ${tableNames().join(", ")}`);
    }
    if (!isTable(value)) fail(table, "", "expected a table");
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const field = fields.find((f) => f.key === key);
      if (!field) {
        fail(table, key, `unknown key; expected one of ${fields.map((f) => f.key).join(", ")}`);
      }
      if (typeof v !== "number" || !Number.isFinite(v) || v < field!.min) {
        fail(table, key, `expected a number ≥ ${field!.min}, got ${JSON.stringify(v)}`);
      }
      (config[field!.table] as Record<string, number>)[field!.prop] = v as number;
    }
  }
  return config;
}

function readPlugins(
  value: unknown,
  fail: (key: string, what: string) => never,
): Record<string, Record<string, unknown>> {
  if (!isTable(value)) fail("", "expected a table of [plugins.<id>] tables");
  const out: Record<string, Record<string, unknown>> = {};
  for (const [id, table] of Object.entries(value as Record<string, unknown>)) {
    if (!isTable(table)) fail(id, "expected a table");
    const t = table as Record<string, unknown>;
    if ("enabled" in t && typeof t.enabled !== "boolean") {
      fail(`${id}.enabled`, `expected true or false, got ${JSON.stringify(t.enabled)}`);
    }
    out[id] = { ...t };
  }
  return out;
}

function isTable(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function tableNames(): string[] {
  return [...new Set(FIELDS.map((f) => f.table)), "plugins"];
}

// The line where `key` is set inside `[table]` (or the table header itself), for error messages.
function lineOf(text: string, table: string, key: string): number | null {
  const lines = text.split("\n");
  let current = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      current = header[1];
      if (!key && current === table) return i + 1;
      continue;
    }
    const dotted = key.includes(".") ? key.split(".") : null;
    const name = dotted ? dotted[dotted.length - 1] : key;
    const inTable = dotted
      ? current === `${table}.${dotted.slice(0, -1).join(".")}`
      : current === table;
    if (key && inTable && new RegExp(`^${escape(name)}\\s*=`).test(line)) return i + 1;
  }
  return null;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
