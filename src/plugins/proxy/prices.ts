/**
 * Model prices for `rtok gain`'s money figures: the built-in table (`prices.json`, list prices
 * per million tokens with each provider's source page and date), overlaid with the user's
 * `[plugins.proxy.prices.<name>]` tables from `config.toml`. A model in neither has no price:
 * its cost is unknown, never guessed from a neighbour. A built-in model may have a prompt-length
 * band (`over`): a request whose prompt is longer than the band's threshold is billed at the
 * band's rates for every token, or has an unknown cost when the band has no rates.
 *
 * @module
 */

import BUILTIN from "./prices.json" with { type: "json" };

/** What one model costs, in US dollars per million tokens. */
export interface ModelPrice {
  /** Input tokens not read from the cache. */
  readonly input: number;
  /** Output tokens. */
  readonly output: number;
  /** Input tokens written to the prompt cache. */
  readonly cacheWrite: number;
  /** Input tokens read from the prompt cache. */
  readonly cacheRead: number;
}

/** Where a set of prices came from. */
export interface PriceSource {
  /** `anthropic`, `openai`, or `config` for the user's own. */
  readonly provider: string;
  /** The page the prices were read from, or the config file. */
  readonly source: string;
  /** The date they were read (YYYY-MM-DD); `null` for the user's own. */
  readonly asOf: string | null;
}

/**
 * A prompt-length band: a request whose prompt (input + cache-write + cache-read tokens) is
 * more than `prompt` tokens is billed at `price` for every token, output included.
 */
export interface PromptBand {
  /** The threshold in prompt tokens; a prompt of exactly this many is below the band. */
  readonly prompt: number;
  /** The rates above the threshold; `null` when no source states them (cost unknown). */
  readonly price: ModelPrice | null;
}

/** A priced model: its price and which source set it. */
export interface PricedModel extends ModelPrice {
  /** The source's provider (`anthropic`, `openai`, `config`). */
  readonly from: string;
  /** The prompt-length band above which other rates apply, when the model has one. */
  readonly over?: PromptBand;
}

/** Every known price, by model name, and the sources they came from. */
export interface PriceTable {
  /** Model name → price. */
  readonly models: Readonly<Record<string, PricedModel>>;
  /** The sources, built-in first, `config` last when the user set any. */
  readonly sources: readonly PriceSource[];
}

type _JsonModel = ModelPrice & { over?: { prompt: number } & Partial<ModelPrice> };
type _Json = {
  providers: Record<
    string,
    { source: string; asOf: string; models: Record<string, _JsonModel> }
  >;
};

/**
 * A price table in `prices.json`'s shape (`providers.<provider>` with `source`, `asOf` and
 * `models`). Throws a `TypeError` naming the model whose prompt band is malformed.
 */
export function pricesFromJson(json: unknown): PriceTable {
  const models: Record<string, PricedModel> = {};
  const sources: PriceSource[] = [];
  for (const [provider, p] of Object.entries((json as _Json).providers)) {
    sources.push({ provider, source: p.source, asOf: p.asOf });
    for (const [name, m] of Object.entries(p.models)) {
      const base = _rates(m);
      models[name] = m.over
        ? { ...base, from: provider, over: _band(m.over, `${provider} ${name}`) }
        : { ...base, from: provider };
    }
  }
  return { models, sources };
}

const _PROPS = ["input", "output", "cacheWrite", "cacheRead"] as const;

function _rates(m: ModelPrice): ModelPrice {
  return { input: m.input, output: m.output, cacheWrite: m.cacheWrite, cacheRead: m.cacheRead };
}

// A band states all four rates or none (its cost unknown); anything else is a table error.
function _band(over: { prompt: number } & Partial<ModelPrice>, where: string): PromptBand {
  const given = _PROPS.filter((prop) => over[prop] !== undefined).length;
  if (!(over.prompt > 0) || (given !== 0 && given !== 4)) {
    throw new TypeError(
      `prices.json ${where} over: expected a prompt > 0 and all four rates or none`,
    );
  }
  return { prompt: over.prompt, price: given ? _rates(over as ModelPrice) : null };
}

