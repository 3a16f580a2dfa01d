/**
 * `rtok dashboard`: the ledger as a local web page. The page's script and styles come from
 * rtok itself; the page asks `GET /api/gain` every few seconds, which reads the store
 * read-only through the same functions as `rtok gain --format json`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { storePath } from "../../core/store.ts";
import { boot } from "../_boot.ts";
import { checkHost, LOOPBACK, origin, serveOn, untilStopped } from "../_listen.ts";
import { wholeNumber } from "../_flags.ts";
import { print, warn } from "../_io.ts";
import { dashboardData, type DashboardError, type DashboardSource, LedgerCopy } from "./data.ts";
import { pageHtml } from "./html.ts";
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
          const error: DashboardError = { error: message };
          return new Response(JSON.stringify(error) + "\n", {
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
