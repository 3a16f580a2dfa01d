/**
 * Parsed filter files, cached as JSON in `$RTOK_HOME/cache/`: a run whose filter file (or
 * built-in TOML family) has not changed since the last parse skips the TOML parser and the
 * npm package it loads (some 20 ms of a run). One slot per file, named by where the text comes
 * from; the slot holds the text it was parsed from, so a changed file is parsed again (a
 * string comparison: no hashing on a run's path), and a format version, so a cache from
 * another rtok is ignored.
 *
 * @module
 */

import { rtokHome } from "../../../core/config.ts";
import { joinPath, parentDir } from "../../../core/paths.ts";
import type { FilterDef } from "./spec.ts";

/** A file's filters, or why it cannot be used. */
export interface Parsed {
  /** Its filters, in file order; empty when it does not parse. */
  readonly defs: readonly FilterDef[];
  /** The parse error (file, line and problem), or `null`. */
  readonly error: string | null;
}

/** `$RTOK_HOME`, or `null` when it cannot be found. */
export function homeOrNull(): string | null {
  try {
    return rtokHome();
  } catch {
    return null;
  }
}

// Bumped whenever parsing changes what it accepts or what `FilterDef` holds, so no cache an
// older rtok wrote is read.
const CACHE_VERSION = 2;

interface _Slot extends Parsed {
  readonly version: number;
  readonly text: string;
  readonly label: string;
}

/**
 * Parses `text` (named `label` in errors), or reads the result of an earlier parse of the
 * same text from the cache slot for `key` (where the text comes from) in `home` (`null`: no
 * cache).
 */
export async function parseCached(
  text: string,
  label: string,
  key: string,
  home: string | null,
): Promise<Parsed> {
  const file = home === null ? null : joinPath(home, `cache/filters-${_slotName(key)}.json`);
  const cached = file === null ? null : _read(file, text, label);
  if (cached) return cached;
  let parsed: Parsed;
  try {
    const { parseFilterFile } = await import("./spec.ts");
    parsed = { defs: parseFilterFile(text, label), error: null };
  } catch (e) {
    if (!(e instanceof SyntaxError || e instanceof TypeError)) throw e;
    parsed = { defs: [], error: e.message };
  }
  if (file !== null) _write(file, { version: CACHE_VERSION, text, label, ...parsed });
  return parsed;
}

// A file name for `key`: its tail, readable, and a hash of the whole for uniqueness (FNV-1a;
// not a security boundary, the slot's text is compared on every read).
function _slotName(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  const tail = key.replace(/[^A-Za-z0-9.]+/g, "_").slice(-40);
  return `${tail}-${h.toString(16).padStart(8, "0")}`;
}

function _read(file: string, text: string, label: string): Parsed | null {
  try {
    const c = JSON.parse(Deno.readTextFileSync(file)) as _Slot;
    if (c.version !== CACHE_VERSION || c.text !== text || c.label !== label) return null;
    return Array.isArray(c.defs) ? { defs: c.defs, error: c.error ?? null } : null;
  } catch {
    return null;
  }
}

// A cache that cannot be written costs the next run a parse, nothing more. A home that does
// not exist yet is not made for a cache.
function _write(file: string, slot: _Slot): void {
  try {
    Deno.mkdirSync(parentDir(file));
  } catch (e) {
    if (!(e instanceof Deno.errors.AlreadyExists)) return;
  }
  try {
    const tmp = `${file}.${Deno.pid}.tmp`;
    Deno.writeTextFileSync(tmp, JSON.stringify(slot), { mode: 0o600 });
    Deno.renameSync(tmp, file);
  } catch { /* see above */ }
}
