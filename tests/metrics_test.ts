import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import type { Measurement } from "../src/core/plugin.ts";
import { Store, storePath } from "../src/core/store.ts";
import { insertRun } from "../src/plugins/measure/ledger.ts";
import { insertProxyRows } from "../src/plugins/proxy/ledger.ts";
import { ProxyMetrics } from "../src/plugins/proxy/metrics.ts";
import type { ProxyRow } from "../src/plugins/proxy/server.ts";
import { RTOK_ENV } from "../scripts/permissions.ts";
import { groupingPath, ledgerMetrics } from "../src/surfaces/metrics.ts";
import {
  freePort,
  measurement,
  rtok,
  type RunningRtok,
  sh,
  spawnDaemon,
  startRtok,
  tempDir,
  which,
} from "./_helpers.ts";
import { gitLogTurns, startProxy, startUpstream, untilLedger } from "./_upstream.ts";

// Sample lines as name{labels} → number.
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

// Σ of the samples of `name` whose labels contain every `has` (`kind="input"`).
function total(s: Map<string, number>, name: string, ...has: string[]): number {
  let n = 0;
  for (const [k, v] of s) {
    if ((k === name || k.startsWith(`${name}{`)) && has.every((h) => k.includes(h))) n += v;
  }
  return n;
}

function proxySums(home: string, n: number): Promise<Record<string, number>> {
  return untilLedger(home, (db) => {
    const got = db.prepare(
      `SELECT count(*) AS requests, sum(input_tokens) AS input,
         sum(output_tokens) AS output, sum(cache_read_tokens) AS cache_read,
         sum(results_compressed) AS compressed, sum(chars_saved) AS chars_saved,
         (SELECT sum(raw_tokens - emitted_tokens) FROM proxy_results) AS tokens_saved
       FROM proxy_requests`,
    ).get() as Record<string, number>;
    return got.requests >= n ? got : null;
  }, `${n} proxy rows`);
}

/** `rtok metrics` as a running process on a free port. */
function startMetrics(home: string): Promise<RunningRtok> {
  return startRtok(home, ["metrics", "--port", "0"], /listening on (http:\/\/\S+)\/metrics/);
}

// The shared test measurement, with this file's own defaults.
const _mine = (over: Partial<Measurement> = {}): Measurement =>
  measurement({ ...{ archiveId: null }, ...over });

function proxyRow(over: Partial<ProxyRow>): ProxyRow {
  return {
    ts: Date.now(),
    provider: "anthropic",
    route: "messages",
    status: 200,
    streamed: false,
    latencyMs: 10,
    durationMs: 12,
    usage: { model: 'm"1', input: 100, output: 7, cacheWrite: null, cacheRead: 50 },
    resultsSeen: 2,
    charsSeen: 4000,
    charsSaved: 2790,
    results: [{
      shape: "git log",
      rawChars: 3100,
      emittedChars: 310,
      textClass: "log",
      archiveId: null,
    }],
    note: null,
    style: null,
    ...over,
  };
}

