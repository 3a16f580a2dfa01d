/**
 * The proxy's money figures for `rtok gain`: what the requests cost (the providers' own token
 * counts × the price table: real usage), and what the compressed tool results would have cost
 * more had they gone raw (rtok's estimated tokens saved × the input price the first time a
 * result was sent, × the cache-read price when it was re-sent in a request that read from the
 * cache: an estimate). Each request is priced on its own, so a model whose price depends on the
 * prompt's length is billed at the band each request fell in. A model with no price, or with a
 * request in a band whose rates are unknown, keeps its tokens and has no cost.
 *
 * @module
 */

import type { Store } from "../../core/store.ts";
import {
  type ModelPrice,
  type PricedModel,
  priceFor,
  priceOf,
  type PriceSource,
  type PriceTable,
  type PromptBand,
} from "./prices.ts";
import type { ProxyModelTotals } from "./gain.ts";

/**
 * One provider and model: its real usage (model requests, count_tokens excluded), its cost,
 * and the estimated saving.
 */
export interface ModelCost extends ProxyModelTotals {
  /** Its price, or `null` when the table has none: then every cost below is `null`. */
  readonly price: ModelPrice | null;
  /** Its prompt-length band, or `null` when it has none (one price for every request). */
  readonly priceOver: PromptBand | null;
  /** Requests whose prompt was over the band's threshold, billed at the band's rates. */
  readonly overRequests: number;
  /** Where the price came from (`anthropic`, `openai`, `config`), or `null`. */
  readonly priceFrom: string | null;
  /** Real usage × price, US dollars; `null` when a request's rates are unknown. */
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
  /**
   * Σ spent over the priced models (real usage); `null` when no model has a price: a sum of
   * nothing known is not $0.00. See {@linkcode ProxyCost.unpriced} for what it leaves out.
   */
  readonly spentUsd: number | null;
  /** Σ saved over the priced models (estimated); `null` when no model has a price. */
  readonly savedUsd: number | null;
  /**
   * The models with no price or with a request in a band of unknown rates (their cost unknown);
   * `""` is a response that named none.
   */
  readonly unpriced: readonly string[];
}

/**
 * Money figures over every successful model request still in the ledger; with `caller`, over
 * that caller's alone (`""` for requests recorded without one).
 */
export function proxyCost(
  store: Store,
  table: PriceTable,
  caller: string | null = null,
): ProxyCost {
  const requests = store.db.prepare(
    `SELECT provider, coalesce(model, '') AS model,
       coalesce(input_tokens, 0) AS input, coalesce(output_tokens, 0) AS output,
       coalesce(cache_write_tokens, 0) AS cache_write, coalesce(cache_read_tokens, 0) AS cache_read
     FROM proxy_requests WHERE route != 'count_tokens'
       AND (?1 IS NULL OR coalesce(caller, '') = ?1) ORDER BY ts, id`,
  ).all(caller) as unknown as _Request[];
  const priced = new Map<string, PricedModel | null>();
  const look = (model: string): PricedModel | null => {
    if (!priced.has(model)) priced.set(model, priceOf(table, model));
    return priced.get(model)!;
  };
  const acc = new Map<string, _Acc>();
  for (const r of requests) {
    const key = `${r.provider}\u0000${r.model}`;
    const a = acc.get(key) ??
      {
        provider: r.provider,
        model: r.model,
        requests: 0,
        over: 0,
        unknown: false,
        tokens: [0, 0, 0, 0],
        spent: 0,
      };
    const tokens = [Number(r.input), Number(r.output), Number(r.cache_write), Number(r.cache_read)];
    a.requests++;
    for (let i = 0; i < tokens.length; i++) a.tokens[i] += tokens[i];
    const m = look(r.model);
    if (m) {
      const prompt = tokens[0] + tokens[2] + tokens[3];
      if (m.over && prompt > m.over.prompt) a.over++;
      const p = priceFor(m, prompt);
      if (p === null) a.unknown = true;
      else {
        a.spent += tokens[0] * p.input + tokens[1] * p.output + tokens[2] * p.cacheWrite +
          tokens[3] * p.cacheRead;
      }
    }
    acc.set(key, a);
  }
  const saved = _savedSplit(store, look, caller);
  const models = [...acc.entries()].map(([key, a]): ModelCost => {
    const s = saved.get(key) ?? { input: 0, cacheRead: 0, usd: 0, unknown: false };
    const m = look(a.model);
    const known = m !== null && !a.unknown && !s.unknown;
    return {
      provider: a.provider,
      model: a.model,
      requests: a.requests,
      inputTokens: a.tokens[0],
      outputTokens: a.tokens[1],
      cacheWriteTokens: a.tokens[2],
      cacheReadTokens: a.tokens[3],
      price: m
        ? { input: m.input, output: m.output, cacheWrite: m.cacheWrite, cacheRead: m.cacheRead }
        : null,
      priceOver: m?.over ?? null,
      overRequests: a.over,
      priceFrom: m?.from ?? null,
      spentUsd: known ? _usd(a.spent) : null,
      savedInputTokens: s.input,
      savedCacheReadTokens: s.cacheRead,
      savedUsd: known ? _usd(s.usd) : null,
    };
  }).sort((a, b) =>
    (b.spentUsd ?? -1) - (a.spentUsd ?? -1) || b.requests - a.requests ||
    a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model)
  );
  const anyPriced = models.some((m) => m.spentUsd !== null);
  const sum = (f: (m: ModelCost) => number | null) =>
    anyPriced ? _round6(models.reduce((a, m) => a + (f(m) ?? 0), 0)) : null;
  return {
    currency: "USD",
    sources: table.sources,
    models,
    spentUsd: sum((m) => m.spentUsd),
    savedUsd: sum((m) => m.savedUsd),
    unpriced: models.filter((m) => m.spentUsd === null).map((m) => m.model),
  };
}

