// Rule: the same arguments and bytes give the same output, so a prompt cache stays valid. Said
// once here, over every golden fixture, instead of once per filter on a sample of its own: a
// filter or reader that consults a clock, a random source or state left by an earlier call
// gives different bytes on the second run.
import { deepStrictEqual, ok } from "node:assert/strict";
import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { matchCommand } from "../src/core/command.ts";
import { loadBuiltinFilters } from "../src/plugins/cmd/loaders.ts";
import { composeOutput } from "../src/pipeline/compose.ts";
import { loadContentEngine } from "../src/content/engine.ts";
import { viewFile } from "../src/content/file.ts";
import { classifyFile } from "../src/content/text_kind.ts";
import { compressJson } from "../src/content/json_structure.ts";
import { readFixtures } from "./_fixtures.ts";

const fixtures = await readFixtures();
const filters = await loadBuiltinFilters();

// What a filter made of a text, or what it threw: both must repeat.
function _outcome(filter: CommandFilter, text: string, input: FilterInput): Filtered | string {
  try {
    return filter.filter(text, input);
  } catch (e) {
    return `threw ${e}`;
  }
}

Deno.test("every built-in filter gives the same bytes twice on every fixture, its own or not", async (t) => {
  ok(filters.length >= 80, `${filters.length} filters`);
  ok(fixtures.length >= 140, `${fixtures.length} fixtures`);
  for (const filter of filters) {
    await t.step(filter.name, () => {
      for (const f of fixtures) {
        const input = { args: [], shaped: false, exitCode: f.meta.exitCode };
        deepStrictEqual(
          _outcome(filter, f.shaped, input),
          _outcome(filter, f.shaped, input),
          f.name,
        );
      }
    });
  }
});

Deno.test("every fixture's output as rtok prints it, fidelity guard and pointer included, repeats", async (t) => {
  for (const f of fixtures) {
    await t.step(f.name, () => {
      const match = matchCommand(f.meta.ran, filters);
      ok(match, f.meta.ran.join(" "));
      const input = {
        args: match.args,
        shaped: JSON.stringify(f.meta.ran) !== JSON.stringify(f.meta.typed),
        exitCode: f.meta.exitCode,
      };
      const once = composeOutput(match.filter, f.shaped, input);
      const twice = composeOutput(match.filter, f.shaped, input);
      deepStrictEqual(
        [once.changed, once.lossy, once.text("000000000000")],
        [twice.changed, twice.lossy, twice.text("000000000000")],
      );
    });
  }
});

Deno.test("ContentEngine.compress() gives the same bytes twice on every fixture", async () => {
  const engine = await loadContentEngine();
  let compressed = 0;
  for (const f of fixtures) {
    const once = engine.compress(f.shaped);
    if (once) compressed++;
    deepStrictEqual(engine.compress(f.shaped), once, f.name);
  }
  ok(compressed >= 70, `${compressed} fixtures compressed`);
});

// A fixture read as a file of each kind's name, and the repository's own lockfiles (JSON).
Deno.test("classifyFile() and viewFile() give the same view twice of every fixture and lockfile", async () => {
  const texts: [string, string][] = fixtures.map((f) => [f.name, f.shaped]);
  for (const lock of ["deno.lock", "dev.lock"]) {
    texts.push([lock, await Deno.readTextFile(new URL(`../${lock}`, import.meta.url))]);
  }
  let viewed = 0;
  for (const [name, text] of texts) {
    for (const path of name.endsWith(".lock") ? [name] : ["out.log", "out.json", "out.txt"]) {
      deepStrictEqual(classifyFile(path, text), classifyFile(path, text), `${name} as ${path}`);
      const once = await viewFile(path, text);
      if (once) viewed++;
      deepStrictEqual(await viewFile(path, text), once, `${name} as ${path}`);
    }
  }
  ok(viewed >= 70, `${viewed} views`);
});

// No fixture is a JSON document, so each is made one: its lines as an array, long ones cut.
Deno.test("compressJson() gives the same bytes twice on every fixture as a JSON array of lines", () => {
  let cut = 0;
  for (const f of fixtures) {
    const text = JSON.stringify({ fixture: f.name, lines: f.shaped.split("\n") }, null, 2);
    const once = compressJson(text);
    if (once?.cut.length) cut++;
    deepStrictEqual(compressJson(text), once, f.name);
  }
  ok(cut >= 5, `${cut} fixtures cut`);
});