Deno.test({
  name: "rtok proxy GET /metrics answers itself with the ledger's numbers, never upstream",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    await using proxy = await startProxy(tmp.path, up.url);
    const client = new Anthropic({ apiKey: "sk-ant-x", baseURL: proxy.url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = gitLogTurns();
    await client.messages.create({ model: "claude-test-1", max_tokens: 10, messages });
    await client.messages.create({ model: "claude-test-1", max_tokens: 10, messages });
    const ledger = await proxySums(tmp.path, 2);
    // The caller is the salted hash of the key the ledger keeps too, never the key.
    const callerHash = await untilLedger(
      tmp.path,
      (db) => (db.prepare("SELECT caller FROM proxy_requests").get() as { caller: string }).caller,
      "a caller",
    ).then((c) => /^key-([0-9a-f]{12})$/.exec(c)![1]);
    const forwarded = up.received.length;
    const res = await fetch(`${proxy.url}/metrics`);
    strictEqual(res.status, 200);
    strictEqual(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const s = samples(await res.text());
    strictEqual(up.received.length, forwarded, "/metrics is not forwarded");
    strictEqual(
      s.get(
        'rtok_proxy_requests_total{provider="anthropic",model="claude-test-1",route="messages",status="200",caller="key-' +
          callerHash +
          '"}',
      ),
      2,
    );
    strictEqual(total(s, "rtok_proxy_requests_total"), ledger.requests);
    strictEqual(total(s, "rtok_proxy_tokens_total", 'kind="input"'), ledger.input);
    strictEqual(total(s, "rtok_proxy_tokens_total", 'kind="output"'), ledger.output);
    strictEqual(total(s, "rtok_proxy_tokens_total", 'kind="cache_read"'), ledger.cache_read);
    strictEqual(total(s, "rtok_proxy_tool_results_compressed_total"), ledger.compressed);
    ok(ledger.compressed >= 2, "the git log was compressed in both requests");
    strictEqual(total(s, "rtok_proxy_chars_saved_total"), ledger.chars_saved);
    strictEqual(total(s, "rtok_proxy_estimated_tokens_saved_total"), ledger.tokens_saved);
    strictEqual(s.get("rtok_proxy_added_latency_seconds_count"), 2);
    strictEqual(s.get('rtok_proxy_added_latency_seconds_bucket{le="+Inf"}'), 2);
  },
});

Deno.test({
  name: "rtok metrics serves the ledger's totals per surface and the proxy's, as gauges",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    const store = Store.open(storePath(tmp.path));
    try {
      insertRun(store, _mine({}), 90);
      insertRun(store, _mine({ surface: "hook" }), 90);
      insertRun(store, _mine({ surface: "hook", family: "ls", textClass: "paths" }), 90);
      insertRun(
        store,
        _mine({ family: "echo", rawChars: 31, emittedChars: 31, passthrough: "no filter" }),
        90,
      );
      insertProxyRows(store, [proxyRow({}), proxyRow({ status: 529, results: [] })], 90);
    } finally {
      store.close();
    }
    await using m = await startMetrics(tmp.path);
    const res = await fetch(`${m.url}/metrics`);
    strictEqual(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const text = await res.text();
    const s = samples(text);
    match(text, /^# TYPE rtok_ledger_runs gauge$/m);
    strictEqual(s.get("rtok_ledger_readable"), 1);
    strictEqual(s.get('rtok_ledger_runs{surface="cli"}'), 2);
    strictEqual(s.get('rtok_ledger_runs{surface="hook"}'), 2);
    // log: ceil(3100/3.1) − ceil(310/3.1) = 1000 − 100; paths: ceil(3100/2.6) − ceil(310/2.6)
    // = 1193 − 120; echo: 10 − 10.
    strictEqual(s.get('rtok_ledger_saved_tokens{surface="cli"}'), 900);
    strictEqual(s.get('rtok_ledger_saved_tokens{surface="hook"}'), 900 + 1073);
    strictEqual(s.get('rtok_ledger_family_saved_tokens{family="git log"}'), 1800);
    strictEqual(s.get('rtok_ledger_family_saved_tokens{family="echo"}'), undefined);
    strictEqual(
      s.get(
        'rtok_ledger_proxy_requests{provider="anthropic",model="m\\"1",route="messages",status="529",caller=""}',
      ),
      1,
    );
    strictEqual(
      s.get('rtok_ledger_proxy_tokens{provider="anthropic",model="m\\"1",kind="input",caller=""}'),
      200,
    );
    strictEqual(total(s, "rtok_ledger_proxy_tokens", 'kind="cache_write"'), 0);
    // Rows older than the gateway have no caller: the label is empty.
    strictEqual(
      s.get('rtok_ledger_proxy_tool_results_compressed{provider="anthropic",caller=""}'),
      1,
    );
    strictEqual(s.get('rtok_ledger_proxy_chars_saved{provider="anthropic",caller=""}'), 5580);
    strictEqual(
      s.get('rtok_ledger_proxy_estimated_tokens_saved{provider="anthropic",caller=""}'),
      900,
    );
    strictEqual((await fetch(`${m.url}/other`)).status, 404);
    await (await fetch(`${m.url}/other`)).body?.cancel();
  },
});

Deno.test({
  name: "rtok metrics without a ledger says rtok_ledger_readable 0 and creates none",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using m = await startMetrics(tmp.path);
    const s = samples(await (await fetch(`${m.url}/metrics`)).text());
    strictEqual(s.get("rtok_ledger_readable"), 0);
    strictEqual(s.has('rtok_ledger_runs{surface="cli"}'), false);
    strictEqual(
      [...Deno.readDirSync(tmp.path)].some((e) => e.name.startsWith("rtok.db")),
      false,
    );
  },
});

Deno.test("rtok metrics refuses bad input in one line", async (t) => {
  using tmp = tempDir();
  await t.step("a port in use is named", async () => {
    using busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (busy.addr as Deno.NetAddr).port;
    const r = await rtok(tmp.path, ["metrics", "--port", String(port)]);
    strictEqual(r.code, 1);
    strictEqual(r.err.trim().split("\n").length, 1, r.err);
    match(r.err, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use`));
  });
  await t.step("a non-loopback --host needs --allow-remote", async () => {
    const r = await rtok(tmp.path, ["metrics", "--host", "0.0.0.0", "--port", "0"]);
    strictEqual(r.code, 1);
    strictEqual(r.err.trim().split("\n").length, 1, r.err);
    match(r.err, /--host "0\.0\.0\.0" is not a loopback address; add --allow-remote/);
  });
  await t.step("a port out of range", async () => {
    const r = await rtok(tmp.path, ["metrics", "--port", "70000"]);
    strictEqual(r.code, 1);
    strictEqual(r.err.trim().split("\n").length, 1, r.err);
    match(r.err, /--port/);
  });
});

Deno.test("examples/grafana-dashboard.json and prometheus.yml use only the names rtok serves", () => {
  using tmp = tempDir();
  Store.open(storePath(tmp.path)).close();
  const served = new Set<string>();
  const text = new ProxyMetrics().render() + ledgerMetrics(storePath(tmp.path)).text;
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    served.add(m[1]);
    if (m[2] === "histogram") {
      for (const s of ["_bucket", "_sum", "_count"]) served.add(m[1] + s);
    }
  }
  const dashboard = JSON.parse(
    Deno.readTextFileSync(new URL("../examples/grafana-dashboard.json", import.meta.url)),
  );
  const exprs: string[] = dashboard.panels.flatMap((p: { targets?: { expr: string }[] }) =>
    (p.targets ?? []).map((t) => t.expr)
  );
  ok(exprs.length >= 10, "the dashboard has its queries");
  const used = new Set(exprs.flatMap((e) => e.match(/\brtok_[a-z_]+/g) ?? []));
  for (const name of used) ok(served.has(name), `${name} is served`);
  for (const family of ["rtok_proxy_requests_total", "rtok_proxy_tokens_total"]) {
    ok(used.has(family), `the dashboard charts ${family}`);
  }
  ok(used.has("rtok_proxy_added_latency_seconds_bucket"), "the dashboard charts the latency");
  ok([...used].some((n) => n.startsWith("rtok_ledger_")), "the dashboard charts the ledger");
  const scrape = Deno.readTextFileSync(new URL("../examples/prometheus.yml", import.meta.url));
  match(scrape, /targets: \["127\.0\.0\.1:8787"\]/);
  match(scrape, /targets: \["127\.0\.0\.1:8788"\]/);
});

Deno.test("ledgerMetrics() labels every proxy family by caller: the 20 with most requests, the rest as other", () => {
  using tmp = tempDir();
  const store = Store.open(storePath(tmp.path));
  // Caller k01 sends 1 request, k02 2, … k22 22; 25 rows older than the gateway have none.
  const rows: ProxyRow[] = [];
  for (let i = 1; i <= 22; i++) {
    const caller = `k${String(i).padStart(2, "0")}`;
    for (let j = 0; j < i; j++) rows.push(proxyRow({ caller }));
  }
  for (let j = 0; j < 25; j++) rows.push(proxyRow({}));
  try {
    insertProxyRows(store, rows, 90);
  } finally {
    store.close();
  }
  const s = samples(ledgerMetrics(storePath(tmp.path)).text);
  const callers = new Set<string>();
  for (const key of s.keys()) {
    if (!key.startsWith("rtok_ledger_proxy_")) continue;
    const m = /[{,]caller="([^"]*)"/.exec(key);
    ok(m, `${key} has a caller`);
    callers.add(m[1]);
  }
  // The empty caller (25 rows) and k04…k22 make 20; k01, k02 and k03 (6 rows) are summed.
  const want = new Set(["", "other"]);
  for (let i = 4; i <= 22; i++) want.add(`k${String(i).padStart(2, "0")}`);
  deepStrictEqual(callers, want);
  const requests = (caller: string) => total(s, "rtok_ledger_proxy_requests", `caller="${caller}"`);
  strictEqual(requests("other"), 1 + 2 + 3);
  strictEqual(requests("k22"), 22);
  strictEqual(requests(""), 25);
  strictEqual(total(s, "rtok_ledger_proxy_requests"), rows.length);
  // Each row: 100 input tokens, 2790 chars and an estimated 900 tokens saved.
  strictEqual(total(s, "rtok_ledger_proxy_tokens", 'kind="input"', 'caller="other"'), 600);
  strictEqual(s.get('rtok_ledger_proxy_chars_saved{provider="anthropic",caller="k05"}'), 5 * 2790);
  strictEqual(
    s.get('rtok_ledger_proxy_estimated_tokens_saved{provider="anthropic",caller="other"}'),
    6 * 900,
  );
  strictEqual(
    s.get('rtok_ledger_proxy_tool_results_seen{provider="anthropic",caller="k10"}'),
    10 * 2,
  );
});

// The packaged Pushgateway; its tests are skipped only without it.
const PUSHGATEWAY = which("prometheus-pushgateway");

/** A Pushgateway on a free loopback port, stopped with SIGTERM. */
async function startPushgateway(): Promise<{ url: string; log(): string } & AsyncDisposable> {
  const port = freePort();
  // Debian's build persists to /var/lib/prometheus unless told not to: in memory only, so
  // no run sees another's groups.
  const daemon = spawnDaemon(PUSHGATEWAY!, [
    `--web.listen-address=127.0.0.1:${port}`,
    "--persistence.file=",
  ]);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/-/ready`);
      await res.body?.cancel();
      if (res.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      await daemon.stop();
      throw new Error(`the Pushgateway did not start: ${daemon.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, log: daemon.stderr, [Symbol.asyncDispose]: daemon.stop };
}

interface PushedGroup {
  readonly labels: Record<string, string>;
  readonly [family: string]: unknown;
}

/** The groups the Pushgateway holds, from its query API. */
async function pushedGroups(url: string): Promise<PushedGroup[]> {
  const res = await fetch(`${url}/api/v1/metrics`);
  strictEqual(res.status, 200);
  const body = await res.json();
  strictEqual(body.status, "success");
  return body.data as PushedGroup[];
}

// A sample as `name` and its labels sorted, so two sources compare whatever their order.
const sampleKey = (name: string, labels: Record<string, string>) =>
  name + JSON.stringify(Object.entries(labels).sort(([a], [b]) => a < b ? -1 : 1));

/** A group's pushed samples, without the grouping labels and the Pushgateway's own families. */
function groupSamples(group: PushedGroup): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, family] of Object.entries(group)) {
    if (
      ["labels", "last_push_successful", "push_time_seconds", "push_failure_time_seconds"]
        .includes(name)
    ) continue;
    for (
      const m of (family as { metrics: { labels: Record<string, string>; value: string }[] })
        .metrics
    ) {
      const labels = Object.fromEntries(
        Object.entries(m.labels).filter(([k]) => !Object.hasOwn(group.labels, k)),
      );
      out.set(sampleKey(name, labels), Number(m.value));
    }
  }
  return out;
}

/**
 * What `rtok metrics` serves for the ledger at `home`, keyed as {@linkcode groupSamples} keys,
 * with the ledger's `caller` label under the name a push gives it.
 */
function servedSamples(home: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of ledgerMetrics(storePath(home)).text.split("\n")) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      const value = l[2].replace(/\\(.)/g, (_, c) => c === "n" ? "\n" : c);
      labels[l[1] === "caller" ? "exported_caller" : l[1]] = value;
    }
    out.set(sampleKey(m[1], labels), Number(m[3]));
  }
  return out;
}

const PUSHED_LINE = /^rtok metrics: pushed (\d+) samples to (\S+)\n$/;

Deno.test({
  name: "rtok metrics --push PUTs the ledger into one Pushgateway group, the same group each time",
  ignore: PUSHGATEWAY === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    using tmp = tempDir();
    const add = (rows: ProxyRow[]) => {
      const store = Store.open(storePath(tmp.path));
      try {
        insertProxyRows(store, rows, 90);
      } finally {
        store.close();
      }
    };
    {
      const store = Store.open(storePath(tmp.path));
      try {
        insertRun(store, _mine({}), 90);
        insertRun(store, _mine({ surface: "hook" }), 90);
      } finally {
        store.close();
      }
    }
    add([
      proxyRow({ caller: "alice" }),
      proxyRow({ caller: "alice", status: 529 }),
      proxyRow({ caller: "bob" }),
      proxyRow({}),
    ]);
    await using pg = await startPushgateway();
    const mine = (groups: PushedGroup[]) =>
      groups.filter((g) => g.labels.job === "rtok" && g.labels.instance === "lab a");
    const push = () =>
      rtok(tmp.path, [
        "metrics",
        "--push",
        `${pg.url}/`,
        "--instance",
        "lab a",
        "--caller",
        "team/carol",
      ]);
    let first = new Map<string, number>();

    await t.step("the group holds every sample rtok metrics serves", async () => {
      const r = await push();
      strictEqual(r.code, 0, r.err);
      strictEqual(r.err, "");
      const m = PUSHED_LINE.exec(r.out);
      ok(m, r.out);
      const group = /^(.*)\/metrics\/job\/rtok\/instance\/lab%20a\/caller@base64\/(\S+)$/
        .exec(m[2]);
      ok(group, m[2]);
      strictEqual(group[1], pg.url, "the trailing slash is dropped");
      strictEqual(atob(group[2].replace(/-/g, "+").replace(/_/g, "/")), "team/carol");
      const groups = mine(await pushedGroups(pg.url));
      strictEqual(groups.length, 1);
      deepStrictEqual(groups[0].labels, { job: "rtok", instance: "lab a", caller: "team/carol" });
      first = groupSamples(groups[0]);
      const served = servedSamples(tmp.path);
      deepStrictEqual(first, served);
      strictEqual(Number(m[1]), served.size);
      // The ledger's callers arrive as exported_caller, beside the group's caller.
      const requests = (caller: string) =>
        [...first].filter(([k]) =>
          k.startsWith("rtok_ledger_proxy_requests[") &&
          k.includes(`["exported_caller","${caller}"]`)
        ).reduce((n, [, v]) => n + v, 0);
      strictEqual(requests("alice"), 2);
      strictEqual(requests("bob"), 1);
      strictEqual(requests(""), 1);
      strictEqual(first.get(sampleKey("rtok_ledger_runs", { surface: "hook" })), 1);
    });

    await t.step("pushing again leaves one group with the same values", async () => {
      const r = await push();
      strictEqual(r.code, 0, r.err);
      ok(PUSHED_LINE.test(r.out), r.out);
      const groups = mine(await pushedGroups(pg.url));
      strictEqual(groups.length, 1);
      deepStrictEqual(groupSamples(groups[0]), first);
    });

    await t.step("a push after new rows replaces the group's values", async () => {
      add([proxyRow({ caller: "alice" })]);
      const r = await push();
      strictEqual(r.code, 0, r.err);
      const groups = mine(await pushedGroups(pg.url));
      strictEqual(groups.length, 1);
      const now = groupSamples(groups[0]);
      deepStrictEqual(now, servedSamples(tmp.path));
      const key = sampleKey("rtok_ledger_proxy_requests", {
        provider: "anthropic",
        model: 'm"1',
        route: "messages",
        status: "200",
        exported_caller: "alice",
      });
      strictEqual(first.get(key), 1);
      strictEqual(now.get(key), 2);
    });

    await t.step("without --instance and --caller: the host name and $USER", async () => {
      const r = await rtok(tmp.path, ["metrics", "--push", pg.url], {
        env: { USER: "push-tester" },
      });
      strictEqual(r.code, 0, r.err);
      const host = (await sh("hostname", [])).trim();
      // $USER is read only where rtok's permissions let it; else the caller is "unknown".
      const user = RTOK_ENV.includes("USER") ? "push-tester" : "unknown";
      const groups = (await pushedGroups(pg.url)).filter((g) =>
        g.labels.job === "rtok" && g.labels.instance === host
      );
      strictEqual(groups.length, 1, JSON.stringify(groups.map((g) => g.labels)));
      strictEqual(groups[0].labels.caller, user);
      strictEqual(
        PUSHED_LINE.exec(r.out)?.[2],
        `${pg.url}/metrics/job/rtok/instance/${encodeURIComponent(host)}/caller/${user}`,
      );
    });

    await t.step("--job names the group's job", async () => {
      const r = await rtok(tmp.path, [
        "metrics",
        "--push",
        pg.url,
        "--job",
        "ci/nightly",
        "--instance",
        "lab a",
        "--caller",
        "",
      ]);
      strictEqual(r.code, 0, r.err);
      const groups = (await pushedGroups(pg.url)).filter((g) => g.labels.job === "ci/nightly");
      strictEqual(groups.length, 1);
      deepStrictEqual(groups[0].labels, { job: "ci/nightly", instance: "lab a", caller: "" });
      deepStrictEqual(groupSamples(groups[0]), servedSamples(tmp.path));
    });

    await t.step(
      "an answer other than 2xx is one line with the status and what to do",
      async () => {
        const r = await rtok(tmp.path, ["metrics", "--push", `${pg.url}/nothing-here`]);
        strictEqual(r.code, 1);
        strictEqual(r.out, "");
        strictEqual(r.err.trim().split("\n").length, 1, r.err);
        match(
          r.err,
          new RegExp(
            `^rtok: the Pushgateway at ${pg.url}/nothing-here/metrics/job/rtok/\\S+ answered 404: ` +
              `404 page not found; is --push the Pushgateway's base URL`,
          ),
        );
      },
    );

    await t.step("a push the Pushgateway finds inconsistent is refused in one line", async () => {
      // Every group goes (DELETE by the path groupingPath() makes), then another job holds
      // rtok_ledger_runs as a counter, where rtok pushes a gauge.
      for (const g of await pushedGroups(pg.url)) {
        const { job, ...rest } = g.labels;
        const path = groupingPath([["job", job], ...Object.entries(rest)]);
        const res = await fetch(pg.url + path, { method: "DELETE" });
        strictEqual(res.status, 202, await res.text());
      }
      strictEqual((await pushedGroups(pg.url)).length, 0, "every group is deleted");
      const res = await fetch(`${pg.url}/metrics/job/other`, {
        method: "PUT",
        body: "# TYPE rtok_ledger_runs counter\nrtok_ledger_runs 1\n",
      });
      strictEqual(res.status, 200, await res.text());
      const r = await push();
      strictEqual(r.code, 1);
      strictEqual(r.out, "");
      strictEqual(r.err.trim().split("\n").length, 1, r.err);
      match(
        r.err,
        /^rtok: the Pushgateway at \S+ answered 400: .*rtok_ledger_runs.*; the Pushgateway refused/,
      );
      // The group is there only with the Pushgateway's record of the failure.
      const groups = mine(await pushedGroups(pg.url));
      strictEqual(groups.length, 1);
      strictEqual(groupSamples(groups[0]).size, 0, "no sample of rtok's is kept");
      const failed = groups[0].push_failure_time_seconds as { metrics: { value: string }[] };
      ok(Number(failed.metrics[0].value) > 0, "the Pushgateway records the failed push");
    });
  },
});

Deno.test("rtok metrics --push fails in one line when it cannot push", async (t) => {
  using tmp = tempDir();
  const port = freePort();
  await t.step("no ledger: nothing is pushed", async () => {
    const r = await rtok(tmp.path, ["metrics", "--push", `http://127.0.0.1:${port}`]);
    strictEqual(r.code, 1);
    strictEqual(r.out, "");
    strictEqual(r.err.trim().split("\n").length, 1, r.err);
    match(r.err, /^rtok: cannot read the ledger at \S+rtok\.db \(.+\); nothing pushed to http:/);
  });
  Store.open(storePath(tmp.path)).close();
  await t.step("a closed port is named, with what to check", async () => {
    const r = await rtok(tmp.path, ["metrics", "--push", `http://127.0.0.1:${port}/`]);
    strictEqual(r.code, 1);
    strictEqual(r.out, "");
    strictEqual(r.err.trim().split("\n").length, 1, r.err);
    match(
      r.err,
      new RegExp(
        `^rtok: could not push to http://127\\.0\\.0\\.1:${port}/metrics/job/rtok/instance/\\S+: ` +
          `tcp connect error: Connection refused.*; check that a Pushgateway listens at --push\\n$`,
        "i",
      ),
    );
  });
  await t.step("--push with --host or --port is refused", async () => {
    for (const flag of [["--port", "0"], ["--host", "127.0.0.1"], ["--allow-remote"]]) {
      const r = await rtok(tmp.path, ["metrics", "--push", `http://127.0.0.1:${port}`, ...flag]);
      strictEqual(r.code, 1);
      strictEqual(r.err.trim().split("\n").length, 1, r.err);
      match(r.err, new RegExp(`^rtok: --push sends the metrics once .*drop ${flag[0]}`));
    }
  });
  await t.step("--job, --instance or --caller without --push is refused", async () => {
    const r = await rtok(tmp.path, ["metrics", "--caller", "x"]);
    strictEqual(r.code, 1);
    match(r.err, /^rtok: --caller names the group of a push; add --push URL\n$/);
  });
  await t.step("a --push that is not an http URL", async () => {
    const r = await rtok(tmp.path, ["metrics", "--push", "localhost:9091"]);
    strictEqual(r.code, 1);
    match(r.err, /^rtok: --push "localhost:9091": expected an http:\/\/ or https:\/\/ URL\n$/);
  });
});

Deno.test({
  name: "rtok metrics --push moves the spool into the ledger first, so a fresh run is pushed",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    Store.open(storePath(tmp.path)).close();
    const run = await rtok(tmp.path, ["ls", "-la"], { cwd: tmp.path });
    strictEqual(run.code, 0, run.err);
    ok(Deno.statSync(`${tmp.path}/spool.jsonl`).size > 0, "the run waits in the spool");
    const bodies: string[] = [];
    await using gw = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      async (req) => {
        bodies.push(`${req.method} ${await req.text()}`);
        return new Response(null, { status: 200 });
      },
    );
    const r = await rtok(tmp.path, [
      "metrics",
      "--push",
      `http://127.0.0.1:${gw.addr.port}`,
      "--instance",
      "laptop",
      "--caller",
      "alice",
    ]);
    strictEqual(r.code, 0, r.err);
    strictEqual(bodies.length, 1);
    match(bodies[0], /^PUT /);
    match(bodies[0], /^rtok_ledger_runs\{surface="cli"\} 1$/m);
  },
});
