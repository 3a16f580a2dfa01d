import { ok, strictEqual } from "node:assert/strict";
import { COMMAND_FILTERS } from "../filters/mod.ts";
import { archiveId } from "../src/plugins/archive/archive.ts";
import { matchCommand } from "../src/plugins/cmd/match.ts";
import { composeOutput } from "../src/plugins/cmd/compose.ts";
import { estimate } from "../src/core/tokens.ts";

/** A golden fixture's `meta.json` (see tests/fixtures/README.md). */
interface Meta {
  filter: string;
  typed: string[];
  ran: string[];
  exitCode: number;
  facts: string[];
  factsSource: string;
}

const ROOT = new URL("./fixtures/", import.meta.url);

/** Every fixture directory, sorted. */
export async function fixtureNames(): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(ROOT)) {
    if (e.isDirectory) names.push(e.name);
  }
  return names.sort();
}

/** A fixture's metadata, raw output and filtered output as the CLI would print it. */
export async function runFixture(name: string) {
  const meta = JSON.parse(await Deno.readTextFile(new URL(`${name}/meta.json`, ROOT))) as Meta;
  const raw = await Deno.readTextFile(new URL(`${name}/raw.out`, ROOT));
  const shapedBytes = await Deno.readFile(new URL(`${name}/shaped.out`, ROOT));
  const shaped = new TextDecoder().decode(shapedBytes);
  const match = matchCommand(meta.ran, COMMAND_FILTERS);
  if (!match) throw new Error(`${name}: no filter matches ${meta.ran.join(" ")}`);
  const input = {
    args: match.args,
    shaped: JSON.stringify(meta.ran) !== JSON.stringify(meta.typed),
    exitCode: meta.exitCode,
  };
  const composed = composeOutput(match.filter, shaped, input);
  const out = { ...composed, text: composed.text(await archiveId(shapedBytes)) };
  return { meta, raw, shaped, match, input, out };
}

const names = await fixtureNames();

Deno.test("every fixture is handled by the filter it names", async (t) => {
  ok(names.length >= 20, `${names.length} fixtures`);
  for (const name of names) {
    await t.step(name, async () => {
      const { meta, match } = await runFixture(name);
      strictEqual(match.filter.name, meta.filter);
      strictEqual(match.filter.passthrough?.(match.args) ?? null, null, "not a passthrough");
    });
  }
});

Deno.test("every fact of every fixture survives its filter", async (t) => {
  for (const name of names) {
    await t.step(name, async () => {
      const { meta, out } = await runFixture(name);
      ok(meta.facts.length > 0, "a fixture asserts at least one fact");
      for (const fact of meta.facts) {
        ok(out.text.includes(fact), `fact lost: ${JSON.stringify(fact)}`);
      }
    });
  }
});

Deno.test("each filter cuts at least half the estimated tokens of outputs over 500 chars", async (t) => {
  for (const name of names) {
    const { meta, raw, out, match } = await runFixture(name);
    if (raw.length <= 500) continue;
    await t.step(`${name} (${meta.filter})`, () => {
      const before = estimate(raw, match.filter.textClass);
      const after = estimate(out.text, match.filter.textClass);
      ok(
        after <= before / 2,
        `${after} of ${before} tokens (${Math.round(100 - (after / before) * 100)} % saved)`,
      );
    });
  }
});

Deno.test("every filter is never worse and deterministic on every fixture", async (t) => {
  for (const name of names) {
    await t.step(name, async () => {
      const { shaped, out, match, input } = await runFixture(name);
      ok(estimate(out.text, match.filter.textClass) <= estimate(shaped, match.filter.textClass));
      const again = composeOutput(match.filter, shaped, input).text("000000000000");
      const twice = composeOutput(match.filter, shaped, input).text("000000000000");
      strictEqual(again, twice);
    });
  }
});

Deno.test("every built-in command filter has at least one golden fixture", async () => {
  const covered = new Set<string>();
  for (const name of names) covered.add((await runFixture(name)).meta.filter);
  for (const f of COMMAND_FILTERS) ok(covered.has(f.name), `no fixture for ${f.name}`);
});
