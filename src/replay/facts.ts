/**
 * The facts a tool result carried that the agent went on to use, and what rtok's view did with
 * each. The rule, in full (docs/replay.md says it to users):
 *
 * - A result's **facts** are the fact words of its text (`src/core/fact_tokens.ts`: paths, file
 *   names, identifiers with an inner capital, `_` or digit, qualified names, hashes, versions,
 *   numbers of 3+ digits).
 * - A fact is **new** when nothing before the result in the same conversation held it: no prompt,
 *   no text or tool input of the agent's, no earlier result as the model saw it (through rtok:
 *   its view).
 * - A new fact is **used later** when the agent wrote it after the result, in its text or in a
 *   tool call's input (an Edit's strings, a command, a path), in the same conversation; a path
 *   counts as written when a longer path written ends with it (`/abs/tests/a.py` writes
 *   `tests/a.py` and `a.py`).
 * - A used fact is **kept** when the view holds it (whole; a hash abbreviated to 7+ digits, a
 *   path as its directory beside its name count); **hidden but located** when the view ends with
 *   a pointer line (an expand id) and names a line span holding one of the fact's raw lines: the
 *   pointer's `at lines …`, or for a file read an outline entry's `L12-40`; else **hidden
 *   without a location**.
 *
 * @module
 */

import { factSet, factWords } from "../core/fact_tokens.ts";
import { findPointers } from "../core/pointer.ts";
import { type LineSpan, parseSpans } from "../core/hidden_lines.ts";
import { ShownLines } from "../core/shown_lines.ts";

/** Where a used fact was written next. */
export interface NextUse {
  /** The item's index in its conversation. */
  readonly item: number;
  /** `text` for the agent's words, else the tool it called (`Edit`, `Bash`…). */
  readonly by: string;
  /** The input field that held it (`old_string`, `command`…), for a tool call. */
  readonly field: string | null;
  /** When, where the transcript says. */
  readonly at: string | null;
}

/** A used fact the view hid. */
export interface HiddenFact {
  /** The fact. */
  readonly fact: string;
  /** True when the view says where it is. */
  readonly located: boolean;
  /** The first raw line (1-based) that holds it. */
  readonly line: number;
  /** That line, trimmed, at most 200 chars. */
  readonly text: string;
  /** Where the agent wrote it next. */
  readonly next: NextUse;
}

/** What one result's used facts came to. */
export interface FactCounts {
  /** New facts the agent used later. */
  used: number;
  /** Of them, in the view. */
  kept: number;
  /** Hidden, with the view saying where. */
  located: number;
  /** Hidden, with no location. */
  unlocated: number;
}

/** An empty {@linkcode FactCounts}. */
export function noFacts(): FactCounts {
  return { used: 0, kept: 0, located: 0, unlocated: 0 };
}

/** One thing the agent wrote: its text, or a tool call's input. */
export interface Written {
  /** The item's index in its conversation. */
  readonly item: number;
  /** `text`, or the tool's name. */
  readonly by: string;
  /** The text, or each string field of the input (`command`, `old_string`…) with its value. */
  readonly fields: readonly (readonly [string | null, string])[];
  /** When, where known. */
  readonly at: string | null;
}

/** The string fields of a tool input, nested ones by their last key. */
export function inputFields(input: unknown, key: string | null = null): [string | null, string][] {
  if (typeof input === "string") return [[key, input]];
  if (Array.isArray(input)) return input.flatMap((v) => inputFields(v, key));
  if (typeof input === "object" && input !== null) {
    return Object.entries(input).flatMap(([k, v]) => inputFields(v, k));
  }
  return [];
}

/** Where each fact the agent wrote appears, by item, in one conversation. */
export class WrittenIndex {
  readonly #uses = new Map<string, number[]>();
  readonly #written = new Map<number, Written>();

