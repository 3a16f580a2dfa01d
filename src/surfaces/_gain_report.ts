/**
 * The summary `rtok gain` reports, gathered once from the ledger: the text view, the JSON view
 * and the dashboard all read it from here, so a figure is the same wherever it is shown.
 *
 * @module
 */

import type { Config } from "../core/config.ts";
import { configPath } from "../core/config.ts";
import { readServedRaw } from "../plugins/measure/served_raw.ts";
import type { Store } from "../core/store.ts";
import { type GuardReport, guardReport } from "../plugins/guard/report.ts";
import { type ExpandRate, expandRates } from "../plugins/measure/expand_rate.ts";
import { type GainSummary, gainSummary, type Scope } from "../plugins/measure/gain.ts";
import { type RefetchRate, refetchRates } from "../plugins/measure/refetch.ts";
import { type ProxyCost, proxyCost } from "../plugins/proxy/cost.ts";
import {
  proxyCallers,
  type ProxyCallerTotals,
  type ProxyGain,
  proxyGain,
  type StyleComparison,
  styleComparison,
} from "../plugins/proxy/gain.ts";
import { BUILTIN_PRICES, type PriceTable, priceTable } from "../plugins/proxy/prices.ts";

/** What `rtok gain` and the dashboard say when the ledger holds no run yet. */
export const NOTHING_YET = "No runs recorded yet: try `rtok git status`.";

/** A family's re-fetches over every project in scope. */
export interface FamilyRefetch {
  /** The filter family. */
  readonly family: string;
  /** Its lossy runs. */
  readonly lossyRuns: number;
  /** Those fetched again. */
  readonly refetched: number;
  /** refetched ÷ lossy runs × 100, one decimal. */
  readonly ratePct: number;
}

/** A family served raw in a project. */
export interface ServedRawRow {
  /** The project. */
  readonly project: string;
  /** The family. */
  readonly family: string;
  /** Its lossy runs since the last reset. */
  readonly lossyRuns: number;
  /** Those fetched again. */
  readonly refetched: number;
  /** The re-fetch rate that put it there. */
  readonly ratePct: number;
  /** True once a run told the user. */
  readonly told: boolean;
}

/** Everything the summary view of `rtok gain` shows. */
export interface GainReport {
  /** Estimated totals, per family, sessions, hosts. */
  readonly summary: GainSummary;
  /** Expand rates of the lossy families. */
  readonly rates: readonly ExpandRate[];
  /** Re-fetch rates per family. */
  readonly refetches: readonly FamilyRefetch[];
  /** Families served raw, per project. */
  readonly raw: readonly ServedRawRow[];
  /** The proxy's real usage. */
  readonly proxy: ProxyGain;
  /** The proxy's usage priced, when it recorded any request. */
  readonly money: ProxyCost | null;
  /** The style holdout. */
  readonly style: StyleComparison;
  /** The guard's interventions. */
  readonly guard: GuardReport;
}

/**
 * Reads the report from `store` for `scope`. `home` holds the served-raw state; a bad price
 * entry in `config` is told to `onBadPrices` and the built-in prices are used.
 */
export function gainReport(
  store: Store,
  scope: Scope,
  home: string | null,
  config: Config,
  onBadPrices: (message: string) => void,
): GainReport {
  const summary = gainSummary(store, scope);
  const rates = expandRates(store, scope.project);
  const proxy = proxyGain(store);
  const money = proxy.requests ? proxyCost(store, _prices(home, config, onBadPrices)) : null;
  const style = styleComparison(store);
  const guard = guardReport(store, scope);
  const served = home ? readServedRaw(home) : { projects: {}, resets: {} };
  const refetches = _byFamily(refetchRates(store, scope.project, served.resets));
  const raw = Object.entries(served.projects).flatMap(([project, families]) =>
    Object.entries(families).map(([family, r]) => ({ project, family, ...r }))
  ).filter((r) =>
    scope.project === null || r.project === scope.project ||
    r.project.startsWith(`${scope.project.replace(/\/+$/, "")}/`)
  );
  return { summary, rates, refetches, raw, proxy, money, style, guard };
}

/** One caller's proxy totals, priced. */
export interface CallerGain extends ProxyCallerTotals {
  /** Real usage × list prices, US dollars; `null` when none of its models has a price. */
  readonly spentUsd: number | null;
  /** What compression saved at those prices (estimated); `null` likewise. */
  readonly savedUsd: number | null;
  /** Its models without a price, left out of its dollars. */
  readonly unpriced: readonly string[];
}

/** The proxy's totals per caller (`rtok gain --by caller`), most requests first. */
export function gainByCaller(
  store: Store,
  home: string | null,
  config: Config,
  onBadPrices: (message: string) => void,
): CallerGain[] {
  const table = _prices(home, config, onBadPrices);
  return proxyCallers(store).map((c) => {
    const money = proxyCost(store, table, c.caller);
    return { ...c, spentUsd: money.spentUsd, savedUsd: money.savedUsd, unpriced: money.unpriced };
  });
}

/** The report as `rtok gain --format json` prints it (before `JSON.stringify`). */
export function gainJson(r: GainReport): Readonly<Record<string, unknown>> {
  return {
    estimated: true,
    ...r.summary,
    expandRates: r.rates,
    refetchRates: r.refetches,
    servedRaw: r.raw,
    proxy: { real: true, ...r.proxy, style: r.style },
    ...(r.money
      ? {
        money: {
          real: true,
          estimated: [
            "savedUsd",
            "models[].savedInputTokens",
            "models[].savedCacheReadTokens",
            "models[].savedUsd",
          ],
          ...r.money,
        },
      }
      : {}),
    guard: r.guard,
  };
}

// The price table: built in, overlaid with config.toml's; a bad entry costs one message and
// the built-in prices are used, as a bad config gives the defaults.
function _prices(
  home: string | null,
  config: Config,
  onBad: (message: string) => void,
): PriceTable {
  const file = home ? configPath(home) : "config.toml";
  try {
    return priceTable(config.plugins.proxy?.prices, BUILTIN_PRICES, file);
  } catch (e) {
    onBad(`Cannot read config "${file}": ${(e as Error).message}; using the built-in prices`);
    return BUILTIN_PRICES;
  }
}

function _byFamily(rates: readonly RefetchRate[]): FamilyRefetch[] {
  const by = new Map<string, { lossy: number; re: number }>();
  for (const r of rates) {
    const c = by.get(r.family) ?? { lossy: 0, re: 0 };
    c.lossy += r.lossyRuns;
    c.re += r.refetched;
    by.set(r.family, c);
  }
  return [...by].map(([family, c]) => ({
    family,
    lossyRuns: c.lossy,
    refetched: c.re,
    ratePct: Math.round((c.re / c.lossy) * 1000) / 10,
  })).sort((a, b) => b.ratePct - a.ratePct || a.family.localeCompare(b.family));
}
