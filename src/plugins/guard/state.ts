/**
 * What the guard keeps between hook processes, without SQLite: each session's last
 * intervention (`$RTOK_HOME/sessions/<id>.guard.json`), so the next shell call can tell a false
 * block, and per project the rules stopped there (`$RTOK_HOME/guard/<project hash>.json`).
 *
 * @module
 */

import { joinPath } from "../../core/paths.ts";

/** A session's last intervention. */
export interface LastIntervention {
  /** The line as the agent wrote it. */
  readonly command: string;
  /** The rule that acted. */
  readonly rule: string;
  /** What it did. */
  readonly action: "rewrite" | "reason";
  /** The canonical project directory. */
  readonly project: string;
  /** When, epoch milliseconds. */
  readonly ts: number;
}

/** A project's guard state. */
export interface ProjectState {
  /** The canonical project directory. */
  readonly project: string;
  /** The rules stopped there after a false block. */
  readonly off: readonly string[];
}

/** How long an intervention may wait for the session's next shell call. */
export const FALSE_BLOCK_WINDOW_MS = 30 * 60_000;

// A session id as a file name: Claude Code's are UUIDs; anything else is made safe.
function _safe(session: string): string {
  return /^[A-Za-z0-9_-]{1,128}$/.test(session)
    ? session
    : Array.from(session.slice(0, 200), (c) => c.charCodeAt(0).toString(36)).join("").slice(0, 128);
}

/** The file of a session's last intervention. */
export function lastFile(home: string, session: string): string {
  return joinPath(joinPath(home, "sessions"), `${_safe(session)}.guard.json`);
}

/** The file of a project's guard state. */
export async function projectFile(home: string, project: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(project));
  const hex = Array.from(new Uint8Array(d).subarray(0, 8), (b) => b.toString(16).padStart(2, "0"))
    .join("");
  return joinPath(joinPath(home, "guard"), `${hex}.json`);
}

function _read(path: string): Record<string, unknown> | null {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    return null;
  }
  try {
    const v = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v : null;
  } catch {
    return null; // torn by a crash: as if absent
  }
}

function _write(path: string, value: unknown): void {
  const dir = path.slice(0, path.lastIndexOf("/"));
  Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Written aside and renamed, so a concurrent reader never sees half of it.
  const tmp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  Deno.writeTextFileSync(tmp, JSON.stringify(value), { mode: 0o600 });
  Deno.renameSync(tmp, path);
}

/**
 * Takes the session's last intervention: returns it (or `null` when there is none, or it is
 * older than {@linkcode FALSE_BLOCK_WINDOW_MS}) and removes the file, since only the very next
 * shell call can re-issue it.
 */
export function takeLast(
  home: string,
  session: string,
  now: number = Date.now(),
): LastIntervention | null {
  const path = lastFile(home, session);
  const v = _read(path);
  if (v === null) return null;
  try {
    Deno.removeSync(path);
  } catch { /* another hook took it first */ }
  if (
    typeof v.command !== "string" || typeof v.rule !== "string" ||
    (v.action !== "rewrite" && v.action !== "reason") || typeof v.project !== "string" ||
    typeof v.ts !== "number" || now - v.ts > FALSE_BLOCK_WINDOW_MS
  ) return null;
  return v as unknown as LastIntervention;
}

/** Forgets the session's last intervention, if there is one. */
export function clearLast(home: string, session: string): void {
  try {
    Deno.removeSync(lastFile(home, session));
  } catch { /* none, or another hook took it */ }
}

/** Notes the session's last intervention. */
export function noteLast(home: string, session: string, last: LastIntervention): void {
  _write(lastFile(home, session), last);
}

/** The rules stopped in `project`. */
export async function stoppedRules(home: string, project: string): Promise<Set<string>> {
  const v = _read(await projectFile(home, project));
  if (!v || v.project !== project || !Array.isArray(v.off)) return new Set();
  return new Set(v.off.filter((r): r is string => typeof r === "string"));
}

/** Stops `rule` in `project`. */
export async function stopRule(home: string, project: string, rule: string): Promise<void> {
  const off = await stoppedRules(home, project);
  off.add(rule);
  const state: ProjectState = { project, off: [...off].sort() };
  _write(await projectFile(home, project), state);
}
