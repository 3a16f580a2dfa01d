/**
 * Re-fetches: a lossy output the agent asked for again, by expanding it (`rtok expand`, MCP,
 * a read of the archived file) or by running its command again with wider flags within the
 * next few runs in that project. A family whose re-fetch rate in a project passes
 * {@linkcode REFETCH_LIMIT_PCT} over at least {@linkcode REFETCH_MIN_RUNS} lossy runs cuts what
 * agents need there: it is served raw in that project until the user resets it.
 *
 * @module
 */

import type { Store } from "../../core/store.ts";
import { type RawFamily, readServedRaw, type ServedRaw, writeServedRaw } from "./served_raw.ts";

/** Above this re-fetch rate (per cent) a family is served raw in the project. */
export const REFETCH_LIMIT_PCT = 5;
/** Lossy runs a family needs in a project before its rate decides anything. */
export const REFETCH_MIN_RUNS = 20;
/** A re-run counts as a re-fetch when it comes within this many runs after the lossy one. */
export const REFETCH_WITHIN_RUNS = 3;

/** One family's re-fetch rate in one project. */
export interface RefetchRate {
  /** The project (its canonical directory). */
  readonly project: string;
  /** The family. */
  readonly family: string;
  /** Lossy runs. */
  readonly lossyRuns: number;
  /** Of those, expanded or re-run wider. */
  readonly refetched: number;
  /** refetched ÷ lossy × 100, one decimal. */
  readonly ratePct: number;
}

// A recorded command's words: the ledger writes them quoted as `quoteArgv` does (a word with
// anything special in single quotes, a quote inside as '\'').
function _words(command: string): string[] | null {
  const words: string[] = [];
  const re = /(?:'[^']*'|\\.|[^\s'\\])+/g;
  for (const m of command.matchAll(re)) {
    words.push(m[0].replace(/'([^']*)'|\\(.)/g, (_, q, c) => q ?? c));
  }
  return words;
}

// The arguments of a recorded command after its family's words (the command as given).
function _args(command: string, family: string): string[] | null {
  const words = _words(command);
  if (words === null) return null;
  const skip = family.split(" ").length;
  // `rtok git log …` and `git log …` are the same run of the family.
  const start = words[0] === "rtok" ? 1 : 0;
  return words.slice(start + skip);
}

const _LIMITS = /^(-n|--max-count|-m|--max-depth|-L|--level|-C|-A|-B|--context|-U|--unified)$/;

/**
 * True when `next` asks for more than `prev` (both the arguments after the family's words):
 * every argument of `prev` kept and some added, a numeric limit raised (`-n 5` → `-n 50`,
 * `-5` → `-50`, `--max-count=5` → `=50`), or a limit dropped.
 */
export function widens(prev: readonly string[], next: readonly string[]): boolean {
  const limits = (args: readonly string[]) => {
    const out = new Map<string, number>();
    args.forEach((a, i) => {
      const short = /^-(\d+)$/.exec(a);
      if (short) out.set("-n", Number(short[1]));
      const eq = /^(--?[A-Za-z-]+)=(\d+)$/.exec(a);
      if (eq) out.set(eq[1] === "--max-count" ? "-n" : eq[1], Number(eq[2]));
      if (_LIMITS.test(a) && /^\d+$/.test(args[i + 1] ?? "")) {
        out.set(a === "--max-count" ? "-n" : a, Number(args[i + 1]));
      }
    });
    return out;
  };
  const before = limits(prev);
  const after = limits(next);
  for (const [k, v] of before) {
    const w = after.get(k);
    if (w === undefined || w > v) return true;
  }
  const rest = (args: readonly string[]) =>
    args.filter((a, i) =>
      !/^-\d+$/.test(a) && !/=\d+$/.test(a) && !(_LIMITS.test(a)) &&
      !(_LIMITS.test(args[i - 1] ?? "") && /^\d+$/.test(a))
    );
  const p = rest(prev);
  const n = rest(next);
  return n.length > p.length && p.every((a) => n.includes(a));
}

