/**
 * The proxy's part of `rtok gain`: the tokens providers reported for the requests that went
 * through it (real counts, kept apart from rtok's estimates), and what compression saved.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import type { Store } from "../../core/store.ts";

/** Real usage for one provider and model. */
export interface ProxyModelTotals {
  /** The provider. */
  readonly provider: string;
  /** The model, as the response named it ("" when none did). */
  readonly model: string;
  /** Requests. */
  readonly requests: number;
  /** Input tokens not read from the cache. */
  readonly inputTokens: number;
  /** Output tokens. */
  readonly outputTokens: number;
  /** Input tokens written to the cache. */
  readonly cacheWriteTokens: number;
  /** Input tokens read from the cache. */
  readonly cacheReadTokens: number;
}

/** What the proxy saw and saved. */
export interface ProxyGain {
  /** Requests forwarded (count_tokens included). */
  readonly requests: number;
  /** Requests that ended in an error status (≥ 400, or 502 from the proxy). */
  readonly errors: number;
  /** Real usage per provider and model; count_tokens requests are not in it. */
  readonly models: readonly ProxyModelTotals[];
  /** Tool results seen in requests. */
  readonly resultsSeen: number;
  /** Tool results compressed. */
  readonly resultsCompressed: number;
  /** Tool-result chars seen. */
  readonly charsSeen: number;
  /** Chars compression removed. */
  readonly charsSaved: number;
  /** Estimated tokens compression removed (by each result's text class). */
  readonly estimatedTokensSaved: number;
}

/** The proxy's totals, over every request still in the ledger. */
export function proxyGain(store: Store): ProxyGain {
  const db = store.db;
  const head = db.prepare(
    `SELECT count(*) AS requests, coalesce(sum(status >= 400), 0) AS errors,
       coalesce(sum(results_seen), 0) AS seen, coalesce(sum(results_compressed), 0) AS compressed,
       coalesce(sum(chars_seen), 0) AS chars_seen, coalesce(sum(chars_saved), 0) AS chars_saved
     FROM proxy_requests`,
  ).get() as Record<string, number>;
  const saved = db.prepare(
    "SELECT coalesce(sum(raw_tokens - emitted_tokens), 0) AS n FROM proxy_results",
  ).get() as { n: number };
  const models = db.prepare(
    `SELECT provider, coalesce(model, '') AS model, count(*) AS requests,
       coalesce(sum(input_tokens), 0) AS input, coalesce(sum(output_tokens), 0) AS output,
       coalesce(sum(cache_write_tokens), 0) AS cache_write,
       coalesce(sum(cache_read_tokens), 0) AS cache_read
     FROM proxy_requests WHERE route != 'count_tokens'
     GROUP BY provider, coalesce(model, '') ORDER BY requests DESC, provider, model`,
  ).all() as Record<string, number | string>[];
  return {
    requests: Number(head.requests),
    errors: Number(head.errors),
    models: models.map((m) => ({
      provider: String(m.provider),
      model: String(m.model),
      requests: Number(m.requests),
      inputTokens: Number(m.input),
      outputTokens: Number(m.output),
      cacheWriteTokens: Number(m.cache_write),
      cacheReadTokens: Number(m.cache_read),
    })),
    resultsSeen: Number(head.seen),
    resultsCompressed: Number(head.compressed),
    charsSeen: Number(head.chars_seen),
    charsSaved: Number(head.chars_saved),
    estimatedTokensSaved: Number(saved.n),
  };
}

/** One caller's requests through the proxy. */
export interface ProxyCallerTotals {
  /** The caller: its team name or `key-…` hash; `""` for requests recorded without one. */
  readonly caller: string;
  /** Requests forwarded (count_tokens included). */
  readonly requests: number;
  /** Requests that ended in an error status. */
  readonly errors: number;
  /** Input tokens the providers reported (not from the cache), count_tokens excluded. */
  readonly inputTokens: number;
  /** Output tokens the providers reported. */
  readonly outputTokens: number;
  /** Tool results compressed. */
  readonly resultsCompressed: number;
  /** Chars compression removed. */
  readonly charsSaved: number;
  /** Estimated tokens compression removed. */
  readonly estimatedTokensSaved: number;
}

