/**
 * The figures `rtok dashboard` serves at `GET /api/gain`: read from the store opened read-only,
 * through the same functions as `rtok gain --format json`, with the runs still waiting in the
 * spool counted from a copy in memory.
 *
 * @module
 */

import type { Config } from "../../core/config.ts";
import { parseSpool, type SpoolEntry, spoolPath } from "../../core/spool.ts";
import { ingestLedger } from "../../plugins/measure/ledger.ts";
import { ingestArchive } from "../../plugins/archive/mod.ts";
import { Store } from "../../core/store.ts";
import {
  type FailureRow,
  gainFailures,
  gainHistory,
  gainSessions,
  type HistoryRow,
  type Scope,
  type SessionRow,
} from "../../plugins/measure/gain.ts";
import { type GainGraph, gainGraph } from "../_gain_graph.ts";
import {
  type CallerGain,
  gainByCaller,
  gainJson,
  type GainReport,
  gainReport,
  NOTHING_YET,
} from "../_gain_report.ts";
import { VERSION } from "../_help.ts";

/** How often the page asks for new figures, milliseconds. */
export const POLL_MS = 3000;

/** Rows the page lists of sessions, runs and failures, as `rtok gain --limit`'s default. */
export const LIST_LIMIT = 20;

/**
 * What `rtok gain --format json` prints (`gainJson`, whose declared type is a plain record): the
 * summary with the rates, the proxy's real usage and, once it priced a request, its money.
 */
export type GainJson =
  & GainReport["summary"]
  & {
    /** The figures are rtok's estimates, but for `proxy` and `money`. */
    readonly estimated: true;
    /** Expand rates of the lossy families. */
    readonly expandRates: GainReport["rates"];
    /** Re-fetch rates per family. */
    readonly refetchRates: GainReport["refetches"];
    /** Families served raw, per project. */
    readonly servedRaw: GainReport["raw"];
    /** The proxy's real usage, with the style holdout. */
    readonly proxy: GainReport["proxy"] & {
      readonly real: true;
      readonly style: GainReport["style"];
    };
    /** Its usage priced; absent before the proxy recorded a request. */
    readonly money?: NonNullable<GainReport["money"]> & {
      readonly real: true;
      readonly estimated: readonly string[];
    };
    /** The guard's interventions. */
    readonly guard: GainReport["guard"];
  };

/** What `GET /api/gain` returns: figures from the store, or `empty` with none where there is none. */
export type DashboardData = DashboardHead & (DashboardFigures | DashboardNoStore);

/** What `GET /api/gain` returns whatever the store holds. */
export interface DashboardHead {
  /** rtok's version. */
  readonly version: string;
  /** The store file read. */
  readonly ledger: string;
  /** The project subtree, or `null` for all projects. */
  readonly project: string | null;
  /** When the figures were read, ISO 8601 UTC. */
  readonly at: string;
  /** How often the page asks again, milliseconds. */
  readonly pollMs: number;
  /**
   * Runs waiting in the spool, not yet in the ledger file: counted in these figures (from a
   * copy in memory); the next `rtok gain`, or the run that finds the spool past `spool_kb`,
   * moves them into the file.
   */
  readonly spooledRuns: number;
  /** What to say when `empty`: `rtok gain`'s own line. */
  readonly nothingYet: string;
  /** What `rtok gain --sessions --format json` prints. */
  readonly sessions: readonly SessionRow[];
  /** What `rtok gain --history --format json` prints. */
  readonly history: readonly HistoryRow[];
  /** What `rtok gain --failures --format json` prints. */
  readonly failures: readonly FailureRow[];
  /** What `rtok gain --by caller --format json` prints. */
  readonly callers: readonly CallerGain[];
}

/** The figures of a store that holds a run or a proxy request. */
export interface DashboardFigures {
  /** False: there is something to show. */
  readonly empty: false;
  /** What `rtok gain --format json` prints. */
  readonly gain: GainJson;
  /** What `rtok gain --graph --format json` prints. */
  readonly graph: GainGraph;
}

/** The figures when no run and no proxy request is recorded, or there is no store yet. */
export interface DashboardNoStore {
  /** True: `nothingYet` says so. */
  readonly empty: true;
  /** What `rtok gain --format json` prints; `null` without a store. */
  readonly gain: GainJson | null;
  /** What `rtok gain --graph --format json` prints; `null` without a store. */
  readonly graph: GainGraph | null;
}

/** What `GET /api/gain` answers, status 503, when the store cannot be read. */
export interface DashboardError {
  /** Why, naming the store. */
  readonly error: string;
}

/** Where the dashboard reads from. */
export interface DashboardSource {
  /** The store file. */
  readonly ledger: string;
  /** `$RTOK_HOME` (the served-raw state), or `null`. */
  readonly home: string | null;
  /** The effective config (the price overrides). */
  readonly config: Config;
  /** Which runs. */
  readonly scope: Scope;
  /** Where a problem is told, once per new message. */
  readonly warn: (message: string) => void;
}

