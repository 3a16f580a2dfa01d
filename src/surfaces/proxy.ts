/**
 * `rtok proxy`: an HTTP proxy in front of the Anthropic, OpenAI and Gemini APIs that compresses the
 * tool results inside each request, passes everything else through exactly, and records the
 * usage each response reports.
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { Store } from "../core/store.ts";
import type { Provider } from "../plugins/proxy/routes.ts";
import type { PriceTable } from "../plugins/proxy/prices.ts";
import { DEFAULT_HEADER_TIMEOUT_MS, type ProxyRow } from "../plugins/proxy/server.ts";
import { DEFAULT_MAX_CALLERS } from "../plugins/proxy/metrics.ts";
import { CallerNamer, loadSalt, TOKEN_HEADER } from "../plugins/proxy/gateway.ts";
import { envVar } from "../core/env.ts";
import { boot, context, openStore, reportPluginErrors } from "./_boot.ts";
import { wholeNumber } from "./_flags.ts";
import { print, warn } from "./_io.ts";
import { LOOPBACK, origin, serveOn, untilStopped } from "./_listen.ts";

/** The public APIs, used unless config or a flag names another upstream. */
export const DEFAULT_UPSTREAMS: Readonly<Record<Provider, string>> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com",
  gemini: "https://generativelanguage.googleapis.com",
};

/** How long requests in flight may take to finish once a shutdown began. */
export const DEFAULT_DRAIN_MS = 25_000;

/** `rtok proxy --help`. */
export const PROXY_HELP = `rtok proxy: compress tool results inside model requests

Usage: rtok proxy [--listen HOST:PORT | --host 127.0.0.1 --port 8787]
                  [--anthropic-upstream URL] [--openai-upstream URL] [--gemini-upstream URL]
                  [--timeout-ms N] [--drain-ms N] [--max-callers N] [--allow-remote]
                  [--verbose]

Point the client at it: ANTHROPIC_BASE_URL=http://127.0.0.1:8787,
OPENAI_BASE_URL=http://127.0.0.1:8787/v1, or, for Gemini CLI,
GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:8787. Tool results in POST /v1/messages (and
count_tokens), /v1/chat/completions, /v1/responses and Gemini's
/v1beta/models/{model}:generateContent (streamGenerateContent, countTokens) are compressed;
the raw text is archived (rtok expand <id>). Every other byte, and every response, passes
through as it is. A request with the header "x-rtok: off" is forwarded untouched.

A team's gateway: set RTOK_PROXY_TOKEN, and every request must carry it in the
x-rtok-token header (401 otherwise; the provider never sees such a request). A request's
caller is its x-rtok-caller header, else a salted hash of its provider key; headers that
start with x-rtok are never forwarded. GET /healthz says the process is up, GET /readyz
whether the upstreams answer and the ledger takes writes (neither needs the token);
GET /metrics serves live counters by caller (the token, or Authorization: Bearer <token>).

  --listen          HOST:PORT to listen on (default 127.0.0.1:8787); same as --host and
                    --port. An address other than loopback needs --allow-remote and
                    RTOK_PROXY_TOKEN
  --host, --port    the address and port (0 picks a free one)
  --anthropic-upstream, --openai-upstream, --gemini-upstream
                    where requests go (default the public APIs; also [plugins.proxy]
                    anthropic_upstream, openai_upstream and gemini_upstream in
                    config.toml)
  --timeout-ms      how long to wait for an upstream's response headers (default ${DEFAULT_HEADER_TIMEOUT_MS})
  --drain-ms        on SIGTERM or SIGINT, how long requests in flight may take to finish
                    before they are cut (default ${DEFAULT_DRAIN_MS})
  --max-callers     callers with a metrics label of their own (default ${DEFAULT_MAX_CALLERS};
                    [plugins.proxy] max_callers); the rest are counted as "other"
  --verbose         one line per request on stderr (never a header or a body)

rtok gain shows the usage the providers reported apart from rtok's estimates; rtok gain
--by caller splits it by caller.
`;

