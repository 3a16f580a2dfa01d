/**
 * The per-family median saving over the golden fixtures, shared by the generator of
 * `src/rewrite/savings.ts` and the test that holds that file to the fixtures.
 *
 * @module
 */

import { estimate } from "../src/core/tokens.ts";
import { fixtureNames, runFixture } from "./_fixtures.ts";

/** Family → median estimated-token saving in whole percent, over fixtures over 500 chars. */
export async function measuredSavings(): Promise<Record<string, number>> {
  const by = new Map<string, number[]>();
  for (const name of await fixtureNames()) {
    const { meta, raw, out, match } = await runFixture(name);
    if (raw.length <= 500) continue;
    const before = estimate(raw, match.filter.textClass);
    const saved = 1 - estimate(out.text, match.filter.textClass) / before;
    by.set(meta.filter, [...(by.get(meta.filter) ?? []), saved]);
  }
  const result: Record<string, number> = {};
  for (const family of [...by.keys()].sort()) {
    const s = by.get(family)!.sort((a, b) => a - b);
    const m = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    result[family] = Math.round(m * 100);
  }
  return result;
}