/** The proxy's totals per caller, most requests first. */
export function proxyCallers(store: Store): ProxyCallerTotals[] {
  const rows = store.db.prepare(
    `SELECT coalesce(q.caller, '') AS caller, count(*) AS requests,
       coalesce(sum(q.status >= 400), 0) AS errors,
       coalesce(sum(CASE WHEN q.route != 'count_tokens' THEN q.input_tokens END), 0) AS input,
       coalesce(sum(CASE WHEN q.route != 'count_tokens' THEN q.output_tokens END), 0) AS output,
       coalesce(sum(q.results_compressed), 0) AS compressed,
       coalesce(sum(q.chars_saved), 0) AS chars_saved,
       coalesce(sum((SELECT sum(r.raw_tokens - r.emitted_tokens) FROM proxy_results r
         WHERE r.request_id = q.id)), 0) AS tokens_saved
     FROM proxy_requests q GROUP BY 1 ORDER BY requests DESC, caller`,
  ).all() as Record<string, number | string>[];
  return rows.map((r) => ({
    caller: String(r.caller),
    requests: Number(r.requests),
    errors: Number(r.errors),
    inputTokens: Number(r.input),
    outputTokens: Number(r.output),
    resultsCompressed: Number(r.compressed),
    charsSaved: Number(r.chars_saved),
    estimatedTokensSaved: Number(r.tokens_saved),
  }));
}

/** Output tokens per request in one style arm. */
export interface StyleArmStats {
  /** The arm: the style injected, or held out. */
  readonly arm: "styled" | "holdout";
  /** Requests with a reported output token count. */
  readonly requests: number;
  /** Mean output tokens per request. */
  readonly meanOutputTokens: number;
  /** The mean's 95 % interval (normal approximation), low end. */
  readonly low95: number;
  /** …and high end. */
  readonly high95: number;
}

/** The holdout comparison of the style injection. */
export interface StyleComparison {
  /** Both arms, styled first (an arm with no requests has zeros). */
  readonly arms: readonly StyleArmStats[];
  /** Styled minus held-out mean output tokens and its 95 % interval; `null` with too little data. */
  readonly difference:
    | { readonly mean: number; readonly low95: number; readonly high95: number }
    | null;
  /** One line saying what the data shows, or that there is too little to tell. */
  readonly verdict: string;
}

/** Requests each arm needs before the comparison says anything. */
export const MIN_ARM_REQUESTS = 30;

const _Z95 = 1.96;

/**
 * Output tokens per request with the style and without it (the held-out sessions), over the
 * successful model requests whose provider reported output tokens. Requests of one session are
 * counted as independent, which makes the intervals somewhat narrower than they are.
 */
export function styleComparison(store: Store): StyleComparison {
  const rows = store.db.prepare(
    `SELECT style_arm AS arm, output_tokens AS out FROM proxy_requests
     WHERE style_arm IN ('styled', 'holdout') AND output_tokens IS NOT NULL AND status < 400
       AND route != 'count_tokens'`,
  ).all() as { arm: "styled" | "holdout"; out: number }[];
  const stats = (arm: "styled" | "holdout") => {
    const xs = rows.filter((r) => r.arm === arm).map((r) => Number(r.out));
    const n = xs.length;
    const mean = n ? xs.reduce((a, b) => a + b, 0) / n : 0;
    const variance = n > 1 ? xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1) : 0;
    const half = n ? _Z95 * Math.sqrt(variance / n) : 0;
    return {
      arm,
      requests: n,
      meanOutputTokens: mean,
      low95: mean - half,
      high95: mean + half,
      variance,
    };
  };
  const styled = stats("styled");
  const held = stats("holdout");
  const arms = [styled, held].map(({ variance: _, ...a }) => _rounded(a));
  if (styled.requests < MIN_ARM_REQUESTS || held.requests < MIN_ARM_REQUESTS) {
    return {
      arms,
      difference: null,
      verdict: `too little data to tell: ${styled.requests} styled and ${held.requests} held-out ` +
        `requests; ${MIN_ARM_REQUESTS} in each are needed`,
    };
  }
  const mean = styled.meanOutputTokens - held.meanOutputTokens;
  const half = _Z95 *
    Math.sqrt(styled.variance / styled.requests + held.variance / held.requests);
  const difference = {
    mean: _round(mean),
    low95: _round(mean - half),
    high95: _round(mean + half),
  };
  const range = `95 % interval ${difference.low95} to ${difference.high95}`;
  const verdict = mean + half < 0
    ? `styled answers are shorter: ${_round(-mean)} output tokens fewer per request (${range})`
    : mean - half > 0
    ? `styled answers are longer: ${_round(mean)} output tokens more per request (${range})`
    : `no difference shown: the ${range} of styled minus held-out includes 0`;
  return { arms, difference, verdict };
}

function _round(x: number): number {
  return Math.round(x * 10) / 10;
}

function _rounded(a: StyleArmStats): StyleArmStats {
  return {
    ...a,
    meanOutputTokens: _round(a.meanOutputTokens),
    low95: _round(a.low95),
    high95: _round(a.high95),
  };
}

