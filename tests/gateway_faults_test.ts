/**
 * The gateway under faults, end to end: real `rtok proxy` processes in front of a loopback
 * stand-in that rate-limits and breaks some answers, an instance killed mid-stream, a ledger
 * locked while requests flow, and requests without the gateway token.
 *
 * @module
 */

import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { parseSpool, spoolPath } from "../src/core/spool.ts";
import { rtok, tempDir } from "./_helpers.ts";
import { concat, DEFAULT_ANSWER, type Received, startProxy, startUpstream } from "./_upstream.ts";

const ENC = new TextEncoder();

/** What a client got: the status (0 when no answer came), the bytes read, the error if any. */
interface Outcome {
  readonly status: number;
  readonly bytes: Uint8Array;
  readonly error: string | null;
}

// The request numbered `i`: its model names it, so the stand-in and the ledger can tell the
// requests apart.
function _body(i: number, stream: boolean): string {
  return JSON.stringify({
    model: `m-${i}`,
    max_tokens: 5,
    stream,
    messages: [{ role: "user", content: `request ${i}` }],
  });
}

function _index(text: string): number {
  const m = /^m-(\d+)$/.exec(JSON.parse(text).model ?? "");
  if (!m) throw new Error(`not a numbered request: ${text.slice(0, 80)}`);
  return Number(m[1]);
}

function _post(
  proxy: string,
  i: number,
  stream: boolean,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${proxy}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "sk-ant-test", ...headers },
    body: _body(i, stream),
  });
}

// Reads an answer to its end, keeping what arrived before an error.
async function _read(answer: Promise<Response>, first?: () => void): Promise<Outcome> {
  let status = 0;
  const chunks: Uint8Array[] = [];
  try {
    const res = await answer;
    status = res.status;
    if (res.body) {
      const reader = res.body.getReader();
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        if (chunks.length === 1) first?.();
      }
    }
    return { status, bytes: concat(chunks), error: null };
  } catch (e) {
    return { status, bytes: concat(chunks), error: (e as Error).message };
  }
}

// The stand-in's ordinary answer to request `i`, as bytes: what a client must get unchanged.
async function _expected(i: number, stream: boolean): Promise<Uint8Array> {
  const text = _body(i, stream);
  const req: Received = {
    method: "POST",
    path: "/v1/messages",
    headers: {},
    body: ENC.encode(text),
    text,
  };
  return new Uint8Array(await (await DEFAULT_ANSWER(req)).arrayBuffer());
}

function _rateLimited(i: number): string {
  return JSON.stringify({
    type: "error",
    error: { type: "rate_limit_error", message: `request ${i}: slow down` },
  });
}

// `full` cut to its first half, then the connection dropped: the stand-in errors the body, so
// the server closes the connection mid-answer.
async function _resetMidBody(full: Response): Promise<Response> {
  const bytes = new Uint8Array(await full.arrayBuffer());
  let sentHalf = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (!sentHalf) {
        sentHalf = true;
        c.enqueue(bytes.subarray(0, bytes.length >> 1));
        return;
      }
      await new Promise((r) => setTimeout(r, 5));
      c.error(new Error("the stand-in dropped the connection"));
    },
  });
  return new Response(body, { status: full.status, headers: full.headers });
}

// True when `got` is a strict beginning of `full` (possibly empty).
function _truncated(got: Uint8Array, full: Uint8Array): boolean {
  return got.length < full.length && got.every((b, k) => full[k] === b);
}

/**
 * A second stand-in that reads each request whole and closes the connection without a byte of
 * answer: the upstream reset before its headers, which the proxy must answer with a 502.
 */
