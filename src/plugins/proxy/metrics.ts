/**
 * Prometheus metrics in the text exposition format (version 0.0.4): the writer, and the
 * proxy's counters. The proxy keeps its counters in memory from the moment it starts, as a
 * Prometheus exporter does: a restart starts them at zero again, which `rate()` and
 * `increase()` read as a counter reset. The totals that survive a restart are the ledger's,
 * served by `rtok metrics`.
 *
 * The format: https://prometheus.io/docs/instrumenting/exposition_formats/ (a `# HELP` and a
 * `# TYPE` line per family; in a label value `\`, `"` and a line feed are escaped as `\\`,
 * `\"` and `\n`; in help text `\` and a line feed).
 *
 * @module
 */

import { estimateChars } from "../../core/tokens.ts";
import { ANONYMOUS, CallerBound } from "./gateway.ts";
import { priceFor, priceOf, type PriceTable } from "./prices.ts";
import type { ProxyRow } from "./row.ts";

/** The `Content-Type` of the text exposition format. */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** A sample's labels, name to value. */
export type Labels = Readonly<Record<string, string>>;

/** One line of a family: its name suffix (`_bucket`, `_sum`…), labels and value. */
export interface Sample {
  /** Appended to the family's name (`""` for none). */
  readonly suffix: string;
  /** Its labels. */
  readonly labels: Labels;
  /** Its value. */
  readonly value: number;
}

/** A metric family: one HELP line, one TYPE line, its samples. */
export interface MetricFamily {
  /** The name, `rtok_…`. */
  readonly name: string;
  /** What it counts, one line. */
  readonly help: string;
  /** Its type. */
  readonly type: "counter" | "gauge" | "histogram";
  /** Its samples, in the order they are written. */
  readonly samples: readonly Sample[];
}

/** A label value escaped for the text format: `\` → `\\`, `"` → `\"`, line feed → `\n`. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => c === "\n" ? "\\n" : `\\${c}`);
}

/** Help text escaped for the text format: `\` → `\\`, line feed → `\n`. */
export function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (c) => c === "\n" ? "\\n" : "\\\\");
}

/** A sample value as the text format writes it (`+Inf`, `-Inf`, `NaN`, or a JS number). */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

const _NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const _LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** The families as exposition text; a bad metric or label name throws a `TypeError`. */
export function renderFamilies(families: readonly MetricFamily[]): string {
  const out: string[] = [];
  for (const f of families) {
    if (!_NAME.test(f.name)) throw new TypeError(`metric name "${f.name}" is not valid`);
    out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) out.push(_sampleLine(f.name + s.suffix, s.labels, s.value));
  }
  return out.join("\n") + "\n";
}

function _sampleLine(name: string, labels: Labels, value: number): string {
  const pairs = Object.entries(labels).map(([k, v]) => {
    if (!_LABEL.test(k)) throw new TypeError(`label name "${k}" is not valid`);
    return `${k}="${escapeLabelValue(v)}"`;
  });
  return `${name}${pairs.length ? `{${pairs.join(",")}}` : ""} ${formatValue(value)}`;
}

/** A counter (or gauge) over a fixed set of label names, kept in memory. */
export class CounterVec {
  readonly #name: string;
  readonly #help: string;
  readonly #labelNames: readonly string[];
  readonly #type: "counter" | "gauge";
  readonly #values = new Map<string, { labels: Labels; value: number }>();

