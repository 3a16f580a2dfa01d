/**
 * The content filters' saving per shape over the golden fixtures: each fixture's `shaped.out`
 * (what the tool printed) through the content engine, counted in estimated tokens with the
 * shape's text class, pointer line (worst-case id) included. Outputs that pass through count
 * as raw on both sides. Run: `deno run --allow-read scripts/content_savings.ts`.
 *
 * @module
 */

import { estimate, type TextClass } from "../src/core/tokens.ts";
import { loadContentEngine, withPointer } from "../src/content/engine.ts";

const ROOT = new URL("../tests/fixtures/", import.meta.url);
const engine = await loadContentEngine();

interface Row {
  outputs: number;
  compressed: number;
  raw: number;
  emitted: number;
}

const rows = new Map<string, Row>();
const names: string[] = [];
for await (const e of Deno.readDir(ROOT)) if (e.isDirectory) names.push(e.name);
for (const name of names.sort()) {
  const text = await Deno.readTextFile(new URL(`${name}/shaped.out`, ROOT));
  const r = engine.compress(text);
  const shape = r?.shape ?? "(passed through)";
  const cls: TextClass = r?.textClass ?? "log";
  const out = r ? withPointer(r, "0".repeat(12)) : text;
  const row = rows.get(shape) ?? { outputs: 0, compressed: 0, raw: 0, emitted: 0 };
  row.outputs++;
  if (r) row.compressed++;
  row.raw += estimate(text, cls);
  row.emitted += estimate(out, cls);
  rows.set(shape, row);
}

const pct = (r: Row) => r.raw ? `${Math.round(100 - (100 * r.emitted) / r.raw)} %` : "-";
console.log("shape            outputs  compressed  raw tokens  sent tokens  saved (estimate)");
let all: Row = { outputs: 0, compressed: 0, raw: 0, emitted: 0 };
for (const [shape, r] of [...rows].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
  console.log(
    `${shape.padEnd(17)}${String(r.outputs).padStart(7)}${String(r.compressed).padStart(12)}` +
      `${String(r.raw).padStart(12)}${String(r.emitted).padStart(13)}  ${pct(r)}`,
  );
  all = {
    outputs: all.outputs + r.outputs,
    compressed: all.compressed + r.compressed,
    raw: all.raw + r.raw,
    emitted: all.emitted + r.emitted,
  };
}
console.log(
  `${"all".padEnd(17)}${String(all.outputs).padStart(7)}${String(all.compressed).padStart(12)}` +
    `${String(all.raw).padStart(12)}${String(all.emitted).padStart(13)}  ${pct(all)}`,
);
