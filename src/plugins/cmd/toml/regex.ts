/**
 * What a filter file's regular expressions are checked for before they run: a command pattern
 * must be anchored at the start (`^make`, `^(make|gmake)`, never `make` or `^a|b`), and a
 * built-in's patterns must have a star height of at most 1 (no repeated group holding a
 * repetition, like `(a+)+`), the shape that backtracks catastrophically.
 *
 * @module
 */

/** The top-level alternatives of `pattern`: split at `|` outside groups and classes. */
export function topAlternatives(pattern: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "[") i = _classEnd(pattern, i);
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  out.push(pattern.slice(start));
  return out;
}

/**
 * True when every way `pattern` can match starts at the start of the text: each top-level
 * alternative begins with `^`, or with a group (not a lookaround, not optional) whose own
 * alternatives all do.
 */
export function isAnchored(pattern: string): boolean {
  return topAlternatives(pattern).every(_altAnchored);
}

function _altAnchored(alt: string): boolean {
  if (alt.startsWith("^")) return true;
  if (!alt.startsWith("(")) return false;
  const close = _groupEnd(alt, 0);
  if (close < 0) return false;
  const after = alt[close + 1];
  // An optional group may match nothing, and then what follows it is unanchored.
  if (after === "?" || after === "*" || (after === "{" && /^\{0[,}]/.test(alt.slice(close + 1)))) {
    return false;
  }
  const opener = /^\((\?:|\?<[A-Za-z_$][\w$]*>|\?[imsx-]+:)?/.exec(alt)![0];
  if (alt.startsWith("(?") && opener === "(") return false; // a lookaround
  return isAnchored(alt.slice(opener.length, close));
}

/**
 * The star height of `pattern`: how deeply repeating quantifiers (`*`, `+`, `{n,}`, `{n,m}`
 * with m > 1) nest. `a+b*` is 1, `(ab+)*` is 2. Optional parts (`?`, `{0,1}`) do not count.
 */
export function starHeight(pattern: string): number {
  // One frame per open group: the deepest height inside it so far.
  const frames: number[] = [0];
  // The height of the atom a following quantifier would apply to; -1 when there is none.
  let last = -1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i = _escapeEnd(pattern, i);
      last = 0;
    } else if (c === "[") {
      i = _classEnd(pattern, i);
      last = 0;
    } else if (c === "(") {
      frames.push(0);
      last = -1;
      // Skip the group's own syntax (`?:`, `?<name>`, `?=`), which is not an atom.
      const opener = /^\((\?(<[=!]|[=!:]|<[A-Za-z_$][\w$]*>|[imsx-]+:))?/.exec(pattern.slice(i))!;
      i += opener[0].length - 1;
    } else if (c === ")") {
      last = frames.length > 1 ? frames.pop()! : 0;
      frames[frames.length - 1] = Math.max(frames[frames.length - 1], last);
    } else if (c === "|") {
      last = -1;
    } else if (c === "*" || c === "+" || c === "?" || c === "{") {
      const q = _quantifier(pattern, i);
      if (q === null || last < 0) {
        last = 0;
        continue;
      }
      const h = last + (q.repeats ? 1 : 0);
      frames[frames.length - 1] = Math.max(frames[frames.length - 1], h);
      i = q.end;
      // A lazy or possessive-looking suffix belongs to the quantifier.
      if (pattern[i + 1] === "?") i++;
      last = -1;
    } else {
      last = 0;
    }
  }
  return Math.max(...frames);
}

function _quantifier(p: string, i: number): { end: number; repeats: boolean } | null {
  const c = p[i];
  if (c === "*" || c === "+") return { end: i, repeats: true };
  if (c === "?") return { end: i, repeats: false };
  const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
  if (!m) return null;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
  return { end: i + m[0].length - 1, repeats: max > 1 };
}

// The index of the last char of the escape starting at `i` (`\d`, `\u{1F600}`, `\p{L}`, `\k<n>`).
function _escapeEnd(p: string, i: number): number {
  const next = p[i + 1];
  if ((next === "u" || next === "p" || next === "P") && p[i + 2] === "{") {
    const close = p.indexOf("}", i + 3);
    return close < 0 ? p.length - 1 : close;
  }
  if (next === "k" && p[i + 2] === "<") {
    const close = p.indexOf(">", i + 3);
    return close < 0 ? p.length - 1 : close;
  }
  return i + 1;
}

// The index of the `]` closing the class that opens at `i` (JavaScript syntax: `[]` is empty).
function _classEnd(p: string, i: number): number {
  for (let j = i + 1; j < p.length; j++) {
    if (p[j] === "\\") j++;
    else if (p[j] === "]") return j;
  }
  return p.length - 1;
}

// The index of the `)` closing the group that opens at `i`, or -1.
function _groupEnd(p: string, i: number): number {
  let depth = 0;
  for (let j = i; j < p.length; j++) {
    const c = p[j];
    if (c === "\\") j++;
    else if (c === "[") j = _classEnd(p, j);
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return j;
  }
  return -1;
}
