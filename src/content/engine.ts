/**
 * The content engine: compresses a tool result knowing only its text, for every surface that
 * sees output without its command (the proxy's API requests today). It reads the text's shape
 * with the detectors the filter modules declare (run in rank order, see `src/core/shape.ts`),
 * runs the command filter of the family that recognised it with the arguments and exit code the
 * text implies, compacts JSON (`json_text.ts`), or keeps the head and tail of long text of no
 * known shape (`head_tail.ts`).
 *
 * The same text always gives the same bytes: no clock, randomness, environment or config is
 * read, so a session that re-sends a tool result keeps its prompt-cache prefix. Text that
 * already ends a compression (it carries an rtok pointer line) is left alone, so compressing
 * twice changes nothing.
 *
 * @module
 */

import type { CommandFilter, Filtered } from "../core/filter.ts";
import type { FamilyDeclaration } from "../core/family.ts";
import { sampleText, type ShapeDetector } from "../core/shape.ts";
import { estimate, type TextClass } from "../core/tokens.ts";
import { hasPointer, withPointer } from "../core/pointer.ts";
import { finishView } from "../core/fidelity.ts";
import { FAMILY_TABLE, loadFilterModule } from "../../filters/index.ts";
import { compactJson, cutJsonArrays, JSON_LOSSY_CHARS } from "./json_text.ts";
import { headAndTail } from "./head_tail.ts";

/** Texts shorter than this pass through: too small to be worth a pointer line. */
export const CONTENT_MIN_CHARS = 500;
/** Texts longer than this (10 MiB of UTF-16 code units) pass through untouched. */
export const CONTENT_MAX_CHARS: number = 10 * 1024 * 1024;

/** What a text is, and how the command filter for it is called. */
export interface Shape {
  /**
   * The shape's name as the ledger records it: the command family whose filter reads it
   * (`"git log"`, `"pytest"`, `"tsc"`…), or `"json"` or `"text"`.
   */
  readonly name: string;
  /** The command filter family that compresses it; `null` for `"json"` and `"text"`. */
  readonly family: string | null;
  /** Arguments that make the filter read the text as it is laid out; never a machine format. */
  readonly args: readonly string[];
  /** 0 unless the text shows a failure (a failing test, a compiler error). */
  readonly exitCode: number;
}

/** A compressed tool result. */
export interface ContentResult {
  /**
   * The compressed text, without a pointer line: when `cut` is non-empty the caller archives
   * the raw text and appends `pointerLine(cut, id)` (see {@linkcode withPointer}).
   */
  readonly text: string;
  /** What was dropped, as short phrases; empty when only the layout changed. */
  readonly cut: readonly string[];
  /** The shape the text was read as: a command family (`"git log"`), `"json"` or `"text"`. */
  readonly shape: string;
  /** How the text is counted by the token estimator. */
  readonly textClass: TextClass;
}

/** One family the engine can read, as its module declares it. */
export type ContentFamily = Pick<FamilyDeclaration, "filter" | "shapes">;

/** The worst-case archive id, for sizing the pointer line before the real id exists. */
const WORST_ID = "0".repeat(12);

export { withPointer };

function _smaller(raw: string, result: Filtered, textClass: TextClass): boolean {
  const out = withPointer(result, WORST_ID);
  return out.length < raw.length && estimate(out, textClass) < estimate(raw, textClass);
}

