/**
 * What the posttool plugin remembers of a session, in `$RTOK_HOME/sessions/<id>.jsonl`: the
 * files the agent has read whole (by path and content digest), the files it has edited or
 * written, and the prompts it has been given (the turn). One appended line per fact, so hooks running at once never lose one.
 *
 * @module
 */

import { joinPath } from "../../core/paths.ts";

/** Session files untouched for this long are removed when a new session starts a file. */
const _STALE_MS = 14 * 86_400_000;

/** The directory of session files inside `home`. */
export function sessionsDir(home: string): string {
  return joinPath(home, "sessions");
}

// A session id as a file name: Claude Code's are UUIDs; anything else is made safe.
function _file(home: string, session: string): string {
  const safe = /^[A-Za-z0-9_-]{1,128}$/.test(session)
    ? session
    : Array.from(session.slice(0, 200), (c) => c.charCodeAt(0).toString(36)).join("").slice(0, 128);
  return joinPath(sessionsDir(home), `${safe}.jsonl`);
}

function _lines(home: string, session: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(_file(home, session));
  } catch {
    return [];
  }
  const out: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      out.push(JSON.parse(line));
    } catch { /* a torn line from a crash: the rest still count */ }
  }
  return out;
}

function _append(home: string, session: string, fact: Record<string, unknown>): void {
  const dir = sessionsDir(home);
  const file = _file(home, session);
  let fresh = false;
  try {
    Deno.statSync(file);
  } catch {
    fresh = true;
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  Deno.writeTextFileSync(file, JSON.stringify(fact) + "\n", { append: true, mode: 0o600 });
  if (fresh) _sweep(dir);
}

function _sweep(dir: string): void {
  const cutoff = Date.now() - _STALE_MS;
  try {
    for (const e of Deno.readDirSync(dir)) {
      // Every session file, whichever plugin keeps it (`<id>.jsonl`, `<id>.digest.json`…).
      if (!e.isFile) continue;
      const path = joinPath(dir, e.name);
      if ((Deno.statSync(path).mtime?.getTime() ?? Date.now()) < cutoff) Deno.removeSync(path);
    }
  } catch { /* a sweep that fails is retried by the next new session */ }
}

/** True when the session already read the file at `path` whole with this `digest`. */
export function readBefore(home: string, session: string, path: string, digest: string): boolean {
  return _lines(home, session).some((f) => f.read === path && f.digest === digest);
}

/** Notes that the session read the file at `path` whole, as `digest`. */
export function noteRead(home: string, session: string, path: string, digest: string): void {
  _append(home, session, { read: path, digest, ts: Date.now() });
}

/** True when the session edited or wrote the file at `path` (see {@linkcode noteEdit}). */
export function editedBefore(home: string, session: string, path: string): boolean {
  return _lines(home, session).some((f) => f.edited === path);
}

/** Notes that the session edited or wrote the file at `path`. */
export function noteEdit(home: string, session: string, path: string): void {
  _append(home, session, { edited: path, ts: Date.now() });
}

/** Notes a prompt: the session's next turn begins. */
export function noteTurn(home: string, session: string): void {
  _append(home, session, { turn: true, ts: Date.now() });
}

/** The session's turn: how many prompts it has been given (0 before the first is seen). */
export function turnOf(home: string, session: string): number {
  return _lines(home, session).filter((f) => f.turn === true).length;
}
