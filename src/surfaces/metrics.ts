/**
 * `rtok metrics`: the ledger's totals for Prometheus, read from the store read-only at each
 * scrape, or pushed once to a Pushgateway (`--push`) from a machine Prometheus cannot reach.
 * The values are gauges: the ledger drops rows past its retention, so a total can fall. Runs
 * the hook has spooled but nothing has moved into the ledger yet (any `rtok gain` or CLI run
 * does) are not in them.
 *
 * The push path is the Pushgateway's grouping key, `/metrics/job/<job>{/<label>/<value>}`
 * (https://github.com/prometheus/pushgateway#url): a value is URI-encoded, except that an
 * empty value or one with a `/` (which the path would lose or split) is written as
 * `<label>@base64/<value in URL-safe base64>`, `=` for the empty one.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { rtokHome } from "../core/config.ts";
import { storePath } from "../core/store.ts";
import {
  CounterVec,
  DEFAULT_MAX_CALLERS,
  type MetricFamily,
  METRICS_CONTENT_TYPE,
  renderFamilies,
  TOKEN_KINDS,
} from "../plugins/proxy/metrics.ts";
import { OTHER_CALLERS } from "../plugins/proxy/gateway.ts";
import { proxyMetricRows } from "../plugins/proxy/gain.ts";
import { failureCount, savedByFamily, totalsBySurface } from "../plugins/measure/totals.ts";
import { boot, drain, openStore } from "./_boot.ts";
import { pathExists } from "../core/paths.ts";
import { wholeNumber } from "./_flags.ts";
import { print, warn } from "./_io.ts";
import { checkHost, origin, serveOn, untilStopped } from "./_listen.ts";

/** The port `rtok metrics` listens on unless told otherwise. */
export const DEFAULT_METRICS_PORT = 8788;

/** `rtok metrics --help`. */
export const METRICS_HELP = `rtok metrics: the ledger's totals for Prometheus

Usage: rtok metrics [--host 127.0.0.1] [--port ${DEFAULT_METRICS_PORT}] [--allow-remote]
       rtok metrics --push URL [--job rtok] [--instance NAME] [--caller NAME]

Serves GET /metrics in Prometheus's text format: runs and estimated tokens per
surface (cli, hook, mcp, proxy), tokens saved per filter family, filter failures,
and the proxy's recorded requests and usage by caller (the ${DEFAULT_MAX_CALLERS} callers with
the most requests; the rest as "${OTHER_CALLERS}"). The store is read, never written, at
each scrape; every value is a gauge (rows past the retention leave the ledger).
rtok proxy serves its own live counters at /metrics on its port.

  --host          the address to listen on (default 127.0.0.1); another than a loopback
                  address needs --allow-remote
  --port          the port (default ${DEFAULT_METRICS_PORT}; 0 picks a free one)

With --push, sends the same numbers once to a Prometheus Pushgateway instead, with
HTTP PUT to URL/metrics/job/JOB/instance/NAME/caller/NAME: the push replaces that
group, so pushing again (from cron, say) is safe. The grouping labels win: the
ledger's own caller label is pushed as exported_caller. Credentials in the URL
(https://user:pass@host) are sent as basic auth.

  --push          the Pushgateway's URL, like http://127.0.0.1:9091
  --job           the job label (default rtok)
  --instance      the instance label (default this machine's host name)
  --caller        the caller label (default $USER, else "unknown")
`;

/**
 * Serves the ledger's metrics until SIGINT or SIGTERM, or pushes them once with `--push`;
 * returns the exit code.
 */