  /** Indexes `written`, in item order. */
  constructor(written: readonly Written[]) {
    for (const w of written) {
      this.#written.set(w.item, w);
      const seen = new Set<string>();
      for (const [, text] of w.fields) {
        for (const f of factSet(text)) {
          // A path written whole also writes each path it ends with (`/abs/tests/a.py` is
          // `tests/a.py`, as a tool's output named it relative to the project).
          for (const g of _withTails(f)) {
            if (seen.has(g)) continue;
            seen.add(g);
            const at = this.#uses.get(g);
            if (at) at.push(w.item);
            else this.#uses.set(g, [w.item]);
          }
        }
      }
    }
  }

  /** Where `fact` is written first after item `after`, or `null`. */
  nextUse(fact: string, after: number): NextUse | null {
    const at = this.#uses.get(fact);
    if (!at) return null;
    // Items are indexed in order: the first one past `after`.
    let lo = 0;
    let hi = at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at[mid] <= after) lo = mid + 1;
      else hi = mid;
    }
    if (lo === at.length) return null;
    const w = this.#written.get(at[lo])!;
    const field =
      w.fields.find(([, text]) => [...factSet(text)].some((f) => _withTails(f).includes(fact)))
        ?.[0] ?? null;
    return { item: w.item, by: w.by, field, at: w.at };
  }
}

// `fact`, and when it is a path, every shorter path it ends with, down to the file's name.
function _withTails(fact: string): string[] {
  if (!fact.includes("/")) return [fact];
  const out = [fact];
  for (let at = fact.indexOf("/", 1); at >= 0; at = fact.indexOf("/", at + 1)) {
    const tail = fact.slice(at + 1);
    if (tail !== "") out.push(tail);
  }
  return out;
}

/** A view as `rtok replay` reads it: its text and where it says its hidden lines are. */
export interface ViewPlaces {
  /** Raw line spans a pointer names, and a file read's outline ranges. */
  readonly spans: readonly LineSpan[];
  /** True when the view ends a cut with a pointer line (an expand id). */
  readonly pointed: boolean;
}

const _OUTLINE_RANGE = /\bL(\d+)(?:-(\d+))?\b/g;

/** The places `view` names: pointer spans, and for a file read (`fileRead`) outline ranges. */
export function viewPlaces(view: string, fileRead: boolean): ViewPlaces {
  const pointers = findPointers(view);
  const spans: LineSpan[] = pointers.flatMap((p) => parseSpans(p.cut));
  if (fileRead) {
    for (const m of view.matchAll(_OUTLINE_RANGE)) {
      spans.push({ from: Number(m[1]), to: Number(m[2] ?? m[1]) });
    }
  }
  return { spans, pointed: pointers.length > 0 };
}

/**
 * The used facts of one result: `fresh` its new facts, `raw` the text they came from, `view`
 * what rtok showed (the raw text when rtok left it alone), `item` the result's index. Counts go
 * into `counts`; hidden facts are returned.
 */
export function judgeFacts(
  fresh: ReadonlySet<string>,
  raw: string,
  view: string,
  places: ViewPlaces,
  item: number,
  index: WrittenIndex,
  counts: FactCounts,
): HiddenFact[] {
  const used: [string, NextUse][] = [];
  for (const f of fresh) {
    const next = index.nextUse(f, item);
    if (next) used.push([f, next]);
  }
  if (used.length === 0) return [];
  const shown = view === raw ? null : new ShownLines(view);
  const hidden: HiddenFact[] = [];
  let lines: string[] | null = null;
  for (const [fact, next] of used) {
    counts.used++;
    if (shown === null || shown.hasFact(fact)) {
      counts.kept++;
      continue;
    }
    lines ??= raw.split("\n");
    const at: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].includes(fact) && factWords(lines[i]).includes(fact)) at.push(i + 1);
    }
    const located = places.pointed &&
      at.some((n) => places.spans.some((s) => s.from <= n && n <= s.to));
    if (located) counts.located++;
    else counts.unlocated++;
    const first = at[0] ?? 0;
    hidden.push({
      fact,
      located,
      line: first,
      text: first ? lines[first - 1].trim().slice(0, 200) : "",
      next,
    });
  }
  return hidden;
}
