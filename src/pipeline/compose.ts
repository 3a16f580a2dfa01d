/**
 * From raw text to what rtok prints: the filter, the pointer line when something was cut, and
 * the never-worse guard. Pure, so the CLI and the golden-fixture tests share it.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../core/filter.ts";
import { neverWorse } from "../core/guard.ts";
import { ID_LENGTH } from "../plugins/archive/archive.ts";
import { pointerLine } from "../core/pointer.ts";
import { finishView } from "../core/fidelity.ts";

/** What to print for one filtered run. */
export interface Composed {
  /** False when the raw text is printed as it was. */
  readonly changed: boolean;
  /** True when something was cut: the pointer line names it, the raw bytes must be kept. */
  readonly lossy: boolean;
  /** The text to print, its pointer line (when lossy) naming archive id `id`. */
  text(id: string): string;
}

// Ids have a fixed length, so the guard can weigh the pointer line before the id is known
// (computing it means hashing the raw output, which a lossless output never needs).
const PENDING_ID = "0".repeat(ID_LENGTH);

/** Filters `raw` and decides what to print. Throws whatever the filter throws. */
export function composeOutput(filter: CommandFilter, raw: string, input: FilterInput): Composed {
  return composeFiltered(filter, raw, filter.filter(raw, input));
}

/** Decides what to print for `raw`, given what `filter` made of it (computed elsewhere). */
export function composeFiltered(
  filter: CommandFilter,
  raw: string,
  made: Filtered,
): Composed {
  const filtered = finishView(raw, made, { reports: !filter.quotes });
  const lossy = filtered.cut.length > 0;
  const body = lossy ? withNewline(filtered.text) : filtered.text;
  const render = (id: string) => lossy ? body + pointerLine(filtered.cut, id) + "\n" : body;
  if (!neverWorse(raw, render(PENDING_ID), filter.textClass).kept) {
    return { changed: false, lossy: false, text: () => raw };
  }
  return { changed: true, lossy, text: render };
}

function withNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : text + "\n";
}
