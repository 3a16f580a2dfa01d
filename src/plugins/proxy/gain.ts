/**
 * The proxy's part of `rtok gain`: the tokens providers reported for the requests that went
 * through it (real counts, kept apart from rtok's estimates), and what compression saved.
 *
 * @module
 */

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
