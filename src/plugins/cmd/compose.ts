/**
 * From raw text to what rtok prints: the filter, the pointer line when something was cut, and
 * the never-worse guard. Pure, so the CLI and the golden-fixture tests share it.
 *
 * @module
 */

import type { CommandFilter, FilterInput } from "../../core/filter.ts";
import { neverWorse } from "../../core/guard.ts";
import { pointerLine } from "../archive/archive.ts";

/** What to print for one filtered run. */
export interface Composed {
  /** The text to print: the filtered text (with its pointer line), or the raw text. */
  readonly text: string;
  /** False when the raw text is printed as it was. */
  readonly changed: boolean;
  /** True when something was cut (the pointer line names it and the raw bytes must be kept). */
  readonly lossy: boolean;
}

/**
 * Filters `raw` and decides what to print; `archiveId` names the raw bytes on the pointer
 * line. Throws whatever the filter throws.
 */
export function composeOutput(
  filter: CommandFilter,
  raw: string,
  input: FilterInput,
  archiveId: string,
): Composed {
  const filtered = filter.filter(raw, input);
  const lossy = filtered.cut.length > 0;
  const candidate = lossy
    ? withNewline(filtered.text) + pointerLine(filtered.cut, archiveId) + "\n"
    : filtered.text;
  const guarded = neverWorse(raw, candidate, filter.textClass);
  return guarded.kept
    ? { text: guarded.text, changed: true, lossy }
    : { text: raw, changed: false, lossy: false };
}

function withNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : text + "\n";
}
