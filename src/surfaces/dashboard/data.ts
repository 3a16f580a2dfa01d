/**
 * `rtok dashboard`: the ledger as a local web page. The page's script and styles come from
 * rtok itself; the page asks `GET /api/gain` every few seconds, which reads the store
 * read-only through the same functions as `rtok gain --format json`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { Config } from "../../core/config.ts";
import { parseSpool, type SpoolEntry, spoolPath } from "../../core/spool.ts";
import { ingestLedger } from "../../plugins/measure/ledger.ts";
import { ingestArchive } from "../../plugins/archive/mod.ts";
import { Store, storePath } from "../../core/store.ts";
import {
  type FailureRow,
  gainFailures,
  gainHistory,
  gainSessions,
  type HistoryRow,
  type Scope,
  type SessionRow,
} from "../../plugins/measure/gain.ts";
import { boot } from "../_boot.ts";
import { type GainGraph, gainGraph } from "../_gain_graph.ts";
import {
  type CallerGain,
  gainByCaller,
  gainJson,
  gainReport,
  NOTHING_YET,
} from "../_gain_report.ts";
import { VERSION } from "../_help.ts";
import { checkHost, LOOPBACK, origin, serveOn, untilStopped } from "../_listen.ts";
import { wholeNumber } from "../_flags.ts";
import { print, warn } from "../_io.ts";
import script from "./page.js" with { type: "text" };
import styles from "./page.css" with { type: "text" };

/** `rtok dashboard --help`. */
export const DASHBOARD_HELP = `rtok dashboard: the ledger as a local web page

Usage: rtok dashboard [--host 127.0.0.1] [--port 0] [--allow-remote] [--project]

Serves a page on loopback and prints its URL; it opens nothing by itself. The page
shows savings over the last 30 days by surface, each family with its expand and
re-fetch rates, the agent sessions with their context-token-turns, the proxy's real
tokens and cost by model, recent runs and filter failures, and updates itself every
few seconds. Its figures are those of rtok gain --format json (GET /api/gain returns
them, with --graph's, --sessions', --history's and --failures' JSON). The store is
read, never written: a run waits in the spool until the next rtok gain, or the run
that finds the spool past [ledger] spool_kb (64 by default), moves it in; the page
counts those waiting in its figures all the same, from a copy in memory.

  --host          the address to listen on (default 127.0.0.1); another than a loopback
                  address needs --allow-remote
  --port          the port (default 0: a free one)
  --project       only runs in the current directory and below
`;

/** How often the page asks for new figures, milliseconds. */
export const POLL_MS = 3000;

/** Rows the page lists of sessions, runs and failures, as `rtok gain --limit`'s default. */
export const LIST_LIMIT = 20;

