/**
 * Parsing and validating `config.toml`: every key checked, an error naming the file, the line,
 * the key and what was expected.
 *
 * @module
 */

import { type Config, defaultConfig } from "./config_shape.ts";
import { parseTomlLite } from "./toml_lite.ts";

type Field = { table: keyof Omit<Config, "plugins">; key: string; prop: string; min: number };

const FIELDS: readonly Field[] = [
  { table: "archive", key: "max_age_days", prop: "maxAgeDays", min: 0 },
  { table: "archive", key: "max_total_mb", prop: "maxTotalMb", min: 0 },
  { table: "ledger", key: "retention_days", prop: "retentionDays", min: 1 },
  { table: "ledger", key: "spool_kb", prop: "spoolKb", min: 0 },
  { table: "cmd", key: "max_filter_mb", prop: "maxFilterMb", min: 0 },
  { table: "cmd", key: "filter_timeout_ms", prop: "filterTimeoutMs", min: 1 },
];

/** Parses and validates config text; `path` only names the file in errors. */
export function parseConfig(text: string, path: string): Promise<Config> {
  // Sync inside; a Promise outside, so a bad file is a rejection as callers expect.
  try {
    return Promise.resolve(readConfig(text, path));
  } catch (e) {
    return Promise.reject(e);
  }
}

function readConfig(text: string, path: string): Config {
  let doc: Record<string, unknown>;
  try {
    doc = parseTomlLite(text);
  } catch (e) {
    // The parser's message already starts `line N: `.
    throw new SyntaxError(`Cannot read config "${path}": ${(e as Error).message}`);
  }
  const config = defaultConfig();
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