/** One day's estimated tokens the proxy's compression removed, by content filter. */
export interface ProxyDaySaving {
  /** The local date, `YYYY-MM-DD`. */
  readonly day: string;
  /** The content filter (`json`, `text`, `git log`). */
  readonly family: string;
  /** Estimated tokens saved. */
  readonly saved: number;
}

/** Estimated tokens the proxy saved since `start` (epoch ms), by local day and shape. */
export function proxySavedByDay(store: Store, start: number): ProxyDaySaving[] {
  const rows = store.db.prepare(
    `SELECT strftime('%Y-%m-%d', q.ts / 1000, 'unixepoch', 'localtime') AS day,
       r.shape AS family, sum(r.raw_tokens - r.emitted_tokens) AS saved
     FROM proxy_results r JOIN proxy_requests q ON q.id = r.request_id
     WHERE q.ts >= ? AND q.route != 'count_tokens' GROUP BY day, family`,
  ).all(start) as Record<string, unknown>[];
  return rows.map((r) => ({
    day: String(r.day),
    family: String(r.family),
    saved: Number(r.saved),
  }));
}

/** The proxy's ledger rows as `rtok metrics` exports them, each a query's rows. */
export interface ProxyMetricRows {
  /** The `limit` callers with the most requests, most first (`""` for none). */
  readonly topCallers: readonly string[];
  /** Requests by provider, model, route, HTTP status (0: none) and caller. */
  readonly requests: readonly {
    provider: string;
    model: string;
    route: string;
    status: number;
    caller: string;
    n: number;
  }[];
  /** Reported tokens by provider, model and caller; `count_tokens` left out. */
  readonly tokens: readonly {
    provider: string;
    model: string;
    caller: string;
    input: number;
    output: number;
    cache_write: number;
    cache_read: number;
  }[];
  /** Tool results seen and compressed, and their chars, by provider and caller. */
  readonly results: readonly {
    provider: string;
    caller: string;
    results_seen: number;
    results_compressed: number;
    chars_seen: number;
    chars_saved: number;
  }[];
  /** Estimated tokens compression removed, by provider and caller. */
  readonly saved: readonly { provider: string; caller: string; saved: number }[];
}

// A row's columns as strings (`text`) or numbers (the rest), as the row type says.
function _rows<T>(db: DatabaseSync, sql: string, text: readonly string[]): T[] {
  return (db.prepare(sql).all() as Record<string, unknown>[]).map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [k, text.includes(k) ? String(v) : Number(v)]),
    ) as T
  );
}

/** The proxy's rows for `rtok metrics`, read on `db` (a read-only handle will do). */
export function proxyMetricRows(db: DatabaseSync, limit: number): ProxyMetricRows {
  return {
    topCallers: _rows<{ caller: string }>(
      db,
      `SELECT coalesce(caller, '') AS caller, count(*) AS n FROM proxy_requests
       GROUP BY 1 ORDER BY n DESC, caller LIMIT ${Math.trunc(limit)}`,
      ["caller"],
    ).map((r) => r.caller),
    requests: _rows(
      db,
      `SELECT provider, coalesce(model, '') AS model, route, coalesce(status, 0) AS status,
         coalesce(caller, '') AS caller, count(*) AS n FROM proxy_requests GROUP BY 1, 2, 3, 4, 5`,
      ["provider", "model", "route", "caller"],
    ),
    tokens: _rows(
      db,
      `SELECT provider, coalesce(model, '') AS model, coalesce(caller, '') AS caller,
         coalesce(sum(input_tokens), 0) AS input, coalesce(sum(output_tokens), 0) AS output,
         coalesce(sum(cache_write_tokens), 0) AS cache_write,
         coalesce(sum(cache_read_tokens), 0) AS cache_read
       FROM proxy_requests WHERE route != 'count_tokens' GROUP BY 1, 2, 3`,
      ["provider", "model", "caller"],
    ),
    results: _rows(
      db,
      `SELECT provider, coalesce(caller, '') AS caller, sum(results_seen) AS results_seen,
         sum(results_compressed) AS results_compressed, sum(chars_seen) AS chars_seen,
         sum(chars_saved) AS chars_saved FROM proxy_requests GROUP BY 1, 2`,
      ["provider", "caller"],
    ),
    saved: _rows(
      db,
      `SELECT q.provider AS provider, coalesce(q.caller, '') AS caller,
         sum(r.raw_tokens - r.emitted_tokens) AS saved
       FROM proxy_results r JOIN proxy_requests q ON q.id = r.request_id GROUP BY 1, 2`,
      ["provider", "caller"],
    ),
  };
}