function _resettingUpstream(): { url: string; received(): number } & AsyncDisposable {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let received = 0;
  const handling = new Set<Promise<void>>();
  const accepting = (async () => {
    for await (const conn of listener) {
      const h = _readRequest(conn).then(() => void received++, () => {}).finally(() => {
        try {
          conn.close();
        } catch { /* closed by the peer */ }
        handling.delete(h);
      });
      handling.add(h);
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    received: () => received,
    async [Symbol.asyncDispose]() {
      listener.close();
      await accepting;
      await Promise.all(handling);
    },
  };
}

// Reads one HTTP/1.1 request (head, then a body of content-length bytes or chunked).
async function _readRequest(conn: Deno.Conn): Promise<void> {
  let bytes: Uint8Array = new Uint8Array();
  const buf = new Uint8Array(16 * 1024);
  const text = () => new TextDecoder().decode(bytes);
  while (true) {
    const t = text();
    const end = t.indexOf("\r\n\r\n");
    if (end >= 0) {
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(t.slice(0, end));
      if (length && bytes.length >= end + 4 + Number(length[1])) return;
      if (!length && t.endsWith("0\r\n\r\n")) return;
    }
    const n = await conn.read(buf);
    if (n === null) throw new Error("the request ended early");
    bytes = concat([bytes, buf.subarray(0, n)]);
  }
}

interface LedgerRequest {
  readonly model: string | null;
  readonly status: number;
  readonly note: string | null;
}

// Every `proxy_requests` row of `home`, read once (the proxy has stopped).
function _rows(home: string): LedgerRequest[] {
  const db = new DatabaseSync(`${home}/rtok.db`, { readOnly: true });
  try {
    return db.prepare("SELECT model, status, note FROM proxy_requests ORDER BY id")
      .all() as unknown as LedgerRequest[];
  } finally {
    db.close();
  }
}

function _models(rows: readonly LedgerRequest[]): string[] {
  return rows.map((r) => r.model ?? "(none)").sort();
}

function _numbered(from: number, to: number): string[] {
  const out: string[] = [];
  for (let i = from; i <= to; i++) out.push(`m-${i}`);
  return out.sort();
}

// The `proxy.request` entries still waiting in the spool of `home`.
function _spooledRequests(home: string): number {
  let text: string;
  try {
    text = Deno.readTextFileSync(spoolPath(home));
  } catch {
    return 0;
  }
  return parseSpool(text).entries.filter((e) => e.kind === "proxy.request").length;
}

Deno.test({
  name:
    "rtok proxy under load: 429s pass through exact, reset answers fail, every request one ledger row",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    const N = 100;
    await using up = startUpstream(async (req) => {
      const i = _index(req.text);
      if (i % 7 === 0) {
        return new Response(_rateLimited(i), {
          status: 429,
          headers: { "content-type": "application/json", "retry-after": "3" },
        });
      }
      const full = await DEFAULT_ANSWER(req);
      return i % 11 === 0 ? _resetMidBody(full) : full;
    });
    // Every 13th request goes to Gemini, whose upstream resets every connection unanswered.
    await using gone = _resettingUpstream();
    const toGemini = (i: number) => i % 13 === 0;
    const proxy = await startProxy(tmp.path, up.url, ["--gemini-upstream", gone.url]);
    try {
      // Odd requests stream, even ones do not: both kinds are rate-limited and reset.
      const outcomes = await Promise.all(
        Array.from({ length: N }, (_, k) => {
          const i = k + 1;
          return _read(
            toGemini(i)
              ? fetch(`${proxy.url}/v1beta/models/m-${i}:generateContent`, {
                method: "POST",
                headers: { "content-type": "application/json", "x-goog-api-key": "g-test" },
                body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: `${i}` }] }] }),
              })
              : _post(proxy.url, i, i % 2 === 1),
          );
        }),
      );
      for (let i = 1; i <= N; i++) {
        const got = outcomes[i - 1];
        const full = await _expected(i, i % 2 === 1);
        if (toGemini(i)) {
          strictEqual(got.status, 502, `request ${i} (reset before an answer)`);
          strictEqual(got.error, null, `request ${i}`);
          match(JSON.parse(new TextDecoder().decode(got.bytes)).error.message, /^rtok proxy: /);
        } else if (i % 7 === 0) {
          strictEqual(got.status, 429, `request ${i}`);
          strictEqual(got.error, null, `request ${i}`);
          strictEqual(new TextDecoder().decode(got.bytes), _rateLimited(i), `request ${i}`);
        } else if (i % 11 === 0) {
          // A 502 from the proxy, or the upstream's start and then an error: never a whole body.
          ok(
            got.status === 502 || (got.error !== null && _truncated(got.bytes, full)),
            `request ${i} (reset): ${JSON.stringify({ ...got, bytes: got.bytes.length })}`,
          );
        } else {
          strictEqual(got.error, null, `request ${i}`);
          strictEqual(got.status, 200, `request ${i}`);
          deepStrictEqual(got.bytes, full, `request ${i}: the stand-in's bytes`);
        }
      }
      const gemini = Array.from({ length: N }, (_, k) => k + 1).filter(toGemini).length;
      strictEqual(up.received.length, N - gemini, "the stand-in received each of its requests");
      strictEqual(gone.received(), gemini, "the resetting one each of its own");
    } finally {
      const stopped = await proxy.stop("SIGTERM");
      strictEqual(stopped.code, 0, `the proxy exits 0 on SIGTERM: ${proxy.stderr()}`);
    }
    const rows = _rows(tmp.path);
    strictEqual(
      rows.length,
      up.received.length + gone.received(),
      "one row per request the stand-ins received",
    );
    const reset = rows.filter((r) => r.status === 502);
    strictEqual(reset.length, gone.received(), "a 502 row per connection reset unanswered");
    deepStrictEqual(
      _models(rows.filter((r) => r.status !== 502)),
      _numbered(1, N).filter((m) => !toGemini(Number(m.slice(2)))),
      "no answered request missing, none counted twice",
    );
    for (const row of rows) {
      if (row.status === 502) continue;
      const i = Number(row.model!.slice(2));
      if (i % 7 === 0) strictEqual(row.status, 429, `row of request ${i}`);
      else if (i % 11 === 0) {
        ok(row.status === 502 || row.note !== null, `row of request ${i}: ${JSON.stringify(row)}`);
      } else {
        strictEqual(row.status, 200, `row of request ${i}`);
        strictEqual(row.note, null, `row of request ${i}`);
      }
    }
    const gain = await rtok(tmp.path, ["gain", "--format", "json"]);
    strictEqual(gain.code, 0, gain.err);
    const proxyGain = JSON.parse(gain.out).proxy;
    strictEqual(proxyGain.requests, rows.length, "rtok gain counts every row");
    strictEqual(proxyGain.errors, rows.filter((r) => r.status >= 400).length);
  },
});

