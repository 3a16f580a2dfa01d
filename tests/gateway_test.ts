/**
 * The team gateway end to end, with the real programs and deploy/'s configs: two `rtok proxy`
 * instances behind HAProxy, Prometheus scraping them with the gateway token and loading
 * deploy/rules.yml, and a Pushgateway receiving a laptop's `rtok metrics --push`. Per-caller
 * totals read back from Prometheus must equal what the stand-in upstream received and reported.
 *
 * @module
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { existsSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import Anthropic from "@anthropic-ai/sdk";
import { buildLab, drain, freePort, rtok, spawnDaemon, tempDir, which } from "./_helpers.ts";
import {
  type Answer,
  DEFAULT_ANSWER,
  gitLogTurns,
  type Received,
  sse,
  startProxy,
  startUpstream,
} from "./_upstream.ts";
import { BUILTIN_PRICES, type PricedModel, priceFor } from "../src/plugins/proxy/prices.ts";

// Debian's packages (`apt-get install -y haproxy prometheus prometheus-pushgateway`); the test
// is skipped only without them.
const HAPROXY = which("haproxy");
const PROMETHEUS = which("prometheus");
const PUSHGATEWAY = which("prometheus-pushgateway");
const DEPLOY = new URL("../deploy/", import.meta.url).pathname;

// A deploy/ template with every {{NAME}} filled; a placeholder left unfilled is an error.
function _fill(template: string, values: Record<string, string>): string {
  return Deno.readTextFileSync(`${DEPLOY}${template}`).replace(
    /\{\{([A-Z0-9_]+)\}\}/g,
    (_, name: string) => {
      if (!(name in values)) throw new Error(`${template}: no value for {{${name}}}`);
      return values[name];
    },
  );
}

async function _until<T>(what: string, probe: () => Promise<T | null>, log = () => ""): Promise<T> {
  const deadline = Date.now() + 30_000;
  let last: unknown = null;
  while (Date.now() < deadline) {
    try {
      const got = await probe();
      if (got !== null) return got;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what}: not reached (${last}) ${log()}`);
}

// An instant query's samples as `{labels, value}`.
async function _vector(
  api: string,
  promql: string,
): Promise<{ labels: Record<string, string>; value: number }[]> {
  const res = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = await res.json();
  if (body.status !== "success") throw new Error(`${promql}: ${JSON.stringify(body)}`);
  return body.data.result.map((s: { metric: Record<string, string>; value: [number, string] }) => ({
    labels: s.metric,
    value: Number(s.value[1]),
  }));
}

// Asks Prometheus until `promql`, read as label value → value, equals `want` (within a
// relative 1e-9 for sums of dollars), and returns what it said last.
async function _expect(
  api: string,
  promql: string,
  label: string,
  want: Record<string, number>,
  log: () => string,
): Promise<Record<string, number>> {
  let got: Record<string, number> = {};
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  try {
    return await _until(promql, async () => {
      got = Object.fromEntries(
        (await _vector(api, promql)).map((s) => [s.labels[label] ?? "", s.value]),
      );
      const keys = Object.keys(want);
      const same = Object.keys(got).length === keys.length &&
        keys.every((k) => k in got && close(got[k], want[k]));
      return same ? got : null;
    });
  } catch {
    deepStrictEqual(got, want, `${promql}; prometheus said: ${log()}`);
    return got;
  }
}

// What the stand-in reported for one request, and for which caller the body says it was.
interface _Reported {
  readonly caller: string;
  readonly model: string;
  readonly input: number;
  readonly output: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
}

/**
 * A stand-in answer whose usage differs per request (so a total that took one request's usage
 * twice, or lost one, shows), streamed when asked; the caller comes from the body's
 * `metadata.user_id`, since the proxy removes the x-rtok-* headers before forwarding.
 */
