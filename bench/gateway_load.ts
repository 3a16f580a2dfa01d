/**
 * `rtok proxy` as a team gateway under load: 200 concurrent clients (half of them streaming,
 * sharing 20 provider keys) send ~100 KB Anthropic requests whose tool results are real
 * captured outputs (a session's history, and in the latest turn one output the proxy has not
 * seen before), through the proxy and, in the same run, straight to the stand-in upstream.
 *
 * Three phases: a warm-up burst (one request a client, all at once: a gateway restarted under
 * its team); saturated (each client sends 4 requests back to back, the stand-in answers at
 * once: throughput, and the CPU each process spends a request, reported); in flight (10
 * requests a client a side, both sides at once, the stand-in holding each answer 0.5-1.5 s as
 * a model does, clients starting at their own moments: the 200 requests are in flight together
 * while the machine is not saturated). Budgets:
 *
 * 1. Nothing lost, nothing changed, nothing counted twice: every request answered 200, every
 *    answer byte for byte what the stand-in sent for it, one ledger row per request sent
 *    through the proxy (read from `$RTOK_HOME/rtok.db` after SIGTERM), a caller per key.
 * 2. Added latency in flight, time to the last byte less the stand-in's delay, through minus
 *    direct at the same percentile: p99 < 20 ms (p50 reported). The proxy's own view over the
 *    same phase, its `/metrics` histogram `rtok_proxy_added_latency_seconds`, beside it.
 *    (Back to back, a request's time is its wait behind 199 others: a throughput figure,
 *    whose p99 difference swung between -75 and +600 ms from run to run.)
 * 3. The proxy's peak resident memory (`VmHWM`, read just before SIGTERM) < 300 MB.
 *
 * The stand-in (`_load_upstream.ts`) and the proxy are processes of their own; the clients run
 * in this one. Each request's `model` is its own id: the stand-in echoes it, keeps what it sent
 * under it, and refuses an id it saw before (a retried request would show), and the ledger's
 * `model` column names the request a row counts. With `RTOK_PROXY_TOKEN` set, the proxy gets it
 * and every request carries it.
 *
 * Knobs for a look around: `RTOK_GATEWAY_CLIENTS` (200), `RTOK_GATEWAY_REQUESTS` (10 a client
 * a side, in flight), `RTOK_GATEWAY_SATURATED` (4), `RTOK_GATEWAY_DELAY_MS` (1000, the
 * stand-in's mean delay in flight), `RTOK_GATEWAY_FRESH` (1: each request carries one tool
 * result the proxy has not seen before; 0: none), `RTOK_GATEWAY_BYPASS=1` (every request sent
 * with `x-rtok: off`: what the proxy costs without its plugins), `RTOK_GATEWAY_V8_FLAGS`
 * (passed to the proxy as `--v8-flags=…`) and `RTOK_GATEWAY_LOG` (a file the proxy's output is
 * copied to).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { RTOK_PERMISSIONS } from "../scripts/permissions.ts";
import { denoDir } from "../tests/_helpers.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const CLI = `${ROOT}cli.ts`;
const FIXTURES = `${ROOT}tests/fixtures`;

/** One budget's outcome. */
export interface GatewayBudget {
  /** What was measured. */
  readonly name: string;
  /** The figures. */
  readonly measured: string;
  /** The budget. */
  readonly budget: string;
  /** Whether it was met. */
  readonly ok: boolean;
}

/** How the load is shaped. */
export interface GatewayLoadOptions {
  /** Concurrent clients, each with its own connection and session; half of them stream. */
  readonly clients: number;
  /** Requests each client sends on each side (through the proxy, direct), in flight. */
  readonly perClient: number;
  /** Requests each client sends on each side back to back, the machine saturated. */
  readonly saturated: number;
  /** The stand-in's mean delay before it answers a request in flight, ms. */
  readonly delayMs: number;
  /** Whether each request carries one tool result never seen before. */
  readonly fresh: boolean;
  /** Whether requests ask the proxy to forward them untouched (`x-rtok: off`). */
  readonly bypass: boolean;
}