Deno.test({
  name: "rtok proxy's row of an upstream reset unanswered names the model the request named",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using gone = _resettingUpstream();
    const proxy = await startProxy(tmp.path, gone.url, ["--gemini-upstream", gone.url]);
    try {
      strictEqual((await _read(_post(proxy.url, 1, false))).status, 502);
      const gemini = await _read(
        fetch(`${proxy.url}/v1beta/models/m-2:generateContent`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ contents: [] }),
        }),
      );
      strictEqual(gemini.status, 502);
    } finally {
      strictEqual((await proxy.stop("SIGTERM")).code, 0, proxy.stderr());
    }
    // Its body's model, and the model Gemini's path names, as for every answered request.
    deepStrictEqual(_models(_rows(tmp.path)), ["m-1", "m-2"], JSON.stringify(_rows(tmp.path)));
  },
});

Deno.test({
  name:
    "rtok proxy killed mid-stream: its clients see an error, the other instance's streams complete exact",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // Two instances of one gateway on one machine: one RTOK_HOME.
    using home = tempDir();
    const EVENTS = 20;
    const PER = 4;
    // The last event waits for the gate, so no stream through A can end before A is killed.
    const gate = Promise.withResolvers<void>();
    const event = (i: number, n: number) =>
      ENC.encode(`event: ping\ndata: {"type":"ping","request":${i},"n":${n}}\n\n`);
    const fullStream = (i: number) => concat(Array.from({ length: EVENTS }, (_, n) => event(i, n)));
    await using up = startUpstream((req) => {
      const i = _index(req.text);
      let n = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          if (n === EVENTS) return c.close();
          if (n === EVENTS - 1) await gate.promise;
          else await new Promise((r) => setTimeout(r, 50));
          c.enqueue(event(i, n++));
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    });
    const a = await startProxy(home.path, up.url);
    await using b = await startProxy(home.path, up.url);
    try {
      const firsts: Promise<void>[] = [];
      const clients = Array.from({ length: 2 * PER }, (_, i) => {
        const first = Promise.withResolvers<void>();
        firsts.push(first.promise);
        const via = i < PER ? a.url : b.url;
        return _read(_post(via, i, true), first.resolve);
      });
      // Every stream is in flight (its first event arrived) when A dies.
      await Promise.race([
        Promise.all(firsts),
        Promise.all(clients).then(() => {
          throw new Error("a stream ended before its first event");
        }),
      ]);
      const killed = await a.stop("SIGKILL");
      strictEqual(killed.signal, "SIGKILL");
      gate.resolve();
      const got = await Promise.all(clients);
      for (let i = 0; i < PER; i++) {
        const o = got[i];
        strictEqual(o.status, 200, `A's client ${i}`);
        ok(o.bytes.length > 0, `A's client ${i} had its first event`);
        ok(
          _truncated(o.bytes, fullStream(i)),
          `A's client ${i} got a strict beginning of the stream, never all of it`,
        );
        ok(o.error !== null, `A's client ${i}: its stream ends with an error, not cleanly`);
      }
      for (let i = PER; i < 2 * PER; i++) {
        strictEqual(got[i].error, null, `B's client ${i}`);
        strictEqual(got[i].status, 200, `B's client ${i}`);
        deepStrictEqual(got[i].bytes, fullStream(i), `B's client ${i}: the stand-in's bytes`);
      }
      const after = await _read(_post(b.url, 2 * PER, true));
      strictEqual(after.error, null, "B serves a new request after A died");
      deepStrictEqual(after.bytes, fullStream(2 * PER));
    } finally {
      await a.stop("SIGKILL");
    }
    strictEqual((await b.stop("SIGTERM")).code, 0, b.stderr());
    // A died before any of its requests ended: the rows are B's clients, then its one more.
    const rows = _rows(home.path);
    deepStrictEqual(_models(rows), _numbered(PER, 2 * PER), "B's rows");
    ok(rows.every((r) => r.status === 200 && r.note === null), JSON.stringify(rows));
  },
});

