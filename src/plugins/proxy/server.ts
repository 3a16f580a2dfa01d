/**
 * The proxy's request handler: compress the tool results of a model request, forward it, and
 * pass the response back byte for byte while reading its usage from a copy. Everything it
 * needs from the rest of rtok (the plugins, the ledger) comes in as {@linkcode ProxyDeps}, so
 * tests drive it directly.
 *
 * @module
 */

import { isUtf8 } from "node:buffer";
import type { ProxyReport, ProxyRequest, ProxyResult } from "../../core/plugin.ts";
import { errorResponse, withoutQueryKeys } from "./errors.ts";
import { ANONYMOUS, TOKEN_HEADER, tokenMatches, tokenOf } from "./gateway.ts";
import { ProxyMetrics } from "./metrics.ts";
import { BodyRequest } from "./request.ts";
import { type Provider, type Route, routeOf, upstreamUrl } from "./routes.ts";
import { UsageReader } from "./usage.ts";
import type { ProxyRow } from "./row.ts";

export type { ProxyRow } from "./row.ts";

/** Bodies over this are forwarded untouched, never held whole. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The default wait for an upstream's response headers (a long answer may take minutes). */
export const DEFAULT_HEADER_TIMEOUT_MS = 600_000;

/** What `GET /readyz` reports: ready, and each check's verdict (`ok` or why not). */
export interface Readiness {
  /** True when every check passed. */
  readonly ready: boolean;
  /** Each check's name and verdict. */
  readonly checks: Readonly<Record<string, string>>;
}

/** What the handler is given. */
export interface ProxyDeps {
  /** Upstream base URLs. */
  readonly upstreams: Readonly<Record<Provider, string>>;
  /** How long to wait for an upstream's response headers. */
  readonly headerTimeoutMs?: number;
  /** Bodies over this many bytes are forwarded untouched. */
  readonly maxBodyBytes?: number;
  /**
   * Changes a request body in place (the plugins); the reports say what each did. The request
   * holds the body as bytes, so a plugin that reads only `bytes` never decodes it.
   */
  transform(req: ProxyRequest): Promise<readonly ProxyReport[]>;
  /** Keeps a finished request's row; must not throw. */
  record(row: ProxyRow): void;
  /**
   * Counts every finished request and answers `GET /metrics` (a new, empty set by default):
   * in memory, since the handler was made.
   */
  readonly metrics?: ProxyMetrics;
  /**
   * The gateway token every request but `/healthz` and `/readyz` must carry in
   * `x-rtok-token`; none asked when absent.
   */
  readonly token?: string | null;
  /** Names a request's caller (`anonymous` when absent). */
  callerOf?(headers: Headers, url: URL): Promise<string>;
  /** Answers `GET /readyz` (always ready when absent). */
  ready?(): Promise<Readiness>;
  /** Aborted when in-flight requests must end now (a shutdown's deadline passed). */
  readonly cutoff?: AbortSignal;
  /** Request bodies compressed at once (default 8); the others wait their turn. */
  readonly maxPreparing?: number;
}

// Runs at most `max` tasks at once, the rest in arrival order.
class _Limit {
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  constructor(readonly max: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.max) {
      await new Promise<void>((r) => this.#waiting.push(r));
    } else this.#running++;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

// Hop-by-hop headers, and those the proxy sets itself, never cross it.
const DROP_REQUEST = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
  "accept-encoding",
]);
const DROP_RESPONSE = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "trailer",
  "upgrade",
  "content-length",
]);