/** The built-in table, as shipped in `prices.json`. */
export const BUILTIN_PRICES: PriceTable = pricesFromJson(BUILTIN);

const _KEYS: readonly (readonly [string, keyof ModelPrice])[] = [
  ["input", "input"],
  ["output", "output"],
  ["cache_write", "cacheWrite"],
  ["cache_read", "cacheRead"],
];

/**
 * The built-in table overlaid with `[plugins.proxy.prices.<name>]` tables: each has `input`,
 * `output`, `cache_write` and `cache_read` in US dollars per million tokens, and an optional
 * `model = "…"` for a name TOML cannot spell as a bare key (`gpt-4.1`); `<name>` is the model
 * otherwise. Overriding a built-in model may set only some keys; a new model needs all four.
 * A config price is flat: it applies to every request, whatever the built-in band said.
 * Throws a `TypeError` naming the key on anything else.
 */
export function priceTable(
  prices: unknown,
  base: PriceTable = BUILTIN_PRICES,
  file = "config.toml",
): PriceTable {
  if (prices === undefined) return base;
  if (!_isTable(prices)) {
    throw new TypeError("[plugins.proxy] prices: expected [plugins.proxy.prices.<model>] tables");
  }
  const models: Record<string, PricedModel> = { ...base.models };
  for (const [label, entry] of Object.entries(prices as Record<string, unknown>)) {
    const where = `[plugins.proxy.prices.${label}]`;
    if (!_isTable(entry)) throw new TypeError(`${where}: expected a table`);
    const t = entry as Record<string, unknown>;
    for (const key of Object.keys(t)) {
      if (key !== "model" && !_KEYS.some(([k]) => k === key)) {
        throw new TypeError(
          `${where} ${key}: unknown key; expected model, input, output, cache_write, cache_read`,
        );
      }
    }
    if ("model" in t && (typeof t.model !== "string" || t.model === "")) {
      throw new TypeError(`${where} model: expected a model name, got ${JSON.stringify(t.model)}`);
    }
    const model = (t.model as string | undefined) ?? label;
    const known = base.models[model];
    const price: Record<string, number> = {};
    for (const [key, prop] of _KEYS) {
      const v = t[key];
      if (v === undefined) {
        if (!known) {
          throw new TypeError(`${where} ${key}: missing; "${model}" has no built-in price`);
        }
        price[prop] = known[prop];
      } else if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
        throw new TypeError(`${where} ${key}: expected a number ≥ 0, got ${JSON.stringify(v)}`);
      } else price[prop] = v;
    }
    models[model] = { ...(price as unknown as ModelPrice), from: "config" };
  }
  const own = Object.keys(prices as object).length
    ? [{ provider: "config", source: file, asOf: null }]
    : [];
  return { models, sources: [...base.sources, ...own] };
}

const _DATED = /-(?:\d{8}|\d{4}-\d{2}-\d{2})$/;

/**
 * The price of `model`: its own entry, else the entry of the name without a trailing release
 * date (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`, `gpt-4o-2024-08-06` → `gpt-4o`);
 * `null` when neither is in the table.
 */
export function priceOf(table: PriceTable, model: string): PricedModel | null {
  if (!model) return null;
  if (Object.hasOwn(table.models, model)) return table.models[model];
  const undated = model.replace(_DATED, "");
  if (undated !== model && Object.hasOwn(table.models, undated)) return table.models[undated];
  return null;
}

/**
 * The rates one request of `model` is billed at, given its prompt (input + cache-write +
 * cache-read tokens): the model's own, or its band's when the prompt is over the band's
 * threshold; `null` when that band's rates are unknown.
 */
export function priceFor(model: PricedModel, prompt: number): ModelPrice | null {
  if (model.over && prompt > model.over.prompt) return model.over.price;
  return _rates(model);
}

function _isTable(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