/** What `GET /api/gain` returns. */
export interface DashboardData {
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
  /** True when no run and no proxy request is recorded (or there is no store yet). */
  readonly empty: boolean;
  /**
   * Runs waiting in the spool, not yet in the ledger file: counted in these figures (from a
   * copy in memory); the next `rtok gain`, or the run that finds the spool past `spool_kb`,
   * moves them into the file.
   */
  readonly spooledRuns: number;
  /** What to say when `empty`: `rtok gain`'s own line. */
  readonly nothingYet: string;
  /** What `rtok gain --format json` prints; `null` without a store. */
  readonly gain: Readonly<Record<string, unknown>> | null;
  /** What `rtok gain --graph --format json` prints; `null` without a store. */
  readonly graph: GainGraph | null;
  /** What `rtok gain --sessions --format json` prints. */
  readonly sessions: readonly SessionRow[];
  /** What `rtok gain --history --format json` prints. */
  readonly history: readonly HistoryRow[];
  /** What `rtok gain --failures --format json` prints. */
  readonly failures: readonly FailureRow[];
  /** What `rtok gain --by caller --format json` prints. */
  readonly callers: readonly CallerGain[];
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
        gain: gainJson(report),
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

/** `text` with `&`, `<`, `>`, `"` and `'` as character references: safe in text and attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page's HTML: a shell the script fills; the ledger and project written in escaped. */
export function pageHtml(ledger: string, project: string | null): string {
  const scope = project === null ? "all projects" : `project ${project}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rtok dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard.css">
<script src="/dashboard.js" defer></script>
</head>
<body>
<header>
  <h1>rtok dashboard</h1>
  <p class="meta"><span id="scope">${escapeHtml(scope)}</span> · ledger
    <code id="ledger">${escapeHtml(ledger)}</code> (read-only) ·
    <span id="status" data-state="loading">loading…</span></p>
</header>
<main id="app">
  <noscript>This page draws its figures with JavaScript; rtok gain prints the same ones.</noscript>
</main>
<footer>rtok ${escapeHtml(VERSION)} · estimated figures are rtok's counts by text class;
  real ones are the providers' usage, as the proxy recorded it.</footer>
</body>
</html>
`;
}

const _SECURITY_HEADERS = {
  // Nothing but rtok's own origin: no external script, style, font, image or connection.
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; " +
    "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; " +
    "frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

/**
 * The dashboard's routes: `/` (the page), `/dashboard.js`, `/dashboard.css`, `/api/gain`.
 * Unless `allowRemote`, a request naming a host other than a loopback one is refused, so a
 * web page elsewhere cannot read the ledger through a name that resolves to 127.0.0.1.
 */
export function dashboardHandler(
  src: DashboardSource,
  allowRemote = false,
): (req: Request) => Response {
  let lastError = "";
  const tell = (message: string) => {
    if (message !== lastError) src.warn(message);
    lastError = message;
  };
  const quiet: DashboardSource = { ...src, warn: tell };
  const copy = new LedgerCopy();
  return (req) => {
    const url = new URL(req.url);
    if (!allowRemote && !LOOPBACK.test(_hostName(req.headers.get("host") ?? url.host))) {
      return _text(403, "rtok dashboard: only loopback host names are served\n");
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      return _text(405, "rtok dashboard: GET only\n");
    }
    switch (url.pathname) {
      case "/":
        return _answer(pageHtml(src.ledger, src.scope.project), "text/html; charset=utf-8");
      case "/dashboard.js":
        return _answer(script, "text/javascript; charset=utf-8");
      case "/dashboard.css":
        return _answer(styles, "text/css; charset=utf-8");
      case "/api/gain": {
        try {
          const body = JSON.stringify(dashboardData(quiet, new Date(), copy), null, 2) + "\n";
          lastError = "";
          return _answer(body, "application/json; charset=utf-8");
        } catch (e) {
          const message = (e as Error).message;
          tell(message);
          return new Response(JSON.stringify({ error: message }) + "\n", {
            status: 503,
            headers: { ..._SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" },
          });
        }
      }
      default:
        return _text(404, "rtok dashboard: not found; the page is at /\n");
    }
  };
}

/** Serves the dashboard until SIGINT or SIGTERM; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "allow-remote": { type: "boolean" },
      project: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    await print(DASHBOARD_HELP);
    return 0;
  }
  const host = values.host ?? "127.0.0.1";
  const port = wholeNumber("--port", values.port ?? "0", 0, 65535);
  const allowRemote = values["allow-remote"] ?? false;
  checkHost(host, allowRemote, "read the ledger's figures, commands and paths");
  const b = await boot();
  if (b.home === null) throw new Error("rtok's home cannot be found (see the line above)");
  const src: DashboardSource = {
    ledger: storePath(b.home),
    home: b.home,
    config: b.config,
    scope: { project: values.project ? Deno.cwd() : null },
    warn: (m) => warn(`dashboard: ${m}`),
  };
  let url = "";
  const server = serveOn({
    hostname: host,
    port,
    onListen: (addr) => {
      url = `${origin(addr)}/`;
    },
  }, dashboardHandler(src, allowRemote));
  await print(`rtok dashboard: ${url} (ledger ${src.ledger}, read-only; Ctrl-C stops it)\n`);
  await untilStopped(server);
  return 0;
}

// The host name of a Host header: `127.0.0.1:8080` → `127.0.0.1`, `[::1]:80` → `[::1]`.
function _hostName(header: string): string {
  const m = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(header.trim().toLowerCase());
  return m ? m[1] : header;
}

function _answer(body: string, type: string): Response {
  return new Response(body, { headers: { ..._SECURITY_HEADERS, "content-type": type } });
}

function _text(status: number, body: string): Response {
  return new Response(body, {
    status,
    headers: { ..._SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8" },
  });
}