/** The shape the budget runs: 200 clients, 10 requests each a side, a fresh result each. */
export const GATEWAY_LOAD: GatewayLoadOptions = {
  clients: Number(Deno.env.get("RTOK_GATEWAY_CLIENTS") ?? 200),
  perClient: Number(Deno.env.get("RTOK_GATEWAY_REQUESTS") ?? 10),
  saturated: Number(Deno.env.get("RTOK_GATEWAY_SATURATED") ?? 4),
  delayMs: Number(Deno.env.get("RTOK_GATEWAY_DELAY_MS") ?? 1000),
  fresh: (Deno.env.get("RTOK_GATEWAY_FRESH") ?? "1") !== "0",
  bypass: Deno.env.get("RTOK_GATEWAY_BYPASS") === "1",
};

const BODY_BYTES = 100_000;
// The team's provider keys: clients share them, the proxy names a caller by each.
const KEYS = 20;
// Outputs that come back new in a session's latest turn (a log, a diff, a test run), each
// compressible with a line of the request's own appended.
const FRESH = [
  "git_log_n20",
  "git_diff",
  "pytest_fail",
  "cargo_build_warnings",
  "jest_fail",
  "git_show",
  "ls_l_big_dir",
  "tsc_errors",
];

interface Sample {
  readonly id: string;
  /** Time to the last byte, less the delay the stand-in was asked for. */
  readonly ms: number;
  readonly status: number;
  readonly bytes: Uint8Array | null;
  readonly error: string | null;
}

// Real outputs of real tools, 2 KB to 60 KB, sorted by name so every run sends the same.
async function _outputs(): Promise<{ pool: string[]; fresh: string[] }> {
  const names: string[] = [];
  for await (const e of Deno.readDir(FIXTURES)) if (e.isDirectory) names.push(e.name);
  names.sort();
  const pool: string[] = [];
  for (const n of names) {
    const raw = await Deno.readTextFile(`${FIXTURES}/${n}/raw.out`).catch(() => "");
    if (raw.length >= 2000 && raw.length <= 60_000) pool.push(raw);
  }
  const fresh = await Promise.all(FRESH.map((n) => Deno.readTextFile(`${FIXTURES}/${n}/raw.out`)));
  return { pool, fresh };
}

/** Builds the request bodies: a session per client, its history the same on every turn. */
class Bodies {
  readonly #pool: readonly string[];
  readonly #fresh: readonly string[];
  readonly #history = new Map<number, string>();
  readonly #freshOn: boolean;

  constructor(pool: readonly string[], fresh: readonly string[], freshOn: boolean) {
    this.#pool = pool;
    this.#fresh = fresh;
    this.#freshOn = freshOn;
  }

  // The messages before the latest turn, as JSON without the brackets: the client's session
  // so far, ~75 KB of earlier tool results, ending with the assistant's calls the latest
  // turn answers.
  #historyOf(client: number): string {
    const known = this.#history.get(client);
    if (known !== undefined) return known;
    const messages: unknown[] = [{ role: "user", content: "Find why the build fails and fix it." }];
    let size = 0;
    for (let j = 0; size < BODY_BYTES * 0.75; j++) {
      const text = this.#pool[(client * 5 + j) % this.#pool.length];
      const id = `toolu_${client}_${j}`;
      messages.push({
        role: "assistant",
        content: [{ type: "tool_use", id, name: "Bash", input: { command: `step ${j}` } }],
      });
      messages.push({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: id, content: text }],
      });
      size += text.length + 150;
    }
    messages.push({
      role: "assistant",
      content: [0, 1].map((k) => ({
        type: "tool_use",
        id: `toolu_${client}_last${k}`,
        name: "Bash",
        input: { command: `latest ${k}` },
      })),
    });
    const text = JSON.stringify(messages).slice(1, -1);
    this.#history.set(client, text);
    return text;
  }

  /** The body of `client`'s turn `turn`, its `model` the request's id. */
  body(id: string, client: number, turn: number, stream: boolean): string {
    const pool = this.#pool[(client * 5 + 17 + turn) % this.#pool.length];
    const n = this.#fresh.length;
    const base = this.#fresh[(((client + turn) % n) + n) % n];
    // A line of the request's own makes the output one the proxy has not seen.
    const fresh = this.#freshOn ? `${base}${base.endsWith("\n") ? "" : "\n"}${id}\n` : base;
    const last = {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: `toolu_${client}_last0`, content: fresh },
        { type: "tool_result", tool_use_id: `toolu_${client}_last1`, content: pool },
      ],
    };
    return `{"model":${JSON.stringify(id)},"stream":${stream},"max_tokens":1024,"messages":[${
      this.#historyOf(client)
    },${JSON.stringify(last)}]}`;
  }
}

