import { ok, strictEqual } from "node:assert/strict";
import { FAMILY_TABLE } from "../filters/index.ts";
import { estimate } from "../src/core/tokens.ts";
import { fixtureNames, runFixture } from "./_fixtures.ts";
import { identifierProblems } from "./_identifiers.ts";
import { missingActionable } from "../src/core/actionable.ts";
import { findPointers } from "../src/core/pointer.ts";
import { hiddenSpans, parseSpans } from "../src/core/hidden_lines.ts";

const names = await fixtureNames();

// Families whose long outputs are all facts, held to no saving: bun install prints the packages
// it added, one a line, and little else (its fixture over 500 chars saves 3 %).
const FACTS_ONLY = new Set(["bun install"]);

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

// Rule 9: what counts as a path, a hash, whole or a fragment is defined in tests/_identifiers.ts.
// The raw output is what the filter was given (after stage 1, which asks the tool for less).
// Failing test names are facts of the runner fixtures, taken from each runner's own report.
Deno.test("every path and hash the raw output names arrives whole, or is cut and pointed to", async (t) => {
  for (const name of names) {
    await t.step(name, async () => {
      const { meta, shaped, out } = await runFixture(name);
      const problems = identifierProblems(meta.filter, meta.ran, shaped, out.text, out.lossy);
      strictEqual(problems.length, 0, problems.slice(0, 5).join("\n"));
    });
  }
});

// Fixtures where writing every path whole (rule 9) costs more than half the raw output, each held
// to the saving it has instead: find_name_js lists 296 paths in 109 small directories of a
// node_modules copy, each directory written in full; git_status lists 16 paths, each whole.
const WHOLE_PATHS_SAVE = new Map<string, number>([["find_name_js", 0.4], ["git_status", 0.49]]);

// Diffs whose bodies are mostly changed lines, which a diff keeps whole up to a few hundred a
// hunk (the agent edits those lines next): each held to the saving it has, 44–50 %.
const CHANGED_LINES_SAVE = new Map([["git_show", 0.42], ["git_show_rename", 0.48], [
  "git_show_tag",
  0.46,
]]);

// The savings below are the filter's own (`own`): what the fidelity guard adds back (lines that
// say what failed or what to do, where hidden lines are) is held by its own tests further down.
Deno.test("each filter cuts at least half the estimated tokens of outputs over 500 chars", async (t) => {
  let held = 0;
  for (const name of names) {
    const { meta, raw, own, match } = await runFixture(name);
    if (raw.length <= 500 || FACTS_ONLY.has(meta.filter)) continue;
    held++;
    const least = WHOLE_PATHS_SAVE.get(name) ?? CHANGED_LINES_SAVE.get(name) ?? 0.5;
    await t.step(`${name} (${meta.filter})`, () => {
      const before = estimate(raw, match.filter.textClass);
      const after = estimate(own, match.filter.textClass);
      ok(
        after <= before * (1 - least),
        `${after} of ${before} tokens (${Math.round(100 - (after / before) * 100)} % saved)`,
      );
    });
  }
  ok(held >= 100, `${held} outputs over 500 chars`);
});

// That each gives the same bytes twice is tests/determinism_test.ts's.
Deno.test("every filter is never worse on every fixture", async (t) => {
  for (const name of names) {
    await t.step(name, async () => {
      const { shaped, out, match } = await runFixture(name);
      ok(estimate(out.text, match.filter.textClass) <= estimate(shaped, match.filter.textClass));
    });
  }
});

// Filters whose tool cannot run on this machine, so no real output can be captured; their unit
// tests follow the tool's documented format. golangci-lint: no apt or npm package, and Go's
// module proxy is out of reach.
const NOT_CAPTURABLE = new Set(["golangci-lint"]);

Deno.test("every hand-written family has at least one golden fixture", async () => {
  const covered = new Set<string>();
  for (const name of names) covered.add((await runFixture(name)).meta.filter);
  for (const [family, { file }] of Object.entries(FAMILY_TABLE)) {
    if (!file.endsWith(".ts")) continue;
    if (NOT_CAPTURABLE.has(family)) ok(!covered.has(family), `${family} has a fixture now`);
    else ok(covered.has(family), `no fixture for ${family} (filters/${file})`);
  }
});

Deno.test("a failing test-runner or build fixture says it failed", async (t) => {
  let failing = 0;
  for (const name of names) {
    const { meta, out } = await runFixture(name);
    if (meta.exitCode === 0 || (meta.kind !== "test" && meta.kind !== "build")) continue;
    failing++;
    await t.step(`${name} (exit ${meta.exitCode})`, () => {
      ok(/fail|error/i.test(out.text), out.text.slice(-300));
    });
  }
  ok(failing >= 20, `${failing} failing runner and build fixtures`);
});

Deno.test("each test runner, compiler and package manager saves a median of at least 60 % on outputs over 500 chars", async (t) => {
  const byFamily = new Map<string, number[]>();
  for (const name of names) {
    const { meta, raw, own, match } = await runFixture(name);
    if (raw.length <= 500 || meta.kind === undefined || FACTS_ONLY.has(meta.filter)) continue;
    const before = estimate(raw, match.filter.textClass);
    const saved = 1 - estimate(own, match.filter.textClass) / before;
    byFamily.set(meta.filter, [...(byFamily.get(meta.filter) ?? []), saved]);
  }
  ok(byFamily.size >= 15, `${byFamily.size} families`);
  for (const [family, savings] of byFamily) {
    await t.step(family, () => {
      const s = [...savings].sort((a, b) => a - b);
      const m = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
      ok(m >= 0.6, `median ${(m * 100).toFixed(1)} % over ${s.length} fixtures`);
    });
  }
});

// Rule 11: whatever a filter's caps cut, the lines that say what failed or what to do arrive,
// verbatim or reworded on one line, and the view says where the lines it hides are.
Deno.test("every line of every fixture that says what failed or what to do reaches the agent", async (t) => {
  let checked = 0;
  for (const name of names) {
    const { shaped, out, match } = await runFixture(name);
    // A lossless view only rewords (its filter says it cut nothing): the fact tests hold it.
    if (match.filter.quotes || !out.lossy) continue;
    checked++;
    await t.step(name, () => {
      const missing = missingActionable(shaped, out.text);
      strictEqual(missing.length, 0, missing.slice(0, 5).join("\n"));
    });
  }
  ok(checked >= 40, `${checked} lossy fixtures of run reports`);
});

Deno.test("every lossy fixture's pointer line names the raw lines that hold what its view hides", async (t) => {
  let lossy = 0;
  for (const name of names) {
    const { shaped, out } = await runFixture(name);
    if (!out.lossy) continue;
    lossy++;
    await t.step(name, () => {
      const pointer = findPointers(out.text).at(-1);
      ok(pointer, "a lossy output ends with a pointer line");
      const spans = parseSpans(pointer.cut);
      const hidden = hiddenSpans(shaped, out.text, Infinity);
      for (const h of hidden) {
        ok(
          spans.some((s) => s.from <= h.from && h.to <= s.to),
          `raw lines ${h.from}–${h.to} are hidden and not named (${pointer.cut})`,
        );
      }
    });
  }
  ok(lossy >= 60, `${lossy} lossy fixtures`);
});
