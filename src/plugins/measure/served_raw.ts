/**
 * The families rtok serves raw in a project because agents kept fetching again what their
 * filter cut (`$RTOK_HOME/served_raw.json`). The ledger's drain decides (re-fetch rate over a
 * threshold); a run only reads the file, one small read when it exists. `rtok filters reset`
 * takes a family back, and its rate then counts only runs after the reset.
 *
 * @module
 */

import { joinPath } from "../../core/paths.ts";

/** One family served raw in one project. */
export interface RawFamily {
  /** Its lossy runs in the project since the last reset. */
  readonly lossyRuns: number;
  /** Those the agent fetched again (expanded, or re-ran wider). */
  readonly refetched: number;
  /** refetched ÷ lossy runs × 100, one decimal. */
  readonly ratePct: number;
  /** True once a run has told the user it is served raw. */
  readonly told: boolean;
}

/** What the file holds. */
export interface ServedRaw {
  /** Project → family → why it is served raw. */
  readonly projects: Readonly<Record<string, Readonly<Record<string, RawFamily>>>>;
  /** Project → family → when the user last reset it (epoch ms). */
  readonly resets: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** The file's path in `home`. */
export function servedRawPath(home: string): string {
  return joinPath(home, "served_raw.json");
}

/** The state in `home`; empty when there is none, or it cannot be read (then nothing is raw). */
export function readServedRaw(home: string): ServedRaw {
  try {
    const v = JSON.parse(Deno.readTextFileSync(servedRawPath(home)));
    if (typeof v === "object" && v !== null && typeof v.projects === "object") {
      return { projects: v.projects ?? {}, resets: v.resets ?? {} };
    }
  } catch { /* none yet, or unreadable: nothing is served raw */ }
  return { projects: {}, resets: {} };
}

/** Writes the state in one rename. */
export function writeServedRaw(home: string, state: ServedRaw): void {
  const path = servedRawPath(home);
  const tmp = `${path}.tmp-${Deno.pid}`;
  Deno.mkdirSync(home, { recursive: true, mode: 0o700 });
  Deno.writeTextFileSync(tmp, JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
  Deno.renameSync(tmp, path);
}

/** Why `family` is served raw in `project`, or `null` when it is filtered. */
export function servedRaw(home: string, project: string, family: string): RawFamily | null {
  const raw = readServedRaw(home).projects[project]?.[family];
  return raw ?? null;
}

/** The line a run prints the first time it serves `family` raw in a project. */
export function servedRawNote(family: string, r: RawFamily): string {
  return `${family} output is served raw in this project: agents fetched again ${r.refetched} ` +
    `of ${r.lossyRuns} cut outputs (${r.ratePct} %); \`rtok filters reset ${family}\` filters it again`;
}