function _pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
}

// `clients` clients at once, each sending its requests one after another on its own session.
async function _load(
  url: string,
  bodies: Bodies,
  tag: string,
  clients: number,
  turns: readonly number[],
  bypass: boolean,
  delayOf: (client: number, turn: number) => number = () => 0,
  startOf: (client: number) => number = () => 0,
): Promise<Sample[]> {
  const token = Deno.env.get("RTOK_PROXY_TOKEN");
  const all = await Promise.all(Array.from({ length: clients }, async (_, c) => {
    const out: Sample[] = [];
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "anthropic-version": "2023-06-01",
      // A team of 20: the proxy attributes requests by key.
      "x-api-key": `sk-ant-bench-${c % KEYS}`,
    };
    if (token) headers["x-rtok-token"] = token;
    if (bypass) headers["x-rtok"] = "off";
    const start = startOf(c);
    if (start > 0) await new Promise((r) => setTimeout(r, start));
    for (const turn of turns) {
      const id = `bench-load-${tag}-${c}-${turn}`;
      const body = bodies.body(id, c, turn, c % 2 === 0);
      const delay = delayOf(c, turn);
      const t = performance.now();
      try {
        const r = await fetch(`${url}/v1/messages`, {
          method: "POST",
          headers: delay ? { ...headers, "x-stand-in-delay-ms": String(delay) } : headers,
          body,
        });
        const bytes = new Uint8Array(await r.arrayBuffer());
        out.push({ id, ms: performance.now() - t - delay, status: r.status, bytes, error: null });
      } catch (e) {
        out.push({
          id,
          ms: performance.now() - t - delay,
          status: 0,
          bytes: null,
          error: (e as Error).message,
        });
      }
    }
    return out;
  }));
  return all.flat();
}

interface Child {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<Deno.CommandStatus>;
}