Deno.test({
  name:
    "rtok proxy with its ledger locked: requests are still answered, every one a row once unlocked",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    const proxy = await startProxy(tmp.path, up.url);
    // Far longer than the proxy waits for a lock (50 ms, src/surfaces/proxy.ts), so its writes
    // fail, not merely wait.
    const HOLD_MS = 3_000;
    const answered: { i: number; out: Outcome; sentAt: number; doneAt: number }[] = [];
    let next = 1, lockedAt = 0, releasedAt = 0, spooledWhileLocked = 0;
    const ask = async () => {
      const i = next++;
      const sentAt = performance.now();
      const out = await _read(_post(proxy.url, i, i % 2 === 1));
      answered.push({ i, out, sentAt, doneAt: performance.now() });
    };
    try {
      await ask();
      // The first request's row: the store exists, migrated, before it is locked.
      await _untilRows(tmp.path, 1);
      const lock = new DatabaseSync(`${tmp.path}/rtok.db`);
      try {
        lock.exec("BEGIN EXCLUSIVE");
        // A write of the test's own, so the lock is a writer's lock in any journal mode.
        lock.exec("CREATE TABLE _held_by_test (x)");
        lockedAt = performance.now();
        // Waves of concurrent requests until the lock has been held HOLD_MS.
        while (performance.now() - lockedAt < HOLD_MS) {
          await Promise.all([ask(), ask(), ask(), ask(), ask()]);
          await new Promise((r) => setTimeout(r, 200));
        }
        // Every row the proxy could not write is on disk, in the spool, before the lock goes:
        // nothing is left pending whose write would drain the spool before the shutdown does.
        const duringLock = answered.length - 1;
        for (let tries = 0; tries < 100 && spooledWhileLocked < duringLock; tries++) {
          await new Promise((r) => setTimeout(r, 50));
          spooledWhileLocked = _spooledRequests(tmp.path);
        }
      } finally {
        lock.exec("ROLLBACK");
        lock.close();
        releasedAt = performance.now();
      }
      // Nothing was written since, so only the shutdown can drain what is spooled.
      strictEqual(_spooledRequests(tmp.path), spooledWhileLocked, "still spooled before SIGTERM");
      for (const { i, out } of answered) {
        strictEqual(out.error, null, `request ${i}`);
        strictEqual(out.status, 200, `request ${i}`);
        deepStrictEqual(out.bytes, await _expected(i, i % 2 === 1), `request ${i}`);
      }
    } finally {
      const stopped = await proxy.stop("SIGTERM");
      strictEqual(stopped.code, 0, `the proxy exits 0 on SIGTERM: ${proxy.stderr()}`);
    }
    const rows = _rows(tmp.path);
    strictEqual(rows.length, answered.length, `one row per request: ${proxy.stderr()}`);
    deepStrictEqual(_models(rows), _numbered(1, answered.length), "none missing, none twice");
    ok(rows.every((r) => r.status === 200), JSON.stringify(rows.filter((r) => r.status !== 200)));
    strictEqual(spooledWhileLocked, answered.length - 1, "each row of the lock went to the spool");
    strictEqual(_spooledRequests(tmp.path), 0, "the spool was drained at shutdown");
    const during = answered.filter((x) => x.sentAt >= lockedAt && x.doneAt <= releasedAt);
    ok(during.length > 0, "requests were answered while the ledger was locked");
    // No request waits on the ledger: each sent while it was locked came back in well under
    // the time it stayed locked.
    const slowest = Math.max(
      ...answered.filter((x) => x.sentAt >= lockedAt && x.sentAt < releasedAt)
        .map((x) => x.doneAt - x.sentAt),
    );
    ok(
      slowest < (releasedAt - lockedAt) / 4,
      `the slowest answer during the lock took ${Math.round(slowest)} ms of the ` +
        `${Math.round(releasedAt - lockedAt)} ms it was held`,
    );
  },
});

