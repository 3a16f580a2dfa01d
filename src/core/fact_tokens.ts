/**
 * The words of a text an agent may type back: paths, file names, identifiers, qualified names,
 * hashes, versions and long numbers. One rule, shared by the view that names where hidden lines
 * are (`hidden_lines.ts`) and by `rtok replay`, which counts the facts an agent used later.
 *
 * A word is a run of `A-Z a-z 0-9 _ $ @ ~ . / + -` and `::` (so `src/app.ts:12:5` is a path and
 * two numbers), stripped of the `+`, `-`, `.` a diff line or a flag puts before it and of trailing
 * punctuation. It is a fact when it is distinctive:
 *
 * - a path: two or more segments joined by `/`, one of them holding a letter (`src/app.ts`,
 *   `/usr/lib`, `@scope/pkg`), at least 4 chars;
 * - a file name: a name of 2+ chars, a dot, an extension of 1–8 letters or digits starting with a
 *   letter (`package.json`, `app.test.ts`);
 * - an identifier of 4+ chars with an inner `_`, a digit, or a second capital after a lower-case
 *   letter or a capital run (`parseArgs`, `MAX_SIZE`, `OpenSSL`, `v8Flags`); plain words
 *   (`return`, `Please`, `ERROR`) are not facts;
 * - a qualified name: identifiers joined by `.` or `::`, 6+ chars (`os.path.join`, `Vec::new`);
 * - a hash: 7–64 hex digits with a digit and a letter; a version with two dots (`1.20.3`);
 * - a number of 3+ digits (a line number past 99, a port, a count).
 *
 * @module
 */

const _WORD = /(?:[A-Za-z0-9_$@~.\/+-]|::)+/g;
const _PATH_SEGMENT_LETTER = /[A-Za-z]/;
const _FILE_NAME = /^[\w.@+-]*[A-Za-z0-9_][\w-]*\.[A-Za-z][A-Za-z0-9]{0,7}$/;
const _IDENT = /^[A-Za-z_$][\w$]*$/;
const _QUALIFIED = /^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)+$/;
const _HEX = /^[0-9a-f]{7,64}$/;
const _VERSION = /^v?\d+\.\d+\.\d+(?:[-+][\w.]+)?$/;
const _NUMBER = /^\d{3,}$/;

// An identifier is distinctive when it is more than one plain word.
function _distinctiveIdent(w: string): boolean {
  if (w.length < 4) return false;
  if (/\d/.test(w) || /[A-Za-z0-9]_[A-Za-z0-9]/.test(w)) return true;
  // camelCase, PascalCase with a second hump, or an acronym run followed by lower case.
  return /[a-z][A-Z]/.test(w) || /[A-Z]{2}[a-z]/.test(w);
}

/** True when `word` (already trimmed of punctuation) is a fact by the rule above. */
export function isFactWord(word: string): boolean {
  if (word.length < 3) return false;
  if (_NUMBER.test(word)) return true;
  if (_HEX.test(word)) return /\d/.test(word) && /[a-f]/.test(word);
  if (_VERSION.test(word)) return true;
  if (word.includes("/")) {
    if (word.length < 4) return false;
    const parts = word.split("/").filter((p) => p !== "");
    return parts.length >= 2 && parts.some((p) => _PATH_SEGMENT_LETTER.test(p)) ||
      (word.startsWith("/") && parts.length === 1 && _FILE_NAME.test(parts[0]));
  }
  if (_FILE_NAME.test(word) && !/^\d/.test(word)) {
    // `e.g`, `i.e`, `1.5` are not file names; a name needs 2+ chars before its extension.
    return word.indexOf(".") >= 2;
  }
  if (_IDENT.test(word)) return _distinctiveIdent(word);
  if (_QUALIFIED.test(word)) return word.length >= 6;
  return false;
}

// Punctuation a word may carry that is not part of what an agent types back.
function _trim(raw: string): string {
  let w = raw;
  // `-`/`+` begin diff lines and flags; `::` may begin a path of Rust's (`::std`).
  w = w.replace(/^(?:[-+.~]|::)+(?=[\w$@/])/, "");
  w = w.replace(/(?:[.\-+/~]|::)+$/, "");
  return w;
}

/** Every fact of `line`, in order, each once. */
export function factWords(line: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (w: string) => {
    if (!seen.has(w) && isFactWord(w)) {
      seen.add(w);
      out.push(w);
    }
  };
  for (const m of line.matchAll(_WORD)) {
    const w = _trim(m[0]);
    if (w === "") continue;
    add(w);
    // A test id (`tests/test_io.py::TestRead::test_empty`) is typed whole and in parts.
    if (w.includes("/") && w.includes("::")) { for (const part of w.split("::")) add(part); }
  }
  return out;
}

/** Every fact of `text` (all its lines), each once. */
export function factSet(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split("\n")) for (const w of factWords(line)) out.add(w);
  return out;
}