// A process that prints `listening on http://…` (stdout or stderr) once it serves; its output
// is drained so it never blocks on a full pipe.
async function _spawn(
  args: string[],
  env: Record<string, string>,
  log?: string,
): Promise<Child> {
  const copy = log ? await Deno.open(log, { write: true, create: true, truncate: true }) : null;
  const enc = new TextEncoder();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let said = "";
  const heard = Promise.withResolvers<string>();
  const pump = async (s: ReadableStream<Uint8Array>) => {
    for await (const c of s.pipeThrough(new TextDecoderStream())) {
      if (said.length < 65_536) said += c;
      await copy?.write(enc.encode(c));
      const m = /listening on (http:\/\/\S+)/.exec(said);
      if (m) heard.resolve(m[1]);
    }
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const timer = setTimeout(() => heard.reject(new Error(`did not start: ${said}`)), 60_000);
  child.status.then(() => heard.reject(new Error(`exited before listening: ${said}`)));
  try {
    const url = await heard.promise;
    return {
      url,
      pid: child.pid,
      async stop() {
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
        const status = await child.status;
        await pumps;
        copy?.close();
        return status;
      },
    };
  } catch (e) {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

// The machine's 1-minute load average: a run on a busy shared machine says so.
async function _loadAverage(): Promise<string> {
  const out = await new Deno.Command("cat", { args: ["/proc/loadavg"] }).output();
  return new TextDecoder().decode(out.stdout).split(" ")[0] ?? "?";
}

let ticksPerSecond = 0;

// CPU time (user and system) process `pid` has spent, ms.
async function _cpuMs(pid: number): Promise<number> {
  if (!ticksPerSecond) {
    const out = await new Deno.Command("getconf", { args: ["CLK_TCK"] }).output();
    ticksPerSecond = Number(new TextDecoder().decode(out.stdout).trim()) || 100;
  }
  const out = await new Deno.Command("cat", { args: [`/proc/${pid}/stat`] }).output();
  const stat = new TextDecoder().decode(out.stdout);
  // Fields after the command name, which may hold spaces: state is the first, utime the 12th.
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(rest[11]) + Number(rest[12])) / ticksPerSecond * 1000;
}

// CPU spent so far, ms, by [the proxy, the stand-in, this process (the clients)].
async function _cpu(proxy: number, upstream: number): Promise<number[]> {
  return [await _cpuMs(proxy), await _cpuMs(upstream), _ownCpuMs()];
}

// This process's CPU time, ms.
function _ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

// Deno reads /proc/<pid> only with every permission; `cat` reads it with --allow-run.
async function _peakRssBytes(pid: number): Promise<number> {
  const out = await new Deno.Command("cat", { args: [`/proc/${pid}/status`] }).output();
  const status = new TextDecoder().decode(out.stdout);
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
}

/**
 * The cumulative bucket counts of histogram `name` in Prometheus exposition text, every series
 * of it summed by upper bound (`le`), ascending; `+Inf` is `Infinity`.
 */
export function histogramBuckets(text: string, name: string): [number, number][] {
  const counts = new Map<number, number>();
  const line = new RegExp(`^${name}_bucket\\{([^}]*)\\}\\s+(\\S+)`, "gm");
  for (const m of text.matchAll(line)) {
    const le = /(?:^|,)le="([^"]+)"/.exec(m[1])?.[1];
    if (le === undefined) continue;
    const bound = le === "+Inf" ? Infinity : Number(le);
    counts.set(bound, (counts.get(bound) ?? 0) + Number(m[2]));
  }
  return [...counts.entries()].sort(([a], [b]) => a - b);
}

/**
 * An approximate quantile `q` of cumulative buckets, linear within the bucket the rank falls
 * in (as Prometheus's `histogram_quantile`): `null` with no observations, `Infinity` past the
 * last finite bound.
 */
export function bucketQuantile(buckets: readonly [number, number][], q: number): number | null {
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total === 0) return null;
  const rank = q * total;
  let lower = 0, below = 0;
  for (const [bound, cum] of buckets) {
    if (cum >= rank) {
      if (bound === Infinity) return Infinity;
      return lower + (bound - lower) * (cum === below ? 0 : (rank - below) / (cum - below));
    }
    lower = bound;
    below = cum;
  }
  return Infinity;
}

// What was observed between two scrapes: the later counts less the earlier, bound by bound.
function _since(
  before: readonly [number, number][],
  after: readonly [number, number][],
): [number, number][] {
  const earlier = new Map(before);
  return after.map(([bound, cum]) => [bound, cum - (earlier.get(bound) ?? 0)]);
}

interface Checked {
  readonly sent: number;
  readonly lost: number;
  readonly differ: number;
  readonly firstProblem: string | null;
}