Deno.test({
  name:
    "rtok proxy's spooled rows reach the ledger once each: next write, rtok gain, locked shutdown",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    const proxy = await startProxy(tmp.path, up.url);
    const send = async (from: number, to: number) => {
      for (let i = from; i <= to; i++) {
        const out = await _read(_post(proxy.url, i, false));
        deepStrictEqual(out.bytes, await _expected(i, false), `request ${i}`);
      }
    };
    const gainRequests = async () => {
      const gain = await rtok(tmp.path, ["gain", "--format", "json"]);
      strictEqual(gain.code, 0, gain.err);
      return JSON.parse(gain.out).proxy.requests;
    };
    const locked = () => {
      const lock = new DatabaseSync(`${tmp.path}/rtok.db`);
      lock.exec("BEGIN EXCLUSIVE");
      lock.exec(`CREATE TABLE _held_by_test_${crypto.randomUUID().slice(0, 8)} (x)`);
      return () => {
        lock.exec("ROLLBACK");
        lock.close();
      };
    };
    // Requests from..to while the ledger is locked; their rows wait in the spool.
    const spoolThrough = async (from: number, to: number) => {
      const release = locked();
      try {
        await send(from, to);
        const want = to - from + 1;
        for (let tries = 0; tries < 100 && _spooledRequests(tmp.path) < want; tries++) {
          await new Promise((r) => setTimeout(r, 50));
        }
        strictEqual(_spooledRequests(tmp.path), want, "the locked ledger's rows are spooled");
      } finally {
        release();
      }
    };
    try {
      await send(1, 1);
      await _untilRows(tmp.path, 1);
      await spoolThrough(2, 6);
      // The next row written drains the spool with it.
      await send(7, 7);
      await _untilRows(tmp.path, 7);
      strictEqual(_spooledRequests(tmp.path), 0, "drained by the next write");
      await spoolThrough(8, 12);
      // rtok gain drains the spool the running proxy filled: each request counted once.
      strictEqual(await gainRequests(), 12);
      strictEqual(_spooledRequests(tmp.path), 0, "drained by rtok gain");
      await send(13, 17);
      await _untilRows(tmp.path, 17);
      // Locked again, and SIGTERM while it is: the shutdown waits for the lock, or spools.
      let release = locked();
      try {
        await send(18, 22);
        const stopping = proxy.stop("SIGTERM");
        await new Promise((r) => setTimeout(r, 1_000));
        release();
        release = () => {};
        strictEqual((await stopping).code, 0, proxy.stderr());
      } finally {
        release();
      }
    } finally {
      await proxy.stop("SIGTERM");
    }
    strictEqual(await gainRequests(), 22, proxy.stderr());
    deepStrictEqual(_models(_rows(tmp.path)), _numbered(1, 22), "each request once");
  },
});