/** Runs the proxy until SIGINT or SIGTERM; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      listen: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      "anthropic-upstream": { type: "string" },
      "openai-upstream": { type: "string" },
      "gemini-upstream": { type: "string" },
      "timeout-ms": { type: "string" },
      "drain-ms": { type: "string" },
      "max-callers": { type: "string" },
      "allow-remote": { type: "boolean" },
      verbose: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    await print(PROXY_HELP);
    return 0;
  }
  const b = await boot();
  const own = b.config.plugins.proxy ?? {};
  const listen = values.listen === undefined ? null : _listenAddress(values.listen);
  if (listen && (values.host !== undefined || values.port !== undefined)) {
    throw new TypeError("--listen names the host and port: leave out --host and --port");
  }
  const host = listen?.host ?? values.host ?? _configString(own, "host") ?? "127.0.0.1";
  const port = listen?.port ??
    wholeNumber("--port", values.port ?? String(own.port ?? 8787), 0, 65535);
  const timeoutMs = wholeNumber(
    "--timeout-ms",
    values["timeout-ms"] ?? String(DEFAULT_HEADER_TIMEOUT_MS),
    1,
    86_400_000,
  );
  const drainMs = wholeNumber(
    "--drain-ms",
    values["drain-ms"] ?? String(DEFAULT_DRAIN_MS),
    0,
    3_600_000,
  );
  const maxCallers = wholeNumber(
    "--max-callers",
    values["max-callers"] ?? String(own.max_callers ?? DEFAULT_MAX_CALLERS),
    1,
    10_000,
  );
  const named: Partial<Record<Provider, string>> = {};
  const upstreams = {} as Record<Provider, string>;
  for (const provider of ["anthropic", "openai", "gemini"] as const) {
    const flag = `--${provider}-upstream`;
    const given = values[`${provider}-upstream`] ?? _configString(own, `${provider}_upstream`);
    upstreams[provider] = _upstream(flag, given ?? DEFAULT_UPSTREAMS[provider]);
    if (given !== null && given !== undefined) named[provider] = upstreams[provider];
  }
  const token = envVar(TOKEN_VAR) || null;
  if (!LOOPBACK.test(host)) {
    if (!values["allow-remote"]) {
      throw new TypeError(
        `"${host}" is not a loopback address; add --allow-remote (and set ${TOKEN_VAR}) ` +
          "to serve other machines",
      );
    }
    if (!token) {
      throw new TypeError(
        `"${host}" is not a loopback address: set ${TOKEN_VAR} to the token clients send in ` +
          `the ${TOKEN_HEADER} header`,
      );
    }
    warn(`listening on ${host}: requests need the gateway token (${TOKEN_HEADER})`);
  }
  const home = b.home ?? "";
  const namer = new CallerNamer(loadSalt(home));
  const store = await openStore(b);
  if (store) {
    // A locked ledger must not hold the event loop: a batch it refuses goes to the spool.
    store.db.exec(`PRAGMA busy_timeout = ${_BUSY_MS}`);
  } else warn("the ledger cannot be opened; requests are recorded in the spool");
  const ctx = context(b, store);
  const { proxyHandler } = await import("../plugins/proxy/server.ts");
  const { insertProxyRows } = await import("../plugins/proxy/ledger.ts");
  const { LedgerWriter } = await import("../plugins/proxy/ledger_writer.ts");
  const { readinessChecker } = await import("../plugins/proxy/readiness.ts");
  const { appendSpool, checkSpoolWritable } = await import("../core/spool.ts");
  const writer = new LedgerWriter({
    write(rows) {
      if (!store) throw new Error("the ledger is not open");
      insertProxyRows(store, rows, b.config.ledger.retentionDays);
    },
    spool(rows) {
      appendSpool(home, rows.map((r) => ({ kind: "proxy.request", ts: r.ts, data: { ...r } })));
    },
    drain() {
      if (!store) throw new Error("the ledger is not open");
      b.registry.drain(ctx);
    },
    warn: (line) => warn(`proxy: ${line}`),
  });
  let stopping = false;
  const cutoff = new AbortController();
  const ready = readinessChecker({
    upstreams: Object.keys(named).length ? named : upstreams,
    stopping: () => stopping,
    // Ready while rows can be kept: in the ledger, or, while it is locked or cannot be
    // opened, in the spool. A disk that takes neither takes the instance out.
    store() {
      let ledger = "ok";
      try {
        if (!store) throw new Error("the ledger is not open");
        store.write(() => {});
      } catch (e) {
        ledger = (e as Error).message;
      }
      checkSpoolWritable(home);
      return ledger === "ok" ? "ok" : `ok, spooling (${ledger})`;
    },
  });
  const { ProxyMetrics } = await import("../plugins/proxy/metrics.ts");
  const { BUILTIN_PRICES, priceTable } = await import("../plugins/proxy/prices.ts");
  const handler = proxyHandler({
    upstreams,
    headerTimeoutMs: timeoutMs,
    token,
    callerOf: (headers, url) => namer.callerOf(headers, url),
    ready,
    cutoff: cutoff.signal,
    metrics: new ProxyMetrics({
      maxCallers,
      prices: _prices(() => priceTable(own.prices), BUILTIN_PRICES),
    }),
    async transform(req) {
      const reports = await b.registry.proxyFilter(req, ctx);
      reportPluginErrors(b);
      return reports;
    },
    record(row) {
      if (values.verbose) warn(_logLine(row));
      writer.add(row);
    },
  });
  // The plugins load their code now, not on the first request.
  await b.registry.proxyFilter({ api: "anthropic", body: "{}" }, ctx);
  reportPluginErrors(b);
  const server = serveOn({
    hostname: host,
    port,
    onListen: (addr) => {
      warn(
        `proxy listening on ${origin(addr)} ` +
          `(anthropic → ${upstreams.anthropic}, openai → ${upstreams.openai}, ` +
          `gemini → ${upstreams.gemini})`,
      );
    },
    onError: (e) => {
      warn(`proxy: ${(e as Error).message}`);
      return new Response("rtok proxy: internal error", { status: 500 });
    },
  }, handler);
  // A shutdown takes no new request, lets those in flight end for up to `drainMs`, then cuts
  // them (their clients see an error), and writes every row before the process ends.
  let deadline: ReturnType<typeof setTimeout> | undefined;
  await untilStopped(server, () => {
    stopping = true;
    deadline = setTimeout(() => cutoff.abort(), drainMs);
  });
  clearTimeout(deadline);
  if (store) store.db.exec(`PRAGMA busy_timeout = ${_FINAL_BUSY_MS}`);
  writer.close();
  const st = writer.stats();
  if (st.spooled > 0) {
    warn(`proxy: ${st.spooled} request rows went to the spool; rtok gain moves them to the ledger`);
  }
  _close(store);
  return 0;
}

// The ledger's wait for a lock on the request path, and at the end, when waiting costs no
// request anything.
const _BUSY_MS = 50;
const _FINAL_BUSY_MS = 5000;

/** The environment variable holding the gateway token. */
export const TOKEN_VAR = "RTOK_PROXY_TOKEN";

