/**
 * Where a view's cuts are (DESIGN rule 11: hiding is never silent). Given the raw output and
 * the view made of it, the raw lines whose facts (paths, identifiers, numbers: `fact_tokens.ts`)
 * the view does not show, as a few line spans of the raw output. The pointer line names them
 * (`[rtok: cut 3 older commits at lines 118–190; raw: rtok expand <id>]`), and
 * `rtok expand <id> --lines A:B` prints exactly those lines.
 *
 * A raw line counts as shown when the view holds it verbatim, reworded or regrouped
 * (`shown_lines.ts`); a hidden line with no fact (a rule, a bare word) joins the span around it
 * and never starts one, and blank lines never break one. A run whose hidden facts are only
 * numbers (a date a filter reworded) is named when it is 3 lines or longer.
 *
 * @module
 */

import type { Filtered } from "./filter.ts";
import { factWords } from "./fact_tokens.ts";
import { ShownLines } from "./shown_lines.ts";
import { stripAnsi } from "./text.ts";

/** A span of 1-based line numbers, both ends included. */
export interface LineSpan {
  /** The first line. */
  readonly from: number;
  /** The last line. */
  readonly to: number;
}

/** Spans named at most: past this, the nearest spans are joined. */
export const MAX_SPANS = 6;

// A run of hidden lines whose only facts are numbers (a date reworded, a count) is named only
// from this many lines up: one reworded line is not a cut worth pointing at.
const _WEAK_RUN = 3;

// Shown lines between two hidden runs that still make them one span.
const _JOIN_GAP = 2;

/** The word that begins the span phrase in a cut list (`… at lines 4–9, 30–41`). */
const _AT = "at lines ";

/**
 * The spans of `raw`'s lines that `shown` hides, at most `max` (the closest spans joined
 * first, so a joined span may hold some shown lines). Empty when nothing with a fact is hidden.
 */
export function hiddenSpans(raw: string, shown: string, max: number = MAX_SPANS): LineSpan[] {
  const view = new ShownLines(shown);
  const lines = raw.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const spans: { from: number; to: number }[] = [];
  // The run being grown: its lines, and whether a name or a path of it is hidden.
  let open: { from: number; to: number; strong: boolean } | null = null;
  const close = () => {
    if (open && (open.strong || open.to - open.from >= _WEAK_RUN - 1)) {
      spans.push({ from: open.from, to: open.to });
    }
    open = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const t = stripAnsi(lines[i]).trim();
    if (t === "") continue;
    if (view.has(t)) {
      close();
      continue;
    }
    const facts = factWords(t);
    const strong = facts.some((f) => !/^\d+$/.test(f) && !view.hasFact(f));
    // A hidden line with no fact (a rule, a bare word) joins the run around it.
    if (open) {
      open.to = i + 1;
      open.strong ||= strong;
    } else if (facts.length > 0) {
      open = { from: i + 1, to: i + 1, strong };
    }
  }
  close();
  // Two or fewer lines shown between two runs (an author line kept in a block of cut commits)
  // do not make two cuts of one.
  for (let k = spans.length - 1; k > 0; k--) {
    if (spans[k].from - spans[k - 1].to <= _JOIN_GAP + 1) {
      spans[k - 1] = { from: spans[k - 1].from, to: spans[k].to };
      spans.splice(k, 1);
    }
  }
  while (spans.length > max) {
    let best = 0;
    for (let k = 1; k < spans.length - 1; k++) {
      if (spans[k + 1].from - spans[k].to < spans[best + 1].from - spans[best].to) best = k;
    }
    spans[best] = { from: spans[best].from, to: spans[best + 1].to };
    spans.splice(best + 1, 1);
  }
  return spans;
}

/** `at lines 4–9, 30, 41–77`: the phrase a cut list ends with. */
export function spansPhrase(spans: readonly LineSpan[]): string {
  return _AT + spans.map((s) => s.from === s.to ? `${s.from}` : `${s.from}–${s.to}`).join(", ");
}

/** True when a cut-list item is the span phrase (joined to the list by a space, not a comma). */
export function isSpansPhrase(item: string): boolean {
  return item.startsWith(_AT);
}

/** The spans a pointer line's cut text names (`… at lines 4–9, 30`), none when it names none. */
export function parseSpans(cut: string): LineSpan[] {
  const at = cut.lastIndexOf(_AT);
  if (at < 0) return [];
  const out: LineSpan[] = [];
  for (const part of cut.slice(at + _AT.length).split(", ")) {
    const m = /^(\d+)(?:–(\d+))?$/.exec(part.trim());
    if (!m) break;
    out.push({ from: Number(m[1]), to: Number(m[2] ?? m[1]) });
  }
  return out;
}

/**
 * `filtered` (a view of `raw`) with the spans of what it hides added to its cut list; itself
 * when it cut nothing or hides no line with a fact.
 */
export function withHiddenSpans(raw: string, filtered: Filtered): Filtered {
  if (filtered.cut.length === 0 || filtered.cut.some(isSpansPhrase)) return filtered;
  const spans = hiddenSpans(raw, filtered.text);
  if (spans.length === 0) return filtered;
  return { text: filtered.text, cut: [...filtered.cut, spansPhrase(spans)] };
}
