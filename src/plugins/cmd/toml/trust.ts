/**
 * `$RTOK_HOME/trust.json`: the project filter files the user has read and trusted, each by
 * canonical path with the sha256 of the text they trusted. A project's filters run only while
 * its file still has that hash: a changed file is untrusted again until `rtok trust`.
 *
 * @module
 */

import { joinPath } from "../../../core/paths.ts";

/** Canonical path → sha256 (hex) of the trusted text. */
export type TrustTable = Readonly<Record<string, string>>;

/** Where the trust table lives in `home`. */
export function trustFile(home: string): string {
  return joinPath(home, "trust.json");
}

/** The hex sha256 of `text` (UTF-8). */
export async function sha256Text(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The trust table in `home`; empty when there is none or it is not valid. */
export function readTrust(home: string): TrustTable {
  let text: string;
  try {
    text = Deno.readTextFileSync(trustFile(home));
  } catch {
    return {};
  }
  try {
    const doc = JSON.parse(text);
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return {};
    // Only well-formed entries count: a hand-edited value is no pin at all.
    return Object.fromEntries(
      Object.entries(doc).filter(([, v]) => typeof v === "string" && /^[0-9a-f]{64}$/.test(v)),
    ) as TrustTable;
  } catch {
    return {};
  }
}

/** True when `file`, whose content is `text`, is trusted with exactly that content. */
export async function isTrusted(home: string, file: string, text: string): Promise<boolean> {
  let path: string;
  try {
    path = _canonical(file);
  } catch {
    return false;
  }
  const pinned = readTrust(home)[path];
  return pinned !== undefined && pinned === await sha256Text(text);
}

/**
 * Pins `text` as the trusted content of `file` (the caller read and validated exactly this
 * text, so a change made since is not trusted); returns its canonical path and sha256.
 */
export async function trust(
  home: string,
  file: string,
  text: string,
): Promise<{ path: string; sha256: string }> {
  const path = _canonical(file);
  const sha256 = await sha256Text(text);
  _write(home, { ...readTrust(home), [path]: sha256 });
  return { path, sha256 };
}

/** Removes `file`'s pin; returns false when it had none. */
export function untrust(home: string, file: string): boolean {
  const table = { ...readTrust(home) };
  let path: string;
  try {
    path = _canonical(file);
  } catch {
    path = file;
  }
  if (!(path in table)) return false;
  delete table[path];
  _write(home, table);
  return true;
}

function _canonical(file: string): string {
  return Deno.realPathSync(file);
}

// Written whole to a temp file and renamed over the old one, so a reader never sees half.
function _write(home: string, table: Record<string, string>): void {
  Deno.mkdirSync(home, { recursive: true });
  const target = trustFile(home);
  const tmp = `${target}.${Deno.pid}.tmp`;
  Deno.writeTextFileSync(tmp, JSON.stringify(table, null, 2) + "\n", { mode: 0o600 });
  Deno.renameSync(tmp, target);
}
