/**
 * The proxy's money figures for `rtok gain`: what the requests cost (the providers' own token
 * counts × the price table: real usage), and what the compressed tool results would have cost
 * more had they gone raw (rtok's estimated tokens saved × the input price the first time a
 * result was sent, × the cache-read price when it was re-sent in a request that read from the
 * cache: an estimate). A model with no price keeps its tokens and has no cost.
 *
 * @module
 */

import type { Store } from "../../core/store.ts";
import { type ModelPrice, priceOf, type PriceSource, type PriceTable } from "./prices.ts";

/** One provider and model: real usage and its cost, and the estimated saving. */
export interface ModelCost {
  /** The provider. */
  readonly provider: string;
  /** The model as the response named it ("" when none did). */
  readonly model: string;
  /** Model requests (count_tokens excluded). */
  readonly requests: number;
  /** Input tokens not read from the cache (real). */
  readonly inputTokens: number;
  /** Output tokens (real). */
  readonly outputTokens: number;
  /** Input tokens written to the cache (real). */
  readonly cacheWriteTokens: number;
  /** Input tokens read from the cache (real). */
  readonly cacheReadTokens: number;
  /** Its price, or `null` when the table has none: then every cost below is `null`. */
  readonly price: ModelPrice | null;
  /** Where the price came from (`anthropic`, `openai`, `config`), or `null`. */
  readonly priceFrom: string | null;
  /** Real usage × price, US dollars. */
  readonly spentUsd: number | null;
  /** Estimated tokens compression removed from results sent for the first time. */
  readonly savedInputTokens: number;
  /** Estimated tokens compression removed from results re-sent in requests read from cache. */
  readonly savedCacheReadTokens: number;
  /** Those tokens at the input and cache-read prices, US dollars (an estimate). */
  readonly savedUsd: number | null;
}

/** The money section of `rtok gain`. */
export interface ProxyCost {
  /** Always US dollars: the providers' price pages are. */
  readonly currency: "USD";
  /** Where the prices came from, with their dates. */
  readonly sources: readonly PriceSource[];
  /** Per provider and model, most spent first; unpriced models last. */
  readonly models: readonly ModelCost[];
  /** Σ spent over the priced models (real usage). */
  readonly spentUsd: number;
  /** Σ saved over the priced models (estimated). */
  readonly savedUsd: number;
  /** The models with no price (their cost unknown); `""` is a response that named none. */
  readonly unpriced: readonly string[];
}

/** Money figures over every successful model request still in the ledger. */
export function proxyCost(store: Store, table: PriceTable): ProxyCost {
  const usage = store.db.prepare(
    `SELECT provider, coalesce(model, '') AS model, count(*) AS requests,
       coalesce(sum(input_tokens), 0) AS input, coalesce(sum(output_tokens), 0) AS output,
       coalesce(sum(cache_write_tokens), 0) AS cache_write,
       coalesce(sum(cache_read_tokens), 0) AS cache_read
     FROM proxy_requests WHERE route != 'count_tokens'
     GROUP BY provider, coalesce(model, '')`,
  ).all() as Record<string, number | string>[];
  const saved = _savedSplit(store);
  const models = usage.map((u): ModelCost => {
    const key = `${u.provider}\u0000${u.model}`;
    const s = saved.get(key) ?? { input: 0, cacheRead: 0 };
    const priced = priceOf(table, String(u.model));
    const price = priced
      ? {
        input: priced.input,
        output: priced.output,
        cacheWrite: priced.cacheWrite,
        cacheRead: priced.cacheRead,
      }
      : null;
    const tokens = {
      inputTokens: Number(u.input),
      outputTokens: Number(u.output),
      cacheWriteTokens: Number(u.cache_write),
      cacheReadTokens: Number(u.cache_read),
    };
    return {
      provider: String(u.provider),
      model: String(u.model),
      requests: Number(u.requests),
      ...tokens,
      price,
      priceFrom: priced?.from ?? null,
      spentUsd: price
        ? _usd(
          tokens.inputTokens * price.input + tokens.outputTokens * price.output +
            tokens.cacheWriteTokens * price.cacheWrite + tokens.cacheReadTokens * price.cacheRead,
        )
        : null,
      savedInputTokens: s.input,
      savedCacheReadTokens: s.cacheRead,
      savedUsd: price ? _usd(s.input * price.input + s.cacheRead * price.cacheRead) : null,
    };
  }).sort((a, b) =>
    (b.spentUsd ?? -1) - (a.spentUsd ?? -1) || b.requests - a.requests ||
    a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model)
  );
  const sum = (f: (m: ModelCost) => number | null) =>
    _round6(models.reduce((a, m) => a + (f(m) ?? 0), 0));
  return {
    currency: "USD",
    sources: table.sources,
    models,
    spentUsd: sum((m) => m.spentUsd),
    savedUsd: sum((m) => m.savedUsd),
    unpriced: models.filter((m) => m.price === null).map((m) => m.model),
  };
}

/**
 * Estimated tokens saved per provider and model, split by how the result went: a result
 * (known by its archive id) already sent in an earlier request, in a request that read from
 * the cache, counts at the cache-read price; any other at the input price. Results of failed
 * requests and of count_tokens are not billed and not counted.
 */
function _savedSplit(store: Store): Map<string, { input: number; cacheRead: number }> {
  const rows = store.db.prepare(
    `SELECT q.provider AS provider, coalesce(q.model, '') AS model,
       coalesce(q.cache_read_tokens, 0) AS cache_read, r.archive_id AS archive,
       r.raw_tokens - r.emitted_tokens AS saved
     FROM proxy_results r JOIN proxy_requests q ON q.id = r.request_id
     WHERE q.route != 'count_tokens' AND coalesce(q.status, 0) < 400
     ORDER BY q.ts, q.id, r.id`,
  ).all() as {
    provider: string;
    model: string;
    cache_read: number;
    archive: string | null;
    saved: number;
  }[];
  const seen = new Set<string>();
  const out = new Map<string, { input: number; cacheRead: number }>();
  for (const r of rows) {
    const key = `${r.provider}\u0000${r.model}`;
    const acc = out.get(key) ?? { input: 0, cacheRead: 0 };
    const resent = r.archive !== null && seen.has(r.archive) && Number(r.cache_read) > 0;
    if (resent) acc.cacheRead += Number(r.saved);
    else acc.input += Number(r.saved);
    if (r.archive !== null) seen.add(r.archive);
    out.set(key, acc);
  }
  return out;
}

// Per-million prices × tokens → dollars, rounded to a millionth of a dollar.
function _usd(tokenDollarsPerMillion: number): number {
  return _round6(tokenDollarsPerMillion / 1_000_000);
}

function _round6(x: number): number {
  return Math.round(x * 1_000_000) / 1_000_000;
}

/** Dollars for display: `$12.34`, `$0.0123` below a dollar, `$0.00` for nothing. */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0.00";
  const abs = Math.abs(usd);
  const s = abs >= 1 ? abs.toFixed(2) : abs >= 0.0001 ? abs.toFixed(4) : "<0.0001";
  return `${usd < 0 ? "-" : ""}$${s}`;
}
