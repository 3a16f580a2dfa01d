/**
 * Loading the golden fixtures and running each through its filter the way the CLI does;
 * shared by the fixture tests and the benchmarks.
 *
 * @module
 */

import { loadBuiltinFilters } from "../src/plugins/cmd/loaders.ts";
import type { FilterInput } from "../src/core/filter.ts";
import type { CommandMatch } from "../src/core/plugin.ts";
import { archiveId } from "../src/plugins/archive/archive.ts";
import { withPointer } from "../src/core/pointer.ts";
import { composeOutput } from "../src/pipeline/compose.ts";
import { matchCommand } from "../src/core/command.ts";

/** A golden fixture's `meta.json` (see tests/fixtures/README.md). */
export interface Meta {
  filter: string;
  typed: string[];
  ran: string[];
  exitCode: number;
  facts: string[];
  factsSource: string;
  /** What the tool is: a test runner, a compiler or linter, a package manager. */
  kind?: "test" | "build" | "package";
  /** The stream `raw.out` holds, when not stdout. */
  stream?: "stderr";
  /** Environment the capture set. */
  env?: Record<string, string>;
}

const ROOT = new URL("./fixtures/", import.meta.url);

// Every built-in filter, loaded once for all the fixtures.
const _filters = loadBuiltinFilters();

/** Every fixture directory, sorted. */
export async function fixtureNames(): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(ROOT)) {
    if (e.isDirectory) names.push(e.name);
  }
  return names.sort();
}

/** A fixture run through its filter. */
export interface FixtureRun {
  /** Its `meta.json`. */
  readonly meta: Meta;
  /** What the command printed as typed (the saving's baseline). */
  readonly raw: string;
  /** What it printed after stage 1 (the filter's input). */
  readonly shaped: string;
  /** The filter and the argv split around it. */
  readonly match: CommandMatch;
  /** What the filter was told. */
  readonly input: FilterInput;
  /** What rtok prints, with its pointer line when lossy. */
  readonly out: { readonly text: string; readonly changed: boolean; readonly lossy: boolean };
  /**
   * What the filter alone makes of the output, pointer line included, before the fidelity
   * guard puts back what says what failed and names where the hidden lines are: the filter's
   * own saving.
   */
  readonly own: string;
}

/** A fixture as captured. */
export interface Fixture {
  /** Its directory's name. */
  readonly name: string;
  /** Its `meta.json`. */
  readonly meta: Meta;
  /** What the command printed as typed. */
  readonly raw: string;
  /** What it printed after stage 1, as bytes and as text. */
  readonly shapedBytes: Uint8Array;
  /** The same, as text. */
  readonly shaped: string;
}

/** The fixture `name`, as captured. */
export async function readFixture(name: string): Promise<Fixture> {
  const meta = JSON.parse(await Deno.readTextFile(new URL(`${name}/meta.json`, ROOT))) as Meta;
  const raw = await Deno.readTextFile(new URL(`${name}/raw.out`, ROOT));
  const shapedBytes = await Deno.readFile(new URL(`${name}/shaped.out`, ROOT));
  return { name, meta, raw, shapedBytes, shaped: new TextDecoder().decode(shapedBytes) };
}

/** Every fixture, sorted by name. */
export async function readFixtures(): Promise<Fixture[]> {
  return await Promise.all((await fixtureNames()).map(readFixture));
}

/** A fixture's metadata, raw output and filtered output as the CLI would print it. */
export async function runFixture(name: string): Promise<FixtureRun> {
  const { meta, raw, shapedBytes, shaped } = await readFixture(name);
  const match = matchCommand(meta.ran, await _filters);
  if (!match) throw new Error(`${name}: no filter matches ${meta.ran.join(" ")}`);
  const input = {
    args: match.args,
    shaped: JSON.stringify(meta.ran) !== JSON.stringify(meta.typed),
    exitCode: meta.exitCode,
  };
  const composed = composeOutput(match.filter, shaped, input);
  const id = await archiveId(shapedBytes);
  const out = { ...composed, text: composed.text(id) };
  const alone = match.filter.filter(shaped, input);
  const own = alone.cut.length ? withPointer(alone, id) + "\n" : alone.text;
  return { meta, raw, shaped, match, input, out, own };
}
