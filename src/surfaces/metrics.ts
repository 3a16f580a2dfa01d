/**
 * `rtok metrics`: the ledger's totals for Prometheus, read from the store read-only at each
 * scrape. The values are gauges: the ledger drops rows past its retention, so a total can
 * fall. Runs the hook has spooled but nothing has moved into the ledger yet (any `rtok gain`
 * or CLI run does) are not in them.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { rtokHome } from "../core/config.ts";
import { storePath } from "../core/store.ts";
import {
  CounterVec,
  type MetricFamily,
  METRICS_CONTENT_TYPE,
  renderFamilies,
  TOKEN_KINDS,
} from "../plugins/proxy/metrics.ts";
import { wholeNumber } from "./_flags.ts";
import { print, warn } from "./_io.ts";
import { checkHost, origin, serveOn, untilStopped } from "./_listen.ts";

/** The port `rtok metrics` listens on unless told otherwise. */
export const DEFAULT_METRICS_PORT = 8788;

/** `rtok metrics --help`. */
export const METRICS_HELP = `rtok metrics: the ledger's totals for Prometheus

Usage: rtok metrics [--host 127.0.0.1] [--port ${DEFAULT_METRICS_PORT}] [--allow-remote]

Serves GET /metrics in Prometheus's text format: runs and estimated tokens per
surface (cli, hook, mcp, proxy), tokens saved per filter family, filter failures,
and the proxy's recorded requests and usage. The store is read, never written, at
each scrape; every value is a gauge (rows past the retention leave the ledger).
rtok proxy serves its own live counters at /metrics on its port.

  --host          the address to listen on (default 127.0.0.1); another than a loopback
                  address needs --allow-remote
  --port          the port (default ${DEFAULT_METRICS_PORT}; 0 picks a free one)
`;

/** Serves the ledger's metrics until SIGINT or SIGTERM; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "allow-remote": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    await print(METRICS_HELP);
    return 0;
  }
  const host = values.host ?? "127.0.0.1";
  const port = wholeNumber("--port", values.port ?? String(DEFAULT_METRICS_PORT), 0, 65535);
  checkHost(host, values["allow-remote"] ?? false, "read the ledger's totals");
  const path = storePath(rtokHome());
  let lastError = "";
  const handler = (req: Request): Response => {
    const url = new URL(req.url);
    if (url.pathname !== "/metrics") {
      return new Response("rtok metrics: see /metrics\n", { status: 404 });
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      return new Response("rtok metrics: GET only\n", { status: 405 });
    }
    const { text, error } = ledgerMetrics(path);
    // One line per new failure, not one per scrape.
    if (error && error !== lastError) warn(`rtok metrics: ${error}`);
    lastError = error ?? "";
    return new Response(text, { headers: { "content-type": METRICS_CONTENT_TYPE } });
  };
  const server = serveOn({
    hostname: host,
    port,
    onListen: (addr) => warn(`metrics listening on ${origin(addr)}/metrics (ledger ${path})`),
  }, handler);
  await untilStopped(server);
  return 0;
}

/**
 * The ledger at `path` as exposition text, opened read-only for this call. A ledger that
 * cannot be read gives `rtok_ledger_readable 0` and the reason in `error`.
 */
export function ledgerMetrics(path: string): { text: string; error: string | null } {
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    const families = _families(db);
    return { text: renderFamilies([_readable(1), ...families]), error: null };
  } catch (e) {
    return { text: renderFamilies([_readable(0)]), error: (e as Error).message };
  } finally {
    try {
      db?.close();
    } catch { /* the read is done */ }
  }
}

function _readable(value: 0 | 1): MetricFamily {
  return {
    name: "rtok_ledger_readable",
    help: "1 when the ledger was read for this scrape, 0 when it could not be.",
    type: "gauge",
    samples: [{ suffix: "", labels: {}, value }],
  };
}

function _gauge(name: string, help: string, labels: readonly string[]): CounterVec {
  return new CounterVec(name, help, labels, "gauge");
}

type _Row = Record<string, string | number | null>;