/** A handler for `Deno.serve`. */
export function proxyHandler(deps: ProxyDeps): (req: Request) => Promise<Response> {
  const limit = deps.maxBodyBytes ?? MAX_BODY_BYTES;
  const timeoutMs = deps.headerTimeoutMs ?? DEFAULT_HEADER_TIMEOUT_MS;
  const metrics = deps.metrics ?? new ProxyMetrics();
  const preparing = new _Limit(deps.maxPreparing ?? 8);
  const record = (row: ProxyRow) => {
    try {
      metrics.observe(row);
    } catch { /* a metric never costs a request its row */ }
    deps.record(row);
  };
  return async (req) => {
    const t0 = performance.now();
    const ts = Date.now();
    const url = new URL(req.url);
    // Answered here, before anything is read or forwarded: no model API has these paths.
    if (req.method === "GET" && url.pathname === "/healthz") {
      return Response.json({ status: "ok" });
    }
    if (req.method === "GET" && url.pathname === "/readyz") {
      const r = deps.ready ? await deps.ready() : { ready: true, checks: {} };
      return Response.json(r, { status: r.ready ? 200 : 503 });
    }
    const route = routeOf(req.method, url.pathname, req.headers, url.searchParams);
    if (deps.token && !tokenMatches(tokenOf(req.headers, url.pathname), deps.token)) {
      await req.body?.cancel().catch(() => {});
      return errorResponse(
        route.provider,
        401,
        `rtok proxy: missing or wrong gateway token (send it in the ${TOKEN_HEADER} header)`,
      );
    }
    if (req.method === "GET" && url.pathname === "/metrics") return metrics.response();
    const caller = deps.callerOf ? await deps.callerOf(req.headers, url) : ANONYMOUS;
    const prepared = await _prepareBody(req, route, limit, deps, preparing);
    const headers = new Headers();
    // The gateway's own headers (token, caller, x-rtok: off) never reach the provider.
    for (const [k, v] of req.headers) {
      if (!DROP_REQUEST.has(k) && !k.startsWith("x-rtok")) headers.set(k, v);
    }
    // Asked for plainly: a compressed answer would be decoded by fetch and no longer be the
    // upstream's bytes.
    headers.set("accept-encoding", "identity");
    const target = upstreamUrl(deps.upstreams[route.provider], url);
    const abort = new AbortController();
    const cutoff = () => abort.abort(new Error("the proxy is shutting down"));
    if (deps.cutoff?.aborted) cutoff();
    deps.cutoff?.addEventListener("abort", cutoff, { once: true });
    const release = () => deps.cutoff?.removeEventListener("abort", cutoff);
    const timer = setTimeout(
      () => abort.abort(new Deno.errors.TimedOut(`no answer in ${timeoutMs} ms`)),
      timeoutMs,
    );
    const base: Omit<ProxyRow, "status" | "streamed" | "latencyMs" | "durationMs" | "usage"> = {
      ts,
      provider: route.provider,
      route: route.name,
      resultsSeen: prepared.resultsSeen,
      charsSeen: prepared.charsSeen,
      charsSaved: prepared.charsSaved,
      results: prepared.results,
      note: prepared.note,
      style: prepared.style,
      addedMs: performance.now() - t0,
      caller,
    };
    let upstream: Response;
    try {
      upstream = await fetch(target, {
        method: req.method,
        headers,
        body: prepared.body,
        redirect: "manual",
        signal: abort.signal,
      });
    } catch (e) {
      clearTimeout(timer);
      release();
      const reason = abort.signal.aborted ? abort.signal.reason : e;
      // The message may quote the URL, and a Gemini client's `?key=` with it.
      const why = reason instanceof Deno.errors.TimedOut
        ? reason.message
        : `unreachable (${withoutQueryKeys((reason as Error).message ?? String(reason))})`;
      const ms = performance.now() - t0;
      record({
        ...base,
        status: 502,
        streamed: false,
        latencyMs: ms,
        durationMs: ms,
        usage: {
          ...new UsageReader(route.provider, false).finish(),
          model: route.model ?? prepared.model,
        },
        note: base.note ?? `upstream ${why}`,
      });
      return errorResponse(
        route.provider,
        502,
        `rtok proxy: upstream ${deps.upstreams[route.provider]} ${why}`,
      );
    }
    clearTimeout(timer);
    const latencyMs = performance.now() - t0;
    const outHeaders = new Headers();
    for (const [k, v] of upstream.headers) if (!DROP_RESPONSE.has(k)) outHeaders.set(k, v);
    const streamed = (upstream.headers.get("content-type") ?? "").includes("text/event-stream");
    const reader = new UsageReader(route.provider, streamed);
    const finish = (note: string | null) => {
      release();
      const usage = reader.finish();
      // A model the path names (Gemini's) is the row's; else the answer's, else the body's.
      if (route.model) usage.model = route.model;
      if (!usage.model) usage.model = prepared.model;
      record({
        ...base,
        status: upstream.status,
        streamed,
        latencyMs,
        durationMs: performance.now() - t0,
        usage,
        note: base.note ?? note,
      });
    };
    if (!upstream.body) {
      finish(null);
      return new Response(null, {
        status: upstream.status,
        statusText: upstream.statusText,
        headers: outHeaders,
      });
    }
    const source = upstream.body.getReader();
    let done = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await source.read();
        } catch (e) {
          if (done) return;
          done = true;
          finish(`upstream stream failed: ${(e as Error).message}`);
          controller.error(e);
          return;
        }
        if (chunk.done) {
          done = true;
          controller.close();
          finish(null);
          return;
        }
        reader.push(chunk.value);
        controller.enqueue(chunk.value);
      },
      async cancel() {
        // The client went away: the upstream request is cancelled with it.
        if (!done) {
          done = true;
          finish("client disconnected");
        }
        abort.abort(new Error("the client went away"));
        await source.cancel().catch(() => {});
      },
    }, { highWaterMark: 0 });
    return new Response(body, {
      status: upstream.status,
      statusText: upstream.statusText,
      headers: outHeaders,
    });
  };
}

/** The body to forward and what was done to it. */
interface Prepared {
  readonly body: BodyInit | null;
  readonly model: string | null;
  readonly resultsSeen: number;
  readonly charsSeen: number;
  readonly charsSaved: number;
  readonly results: readonly ProxyResult[];
  readonly note: string | null;
  readonly style: string | null;
}

