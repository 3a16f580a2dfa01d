/**
 * Model prices for `rtok gain`'s money figures: the built-in table (`prices.json`, list prices
 * per million tokens with each provider's source page and date), overlaid with the user's
 * `[plugins.proxy.prices.<name>]` tables from `config.toml`. A model in neither has no price:
 * its cost is unknown, never guessed from a neighbour.
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

/** A priced model: its price and which source set it. */
export interface PricedModel extends ModelPrice {
  /** The source's provider (`anthropic`, `openai`, `config`). */
  readonly from: string;
}

/** Every known price, by model name, and the sources they came from. */
export interface PriceTable {
  /** Model name → price. */
  readonly models: Readonly<Record<string, PricedModel>>;
  /** The sources, built-in first, `config` last when the user set any. */
  readonly sources: readonly PriceSource[];
}

type _Json = {
  providers: Record<
    string,
    { source: string; asOf: string; models: Record<string, ModelPrice> }
  >;
};

/** The built-in table, as shipped in `prices.json`. */
export const BUILTIN_PRICES: PriceTable = _builtin(BUILTIN as _Json);

function _builtin(json: _Json): PriceTable {
  const models: Record<string, PricedModel> = {};
  const sources: PriceSource[] = [];
  for (const [provider, p] of Object.entries(json.providers)) {
    sources.push({ provider, source: p.source, asOf: p.asOf });
    for (const [name, price] of Object.entries(p.models)) {
      models[name] = { ...price, from: provider };
    }
  }
  return { models, sources };
}

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

function _isTable(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
