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
import { DEFAULT_HEADER_TIMEOUT_MS, type ProxyRow } from "../plugins/proxy/server.ts";
import { boot, context, openStore, reportPluginErrors } from "./_boot.ts";
import { wholeNumber } from "./_flags.ts";
import { print, warn } from "./_io.ts";
import { checkHost, origin, serveOn, untilStopped } from "./_listen.ts";

/** The public APIs, used unless config or a flag names another upstream. */
export const DEFAULT_UPSTREAMS: Readonly<Record<Provider, string>> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com",
  gemini: "https://generativelanguage.googleapis.com",
};

/** `rtok proxy --help`. */
export const PROXY_HELP = `rtok proxy: compress tool results inside model requests

Usage: rtok proxy [--host 127.0.0.1] [--port 8787] [--anthropic-upstream URL]
                  [--openai-upstream URL] [--gemini-upstream URL] [--timeout-ms N]
                  [--allow-remote] [--verbose]

Point the client at it: ANTHROPIC_BASE_URL=http://127.0.0.1:8787,
OPENAI_BASE_URL=http://127.0.0.1:8787/v1, or, for Gemini CLI,
GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:8787. Tool results in POST /v1/messages (and
count_tokens), /v1/chat/completions, /v1/responses and Gemini's
/v1beta/models/{model}:generateContent (streamGenerateContent, countTokens) are compressed;
the raw text is archived (rtok expand <id>). Every other byte, and every response, passes
through as it is. A request with the header "x-rtok: off" is forwarded untouched.

  --host            the address to listen on (default 127.0.0.1); another than a loopback
                    address needs --allow-remote
  --port            the port (default 8787; 0 picks a free one)
  --anthropic-upstream, --openai-upstream, --gemini-upstream
                    where requests go (default the public APIs; also [plugins.proxy]
                    anthropic_upstream, openai_upstream and gemini_upstream in
                    config.toml)
  --timeout-ms      how long to wait for an upstream's response headers (default ${DEFAULT_HEADER_TIMEOUT_MS})
  --verbose         one line per request on stderr (never a header or a body)

rtok gain shows the usage the providers reported apart from rtok's estimates.
`;

/** How long a finished request's row may wait to be written with others. */
const FLUSH_MS = 100;

/** Runs the proxy until SIGINT or SIGTERM; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "anthropic-upstream": { type: "string" },
      "openai-upstream": { type: "string" },
      "gemini-upstream": { type: "string" },
      "timeout-ms": { type: "string" },
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
  const host = values.host ?? _configString(own, "host") ?? "127.0.0.1";
  const port = wholeNumber("--port", values.port ?? String(own.port ?? 8787), 0, 65535);
  const timeoutMs = wholeNumber(
    "--timeout-ms",
    values["timeout-ms"] ?? String(DEFAULT_HEADER_TIMEOUT_MS),
    1,
    86_400_000,
  );
  const upstreams: Record<Provider, string> = {
    anthropic: _upstream(
      "--anthropic-upstream",
      values["anthropic-upstream"] ?? _configString(own, "anthropic_upstream") ??
        DEFAULT_UPSTREAMS.anthropic,
    ),
    openai: _upstream(
      "--openai-upstream",
      values["openai-upstream"] ?? _configString(own, "openai_upstream") ??
        DEFAULT_UPSTREAMS.openai,
    ),
    gemini: _upstream(
      "--gemini-upstream",
      values["gemini-upstream"] ?? _configString(own, "gemini_upstream") ??
        DEFAULT_UPSTREAMS.gemini,
    ),
  };
  checkHost(
    host,
    values["allow-remote"] ?? false,
    "send requests through it with their own credentials",
  );
  const store = await openStore(b);
  if (!store) warn("the proxy runs, but its requests are not recorded (see the line above)");
  const ctx = context(b, store);
  const { proxyHandler } = await import("../plugins/proxy/server.ts");
  const { insertProxyRows } = await import("../plugins/proxy/ledger.ts");
  // Rows are written in batches off the request path: a request's last byte never waits on
  // SQLite, and one transaction carries many requests.
  let storeFailed = false;
  const pending: ProxyRow[] = [];
  let flushing: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    flushing = null;
    const rows = pending.splice(0);
    if (!store || storeFailed || rows.length === 0) return;
    try {
      insertProxyRows(store, rows, b.config.ledger.retentionDays);
    } catch (e) {
      storeFailed = true;
      warn(`requests are no longer recorded: ${(e as Error).message}`);
    }
  };
  const record = (row: ProxyRow) => {
    if (values.verbose) warn(_logLine(row));
    pending.push(row);
    flushing ??= setTimeout(flush, FLUSH_MS);
  };
  const handler = proxyHandler({
    upstreams,
    headerTimeoutMs: timeoutMs,
    async transform(req) {
      const reports = await b.registry.proxyFilter(req, ctx);
      reportPluginErrors(b);
      return reports;
    },
    record,
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
  await untilStopped(server);
  if (flushing !== null) clearTimeout(flushing);
  flush();
  _close(store);
  return 0;
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
  return `proxy: ${row.provider} ${row.route} ${row.status} ${u.model ?? "-"} ` +
    `${Math.round(row.durationMs)} ms, ${usage}, ${row.results.length}/${row.resultsSeen} ` +
    `results compressed, ${row.charsSaved} chars saved${row.note ? ` (${row.note})` : ""}`;
}