  /** A family named `name` whose samples carry `labelNames`, in that order. */
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    type: "counter" | "gauge" = "counter",
  ) {
    this.#name = name;
    this.#help = help;
    this.#labelNames = labelNames;
    this.#type = type;
  }

  /** Adds `by` (≥ 0 for a counter) to the sample with these label values. */
  inc(values: readonly string[], by = 1): void {
    if (values.length !== this.#labelNames.length) {
      throw new RangeError(`${this.#name}: expected ${this.#labelNames.length} label values`);
    }
    if (this.#type === "counter" && !(by >= 0)) {
      throw new RangeError(`${this.#name}: a counter cannot go down (${by})`);
    }
    const key = JSON.stringify(values);
    const cur = this.#values.get(key);
    if (cur) cur.value += by;
    else {
      const labels = Object.fromEntries(this.#labelNames.map((n, i) => [n, values[i]]));
      this.#values.set(key, { labels, value: by });
    }
  }

  /** The family, samples sorted by their label values. */
  family(): MetricFamily {
    const samples = [...this.#values.entries()]
      .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
      .map(([, s]) => ({ suffix: "", labels: s.labels, value: s.value }));
    return { name: this.#name, help: this.#help, type: this.#type, samples };
  }
}

/** The added-latency buckets, seconds: 0.5 ms to 2.5 s. */
export const LATENCY_BUCKETS_S: readonly number[] = [
  0.0005,
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
];

/** A histogram without labels, kept in memory: cumulative buckets, `+Inf`, sum and count. */
export class Histogram {
  readonly #name: string;
  readonly #help: string;
  readonly #bounds: readonly number[];
  readonly #counts: number[];
  #sum = 0;
  #count = 0;

  /** A histogram named `name` over ascending upper bounds `bounds` (`+Inf` is added). */
  constructor(name: string, help: string, bounds: readonly number[]) {
    for (let i = 1; i < bounds.length; i++) {
      if (!(bounds[i] > bounds[i - 1])) {
        throw new RangeError(`${name}: bucket bounds must ascend`);
      }
    }
    this.#name = name;
    this.#help = help;
    this.#bounds = bounds;
    this.#counts = bounds.map(() => 0);
  }

  /** Counts one observation. */
  observe(value: number): void {
    for (let i = 0; i < this.#bounds.length; i++) if (value <= this.#bounds[i]) this.#counts[i]++;
    this.#sum += value;
    this.#count++;
  }

  /** The family: a `_bucket` sample per bound (`le`), then `+Inf`, `_sum` and `_count`. */
  family(): MetricFamily {
    const samples: Sample[] = this.#bounds.map((b, i) => ({
      suffix: "_bucket",
      labels: { le: formatValue(b) },
      value: this.#counts[i],
    }));
    samples.push(
      { suffix: "_bucket", labels: { le: "+Inf" }, value: this.#count },
      { suffix: "_sum", labels: {}, value: this.#sum },
      { suffix: "_count", labels: {}, value: this.#count },
    );
    return { name: this.#name, help: this.#help, type: "histogram", samples };
  }
}

/** The token kinds a provider reports, as the `kind` label says them. */
export const TOKEN_KINDS: readonly ("input" | "output" | "cache_write" | "cache_read")[] = [
  "input",
  "output",
  "cache_write",
  "cache_read",
];

/** How many callers get a label of their own unless `[plugins.proxy] max_callers` says. */
export const DEFAULT_MAX_CALLERS = 20;

/** What {@linkcode ProxyMetrics} is made with. */
export interface ProxyMetricsOptions {
  /** Callers with a label of their own; the rest are `other`. */
  readonly maxCallers?: number;
  /** Prices for the money counters; none counted without. */
  readonly prices?: PriceTable;
}

/**
 * The proxy's metrics since it started, each by caller (at most `maxCallers` of them, the rest
 * as `other`): requests, the tokens providers reported, tool results seen and compressed, chars
 * and estimated tokens saved, dollars spent and saved where the model has a price, and the
 * latency the proxy adds.
 */
export class ProxyMetrics {
  readonly #started = Date.now() / 1000;
  readonly #callers: CallerBound;
  readonly #prices: PriceTable | null;

  /** Counters at zero. */
  constructor(options: ProxyMetricsOptions = {}) {
    this.#callers = new CallerBound(options.maxCallers ?? DEFAULT_MAX_CALLERS);
    this.#prices = options.prices ?? null;
  }
  readonly #requests = new CounterVec(
    "rtok_proxy_requests_total",
    "Requests the proxy forwarded, by provider, model, route and the upstream's HTTP status " +
      "(502 when it never answered).",
    ["provider", "model", "route", "status", "caller"],
  );
  readonly #tokens = new CounterVec(
    "rtok_proxy_tokens_total",
    "Tokens the provider reported in its usage, by kind (input not from the cache, output, " +
      "cache_write, cache_read); count_tokens requests are not counted.",
    ["provider", "model", "kind", "caller"],
  );
  readonly #seen = new CounterVec(
    "rtok_proxy_tool_results_seen_total",
    "Tool results in the requests.",
    ["provider", "caller"],
  );
  readonly #compressed = new CounterVec(
    "rtok_proxy_tool_results_compressed_total",
    "Tool results the proxy compressed.",
    ["provider", "caller"],
  );
  readonly #charsSeen = new CounterVec(
    "rtok_proxy_tool_result_chars_seen_total",
    "Chars of tool results in the requests, compressed or not.",
    ["provider", "caller"],
  );
  readonly #charsSaved = new CounterVec(
    "rtok_proxy_chars_saved_total",
    "Chars compression removed from tool results.",
    ["provider", "caller"],
  );
  readonly #tokensSaved = new CounterVec(
    "rtok_proxy_estimated_tokens_saved_total",
    "Tokens compression removed, estimated from chars by each result's text class.",
    ["provider", "caller"],
  );
  readonly #spent = new CounterVec(
    "rtok_proxy_spent_usd_total",
    "US dollars the requests cost: the provider's token counts × the model's price; models " +
      "without a price are not counted.",
    ["provider", "model", "caller"],
  );
  readonly #savedUsd = new CounterVec(
    "rtok_proxy_estimated_saved_usd_total",
    "US dollars compression saved, estimated: tokens saved × the model's input price; models " +
      "without a price are not counted.",
    ["provider", "model", "caller"],
  );
  readonly #added = new Histogram(
    "rtok_proxy_added_latency_seconds",
    "What the proxy adds to a request: arrival to the forward starting (reading the body " +
      "and the plugins' work), seconds.",
    LATENCY_BUCKETS_S,
  );

  /** Counts one finished request. */
  observe(row: ProxyRow): void {
    const u = row.usage;
    const model = u.model ?? "";
    const caller = this.#callers.label(row.caller ?? ANONYMOUS);
    const by = [row.provider, caller];
    this.#requests.inc([row.provider, model, row.route, String(row.status), caller]);
    const kinds = [u.input, u.output, u.cacheWrite, u.cacheRead];
    if (row.route !== "count_tokens") {
      kinds.forEach((n, i) => {
        if (n !== null && n > 0) this.#tokens.inc([row.provider, model, TOKEN_KINDS[i], caller], n);
      });
    }
    this.#seen.inc(by, row.resultsSeen);
    this.#compressed.inc(by, row.results.length);
    this.#charsSeen.inc(by, row.charsSeen);
    this.#charsSaved.inc(by, row.charsSaved);
    let saved = 0;
    for (const r of row.results) {
      saved += estimateChars(r.rawChars, r.textClass) - estimateChars(r.emittedChars, r.textClass);
    }
    saved = Math.max(0, saved);
    this.#tokensSaved.inc(by, saved);
    const priced = this.#prices ? priceOf(this.#prices, model) : null;
    if (priced && row.route !== "count_tokens") {
      const t = kinds.map((n) => n ?? 0);
      const p = priceFor(priced, t[0] + t[2] + t[3]);
      if (p) {
        const perMillion = t[0] * p.input + t[1] * p.output + t[2] * p.cacheWrite +
          t[3] * p.cacheRead;
        this.#spent.inc([row.provider, model, caller], perMillion / 1_000_000);
        this.#savedUsd.inc([row.provider, model, caller], saved * p.input / 1_000_000);
      }
    }
    if (row.addedMs !== undefined) this.#added.observe(row.addedMs / 1000);
  }

  /** Every family as exposition text. */
  render(): string {
    return renderFamilies([
      {
        name: "rtok_proxy_start_time_seconds",
        help: "When this proxy process started, unix epoch seconds; its counters start there.",
        type: "gauge",
        samples: [{ suffix: "", labels: {}, value: this.#started }],
      },
      this.#requests.family(),
      this.#tokens.family(),
      this.#seen.family(),
      this.#compressed.family(),
      this.#charsSeen.family(),
      this.#charsSaved.family(),
      this.#tokensSaved.family(),
      this.#spent.family(),
      this.#savedUsd.family(),
      this.#added.family(),
    ]);
  }

  /** The `GET /metrics` answer. */
  response(): Response {
    return new Response(this.render(), { headers: { "content-type": METRICS_CONTENT_TYPE } });
  }
}