// Every sample answered 200 with exactly the bytes the stand-in kept under its id.
function _check(samples: readonly Sample[], sent: Readonly<Record<string, string>>): Checked {
  const enc = new TextEncoder();
  let lost = 0, differ = 0;
  let firstProblem: string | null = null;
  for (const s of samples) {
    if (s.status !== 200 || !s.bytes) {
      lost++;
      firstProblem ??= `${s.id}: ${s.error ?? `HTTP ${s.status}`} ${
        s.bytes ? new TextDecoder().decode(s.bytes.subarray(0, 200)) : ""
      }`;
      continue;
    }
    const kept = sent[s.id];
    if (kept === undefined || Buffer.compare(enc.encode(kept), s.bytes) !== 0) {
      differ++;
      firstProblem ??= `${s.id}: the answer is not the stand-in's bytes`;
    }
  }
  return { sent: samples.length, lost, differ, firstProblem };
}

interface Ledger {
  readonly rows: number;
  readonly distinct: number;
  readonly unknown: number;
  /** Distinct callers the rows name; `null` when the ledger has no caller column. */
  readonly callers: number | null;
  readonly error: string | null;
}

// The proxy's rows, read after it stopped: how many, how many requests they name, and how
// many name no request this run sent.
function _ledger(home: string, ids: ReadonlySet<string>): Ledger {
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(`${home}/rtok.db`, { readOnly: true });
    const models = db.prepare("SELECT model FROM proxy_requests").all()
      .map((r) => String((r as { model: unknown }).model));
    const hasCaller = db.prepare("SELECT name FROM pragma_table_info('proxy_requests')").all()
      .some((r) => (r as { name: unknown }).name === "caller");
    const callers = hasCaller
      ? Number(
        (db.prepare("SELECT count(DISTINCT caller) AS n FROM proxy_requests").get() as {
          n: number;
        }).n,
      )
      : null;
    return {
      rows: models.length,
      distinct: new Set(models).size,
      unknown: models.filter((m) => !ids.has(m)).length,
      callers,
      error: null,
    };
  } catch (e) {
    return { rows: 0, distinct: 0, unknown: 0, callers: null, error: (e as Error).message };
  } finally {
    db?.close();
  }
}

