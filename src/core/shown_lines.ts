/**
 * Whether a line of raw output is still in a view made of it: verbatim, or reworded on one
 * line of the view (a filter may re-indent a diagnostic, drop its level word or its timing),
 * or regrouped (a diagnostic listed under its message, a test under its file: every fact of the
 * line in the view, and most of its words). Shared by the two fidelity checks: what says what
 * failed must arrive (`actionable.ts`), and what is hidden must be located (`hidden_lines.ts`).
 *
 * @module
 */

import { factSet, factWords } from "./fact_tokens.ts";
import { stripAnsi } from "./text.ts";

// A word on more view lines than this says nothing about which line a raw line became.
const _COMMON_LINES = 64;

/** Words of 2+ chars; durations (`12ms`, `0.03s`) are left out, as filters drop them. */
function _words(line: string): string[] {
  return (line.match(/[\p{L}\p{N}_$@.\/-]{2,}/gu) ?? []).filter((w) =>
    !/^[\d.]+(?:ms|s|µs|m)$/.test(w)
  );
}

// True when `line` holds `n` as a number of its own (not inside a longer one or a name).
function _holdsNumber(line: string, n: string): boolean {
  for (let at = line.indexOf(n); at >= 0; at = line.indexOf(n, at + 1)) {
    const before = line[at - 1] ?? " ";
    const after = line[at + n.length] ?? " ";
    if (!/[\w.]/.test(before) && !/[\w.]/.test(after)) return true;
  }
  return false;
}

/** A view, indexed to answer whether a raw line is in it. */
export class ShownLines {
  readonly #exact = new Set<string>();
  readonly #byWord = new Map<string, number[]>();
  readonly #text: string;
  readonly #lines: string[];
  readonly #numbers: Set<string>;
  #facts: Set<string> | null = null;
  readonly #sets = new Map<number[], Set<number>>();

  #setOf(at: number[]): Set<number> {
    const set = new Set(at);
    this.#sets.set(at, set);
    return set;
  }

  /** An index of `view`. */
  constructor(view: string) {
    this.#text = view;
    const lines = view.split("\n");
    this.#lines = lines;
    this.#numbers = new Set(view.match(/(?<![\w.])\d+(?![\w.])/g) ?? []);
    for (let i = 0; i < lines.length; i++) {
      const t = stripAnsi(lines[i]).trim();
      if (t === "") continue;
      this.#exact.add(t);
      for (const w of new Set(_words(t))) {
        const at = this.#byWord.get(w);
        if (at) at.push(i);
        else this.#byWord.set(w, [i]);
      }
    }
  }

  /** The view's facts (`fact_tokens.ts`). */
  get facts(): Set<string> {
    return this.#facts ??= factSet(this.#text);
  }

  // A fact is in the view whole; a path also as its directory written in full beside its name
  // (a listing grouped by directory: `internal/billing/: invoice.go 13:18`).
  /** True when fact `f` is in the view (see the comment above). */
  hasFact(f: string): boolean {
    if (this.facts.has(f)) return true;
    // A hash abbreviated as git abbreviates it (7 to 12 digits) is the hash.
    if (/^[0-9a-f]{13,64}$/.test(f)) {
      for (let n = 7; n <= 12; n++) if (this.facts.has(f.slice(0, n))) return true;
      return false;
    }
    const slash = f.lastIndexOf("/");
    if (slash <= 0 || slash === f.length - 1) return false;
    return this.#byWord.has(f.slice(slash + 1)) && this.#text.includes(f.slice(0, slash + 1));
  }

  /** True when the view holds `line` verbatim. */
  holds(line: string): boolean {
    return this.#exact.has(stripAnsi(line).trim());
  }

  /** True when `line` is in the view, verbatim, reworded or regrouped (see the module doc). */
  has(line: string): boolean {
    const whole = stripAnsi(line).trim();
    if (this.#exact.has(whole)) return true;
    // A long line trimmed in the middle keeps its start.
    if (
      whole.length >= 40 && this.#text.includes(whole.length > 400 ? whole.slice(0, 200) : whole)
    ) {
      return true;
    }
    // A thread or process id in parentheses, a percentage of progress: noise filters drop.
    const t = whole.replace(/\(\d+\)|\[\s*\d+%\]|\d+%/g, " ");
    // Numbers tell otherwise equal lines apart (`chunk 60 of 500`, `chunk 61 of 500`): each one
    // of 2+ digits must be in the view.
    for (const n of t.match(/(?<![\w.])\d{2,}(?![\w.])/g) ?? []) {
      if (!this.#byWord.has(n)) return false;
    }
    // Whatever the wording, a line whose facts (a path, a name) are not all in the view is not.
    const facts = factWords(t);
    if (!facts.every((f) => this.hasFact(f))) return false;
    // Its first half or more, to a word's end, as a line of the view (a summary's tail cut).
    for (
      let k = whole.lastIndexOf(" ");
      k >= 30 && k >= whole.length / 2;
      k = whole.lastIndexOf(" ", k - 1)
    ) {
      if (this.#exact.has(whole.slice(0, k).replace(/[;,:]$/, ""))) return true;
    }
    const words = [...new Set(_words(t))];
    if (words.length === 0) return this.#text.includes(t.trim());
    // Reworded on one line of the view: that line holds 80 % of its words. The candidates are the
    // lines holding one of its rarer words, else those of its rarest word.
    const present = words.map((w) => this.#byWord.get(w)).filter((at) => at !== undefined);
    const anywhere = present.length;
    const need = Math.ceil(words.length * 0.8);
    if (anywhere >= need) {
      present.sort((a, b) => a.length - b.length);
      const rare = present.filter((at) => at.length <= _COMMON_LINES);
      const candidates = new Set(rare.length ? rare.flat() : present[0]);
      const sets = present.map((at) => this.#sets.get(at) ?? this.#setOf(at));
      // The view's line must also hold the line's numbers: `feature 3` is not `feature 4`.
      const digits = t.match(/(?<![\w.])\d+(?![\w.])/g) ?? [];
      for (const line of candidates) {
        let n = 0;
        for (const set of sets) if (set.has(line)) n++;
        if (n >= need && digits.every((d) => _holdsNumber(this.#lines[line], d))) return true;
      }
    }
    // Regrouped (a diagnostic under its message, a test under its file): a name or a path of it
    // in the view beside most of its words. Numbers alone say too little; a line with no fact
    // at all needs nearly every word.
    if (facts.some((f) => !/^\d+$/.test(f))) return anywhere >= Math.ceil(words.length * 0.6);
    if (facts.length > 0 || anywhere < Math.ceil(words.length * 0.75)) return false;
    return (t.match(/(?<![\w.])\d+(?![\w.])/g) ?? []).every((d) => this.#numbers.has(d));
  }
}