/**
 * Re-fetch rates per project and family over the lossy runs since each family's reset in
 * that project (`resets`), in `project` and below or everywhere (`null`).
 */
export function refetchRates(
  store: Store,
  project: string | null,
  resets: ServedRaw["resets"] = {},
): RefetchRate[] {
  const runs = store.db.prepare(
    `SELECT ts, project, family, command, lossy, archive_id AS archive
     FROM runs WHERE delivered IS NULL OR delivered = 1 ORDER BY project, ts, id`,
  ).all() as {
    ts: number;
    project: string;
    family: string;
    command: string;
    lossy: number;
    archive: string | null;
  }[];
  // An expand counts for the latest lossy run that archived that output before it: the same
  // output archived by many runs is one id, and only the run the agent last saw was re-fetched.
  const byArchive = new Map<string, number[]>();
  runs.forEach((r, i) => {
    if (r.lossy && r.archive) byArchive.set(r.archive, [...(byArchive.get(r.archive) ?? []), i]);
  });
  const expanded = new Set<number>();
  const expands = store.db.prepare("SELECT ts, archive_id AS archive FROM expands").all() as {
    ts: number;
    archive: string;
  }[];
  for (const e of expands) {
    const owners = (byArchive.get(e.archive) ?? []).filter((i) => runs[i].ts <= e.ts);
    if (owners.length) expanded.add(owners.reduce((a, b) => (runs[b].ts >= runs[a].ts ? b : a)));
  }
  const under = (p: string) =>
    project === null || p === project || p.startsWith(`${project.replace(/\/+$/, "")}/`);
  const counts = new Map<string, { project: string; family: string; lossy: number; re: number }>();
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i];
    if (!r.lossy || !under(r.project)) continue;
    if (r.ts <= (resets[r.project]?.[r.family] ?? -Infinity)) continue;
    let re = expanded.has(i);
    const prev = _args(r.command, r.family);
    for (let k = i + 1; !re && prev && k <= i + REFETCH_WITHIN_RUNS && k < runs.length; k++) {
      const n = runs[k];
      if (n.project !== r.project) break;
      if (n.family !== r.family) continue;
      const next = _args(n.command, n.family);
      if (next && widens(prev, next)) re = true;
    }
    const key = `${r.project}\u0000${r.family}`;
    const c = counts.get(key) ?? { project: r.project, family: r.family, lossy: 0, re: 0 };
    c.lossy++;
    if (re) c.re++;
    counts.set(key, c);
  }
  return [...counts.values()].map((c) => ({
    project: c.project,
    family: c.family,
    lossyRuns: c.lossy,
    refetched: c.re,
    ratePct: Math.round((c.re / c.lossy) * 1000) / 10,
  })).sort((a, b) =>
    a.project.localeCompare(b.project) || b.ratePct - a.ratePct ||
    a.family.localeCompare(b.family)
  );
}

/**
 * Updates `$RTOK_HOME/served_raw.json` from the ledger: a family whose re-fetch rate in a
 * project passes the limit over enough lossy runs is served raw there; one that no longer
 * does is filtered again. What a run already told the user is kept. Returns the new state.
 */
export function updateServedRaw(store: Store, home: string): ServedRaw {
  const old = readServedRaw(home);
  const projects: Record<string, Record<string, RawFamily>> = {};
  for (const r of refetchRates(store, null, old.resets)) {
    if (r.lossyRuns < REFETCH_MIN_RUNS || r.ratePct <= REFETCH_LIMIT_PCT) continue;
    const told = old.projects[r.project]?.[r.family]?.told ?? false;
    (projects[r.project] ??= {})[r.family] = {
      lossyRuns: r.lossyRuns,
      refetched: r.refetched,
      ratePct: r.ratePct,
      told,
    };
  }
  const next: ServedRaw = { projects, resets: old.resets };
  if (JSON.stringify(next) !== JSON.stringify(old)) writeServedRaw(home, next);
  return next;
}
