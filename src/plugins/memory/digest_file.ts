/**
 * The hook's own copy of a session's digest, `$RTOK_HOME/sessions/<id>.digest.json`: written at
 * PreCompact (atomically), read at SessionStart. No SQLite: the store gets its copy through the
 * spool.
 *
 * @module
 */

import { joinPath } from "../../core/paths.ts";

/** A digest as the hook keeps it. */
export interface DigestRecord {
  /** The session. */
  readonly session: string;
  /** Its canonical working directory. */
  readonly project: string;
  /** When it was built, epoch ms (kept beside the text, never in it). */
  readonly builtAt: number;
  /** The text to inject. */
  readonly text: string;
  /** Its estimated tokens. */
  readonly tokens: number;
}

/** The digest file of `session` inside `home`. */
export function digestPath(home: string, session: string): string {
  const safe = /^[A-Za-z0-9_-]{1,128}$/.test(session)
    ? session
    : Array.from(session.slice(0, 200), (c) => c.charCodeAt(0).toString(36)).join("").slice(0, 128);
  return joinPath(joinPath(home, "sessions"), `${safe}.digest.json`);
}

/** Writes `rec` as the session's digest: a temporary file renamed over the old one. */
export function writeDigestFile(home: string, rec: DigestRecord): void {
  const path = digestPath(home, rec.session);
  Deno.mkdirSync(joinPath(home, "sessions"), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${Deno.pid}.tmp`;
  Deno.writeTextFileSync(tmp, JSON.stringify(rec) + "\n", { mode: 0o600 });
  Deno.renameSync(tmp, path);
}

/** Removes the session's digest, if there is one. */
export function removeDigestFile(home: string, session: string): void {
  try {
    Deno.removeSync(digestPath(home, session));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

/** The session's digest, or `null` when there is none (or it cannot be read). */
export function readDigestFile(home: string, session: string): DigestRecord | null {
  let rec: unknown;
  try {
    rec = JSON.parse(Deno.readTextFileSync(digestPath(home, session)));
  } catch {
    return null;
  }
  const r = rec as Partial<DigestRecord> | null;
  if (typeof r?.text !== "string" || r.session !== session) return null;
  return r as DigestRecord;
}