type _Request = {
  provider: string;
  model: string;
  input: number;
  output: number;
  cache_write: number;
  cache_read: number;
};
type _Acc = {
  provider: string;
  model: string;
  requests: number;
  over: number;
  unknown: boolean;
  // input, output, cache write, cache read
  tokens: number[];
  // Σ tokens × price per million, before the division to dollars.
  spent: number;
};

/**
 * Estimated tokens saved per provider and model, split by how the result went: a result
 * (known by its archive id) already sent in an earlier request, in a request that read from
 * the cache, counts at the cache-read price; any other at the input price. Each is priced at
 * the rates of the band its request fell in. Results of failed requests and of count_tokens
 * are not billed and not counted.
 */
function _savedSplit(
  store: Store,
  look: (model: string) => PricedModel | null,
  caller: string | null,
): Map<string, { input: number; cacheRead: number; usd: number; unknown: boolean }> {
  const rows = store.db.prepare(
    `SELECT q.provider AS provider, coalesce(q.model, '') AS model,
       coalesce(q.cache_read_tokens, 0) AS cache_read,
       coalesce(q.input_tokens, 0) + coalesce(q.cache_write_tokens, 0) +
         coalesce(q.cache_read_tokens, 0) AS prompt,
       r.archive_id AS archive, r.raw_tokens - r.emitted_tokens AS saved
     FROM proxy_results r JOIN proxy_requests q ON q.id = r.request_id
     WHERE q.route != 'count_tokens' AND coalesce(q.status, 0) < 400
       AND (?1 IS NULL OR coalesce(q.caller, '') = ?1)
     ORDER BY q.ts, q.id, r.id`,
  ).all(caller) as {
    provider: string;
    model: string;
    cache_read: number;
    prompt: number;
    archive: string | null;
    saved: number;
  }[];
  const seen = new Set<string>();
  const out = new Map<
    string,
    { input: number; cacheRead: number; usd: number; unknown: boolean }
  >();
  for (const r of rows) {
    const key = `${r.provider}\u0000${r.model}`;
    const acc = out.get(key) ?? { input: 0, cacheRead: 0, usd: 0, unknown: false };
    const resent = r.archive !== null && seen.has(r.archive) && Number(r.cache_read) > 0;
    const saved = Number(r.saved);
    if (resent) acc.cacheRead += saved;
    else acc.input += saved;
    const m = look(r.model);
    const p = m ? priceFor(m, Number(r.prompt)) : null;
    if (m && p === null) acc.unknown = true;
    if (p) acc.usd += saved * (resent ? p.cacheRead : p.input);
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