function _answer(reported: _Reported[]): Answer {
  return (req: Received) => {
    if (req.method !== "POST" || !req.path.startsWith("/v1/messages")) return DEFAULT_ANSWER(req);
    const body = JSON.parse(req.text);
    const n = reported.length + 1;
    const r: _Reported = {
      caller: body.metadata?.user_id ?? "",
      model: body.model,
      input: 1000 + 37 * n,
      output: 20 + n,
      cacheWrite: 300 * n,
      cacheRead: 5000 + 11 * n,
    };
    reported.push(r);
    const usage = {
      input_tokens: r.input,
      output_tokens: r.output,
      cache_creation_input_tokens: r.cacheWrite,
      cache_read_input_tokens: r.cacheRead,
    };
    const message = {
      id: `msg_${n}`,
      type: "message",
      role: "assistant",
      model: r.model,
      content: [{ type: "text", text: "done" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage,
    };
    if (!body.stream) return Response.json(message);
    const events = [
      {
        type: "message_start",
        message: {
          ...message,
          content: [],
          stop_reason: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "done" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: r.output },
      },
      { type: "message_stop" },
    ];
    const headers = { "content-type": "text/event-stream; charset=utf-8" };
    if (r.caller !== _SLOW) return new Response(sse(events), { headers });
    // An answer that takes a while, event by event, for the shutdown step.
    let i = 0;
    const slow = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (i > 0) await new Promise((ok) => setTimeout(ok, _SLOW_GAP_MS));
        if (i === events.length) return c.close();
        c.enqueue(new TextEncoder().encode(sse([events[i++]])));
      },
    });
    return new Response(slow, { headers });
  };
}

// The caller whose streamed answers come slowly, and the gap between their events.
const _SLOW = "carol";
const _SLOW_GAP_MS = 300;

// A built-in priced Anthropic model with one price for every prompt length.
function _pricedModel(): [string, PricedModel] {
  const found = Object.entries(BUILTIN_PRICES.models).find(([name, p]) =>
    name.startsWith("claude-") && p.from === "anthropic" && p.over === undefined
  );
  if (!found) throw new Error("prices.json has no Anthropic model without a prompt band");
  return found;
}

// The rows each of `homes` holds, once they hold `n` between them (the proxy writes its rows
// in batches, after each response's last byte).
function _ledgerRows(homes: readonly string[], n: number): Promise<number[]> {
  return _until(`${n} proxy rows`, () => {
    const counts = homes.map((home) => {
      if (!existsSync(`${home}/rtok.db`)) return 0;
      const db = new DatabaseSync(`${home}/rtok.db`, { readOnly: true });
      try {
        return (db.prepare("SELECT count(*) AS n FROM proxy_requests").get() as { n: number }).n;
      } finally {
        db.close();
      }
    });
    return Promise.resolve(_sum(counts) === n ? counts : null);
  });
}

// Per caller, the proxy ledgers' chars saved and estimated tokens saved, over `homes`.
function _ledgerSaved(
  homes: readonly string[],
): { chars: Record<string, number>; tokens: Record<string, number> } {
  const chars: Record<string, number> = {}, tokens: Record<string, number> = {};
  for (const home of homes) {
    const db = new DatabaseSync(`${home}/rtok.db`, { readOnly: true });
    try {
      for (
        const r of db.prepare(
          `SELECT coalesce(caller, '') AS caller, sum(chars_saved) AS chars
           FROM proxy_requests GROUP BY 1`,
        ).all() as { caller: string; chars: number }[]
      ) chars[r.caller] = (chars[r.caller] ?? 0) + r.chars;
      for (
        const r of db.prepare(
          `SELECT coalesce(q.caller, '') AS caller, sum(r.raw_tokens - r.emitted_tokens) AS saved
           FROM proxy_results r JOIN proxy_requests q ON q.id = r.request_id GROUP BY 1`,
        ).all() as { caller: string; saved: number }[]
      ) tokens[r.caller] = (tokens[r.caller] ?? 0) + r.saved;
    } finally {
      db.close();
    }
  }
  return { chars, tokens };
}