/** Runs the load and measures the gateway's budgets. */
export async function gatewayBudgets(
  opts: GatewayLoadOptions = GATEWAY_LOAD,
): Promise<GatewayBudget[]> {
  const started = performance.now();
  const loadavg = await _loadAverage();
  const home = await Deno.makeTempDir({ prefix: "rtok-gateway-load-" });
  const { pool, fresh } = await _outputs();
  const bodies = new Bodies(pool, fresh, opts.fresh);
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    RTOK_HOME: home,
    DENO_DIR: await denoDir(),
    NO_COLOR: "1",
  };
  const token = Deno.env.get("RTOK_PROXY_TOKEN");
  const v8Flags = Deno.env.get("RTOK_GATEWAY_V8_FLAGS");
  const upstream = await _spawn(
    ["run", "--allow-net=127.0.0.1", `${ROOT}bench/_load_upstream.ts`],
    env,
  );
  let proxy: Child | null = null;
  try {
    proxy = await _spawn(
      [
        "run",
        ...(v8Flags ? [`--v8-flags=${v8Flags}`] : []),
        ...RTOK_PERMISSIONS,
        "--config",
        `${ROOT}deno.json`,
        CLI,
        "proxy",
        "--port",
        "0",
        "--anthropic-upstream",
        upstream.url,
      ],
      token ? { ...env, RTOK_PROXY_TOKEN: token } : env,
      Deno.env.get("RTOK_GATEWAY_LOG"),
    );
    const rssIdle = await _peakRssBytes(proxy.pid);
    const scrape = async () =>
      histogramBuckets(
        await (await fetch(`${proxy!.url}/metrics`, {
          headers: token ? { "x-rtok-token": token } : {},
        })).text(),
        "rtok_proxy_added_latency_seconds",
      );
    const { clients, bypass } = opts;
    // Warm both paths (the proxy's JIT, its cache of the sessions' histories, the connections)
    // with one request a client each, all at once: a gateway restarted under its team.
    const warm = await _load(proxy.url, bodies, "w", clients, [-1], bypass);
    await _load(upstream.url, bodies, "v", clients, [-1], bypass);
    const rssWarm = await _peakRssBytes(proxy.pid);

    // Saturated: every client sends its next request as soon as the last is answered, the
    // stand-in answers at once, direct then through, so the CPU each process spends a
    // request is told apart. What this measures is throughput: with 200 requests always in
    // flight, a request's time is mostly its wait behind the others.
    const saturatedTurns = Array.from({ length: opts.saturated }, (_, i) => i);
    let t = performance.now();
    const c0 = await _cpu(proxy.pid, upstream.pid);
    const direct = await _load(upstream.url, bodies, "d", clients, saturatedTurns, bypass);
    const directMs = performance.now() - t;
    const c1 = await _cpu(proxy.pid, upstream.pid);
    t = performance.now();
    const through = await _load(proxy.url, bodies, "p", clients, saturatedTurns, bypass);
    const throughMs = performance.now() - t;
    const c2 = await _cpu(proxy.pid, upstream.pid);
    const rssSaturated = await _peakRssBytes(proxy.pid);
    const rssUpstreamSaturated = await _peakRssBytes(upstream.pid);

    // In flight: the stand-in holds each answer 0.5-1.5 × `delayMs` (the same for a client's
    // turn on both sides), as a model does, so the 200 clients' requests are in flight
    // together while the machine is not saturated; both sides at once, under the same load.
    // A request's time is counted without that delay.
    const pacedTurns = Array.from({ length: opts.perClient }, (_, i) => 1000 + i);
    const delayOf = (c: number, turn: number) => {
      const h = Math.imul(c * 7919 + turn, 2654435761) >>> 0;
      return Math.round(opts.delayMs * (0.5 + (h % 1000) / 1000));
    };
    // A team's agents do not all start at one instant: each client starts at its own moment
    // within one mean delay (a burst of them all at once is what the warm-up measures).
    const startOf = (c: number) => delayOf(c, -1) - opts.delayMs / 2;
    const before = await scrape();
    const [inFlight, inFlightDirect] = await Promise.all([
      _load(proxy.url, bodies, "q", clients, pacedTurns, bypass, delayOf, startOf),
      _load(upstream.url, bodies, "e", clients, pacedTurns, bypass, delayOf, startOf),
    ]);
    const measured = _since(before, await scrape());
    const rss = await _peakRssBytes(proxy.pid);
    const rssUpstream = await _peakRssBytes(upstream.pid);
    const stopped = await proxy.stop();
    proxy = null;
    const sent = await (await fetch(`${upstream.url}/sent`)).json() as Record<string, string>;

    const viaProxy = [...warm, ...through, ...inFlight];
    const checked = _check(viaProxy, sent);
    const directChecked = _check([...direct, ...inFlightDirect], sent);
    const ledger = _ledger(home, new Set(viaProxy.map((s) => s.id)));
    const whole = checked.lost === 0 && checked.differ === 0 && ledger.error === null &&
      ledger.rows === checked.sent && ledger.distinct === ledger.rows && ledger.unknown === 0 &&
      (ledger.callers === null || ledger.callers === KEYS);

    const q = (xs: readonly Sample[], p: number) => _pct(xs.map((s) => s.ms), p);
    const f = (x: number) => x.toFixed(1);
    const added = (p: number) => q(inFlight, p) - q(inFlightDirect, p);
    const inProxy = (p: number) => {
      const v = bucketQuantile(measured, p);
      return v === null ? "none" : v === Infinity ? "> 2.5 s" : `≈${(v * 1000).toFixed(1)} ms`;
    };
    const rate = (n: number, ms: number) => (n / (ms / 1000)).toFixed(0);
    const perReq = (ms: number, n: number) => `${(ms / n).toFixed(2)} ms`;
    const kb = Math.round(bodies.body("bench-load-p-0-0", 0, 0, false).length / 1000);
    const load = `${clients} clients, ~${kb} KB bodies` +
      (opts.fresh ? ", a new tool result in each" : "") +
      (bypass ? ", sent with x-rtok: off" : "");
    const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
    return [
      {
        name: `gateway, ${checked.sent} requests through rtok proxy (${load})`,
        measured: `${checked.lost} lost, ${checked.differ} not byte-identical, ${ledger.rows} ` +
          `ledger rows for ${ledger.distinct} requests (${ledger.unknown} unknown` +
          (ledger.callers === null ? "" : `; ${ledger.callers} callers for ${KEYS} keys`) + ")" +
          (ledger.error ? `, ledger unreadable: ${ledger.error}` : "") +
          `; direct: ${directChecked.lost} lost, ${directChecked.differ} differ; proxy exit ` +
          `${stopped.code}` +
          (checked.firstProblem ? `; first problem: ${checked.firstProblem}` : "") +
          (directChecked.firstProblem
            ? `; first direct problem: ${directChecked.firstProblem}`
            : ""),
        budget: "0 lost, all byte-identical, ledger rows = requests, none twice, a caller a key",
        ok: whole && directChecked.lost === 0 && directChecked.differ === 0 && stopped.code === 0,
      },
      {
        name: `gateway, added latency to the last byte, ${clients} clients in flight × ` +
          `${opts.perClient} (${load}, the model's ${opts.delayMs / 2}-${
            opts.delayMs * 1.5
          } ms left out)`,
        measured: `p50 ${f(added(0.5))} ms, p99 ${f(added(0.99))} ms (through p50 ${
          f(q(inFlight, 0.5))
        } / p99 ${f(q(inFlight, 0.99))} ms; direct p50 ${f(q(inFlightDirect, 0.5))} / p99 ${
          f(q(inFlightDirect, 0.99))
        } ms); in the proxy (/metrics) p50 ${inProxy(0.5)}, p99 ${inProxy(0.99)}`,
        budget: "p99 < 20 ms",
        ok: added(0.99) < 20,
      },
      {
        name: `gateway, saturated: ${clients} clients × ${opts.saturated} back to back (${load})`,
        measured:
          `through ${rate(through.length, throughMs)} req/s, direct ${
            rate(direct.length, directMs)
          } req/s; time to the last byte p50 ${f(q(through, 0.5))} against ${
            f(q(direct, 0.5))
          } ms, p99 ${f(q(through, 0.99))} against ${f(q(direct, 0.99))} ms; CPU a request ` +
          `through: proxy ${perReq(c2[0] - c1[0], through.length)}, stand-in ${
            perReq(c2[1] - c1[1], through.length)
          }, clients ${perReq(c2[2] - c1[2], through.length)}; direct: stand-in ${
            perReq(c1[1] - c0[1], direct.length)
          }, clients ${perReq(c1[2] - c0[2], direct.length)} (${navigator.hardwareConcurrency} ` +
          `cores for all three, load average ${loadavg} before the run); group ${
            f((performance.now() - started) / 1000)
          } s`,
        budget: "reported",
        ok: true,
      },
      {
        name: `gateway, proxy peak RSS (${load})`,
        measured:
          `${mb(rss)} MB (VmHWM; ${mb(rssIdle)} MB idle, ${
            mb(rssWarm)
          } MB after the warm-up burst, ${mb(rssSaturated)} MB after the saturated phase); ` +
          `the stand-in, a bare Deno.serve taking both sides' requests: ${
            mb(rssUpstreamSaturated)
          } MB after the saturated phase, ${mb(rssUpstream)} MB in the end`,
        budget: "< 300 MB",
        ok: rss < 300e6,
      },
    ];
  } finally {
    await proxy?.stop();
    await upstream.stop();
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) {
  for (const r of await gatewayBudgets()) {
    console.log(`${r.ok ? "ok  " : "MISS"} ${r.name}: ${r.measured}; budget ${r.budget}`);
  }
}
