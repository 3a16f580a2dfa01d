/**
 * Content filters: compress a tool result knowing only its text. The proxy (and any surface
 * that sees output without its command) calls {@linkcode compressContent}; it detects the
 * shape (`shapes.ts`), runs the command filter that fits it with the arguments and exit code the
 * text implies, compacts JSON (`json_text.ts`), or keeps the head and tail of long text of no
 * known shape (`head_tail.ts`).
 *
 * The same text always gives the same bytes: no clock, randomness, environment or config is
 * read, so a session that re-sends a tool result keeps its prompt-cache prefix. Text that
 * already ends a compression (it carries an rtok pointer line) is left alone, so compressing
 * twice changes nothing.
 *
 * The command filters are imported statically: this module loads once in the long-running
 * proxy (lazily, on its first request), and `compressContent` stays synchronous.
 *
 * @module
 */

import type { CommandFilter, Filtered } from "../../core/filter.ts";
import { estimate, type TextClass } from "../../core/tokens.ts";
import { hasPointer, pointerLine } from "../../core/pointer.ts";
import { detectShape, type Shape } from "./shapes.ts";
import { compactJson, cutJsonArrays, JSON_LOSSY_CHARS } from "./json_text.ts";
import { headAndTail } from "./head_tail.ts";
import { gitLogFilter } from "../../../filters/git_log.ts";
import { gitShowFilter } from "../../../filters/git_show.ts";
import { gitDiffFilter } from "../../../filters/git_diff.ts";
import { gitStatusFilter } from "../../../filters/git_status.ts";
import { diffFilter } from "../../../filters/diff.ts";
import { grepFilter } from "../../../filters/grep.ts";
import { lsFilter } from "../../../filters/ls.ts";
import { findFilter } from "../../../filters/find.ts";
import { treeFilter } from "../../../filters/tree.ts";
import { pytestFilter } from "../../../filters/pytest.ts";
import { jestFilter } from "../../../filters/jest.ts";
import { vitestFilter } from "../../../filters/vitest.ts";
import { cargoTestFilter } from "../../../filters/cargo_tests.ts";
import { goTestFilter } from "../../../filters/go_tests.ts";
import { nodeTestFilter } from "../../../filters/node_tests.ts";
import { denoTestFilter } from "../../../filters/deno_tests.ts";
import { mochaFilter } from "../../../filters/mocha.ts";
import { rspecFilter } from "../../../filters/rspec.ts";
import { phpunitFilter } from "../../../filters/phpunit.ts";
import { tscFilter } from "../../../filters/tsc.ts";
import { mypyFilter } from "../../../filters/mypy.ts";
import { ruffFilter } from "../../../filters/ruff.ts";
import { eslintFilter } from "../../../filters/eslint.ts";
import { biomeFilter } from "../../../filters/biome.ts";
import { cargoBuildFilter } from "../../../filters/cargo_build.ts";
import { goBuildFilter } from "../../../filters/go_build.ts";

/** Texts shorter than this pass through: too small to be worth a pointer line. */
export const CONTENT_MIN_CHARS = 500;
/** Texts longer than this (10 MiB of UTF-16 code units) pass through untouched. */
export const CONTENT_MAX_CHARS: number = 10 * 1024 * 1024;

/** A compressed tool result. */
export interface ContentResult {
  /**
   * The compressed text, without a pointer line: when `cut` is non-empty the caller archives
   * the raw text and appends `pointerLine(cut, id)`.
   */
  readonly text: string;
  /** What was dropped, as short phrases; empty when only the layout changed. */
  readonly cut: readonly string[];
  /** The shape the text was read as: a command family (`"git log"`), `"json"` or `"text"`. */
  readonly shape: string;
  /** How the text is counted by the token estimator. */
  readonly textClass: TextClass;
}