function _families(db: DatabaseSync): MetricFamily[] {
  const all = (sql: string) => db.prepare(sql).all() as _Row[];
  const runs = _gauge("rtok_ledger_runs", "Runs in the ledger, by surface.", ["surface"]);
  const raw = _gauge(
    "rtok_ledger_raw_tokens",
    "Estimated tokens the tools printed, by surface.",
    ["surface"],
  );
  const emitted = _gauge(
    "rtok_ledger_emitted_tokens",
    "Estimated tokens rtok emitted instead, by surface.",
    ["surface"],
  );
  const saved = _gauge(
    "rtok_ledger_saved_tokens",
    "Estimated tokens saved (raw minus emitted), by surface.",
    ["surface"],
  );
  for (
    const r of all(
      `SELECT surface, count(*) AS n, coalesce(sum(raw_tokens), 0) AS raw,
         coalesce(sum(emitted_tokens), 0) AS emitted FROM runs
       WHERE delivered IS NULL OR delivered = 1 GROUP BY surface`,
    )
  ) {
    const s = [String(r.surface)];
    runs.inc(s, Number(r.n));
    raw.inc(s, Number(r.raw));
    emitted.inc(s, Number(r.emitted));
    saved.inc(s, Number(r.raw) - Number(r.emitted));
  }
  const family = _gauge(
    "rtok_ledger_family_saved_tokens",
    "Estimated tokens saved by each filter family that saved any.",
    ["family"],
  );
  for (
    const r of all(
      `SELECT family, sum(raw_tokens - emitted_tokens) AS saved FROM runs
       WHERE passthrough IS NULL AND (delivered IS NULL OR delivered = 1)
       GROUP BY family HAVING saved > 0`,
    )
  ) family.inc([String(r.family)], Number(r.saved));
  const failures = _gauge("rtok_ledger_filter_failures", "Filter failures recorded.", []);
  failures.inc([], Number(all("SELECT count(*) AS n FROM failures")[0].n));
  const requests = _gauge(
    "rtok_ledger_proxy_requests",
    "Proxy requests in the ledger, by provider, model, route and HTTP status.",
    ["provider", "model", "route", "status"],
  );
  for (
    const r of all(
      `SELECT provider, coalesce(model, '') AS model, route, coalesce(status, 0) AS status,
         count(*) AS n FROM proxy_requests GROUP BY 1, 2, 3, 4`,
    )
  ) {
    requests.inc(
      [String(r.provider), String(r.model), String(r.route), String(r.status)],
      Number(r.n),
    );
  }
  const tokens = _gauge(
    "rtok_ledger_proxy_tokens",
    "Tokens the providers reported for proxy requests, by kind; count_tokens not counted.",
    ["provider", "model", "kind"],
  );
  for (
    const r of all(
      `SELECT provider, coalesce(model, '') AS model,
         coalesce(sum(input_tokens), 0) AS input, coalesce(sum(output_tokens), 0) AS output,
         coalesce(sum(cache_write_tokens), 0) AS cache_write,
         coalesce(sum(cache_read_tokens), 0) AS cache_read
       FROM proxy_requests WHERE route != 'count_tokens' GROUP BY 1, 2`,
    )
  ) {
    for (const kind of TOKEN_KINDS) {
      const n = Number(r[kind]);
      if (n > 0) tokens.inc([String(r.provider), String(r.model), kind], n);
    }
  }
  const perProvider = [
    ["rtok_ledger_proxy_tool_results_seen", "Tool results in proxy requests.", "results_seen"],
    [
      "rtok_ledger_proxy_tool_results_compressed",
      "Tool results the proxy compressed.",
      "results_compressed",
    ],
    [
      "rtok_ledger_proxy_tool_result_chars_seen",
      "Chars of tool results in proxy requests.",
      "chars_seen",
    ],
    ["rtok_ledger_proxy_chars_saved", "Chars the proxy's compression removed.", "chars_saved"],
  ] as const;
  const byProvider = all(
    `SELECT provider, sum(results_seen) AS results_seen,
       sum(results_compressed) AS results_compressed, sum(chars_seen) AS chars_seen,
       sum(chars_saved) AS chars_saved FROM proxy_requests GROUP BY provider`,
  );
  const provider = perProvider.map(([name, help, column]) => {
    const g = _gauge(name, help, ["provider"]);
    for (const r of byProvider) g.inc([String(r.provider)], Number(r[column]));
    return g.family();
  });
  const tokensSaved = _gauge(
    "rtok_ledger_proxy_estimated_tokens_saved",
    "Tokens the proxy's compression removed, estimated by each result's text class.",
    ["provider"],
  );
  for (
    const r of all(
      `SELECT q.provider AS provider, sum(r.raw_tokens - r.emitted_tokens) AS saved
       FROM proxy_results r JOIN proxy_requests q ON q.id = r.request_id GROUP BY q.provider`,
    )
  ) tokensSaved.inc([String(r.provider)], Number(r.saved));
  return [
    runs.family(),
    raw.family(),
    emitted.family(),
    saved.family(),
    family.family(),
    failures.family(),
    requests.family(),
    tokens.family(),
    ...provider,
    tokensSaved.family(),
  ];
}