export async function main(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "allow-remote": { type: "boolean" },
      push: { type: "string" },
      job: { type: "string" },
      instance: { type: "string" },
      caller: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    await print(METRICS_HELP);
    return 0;
  }
  const serving = ["host", "port", "allow-remote"] as const;
  const pushing = ["job", "instance", "caller"] as const;
  if (values.push !== undefined) {
    const both = serving.find((f) => values[f] !== undefined);
    if (both) {
      throw new TypeError(
        `--push sends the metrics once and listens on nothing; drop --${both}, or drop --push to serve them`,
      );
    }
    // What the hook and the runs left in the spool is pushed too: moved into the ledger first
    // (a ledger that does not exist is not made: there is nothing to push).
    const b = await boot();
    const store = b.home && pathExists(storePath(b.home), false) ? await openStore(b) : null;
    if (store) {
      try {
        await drain(b, store);
      } finally {
        store.close();
      }
    }
    const pushed = await pushLedger(storePath(rtokHome()), {
      url: values.push,
      job: values.job ?? "rtok",
      instance: values.instance ?? defaultInstance(),
      caller: values.caller ?? defaultCaller(),
    });
    await print(`rtok metrics: pushed ${pushed.samples} samples to ${pushed.url}\n`);
    return 0;
  }
  const stray = pushing.find((f) => values[f] !== undefined);
  if (stray) throw new TypeError(`--${stray} names the group of a push; add --push URL`);
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
  const { families, error } = _ledgerFamilies(path);
  return { text: renderFamilies(families), error };
}

function _ledgerFamilies(path: string): { families: MetricFamily[]; error: string | null } {
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    return { families: [_readable(1), ..._families(db)], error: null };
  } catch (e) {
    return { families: [_readable(0)], error: (e as Error).message };
  } finally {
    try {
      db?.close();
    } catch { /* the read is done */ }
  }
}

/** Where `rtok metrics --push` sends the ledger, and the group it fills there. */
export interface PushTarget {
  /** The Pushgateway's base URL (a trailing `/` is fine). */
  readonly url: string;
  /** The `job` label. */
  readonly job: string;
  /** The `instance` label. */
  readonly instance: string;
  /** The `caller` label. */
  readonly caller: string;
}

/** What one push sent. */
export interface Pushed {
  /** The group's URL, without credentials. */
  readonly url: string;
  /** How many sample lines the body held. */
  readonly samples: number;
}

/** How long a push waits for the Pushgateway's answer. */
export const PUSH_TIMEOUT_MS = 15_000;

/**
 * PUTs the ledger at `path` to the Pushgateway group `target` names, replacing what that
 * group held. Labels of the ledger's own that the grouping key also names are renamed
 * `exported_<name>`, since the Pushgateway would overwrite them with the key's values (and
 * then reject the samples that became duplicates). Throws an `Error` of one line when the
 * ledger cannot be read (nothing is pushed: the group keeps its last values) or the push
 * fails.
 */