/** Every command filter a detected shape can name, by family. */
export const CONTENT_FILTERS: Readonly<Record<string, CommandFilter>> = Object.fromEntries(
  [
    gitLogFilter,
    gitShowFilter,
    gitDiffFilter,
    gitStatusFilter,
    diffFilter,
    grepFilter,
    lsFilter,
    findFilter,
    treeFilter,
    pytestFilter,
    jestFilter,
    vitestFilter,
    cargoTestFilter,
    goTestFilter,
    nodeTestFilter,
    denoTestFilter,
    mochaFilter,
    rspecFilter,
    phpunitFilter,
    tscFilter,
    mypyFilter,
    ruffFilter,
    eslintFilter,
    biomeFilter,
    cargoBuildFilter,
    goBuildFilter,
  ].map((f) => [f.name, f]),
);

/** The worst-case archive id, for sizing the pointer line before the real id exists. */
const WORST_ID = "0".repeat(12);

/** What goes out for `result`: its text, then the pointer line to `id` when anything was cut. */
export function withPointer(result: Filtered, id: string): string {
  if (result.cut.length === 0) return result.text;
  const sep = result.text === "" || result.text.endsWith("\n") ? "" : "\n";
  return result.text + sep + pointerLine(result.cut, id);
}

function _smaller(raw: string, result: Filtered, textClass: TextClass): boolean {
  const out = withPointer(result, WORST_ID);
  return out.length < raw.length && estimate(out, textClass) < estimate(raw, textClass);
}

function _viaFilter(
  text: string,
  shape: Shape,
  filters: Readonly<Record<string, CommandFilter>>,
): ContentResult | null {
  const filter = filters[shape.family ?? ""];
  if (!filter) return null;
  const result = filter.filter(text, { args: shape.args, shaped: false, exitCode: shape.exitCode });
  if (!_smaller(text, result, filter.textClass)) return null;
  return { text: result.text, cut: result.cut, shape: shape.name, textClass: filter.textClass };
}

function _viaJson(text: string): ContentResult | null {
  const compact = compactJson(text);
  let result: Filtered = { text: compact, cut: [] };
  if (compact.length > JSON_LOSSY_CHARS) {
    const cut = cutJsonArrays(compact);
    if (cut) {
      const arrays = cut.arrays === 1 ? "1 array" : `${cut.arrays} arrays`;
      result = { text: cut.text, cut: [`${cut.items} items of ${arrays}`] };
    }
  }
  if (!_smaller(text, result, "json")) return null;
  return { text: result.text, cut: result.cut, shape: "json", textClass: "json" };
}

function _viaHeadTail(text: string): ContentResult | null {
  const result = headAndTail(text);
  if (!result || !_smaller(text, result, "log")) return null;
  return { text: result.text, cut: result.cut, shape: "text", textClass: "log" };
}

/**
 * `text` compressed by its shape, or `null` to send it as it is: under
 * {@linkcode CONTENT_MIN_CHARS} or over {@linkcode CONTENT_MAX_CHARS} chars, already compressed
 * (it holds an rtok pointer line), no filter fits, or the result with a worst-case pointer
 * line is not strictly smaller in both chars and estimated tokens. A known shape's filter
 * that throws gives way to the head-and-tail fallback. Deterministic: the same text always
 * gives the same result. `filters` replaces the built-in filters by family (tests use it).
 */
export function compressContent(
  text: string,
  filters: Readonly<Record<string, CommandFilter>> = CONTENT_FILTERS,
): ContentResult | null {
  if (text.length < CONTENT_MIN_CHARS || text.length > CONTENT_MAX_CHARS) return null;
  if (hasPointer(text)) return null;
  const shape = detectShape(text);
  if (!shape) return null;
  if (shape.name === "json") return _viaJson(text);
  if (shape.family !== null) {
    try {
      return _viaFilter(text, shape, filters);
    } catch {
      // A filter that cannot read this text must not cost the request: fall through.
    }
  }
  return _viaHeadTail(text);
}