// Not fatal: the head of a body may end inside a character.
const UTF8_HEAD = new TextDecoder("utf-8", { ignoreBOM: true });

const UNTOUCHED = {
  model: null,
  resultsSeen: 0,
  charsSeen: 0,
  charsSaved: 0,
  results: [],
  style: null,
};

// Reads the body (up to `limit`) and lets the plugins change it. A body the proxy may not or
// cannot read goes upstream as it came, streamed when it is large.
async function _prepareBody(
  req: Request,
  route: Route,
  limit: number,
  deps: ProxyDeps,
  preparing: _Limit,
): Promise<Prepared> {
  if (!req.body) return { ...UNTOUCHED, body: null, note: null };
  if ((req.headers.get("x-rtok") ?? "").trim().toLowerCase() === "off") {
    return { ...UNTOUCHED, body: req.body, note: "bypass (x-rtok: off)" };
  }
  if (route.api === null) return { ...UNTOUCHED, body: req.body, note: null };
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > limit) {
    return { ...UNTOUCHED, body: req.body, note: `body over ${limit} bytes` };
  }
  // Read chunk by chunk, so a body that turns out larger than declared is never held whole. A
  // declared length is read so too: whole at once (`arrayBuffer()`), a 1 MB body often waited
  // several ms more for its last bytes (the added latency's p50 was 4.0-4.7 ms, not 2.1-2.6).
  const read = await _readUpTo(req.body, limit, Number.isSafeInteger(declared) ? declared : null);
  if (read.rest) {
    return { ...UNTOUCHED, body: read.rest, note: `body over ${limit} bytes` };
  }
  // Validated without decoding: the body becomes a string only if a plugin reads it as one.
  if (!isUtf8(read.bytes)) {
    return { ...UNTOUCHED, body: read.bytes, note: "body not UTF-8" };
  }
  const model = _requestModel(read.bytes);
  const request = new BodyRequest(route.api, read.bytes);
  // At most a few bodies are decoded and compressed at once: one JS thread does the work
  // either way, and a burst of large requests waits as a queue instead of all being decoded
  // at the same time. Reading a body takes no turn, so a slow client holds no one up.
  const reports = await preparing.run(() => deps.transform(request));
  let seen = 0, chars = 0, saved = 0;
  const results: ProxyResult[] = [];
  let note: string | null = null;
  let style: string | null = null;
  for (const r of reports) {
    seen += r.resultsSeen;
    chars += r.charsSeen;
    saved += r.charsSaved;
    results.push(...r.results);
    note ??= r.note ?? null;
    style ??= r.style ?? null;
  }
  return {
    body: request.encoded(),
    model,
    resultsSeen: seen,
    charsSeen: chars,
    charsSaved: saved,
    results,
    note,
    style,
  };
}

// Reads a stream into one buffer, or, past `limit`, a stream of everything (what was read
// and what was not) to forward as it is. With a declared length, each chunk is copied into a
// buffer of that size as it comes, so a body is held once, not as chunks and then as a copy.
async function _readUpTo(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  declared: number | null,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; rest: null } | { bytes: null; rest: ReadableStream }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let into = declared !== null && declared >= 0 && declared <= limit
    ? new Uint8Array(declared)
    : null;
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    if (into && size + value.byteLength <= into.byteLength) into.set(value, size);
    else {
      // More than declared: keep chunks from here on (the buffer's part is one of them).
      if (into) chunks.push(into.subarray(0, size));
      into = null;
      chunks.push(value);
    }
    size += value.byteLength;
    if (size > limit) {
      const rest = new ReadableStream<Uint8Array>({
        pull: async (c) => {
          const next = chunks.shift();
          if (next) return c.enqueue(next);
          const r = await reader.read();
          if (r.done) c.close();
          else c.enqueue(r.value);
        },
        cancel: (why) => reader.cancel(why),
      });
      return { bytes: null, rest };
    }
  }
  if (into) return { bytes: size === into.byteLength ? into : into.slice(0, size), rest: null };
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { bytes, rest: null };
}

// The top-level `model` a request names, for the ledger when the answer does not say. A key
// inside a string is escaped (`\"model\"`), so an unescaped one is a real key; the first one
// found in the first 4096 chars of the body is taken. 3 × 4096 + 3 bytes hold at least 4096
// whole chars (a char of n ≤ 3 bytes is one, of 4 bytes two), so the slice never reaches a
// char the cut split.
function _requestModel(bytes: Uint8Array): string | null {
  const head = UTF8_HEAD.decode(bytes.subarray(0, 3 * 4096 + 3)).slice(0, 4096);
  const m = /(?<!\\)"model"\s*:\s*"([^"\\]{1,200})"/.exec(head);
  return m ? m[1] : null;
}