function _json(text: string): boolean {
  const start = text.search(/\S/);
  if (start < 0 || (text[start] !== "{" && text[start] !== "[")) return false;
  const end = text.trimEnd();
  const close = end[end.length - 1];
  if (close !== "}" && close !== "]") return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Reads and compresses tool output by its shape, with the families it was built from. */
export class ContentEngine {
  readonly #filters: Readonly<Record<string, CommandFilter>>;
  readonly #detectors: readonly (ShapeDetector & { readonly family: string })[];

  readonly #json: (text: string) => Filtered | null;

  /**
   * An engine over `families` (family → its filter and detectors), with `json` for text that
   * is a JSON document (compaction, and past a size its long arrays cut, by default).
   */
  constructor(
    families: Readonly<Record<string, ContentFamily>>,
    json: (text: string) => Filtered | null = _compactOrCut,
  ) {
    this.#json = json;
    this.#filters = Object.fromEntries(Object.entries(families).map(([f, d]) => [f, d.filter]));
    this.#detectors = Object.entries(families)
      .flatMap(([family, d]) => (d.shapes ?? []).map((s) => ({ ...s, family })))
      .sort((a, b) => a.rank - b.rank);
  }

  /** The families it reads, in the order their first detector runs. */
  get families(): readonly string[] {
    return [...new Set(this.#detectors.map((d) => d.family))];
  }

  /** The same engine with some families' filters replaced (tests use it). */
  withFilters(filters: Readonly<Record<string, CommandFilter>>): ContentEngine {
    const families: Record<string, ContentFamily> = {};
    for (const d of this.#detectors) {
      const entry = families[d.family] ?? { filter: this.#filters[d.family], shapes: [] };
      families[d.family] = { ...entry, shapes: [...entry.shapes!, d] };
    }
    for (const [family, filter] of Object.entries(filters)) {
      families[family] = { filter, shapes: families[family]?.shapes ?? [] };
    }
    return new ContentEngine(families, this.#json);
  }

  /**
   * The shape of `text`, read from its first and last lines: the family whose detector
   * recognises it first (with the arguments and exit code its filter should be told),
   * `"json"` when the whole text parses as a JSON object or array, else `"text"`. `null` for
   * blank text.
   */
  detect(text: string): Shape | null {
    if (text.trim() === "") return null;
    if (_json(text)) return { name: "json", family: null, args: [], exitCode: 0 };
    const sample = sampleText(text);
    for (const d of this.#detectors) {
      const m = d.detect(sample, text);
      if (m) return { name: d.family, family: d.family, args: m.args, exitCode: m.exitCode };
    }
    return { name: "text", family: null, args: [], exitCode: 0 };
  }

  /**
   * `text` compressed by its shape, or `null` to send it as it is: under
   * {@linkcode CONTENT_MIN_CHARS} or over {@linkcode CONTENT_MAX_CHARS} chars, already
   * compressed (it holds an rtok pointer line), no filter fits, or the result with a
   * worst-case pointer line is not strictly smaller in both chars and estimated tokens. A
   * known shape's filter that throws gives way to the head-and-tail fallback. Deterministic.
   */
  compress(text: string): ContentResult | null {
    if (text.length < CONTENT_MIN_CHARS || text.length > CONTENT_MAX_CHARS) return null;
    if (hasPointer(text)) return null;
    const shape = this.detect(text);
    if (!shape) return null;
    if (shape.name === "json") return this.#viaJson(text);
    if (shape.family !== null) {
      try {
        return this.#viaFilter(text, shape);
      } catch {
        // A filter that cannot read this text must not cost the request: fall through.
      }
    }
    return _viaHeadTail(text);
  }

  #viaFilter(text: string, shape: Shape): ContentResult | null {
    const filter = this.#filters[shape.family ?? ""];
    if (!filter) return null;
    const input = { args: shape.args, shaped: false, exitCode: shape.exitCode };
    const result = finishView(text, filter.filter(text, input), { reports: !filter.quotes });
    if (!_smaller(text, result, filter.textClass)) return null;
    return { text: result.text, cut: result.cut, shape: shape.name, textClass: filter.textClass };
  }

  #viaJson(text: string): ContentResult | null {
    const made = this.#json(text);
    const result = made && finishView(text, made, { reports: false });
    if (!result || !_smaller(text, result, "json")) return null;
    return { text: result.text, cut: result.cut, shape: "json", textClass: "json" };
  }
}

// JSON compacted, its long arrays cut to head and tail past a size: valid JSON still.
function _compactOrCut(text: string): Filtered {
  const compact = compactJson(text);
  if (compact.length > JSON_LOSSY_CHARS) {
    const cut = cutJsonArrays(compact);
    if (cut) {
      const arrays = cut.arrays === 1 ? "1 array" : `${cut.arrays} arrays`;
      return { text: cut.text, cut: [`${cut.items} items of ${arrays}`] };
    }
  }
  return { text: compact, cut: [] };
}

function _viaHeadTail(text: string): ContentResult | null {
  const made = headAndTail(text);
  const result = made && finishView(text, made, { reports: true });
  if (!result || !_smaller(text, result, "log")) return null;
  return { text: result.text, cut: result.cut, shape: "text", textClass: "log" };
}

/**
 * `text` compressed by the filter of `family`, known from where the text came (a host's Grep
 * gives grep hits, its Glob a path list), with `args` as the filter's arguments: only that
 * family's module loads. `null` on the same terms as {@linkcode ContentEngine.compress}. A
 * filter that throws passes the throw on: the caller says why the text went out whole.
 */
export async function compressWith(
  family: string,
  text: string,
  args: readonly string[] = [],
): Promise<ContentResult | null> {
  if (text.length < CONTENT_MIN_CHARS || text.length > CONTENT_MAX_CHARS) return null;
  if (hasPointer(text)) return null;
  const entry = FAMILY_TABLE[family];
  if (!entry || !entry.file.endsWith(".ts")) {
    throw new RangeError(`no filter module for "${family}"`);
  }
  const filter = (await loadFilterModule(entry.file)).FAMILIES[family]?.filter;
  if (!filter) throw new RangeError(`"${entry.file}" declares no family "${family}"`);
  const made = filter.filter(text, { args, shaped: false, exitCode: -1 });
  const result = finishView(text, made, { reports: !filter.quotes });
  if (!_smaller(text, result, filter.textClass)) return null;
  return { text: result.text, cut: result.cut, shape: family, textClass: filter.textClass };
}

let _engine: Promise<ContentEngine> | null = null;

/**
 * The engine over every built-in family that declares a detector (the family table names
 * them), loaded once per process: its first call loads those filter modules.
 */
export function loadContentEngine(): Promise<ContentEngine> {
  return _engine ??= (async () => {
    const files = [
      ...new Set(Object.values(FAMILY_TABLE).filter((e) => e.detects).map((e) => e.file)),
    ];
    const families: Record<string, ContentFamily> = {};
    for (const mod of await Promise.all(files.map(loadFilterModule))) {
      for (const [family, d] of Object.entries(mod.FAMILIES)) {
        if (d.shapes?.length) families[family] = d;
      }
    }
    // JSON by its structure: tables of uniform arrays, every key and value kept.
    const { compressJson } = await import("./json_structure.ts");
    return new ContentEngine(families, compressJson);
  })();
}