// A bad price entry costs one line and the built-in prices, as in rtok gain.
function _prices(read: () => PriceTable, builtin: PriceTable): PriceTable {
  try {
    return read();
  } catch (e) {
    warn(`${(e as Error).message}; the live dollar counters use the built-in prices`);
    return builtin;
  }
}

function _listenAddress(value: string): { host: string; port: number } {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(value) ?? /^([^:\[\]]+):(\d+)$/.exec(value);
  if (!m) {
    throw new TypeError(
      `--listen "${value}": expected HOST:PORT, for example 0.0.0.0:8787 or [::1]:8787`,
    );
  }
  return { host: m[1], port: wholeNumber("--listen port", m[2], 0, 65535) };
}

function _close(store: Store | null): void {
  try {
    store?.close();
  } catch { /* exiting anyway */ }
}

function _configString(table: Readonly<Record<string, unknown>>, key: string): string | null {
  const v = table[key];
  if (v === undefined) return null;
  if (typeof v !== "string") {
    throw new TypeError(`config [plugins.proxy] ${key}: expected a string`);
  }
  return v;
}

function _upstream(flag: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${flag} "${value}": expected an http or https URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`${flag} "${value}": expected an http or https URL`);
  }
  if (url.search || url.hash) {
    throw new TypeError(`${flag} "${value}": expected a URL without a query or fragment`);
  }
  return value.replace(/\/+$/, "");
}

function _logLine(row: ProxyRow): string {
  const u = row.usage;
  const usage = u.input === null && u.output === null
    ? "no usage"
    : `in ${u.input ?? "?"} out ${u.output ?? "?"} cache w ${u.cacheWrite ?? 0} r ${
      u.cacheRead ?? 0
    }`;
  return `proxy: ${row.caller ?? "-"} ${row.provider} ${row.route} ${row.status} ${
    u.model ?? "-"
  } ` +
    `${Math.round(row.durationMs)} ms, ${usage}, ${row.results.length}/${row.resultsSeen} ` +
    `results compressed, ${row.charsSaved} chars saved${row.note ? ` (${row.note})` : ""}`;
}
