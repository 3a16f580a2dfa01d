/**
 * Inputs shared by the benchmarks and the budget script: generated grep output of a given
 * size, a dirty git repository, and the calibration corpus of each text class.
 *
 * @module
 */

import type { TextClass } from "../src/core/tokens.ts";
import { loadBuiltinFilters } from "../src/plugins/cmd/loaders.ts";

const _filters = loadBuiltinFilters();

/**
 * `grep -rn` output of about `bytes` bytes: many files, uneven hit counts per file, code-like
 * lines of varied length. Deterministic.
 */
export function grepOutput(bytes: number): string {
  const words = ["parse", "config", "value", "options", "result", "handler", "token", "buffer"];
  const lines: string[] = [];
  let size = 0;
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let file = 0; size < bytes; file++) {
    const path = `src/module_${file % 97}/part_${file}/file_${file}.ts`;
    const hits = 1 + (next() % 60);
    for (let h = 0; h < hits && size < bytes; h++) {
      const w = words[next() % words.length];
      const pad = " ".repeat(2 * (next() % 4));
      const line = `${path}:${1 + h * 7}:${pad}const ${w}_${h} = parse(${w}, options); // ${w} #${
        next() % 1000
      }`;
      lines.push(line);
      size += line.length + 1;
    }
  }
  return lines.join("\n") + "\n";
}

/** One sample of a text class. */
export interface Sample {
  /** Where it came from. */
  readonly source: string;
  /** Its text. */
  readonly text: string;
}

const ROOT = new URL("../", import.meta.url);

async function readTree(dir: URL, suffix: string, out: Sample[]): Promise<void> {
  for await (const e of Deno.readDir(dir)) {
    const url = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
    if (e.isDirectory && !e.name.startsWith(".") && e.name !== "fixtures") {
      await readTree(url, suffix, out);
    } else if (e.isFile && e.name.endsWith(suffix)) {
      out.push({
        source: url.pathname.slice(ROOT.pathname.length),
        text: await Deno.readTextFile(url),
      });
    }
  }
}

/**
 * The calibration corpus of every class: each golden fixture's raw output under its filter's
 * class, plus rtok's own TypeScript (code), Markdown (prose) and JSON (json).
 */
export async function corpus(): Promise<Map<TextClass, Sample[]>> {
  const byClass = new Map<TextClass, Sample[]>();
  const add = (cls: TextClass, s: Sample) => byClass.set(cls, [...(byClass.get(cls) ?? []), s]);
  const fixtures = new URL("tests/fixtures/", ROOT);
  for await (const e of Deno.readDir(fixtures)) {
    if (!e.isDirectory) continue;
    const meta = JSON.parse(await Deno.readTextFile(new URL(`${e.name}/meta.json`, fixtures)));
    const filter = (await _filters).find((f) => f.name === meta.filter);
    if (!filter) continue;
    const text = await Deno.readTextFile(new URL(`${e.name}/raw.out`, fixtures));
    if (text.length > 0) {
      add(filter.textClass, { source: `tests/fixtures/${e.name}/raw.out`, text });
    }
    add("json", {
      source: `tests/fixtures/${e.name}/meta.json`,
      text: await Deno.readTextFile(new URL(`${e.name}/meta.json`, fixtures)),
    });
  }
  for (const [suffix, cls] of [[".ts", "code"], [".md", "prose"]] as const) {
    const found: Sample[] = [];
    await readTree(ROOT, suffix, found);
    for (const s of found) add(cls, s);
  }
  add("json", { source: "deno.json", text: await Deno.readTextFile(new URL("deno.json", ROOT)) });
  return byClass;
}