Deno.test({
  name:
    "rtok proxy with neither ledger nor spool writable keeps the rows and writes them once it can",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    const proxy = await startProxy(tmp.path, up.url);
    const N = 20;
    try {
      await _read(_post(proxy.url, 1, false));
      await _untilRows(tmp.path, 1);
      // A directory where the spool file goes: no append can open it, root or not.
      Deno.mkdirSync(spoolPath(tmp.path));
      const lock = new DatabaseSync(`${tmp.path}/rtok.db`);
      try {
        lock.exec("BEGIN EXCLUSIVE");
        lock.exec("CREATE TABLE _held_by_test (x)");
        // Requests 2..N, five at a time.
        for (let first = 2; first <= N; first += 5) {
          const wave = Array.from({ length: Math.min(5, N - first + 1) }, (_, k) => first + k);
          const outs = await Promise.all(wave.map((i) => _read(_post(proxy.url, i, i % 2 === 1))));
          for (const [k, out] of outs.entries()) {
            const i = wave[k];
            strictEqual(out.error, null, `request ${i}`);
            deepStrictEqual(out.bytes, await _expected(i, i % 2 === 1), `request ${i}`);
          }
        }
        // Readers still read while a writer holds the lock: nothing new was written.
        await new Promise((r) => setTimeout(r, 300));
        strictEqual(_rows(tmp.path).length, 1, "no row written while the ledger is locked");
      } finally {
        lock.exec("ROLLBACK");
        lock.close();
      }
      // The spool still cannot be written; the ledger can again, and the held rows reach it
      // while the proxy runs.
      await _untilRows(tmp.path, N);
      Deno.removeSync(spoolPath(tmp.path));
    } finally {
      const stopped = await proxy.stop("SIGTERM");
      strictEqual(stopped.code, 0, `the proxy exits 0 on SIGTERM: ${proxy.stderr()}`);
    }
    deepStrictEqual(_models(_rows(tmp.path)), _numbered(1, N), "each request once");
  },
});

Deno.test({
  name: "rtok proxy /readyz stays ready while the ledger is locked and the spool takes writes",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    await using proxy = await startProxy(tmp.path, up.url);
    await _read(_post(proxy.url, 1, false));
    await _untilRows(tmp.path, 1);
    const lock = new DatabaseSync(`${tmp.path}/rtok.db`);
    let ready: Response;
    try {
      lock.exec("BEGIN EXCLUSIVE");
      lock.exec("CREATE TABLE _held_by_test (x)");
      ready = await fetch(`${proxy.url}/readyz`);
    } finally {
      lock.exec("ROLLBACK");
      lock.close();
    }
    const body = await ready.text();
    // The spec's readiness: the store or the spool writable, and the upstreams reachable.
    strictEqual(ready.status, 200, `/readyz while the ledger is locked: ${body}`);
    strictEqual(JSON.parse(body).ready, true, body);
  },
});