// The estimated tokens the laptop's runs saved: what caller:rtok_ledger_saved_tokens:sum adds
// up over its surfaces (hook, cli, mcp).
function _laptopSaved(home: string): number {
  drain(home);
  const db = new DatabaseSync(`${home}/rtok.db`, { readOnly: true });
  try {
    return (db.prepare(
      `SELECT coalesce(sum(raw_tokens - emitted_tokens), 0) AS n FROM runs
       WHERE (delivered IS NULL OR delivered = 1) AND surface != 'proxy'`,
    ).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function _sum(values: Iterable<number>): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}

function _by<T>(items: readonly T[], key: (t: T) => string, value: (t: T) => number) {
  const out: Record<string, number> = {};
  for (const t of items) out[key(t)] = (out[key(t)] ?? 0) + value(t);
  return out;
}

Deno.test({
  name: "gateway: two rtok proxies behind HAProxy give Prometheus per-caller totals equal to " +
    "what the upstream received, and a laptop's push adds to its caller's",
  ignore: HAPROXY === null || PROMETHEUS === null || PUSHGATEWAY === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    using tmp = tempDir("rtok-gateway-");
    const token = Array.from(
      crypto.getRandomValues(new Uint8Array(16)),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    const reported: _Reported[] = [];
    await using up = startUpstream(_answer(reported));
    const homes = [`${tmp.path}/gw1`, `${tmp.path}/gw2`];
    const laptop = `${tmp.path}/laptop`;
    const lab = `${tmp.path}/lab`;
    const pgPort = freePort();
    await using pushgateway = spawnDaemon(PUSHGATEWAY!, [
      `--web.listen-address=127.0.0.1:${pgPort}`,
      // In memory only: Debian's build keeps groups in /var/lib/prometheus otherwise.
      "--persistence.file=",
    ]);
    // The instances, and the laptop's own savings, side by side: each is a Deno start-up.
    const extra = ["--gemini-upstream", up.url];
    const env = { RTOK_PROXY_TOKEN: token };
    const starting = homes.map((home) => startProxy(home, up.url, extra, env));
    const laptopRunning = buildLab(lab).then(() => rtok(laptop, ["git", "log"], { cwd: lab }));
    // An instance that failed to start must not leave the other one running.
    const settled = await Promise.allSettled(starting);
    for (const s of settled) {
      if (s.status === "rejected") {
        await Promise.all(starting.map((p) => p.then((x) => x.stop(), () => {})));
        throw s.reason;
      }
    }
    await using proxy1 = await starting[0];
    await using proxy2 = await starting[1];
    const laptopRun = await laptopRunning;
    strictEqual(laptopRun.code, 0, laptopRun.err);
    const targets = [new URL(proxy1.url).host, new URL(proxy2.url).host];

    // Prometheus on deploy/prometheus.yml and deploy/rules.yml, scraping both instances with
    // the token from a file, and the Pushgateway.
    const tokenFile = `${tmp.path}/rtok_proxy_token`;
    Deno.writeTextFileSync(tokenFile, token + "\n", { mode: 0o600 });
    const promConfig = `${tmp.path}/prometheus.yml`;
    Deno.writeTextFileSync(
      promConfig,
      _fill("prometheus.yml", {
        SCRAPE_INTERVAL: "1s",
        RULES_FILE: `${DEPLOY}rules.yml`,
        TOKEN_FILE: tokenFile,
        PROXY_1: targets[0],
        PROXY_2: targets[1],
        PUSHGATEWAY: `127.0.0.1:${pgPort}`,
      }),
    );
    const promPort = freePort();
    await using prom = spawnDaemon(PROMETHEUS!, [
      `--config.file=${promConfig}`,
      `--storage.tsdb.path=${tmp.path}/tsdb`,
      `--web.listen-address=127.0.0.1:${promPort}`,
    ]);
    const api = `http://127.0.0.1:${promPort}`;

    // HAProxy on deploy/haproxy.cfg, in front of both.
    const haPort = freePort();
    const haConfig = `${tmp.path}/haproxy.cfg`;
    Deno.writeTextFileSync(
      haConfig,
      _fill("haproxy.cfg", {
        LISTEN: `127.0.0.1:${haPort}`,
        BACKEND_1: targets[0],
        BACKEND_2: targets[1],
      }),
    );
    await using haproxy = spawnDaemon(HAPROXY!, ["-f", haConfig, "-db"]);
    const gateway = `http://127.0.0.1:${haPort}`;
    const log = () =>
      `prometheus: ${prom.stderr().slice(-2000)}\nhaproxy: ${
        haproxy.stderr().slice(-1000)
      }\npushgateway: ${pushgateway.stderr().slice(-1000)}`;

    // Every target is up only if the bearer token was accepted on /metrics. Traffic starts
    // after the first scrapes, so the rules' five-minute rates see it as an increase.
    await _expect(api, "up", "instance", {
      [targets[0]]: 1,
      [targets[1]]: 1,
      [`127.0.0.1:${pgPort}`]: 1,
    }, log);
    await _until("HAProxy answers /healthz", async () => {
      const r = await fetch(`${gateway}/healthz`);
      const body = await r.json();
      return r.status === 200 && body.status === "ok" ? body : null;
    }, log);

    const [model, price] = _pricedModel();
    const sent: Record<string, number> = {};
    let total = 0;
    const ok1 = await t.step(
      "HAProxy sends each caller's requests on; a wrong token reaches nothing",
      async () => {
        // The health check HAProxy runs, answered without a token.
        for (const target of targets) {
          const r = await fetch(`http://${target}/readyz`);
          strictEqual(r.status, 200, `${target}/readyz`);
          strictEqual((await r.json()).ready, true);
        }
        // alice and bob, streamed and not, most with a git log tool result the proxy compresses.
        const client = (caller: string) =>
          new Anthropic({
            apiKey: `sk-ant-${caller}`,
            baseURL: gateway,
            maxRetries: 0,
            defaultHeaders: { "x-rtok-token": token, "x-rtok-caller": caller },
          });
        const ask = async (caller: string, turns: Anthropic.MessageParam[], stream: boolean) => {
          const params = { model, max_tokens: 10, messages: turns, metadata: { user_id: caller } };
          const c = client(caller);
          const m = stream
            ? await c.messages.stream(params).finalMessage()
            : await c.messages.create(params);
          strictEqual(m.content[0].type === "text" && m.content[0].text, "done");
          sent[caller] = (sent[caller] ?? 0) + 1;
        };
        const hi: Anthropic.MessageParam[] = [{ role: "user", content: "hi" }];
        await ask("alice", gitLogTurns(), false);
        await ask("bob", hi, false);
        await ask("alice", gitLogTurns(), true);
        await ask("alice", hi, true);
        await ask("bob", gitLogTurns(), true);
        await ask("alice", gitLogTurns(), false);
        await ask("bob", hi, false);
        await ask("alice", gitLogTurns(), true);
        total = _sum(Object.values(sent));
        strictEqual(up.received.length, total);
        // The stand-in's count per caller (read from the body) is what each client sent.
        deepStrictEqual(_by(reported, (r) => r.caller, () => 1), sent);
        for (const r of up.received) {
          deepStrictEqual(Object.keys(r.headers).filter((h) => h.startsWith("x-rtok")), []);
        }

        // A wrong token, and none: 401 from whichever instance HAProxy picked; nothing forwarded.
        const tokens: Record<string, string>[] = [{ "x-rtok-token": "not-the-token" }, {}];
        for (const headers of tokens) {
          const r = await fetch(`${gateway}/v1/messages`, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json", "x-api-key": "sk-ant-m" },
            body: JSON.stringify({ model, max_tokens: 10, messages: hi }),
          });
          strictEqual(r.status, 401);
          strictEqual(r.headers.get("x-rtok-error"), "1");
          ok((await r.text()).includes("missing or wrong gateway token"));
        }
        strictEqual(up.received.length, total, "the upstream saw no request without the token");
        // /metrics is each instance's own, for Prometheus alone: HAProxy does not serve it.
        const m = await fetch(`${gateway}/metrics`, { headers: { "x-rtok-token": token } });
        await m.body?.cancel();
        strictEqual(m.status, 404);
      },
    );
    if (!ok1) return;

    let saved = { chars: {} as Record<string, number>, tokens: {} as Record<string, number> };
    await t.step(
      "Prometheus's per-caller totals are what the upstream reported and the ledgers hold",
      async () => {
        await _expect(api, "caller:rtok_proxy_requests:sum", "caller", sent, log);
        await _expect(api, "sum by (caller) (rtok_proxy_requests_total)", "caller", sent, log);
        await _expect(
          api,
          'sum by (caller) (caller_status:rtok_proxy_requests:sum{status="200"})',
          "caller",
          sent,
          log,
        );
        const kinds = {
          input: (r: _Reported) => r.input,
          output: (r: _Reported) => r.output,
          cache_write: (r: _Reported) => r.cacheWrite,
          cache_read: (r: _Reported) => r.cacheRead,
        };
        for (const [kind, of] of Object.entries(kinds)) {
          await _expect(
            api,
            `caller_kind:rtok_proxy_tokens:sum{kind="${kind}"}`,
            "caller",
            _by(reported, (r) => r.caller, of),
            log,
          );
        }
        // Real usage × the model's list price, per caller.
        const spent = _by(reported, (r) => r.caller, (r) => {
          const p = priceFor(price, r.input + r.cacheWrite + r.cacheRead)!;
          return (r.input * p.input + r.output * p.output + r.cacheWrite * p.cacheWrite +
            r.cacheRead * p.cacheRead) / 1e6;
        });
        await _expect(api, "caller:rtok_proxy_spent_usd:sum", "caller", spent, log);

        // Both instances served, and each one's share is the rows its own ledger holds.
        const rows = await _ledgerRows(homes, total);
        ok(rows.every((n) => n > 0), `round-robin used both instances: ${rows}`);
        await _expect(api, "instance:rtok_proxy_requests:sum", "instance", {
          [targets[0]]: rows[0],
          [targets[1]]: rows[1],
        }, log);
        await _expect(api, "count(count by (instance) (rtok_proxy_requests_total))", "", {
          "": 2,
        }, log);

        // Savings per caller, as the two ledgers sum them.
        saved = _ledgerSaved(homes);
        ok(saved.chars.alice > 0 && saved.chars.bob > 0, "both callers had a result compressed");
        await _expect(api, "caller:rtok_proxy_chars_saved:sum", "caller", saved.chars, log);
        await _expect(
          api,
          "caller:rtok_proxy_estimated_tokens_saved:sum",
          "caller",
          saved.tokens,
          log,
        );
        await _expect(
          api,
          "caller:rtok_proxy_estimated_saved_usd:sum",
          "caller",
          _by(Object.entries(saved.tokens), ([c]) => c, ([, n]) => n * price.input / 1e6),
          log,
        );
      },
    );

    await t.step("every query on the Grafana dashboard has a number", async () => {
      const dashboard = JSON.parse(Deno.readTextFileSync(`${DEPLOY}grafana_dashboard.json`));
      strictEqual(dashboard.schemaVersion, 39);
      for (const panel of dashboard.panels) {
        for (const target of panel.targets) {
          const expr = String(target.expr).replaceAll("$caller", ".*");
          await _until(`${panel.title}: ${expr}`, async () => {
            const s = await _vector(api, expr);
            return s.length > 0 && s.every((x) => Number.isFinite(x.value)) ? s : null;
          }, log);
        }
      }
    });

    await t.step("a laptop's rtok metrics --push adds to its caller's team total", async () => {
      // `rtok git log` left its row in the spool: the push moves it into the ledger first.
      const push = await rtok(laptop, [
        "metrics",
        "--push",
        `http://127.0.0.1:${pgPort}`,
        "--instance",
        "laptop-1",
        "--caller",
        "alice",
      ]);
      strictEqual(push.code, 0, push.err);
      ok(push.out.includes("/metrics/job/rtok/instance/laptop-1/caller/alice"), push.out);
      const laptopSaved = _laptopSaved(laptop);
      ok(laptopSaved > 0, "rtok git log saved tokens on the laptop");
      await _expect(api, "caller:rtok_ledger_saved_tokens:sum", "caller", {
        alice: laptopSaved,
      }, log);
      await _expect(api, "caller:rtok_estimated_tokens_saved:sum", "caller", {
        alice: saved.tokens.alice + laptopSaved,
        bob: saved.tokens.bob,
      }, log);
      await _expect(api, "caller:rtok_chars_saved:sum", "caller", saved.chars, log);
      // The pushed group keeps the laptop's own labels (honor_labels).
      deepStrictEqual(
        (await _vector(api, "count by (job, instance, caller) (rtok_ledger_saved_tokens)"))
          .map((s) => s.labels),
        [{ job: "rtok", instance: "laptop-1", caller: "alice" }],
      );
    });

    await t.step(
      "SIGTERM to an instance lets its stream end; HAProxy sends the rest on",
      async () => {
        const before = await _ledgerRows(homes, total);
        // Two slow streams at once: round-robin gives each instance one.
        const started: Promise<void>[] = [];
        const streams = [0, 1].map(() => {
          const first = Promise.withResolvers<void>();
          started.push(first.promise);
          return (async () => {
            const r = await fetch(`${gateway}/v1/messages`, {
              method: "POST",
              headers: {
                "content-type": "application/json",
                "anthropic-version": "2023-06-01",
                "x-api-key": "sk-ant-carol",
                "x-rtok-token": token,
                "x-rtok-caller": _SLOW,
              },
              body: JSON.stringify({
                model,
                max_tokens: 10,
                stream: true,
                messages: [{ role: "user", content: "slowly" }],
                metadata: { user_id: _SLOW },
              }),
            });
            strictEqual(r.status, 200);
            let text = "";
            for await (const chunk of r.body!.pipeThrough(new TextDecoderStream())) {
              text += chunk;
              first.resolve();
            }
            return text;
          })();
        });
        await Promise.all(started);
        const status = await proxy1.stop("SIGTERM");
        strictEqual(status.code, 0, proxy1.stderr());
        for (const text of await Promise.all(streams)) {
          ok(text.endsWith('data: {"type":"message_stop"}\n\n'), `the stream ended whole: ${text}`);
        }
        // Its row was written before it exited.
        deepStrictEqual(await _ledgerRows([homes[0]], before[0] + 1), [before[0] + 1]);
        await _until("HAProxy takes rtok1 out", () => {
          return Promise.resolve(/rtok1 is DOWN/.test(haproxy.stderr()) ? true : null);
        }, log);
        const dave = new Anthropic({
          apiKey: "sk-ant-dave",
          baseURL: gateway,
          maxRetries: 0,
          defaultHeaders: { "x-rtok-token": token, "x-rtok-caller": "dave" },
        });
        for (let i = 0; i < 4; i++) {
          const m = await dave.messages.create({ model, max_tokens: 10, messages: gitLogTurns() });
          strictEqual(m.content[0].type === "text" && m.content[0].text, "done");
        }
        strictEqual(up.received.length, total + 2 + 4);
        deepStrictEqual(await _ledgerRows([homes[1]], before[1] + 1 + 4), [before[1] + 5]);
      },
    );
  },
});