export async function pushLedger(path: string, target: PushTarget): Promise<Pushed> {
  const group: [string, string][] = [
    ["job", target.job],
    ["instance", target.instance],
    ["caller", target.caller],
  ];
  const { url, authorization } = pushUrl(target.url, group);
  const { families, error } = _ledgerFamilies(path);
  if (error !== null) {
    throw new Error(`cannot read the ledger at ${path} (${error}); nothing pushed to ${url}`);
  }
  const taken = new Set(group.map(([name]) => name));
  const body = renderFamilies(families.map((f) => _renameLabels(f, taken)));
  const samples = body.split("\n").filter((l) => l !== "" && !l.startsWith("#")).length;
  const headers: Record<string, string> = { "content-type": METRICS_CONTENT_TYPE };
  if (authorization) headers.authorization = authorization;
  let res: Response;
  try {
    res = await fetch(url, {
      method: "PUT",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
  } catch (e) {
    const why = (e as Error).name === "TimeoutError"
      ? `no answer within ${PUSH_TIMEOUT_MS / 1000} s`
      : _innermost(e as Error);
    throw new Error(
      `could not push to ${url}: ${why}; check that a Pushgateway listens at --push`,
    );
  }
  const text = await res.text().catch(() => "");
  if (res.status < 200 || res.status > 299) {
    // The Pushgateway's reasons can run over lines ("2 error(s) occurred:" then a list): one
    // line of them, cut, keeps the message one line and still says which metric.
    const said = text.replace(/\s+/g, " ").trim();
    const first = said.length > 300 ? `${said.slice(0, 299)}…` : said;
    const moved = res.headers.get("location");
    const why = moved ? `, to ${moved}` : first ? `: ${first}` : "";
    throw new Error(
      `the Pushgateway at ${url} answered ${res.status}${why}; ${_advice(res.status)}`,
    );
  }
  return { url, samples };
}

/**
 * The URL of the Pushgateway group `group` (the `job` pair first) under `base`, without the
 * credentials `base` may hold, and the basic-auth header those make.
 */
export function pushUrl(
  base: string,
  group: readonly (readonly [string, string])[],
): { url: string; authorization: string | null } {
  let parsed: URL;
  try {
    parsed = new URL(base);
  } catch {
    throw new TypeError(`--push "${base}": expected a URL like http://127.0.0.1:9091`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(`--push "${base}": expected an http:// or https:// URL`);
  }
  if (parsed.search || parsed.hash) {
    throw new TypeError(`--push "${base}": the URL takes no ?query or #fragment`);
  }
  const authorization = parsed.username || parsed.password
    ? `Basic ${
      _base64(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`)
    }`
    : null;
  parsed.username = "";
  parsed.password = "";
  return { url: parsed.href.replace(/\/+$/, "") + groupingPath(group), authorization };
}

/**
 * The Pushgateway path of a grouping key, `/metrics/job/<job>{/<label>/<value>}`: each value
 * URI-encoded, or `<label>@base64/<URL-safe base64>` when it is empty (`=`), holds a `/`, or is
 * `.` or `..` (which a URL's path would resolve away). `job` must come first and not be empty.
 */
export function groupingPath(group: readonly (readonly [string, string])[]): string {
  if (group.length === 0 || group[0][0] !== "job") {
    throw new TypeError("a Pushgateway grouping key starts with job");
  }
  if (group[0][1] === "") throw new TypeError("--job: the job name cannot be empty");
  const seen = new Set<string>();
  let path = "/metrics";
  for (const [name, value] of group) {
    if (!_LABEL_NAME.test(name) || name.startsWith("__")) {
      throw new TypeError(`"${name}" is not a label name the Pushgateway takes`);
    }
    if (seen.has(name)) throw new TypeError(`label ${name} twice in the grouping key`);
    seen.add(name);
    path += value === "" || value.includes("/") || value === "." || value === ".."
      ? `/${name}@base64/${value === "" ? "=" : _base64Url(value)}`
      : `/${name}/${encodeURIComponent(value)}`;
  }
  return path;
}

/**
 * This machine's host name: `Deno.hostname()` where `sys` is granted, else the kernel's (on
 * Linux, through `read`), else `unknown`. Never prompts.
 */
export function defaultInstance(): string {
  if (_granted({ name: "sys", kind: "hostname" })) {
    try {
      const name = Deno.hostname().trim();
      if (name) return name;
    } catch { /* fall through to the files */ }
  }
  for (const file of ["/proc/sys/kernel/hostname", "/etc/hostname"]) {
    if (!_granted({ name: "read", path: file })) continue;
    try {
      const name = Deno.readTextFileSync(file).trim();
      if (name) return name;
    } catch { /* not this system's */ }
  }
  return "unknown";
}

/** `$USER` where it is set and readable, else `unknown`. Never prompts. */
export function defaultCaller(): string {
  if (!_granted({ name: "env", variable: "USER" })) return "unknown";
  return Deno.env.get("USER")?.trim() || "unknown";
}

const _LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

// Querying first: a revoked permission is back at "prompt", and a push must not stop to ask.
function _granted(desc: Deno.PermissionDescriptor): boolean {
  try {
    return Deno.permissions.querySync(desc).state === "granted";
  } catch {
    return false;
  }
}

function _renameLabels(f: MetricFamily, taken: ReadonlySet<string>): MetricFamily {
  if (!f.samples.some((s) => Object.keys(s.labels).some((k) => taken.has(k)))) return f;
  const samples = f.samples.map((s) => ({
    ...s,
    labels: Object.fromEntries(
      Object.entries(s.labels).map(([k, v]) => [taken.has(k) ? `exported_${k}` : k, v]),
    ),
  }));
  return { ...f, samples };
}

function _base64(text: string): string {
  let bin = "";
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin);
}

function _base64Url(text: string): string {
  return _base64(text).replace(/\+/g, "-").replace(/\//g, "_");
}

// Deno's fetch says "fetch failed" and keeps the reason in its causes, as "a: b: c" with the
// URL in front; the last two parts say what happened ("tcp connect error: Connection refused").
function _innermost(e: Error): string {
  let deepest = e;
  while (deepest.cause instanceof Error) deepest = deepest.cause;
  const parts = deepest.message.split(/:\s+/).filter((p) => p.trim() !== "");
  return parts.slice(-2).join(": ").trim() || e.message;
}

function _advice(status: number): string {
  if (status === 400) {
    return "the Pushgateway refused the samples (see its log); another group may hold the same names with other types";
  }
  if (status === 401 || status === 403) {
    return "it wants credentials: put them in the URL (https://user:pass@host)";
  }
  if (status === 404 || status === 405) {
    return "is --push the Pushgateway's base URL (with its route prefix, if it has one)?";
  }
  if (status >= 300 && status < 400) return "give --push the URL it redirects to";
  return "try again, or see the Pushgateway's log";
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

function _families(db: DatabaseSync): MetricFamily[] {
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
  for (const r of totalsBySurface(db)) {
    const s = [r.surface];
    runs.inc(s, r.runs);
    raw.inc(s, r.raw);
    emitted.inc(s, r.emitted);
    saved.inc(s, r.raw - r.emitted);
  }
  const family = _gauge(
    "rtok_ledger_family_saved_tokens",
    "Estimated tokens saved by each filter family that saved any.",
    ["family"],
  );
  for (const r of savedByFamily(db)) family.inc([r.family], r.saved);
  const failures = _gauge("rtok_ledger_filter_failures", "Filter failures recorded.", []);
  failures.inc([], failureCount(db));
  // The callers with the most requests keep their name, as in the proxy's live metrics; the
  // rest are summed as one, so a gateway with many keys does not make many series.
  const proxy = proxyMetricRows(db, DEFAULT_MAX_CALLERS);
  const kept = new Set(proxy.topCallers);
  const caller = (r: { caller: string }) => kept.has(r.caller) ? r.caller : OTHER_CALLERS;
  const requests = _gauge(
    "rtok_ledger_proxy_requests",
    "Proxy requests in the ledger, by provider, model, route, HTTP status and caller.",
    ["provider", "model", "route", "status", "caller"],
  );
  for (const r of proxy.requests) {
    requests.inc([r.provider, r.model, r.route, String(r.status), caller(r)], r.n);
  }
  const tokens = _gauge(
    "rtok_ledger_proxy_tokens",
    "Tokens the providers reported for proxy requests, by kind and caller; count_tokens not " +
      "counted.",
    ["provider", "model", "kind", "caller"],
  );
  for (const r of proxy.tokens) {
    for (const kind of TOKEN_KINDS) {
      const n = r[kind];
      if (n > 0) tokens.inc([r.provider, r.model, kind, caller(r)], n);
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
  const provider = perProvider.map(([name, help, column]) => {
    const g = _gauge(name, help, ["provider", "caller"]);
    for (const r of proxy.results) g.inc([r.provider, caller(r)], r[column]);
    return g.family();
  });
  const tokensSaved = _gauge(
    "rtok_ledger_proxy_estimated_tokens_saved",
    "Tokens the proxy's compression removed, estimated by each result's text class.",
    ["provider", "caller"],
  );
  for (const r of proxy.saved) tokensSaved.inc([r.provider, caller(r)], r.saved);
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