// Waits (10 s at most) until `home`'s ledger holds `n` proxy rows.
async function _untilRows(home: string, n: number): Promise<void> {
  for (let tries = 0; tries < 400; tries++) {
    try {
      if (_rows(home).length >= n) return;
    } catch { /* not created yet */ }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`expected ${n} proxy rows in ${home}`);
}

Deno.test({
  name: "rtok proxy with RTOK_PROXY_TOKEN answers 401 in one line to a missing or wrong token",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    using tmp = tempDir();
    await using up = startUpstream();
    const token = `tok-${crypto.randomUUID()}`;
    await using proxy = await startProxy(tmp.path, up.url, [], { RTOK_PROXY_TOKEN: token });
    const MESSAGE =
      "rtok proxy: missing or wrong gateway token (send it in the x-rtok-token header)";
    const refused = async (res: Response, what: string) => {
      strictEqual(res.status, 401, what);
      strictEqual(res.headers.get("x-rtok-error"), "1", what);
      const text = await res.text();
      ok(!text.trimEnd().includes("\n"), `${what}: one line, got ${JSON.stringify(text)}`);
      strictEqual(JSON.parse(text).error.message, MESSAGE, what);
      return JSON.parse(text);
    };
    // Same length as the token, one character off: a comparison must read it all.
    const wrong = token.slice(0, -1) + (token.endsWith("0") ? "1" : "0");

    await t.step(
      "missing, wrong, or only as a bearer: 401, the upstream sees nothing",
      async () => {
        const anthropic = await refused(await _post(proxy.url, 1, false), "missing");
        strictEqual(anthropic.type, "error", "the Anthropic error shape");
        await refused(await _post(proxy.url, 2, false, { "x-rtok-token": wrong }), "wrong");
        await refused(await _post(proxy.url, 3, true, { "x-rtok-token": "" }), "empty");
        await refused(
          await _post(proxy.url, 4, false, { "x-rtok-token": token.slice(0, -1) }),
          "a prefix",
        );
        await refused(
          await _post(proxy.url, 5, false, { authorization: `Bearer ${token}` }),
          "as a bearer token on a model route",
        );
        const openai = await refused(
          await fetch(`${proxy.url}/v1/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-rtok-token": wrong },
            body: JSON.stringify({ model: "m-6", messages: [] }),
          }),
          "OpenAI route",
        );
        strictEqual(typeof openai.error.type, "string", "the OpenAI error shape");
        const gemini = await refused(
          await fetch(`${proxy.url}/v1beta/models/m-7:generateContent`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ contents: [] }),
          }),
          "Gemini route",
        );
        strictEqual(gemini.error.code, 401, "the Gemini error shape");
        strictEqual(up.received.length, 0, "the stand-in received nothing");
      },
    );

    await t.step("the right token passes, and is not forwarded", async () => {
      const got = await _read(_post(proxy.url, 8, false, { "x-rtok-token": token }));
      strictEqual(got.status, 200);
      deepStrictEqual(got.bytes, await _expected(8, false));
      strictEqual(up.received.length, 1);
      deepStrictEqual(
        Object.keys(up.received[0].headers).filter((h) => h.startsWith("x-rtok")),
        [],
      );
    });

    await t.step("GET /healthz and /readyz need no token", async () => {
      const res = await fetch(`${proxy.url}/healthz`);
      strictEqual(res.status, 200);
      deepStrictEqual(await res.json(), { status: "ok" });
      match(res.headers.get("content-type") ?? "", /json/);
      const ready = await fetch(`${proxy.url}/readyz`);
      strictEqual(ready.status, 200);
      strictEqual((await ready.json()).ready, true);
      strictEqual(up.received.length, 1, "neither is forwarded");
    });
  },
});