/**
 * The figures, read from the store opened read-only for this call, with the runs still in the
 * spool counted (see {@linkcode LedgerCopy}; pass the one a server keeps, or a new one is used
 * for this call). A missing store gives empty figures; a store that cannot be read throws an
 * `Error` naming it.
 */
export function dashboardData(
  src: DashboardSource,
  now: Date = new Date(),
  copy?: LedgerCopy,
): DashboardData {
  const base = {
    version: VERSION,
    ledger: src.ledger,
    project: src.scope.project,
    at: now.toISOString(),
    pollMs: POLL_MS,
    nothingYet: NOTHING_YET,
  };
  const waiting = src.home === null ? [] : spooledEntries(src.home);
  const ledger = copy ?? new LedgerCopy();
  try {
    return ledger.read(src.ledger, waiting, src.config, (store) => {
      const spooledRuns = _runs(waiting);
      if (store === null) {
        return {
          ...base,
          spooledRuns,
          empty: true,
          gain: null,
          graph: null,
          sessions: [],
          history: [],
          failures: [],
          callers: [],
        };
      }
      const report = gainReport(store, src.scope, src.home, src.config, src.warn);
      return {
        ...base,
        spooledRuns,
        empty: report.summary.runs === 0 && report.proxy.requests === 0,
        gain: gainJson(report) as unknown as GainJson,
        graph: gainGraph(store, src.scope, now),
        sessions: gainSessions(store, src.scope, LIST_LIMIT),
        history: gainHistory(store, src.scope, LIST_LIMIT),
        failures: gainFailures(store, LIST_LIMIT),
        callers: report.proxy.requests ? gainByCaller(store, src.home, src.config, src.warn) : [],
      };
    });
  } finally {
    if (copy === undefined) ledger.close();
  }
}

/** How many runs wait in the spool at `home`; 0 when there is none or it cannot be read. */
export function spooledRuns(home: string): number {
  return _runs(spooledEntries(home));
}

function _runs(entries: readonly SpoolEntry[]): number {
  return entries.filter((e) => e.kind === "measure.run").length;
}

/** The ledger's and the archive's entries waiting in the spool at `home`; none when unreadable. */
export function spooledEntries(home: string): SpoolEntry[] {
  try {
    const { entries } = parseSpool(Deno.readTextFileSync(spoolPath(home)));
    return entries.filter((e) => e.kind.startsWith("measure.") || e.kind.startsWith("archive."));
  } catch {
    return [];
  }
}

/**
 * The ledger as a reader that counts the spool: a copy of the store in memory, made again only
 * when the file changed (a drain), with the spooled entries applied inside a savepoint that is
 * rolled back after each read. The file is never written, and a poll pays for the spool, not for
 * copying the ledger. With nothing spooled, the file is read as it is.
 */
export class LedgerCopy {
  #key = "";
  #copy: Store | null = null;

  /**
   * `read` run on the store at `path` with `waiting` applied (`null` when there is no store and
   * nothing waits). An entry the ledger would not take (a crash mid-write) is left out, as a
   * drain would leave it.
   */
  read<T>(
    path: string,
    waiting: readonly SpoolEntry[],
    config: Config,
    read: (store: Store | null) => T,
  ): T {
    if (!waiting.length) {
      const store = Store.openReadOnly(path);
      try {
        return read(store);
      } finally {
        store?.close();
      }
    }
    const copy = this.#copyOf(path);
    copy.db.exec("SAVEPOINT spool");
    try {
      _applySpool(copy, waiting, config.ledger.retentionDays);
      return read(copy);
    } finally {
      copy.db.exec("ROLLBACK TO spool; RELEASE spool");
    }
  }

  /** Frees the copy. */
  close(): void {
    this.#copy?.close();
    this.#copy = null;
    this.#key = "";
  }

  #copyOf(path: string): Store {
    const key = [path, `${path}-wal`].map(_stamp).join(" ");
    if (this.#copy !== null && key === this.#key) return this.#copy;
    this.close();
    const store = Store.openReadOnly(path);
    try {
      this.#copy = store === null ? Store.open(":memory:") : store.copyInMemory();
    } finally {
      store?.close();
    }
    this.#key = key;
    return this.#copy;
  }
}

// A file's size and modification time, or "-" when it is not there.
function _stamp(path: string): string {
  try {
    const st = Deno.statSync(path);
    return `${st.size}@${st.mtime?.getTime()}`;
  } catch {
    return "-";
  }
}

function _applySpool(copy: Store, waiting: readonly SpoolEntry[], days: number): void {
  const ledger = waiting.filter((e) => e.kind.startsWith("measure."));
  copy.db.exec("SAVEPOINT batch");
  try {
    ingestLedger(copy.db, ledger, days);
    copy.db.exec("RELEASE batch");
  } catch {
    copy.db.exec("ROLLBACK TO batch; RELEASE batch");
    for (const e of ledger) {
      try {
        ingestLedger(copy.db, [e], days);
      } catch { /* not a record: skipped */ }
    }
  }
  ingestArchive(waiting.filter((e) => e.kind.startsWith("archive.")), copy);
}
