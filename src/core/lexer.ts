/**
 * A quote-aware lexer for the shell lines agents run, strict about what it can vouch for.
 * It reads words, list and pipe operators, redirects and comments with their byte offsets, so
 * a rewrite can insert text and keep every other byte as written. Anything whose effect it
 * cannot see from the text alone — command, process and arithmetic substitution, backticks,
 * heredocs, ANSI-C quoting, subshells and groups, a redirect into a file — makes it refuse.
 *
 * @module
 */

/** A word: its span in the text, its value with quotes removed, and whether that is known. */
export interface Word {
  /** Discriminant. */
  readonly kind: "word";
  /** First byte. */
  readonly start: number;
  /** One past the last byte. */
  readonly end: number;
  /** The word's value after quote removal (expansions left as written). */
  readonly value: string;
  /** True when the shell would expand it (`$VAR`, `~`, a glob): the value is not final. */
  readonly dynamic: boolean;
  /** True when any part of it was quoted or escaped. */
  readonly quoted: boolean;
}

/** A list or pipe operator. */
export interface Operator {
  /** Discriminant. */
  readonly kind: "op";
  /** First byte. */
  readonly start: number;
  /** One past the last byte. */
  readonly end: number;
  /** The operator: `&&`, `||`, `;`, `&`, `|`, `|&`, or `\n`. */
  readonly op: "&&" | "||" | ";" | "&" | "|" | "|&" | "\n";
}

/** A redirect the lexer found harmless: a descriptor copy, or `/dev/null`. */
export interface Redirect {
  /** Discriminant. */
  readonly kind: "redirect";
  /** First byte (the descriptor digits, if any). */
  readonly start: number;
  /** One past the target's last byte. */
  readonly end: number;
}

/** A `#` comment, up to the end of its line. */
export interface Comment {
  /** Discriminant. */
  readonly kind: "comment";
  /** The `#`. */
  readonly start: number;
  /** The end of the line. */
  readonly end: number;
}

/** One token. */
export type Token = Word | Operator | Redirect | Comment;

/** What {@linkcode lex} found: the tokens, or why it refuses the line. */
export type Lexed =
  | { readonly ok: true; readonly text: string; readonly tokens: readonly Token[] }
  | { readonly ok: false; readonly text: string; readonly reason: string };

// Checked on the text with single-quoted contents blanked out: inside single quotes nothing
// expands, so `'$(x)'` is a literal. Everywhere else, double quotes and comments included,
// a needle is refused even where the shell would not expand it: refusing costs only a rewrite.
const UNATTESTABLE: readonly [string, string][] = [
  ["$(", "command or arithmetic substitution"],
  ["`", "backtick substitution"],
  ["<(", "process substitution"],
  [">(", "process substitution"],
  ["<<", "a heredoc or herestring"],
  ["$'", "ANSI-C quoting"],
  ['$"', "locale quoting"],
  ["$[", "arithmetic expansion"],
];

/** The first construct in `text` the lexer will not vouch for, or `null`. */
export function unattestable(text: string): string | null {
  const seen = _outsideSingleQuotes(text);
  for (const [needle, what] of UNATTESTABLE) {
    if (seen.includes(needle)) return what;
  }
  return null;
}

/**
 * `text` with what single quotes enclose removed and the quotes kept, so `$'…'` still shows
 * `$'` and `a'x'<` cannot fuse into a needle. A quote opened inside double quotes, after a
 * backslash or inside a comment opens nothing; an unclosed one keeps the rest in view.
 */
function _outsideSingleQuotes(text: string): string {
  if (!text.includes("'")) return text;
  let out = "";
  let double = false;
  let comment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (comment) {
      if (c === "\n") comment = false;
    } else if (c === "\\" && i + 1 < text.length) {
      out += c + text[i + 1];
      i++;
      continue;
    } else if (c === '"') {
      double = !double;
    } else if (!double && c === "#" && _wordStart(text, i)) {
      comment = true;
    } else if (!double && c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close >= 0) {
        out += "''";
        i = close;
        continue;
      }
    }
    out += c;
  }
  return out;
}

const OPERATOR_CHARS = new Set([";", "&", "|", "<", ">", "(", ")", "\n"]);
const BLANK = new Set([" ", "\t", "\r"]);

function _wordStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const prev = text[i - 1];
  return BLANK.has(prev) || OPERATOR_CHARS.has(prev);
}

/**
 * `text` with every backslash-newline outside single quotes and comments removed, as the
 * shell reads it: a continued line becomes one line.
 */
export function joinContinuations(text: string): string {
  if (!text.includes("\\\n")) return text;
  let out = "";
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      out += c;
      if (c === "'") quote = null;
      continue;
    }
    if (quote === null && c === "#" && _wordStart(text, i)) {
      const nl = text.indexOf("\n", i);
      const stop = nl < 0 ? text.length : nl;
      out += text.slice(i, stop);
      i = stop - 1;
      continue;
    }
    if (c === "\\") {
      if (text[i + 1] === "\n") {
        i++;
        continue;
      }
      out += c + (text[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === "'" && quote === null) quote = "'";
    else if (c === '"') quote = quote === '"' ? null : quote === null ? '"' : quote;
    out += c;
  }
  return out;
}

class _Refusal extends Error {}

function _refuse(reason: string): never {
  throw new _Refusal(reason);
}

const REDIRECT = /^(\d*)(&>>|&>|>>|>\||>&|<&|<>|>|<)/;

/** Lexes one command line (continuations joined first). */
export function lex(line: string): Lexed {
  const text = joinContinuations(line);
  const bad = unattestable(text);
  if (bad) return { ok: false, text, reason: `it contains ${bad}` };
  try {
    return { ok: true, text, tokens: _tokens(text) };
  } catch (e) {
    if (e instanceof _Refusal) return { ok: false, text, reason: e.message };
    throw e;
  }
}

function _tokens(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (BLANK.has(c)) {
      i++;
      continue;
    }
    if (c === "\n") {
      tokens.push({ kind: "op", start: i, end: i + 1, op: "\n" });
      i++;
      continue;
    }
    if (c === "#" && _wordStart(text, i)) {
      const nl = text.indexOf("\n", i);
      const end = nl < 0 ? text.length : nl;
      tokens.push({ kind: "comment", start: i, end });
      i = end;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === ";;" || two === ";&") _refuse("it contains case syntax");
    if (two === "&&" || two === "||" || two === "|&") {
      tokens.push({ kind: "op", start: i, end: i + 2, op: two });
      i += 2;
      continue;
    }
    if (c === "(" || c === ")") _refuse("it contains a subshell or grouping");
    const redirect = _wordStart(text, i) ? REDIRECT.exec(text.slice(i)) : null;
    if (redirect && (redirect[1] !== "" || c === ">" || c === "<" || c === "&")) {
      i = _redirect(text, i, redirect, tokens);
      continue;
    }
    if (c === ";" || c === "&" || c === "|") {
      tokens.push({ kind: "op", start: i, end: i + 1, op: c });
      i++;
      continue;
    }
    if (c === "<" || c === ">") {
      // A redirect glued to a word (`a>b`): the word ended just before it.
      const m = REDIRECT.exec(text.slice(i));
      i = _redirect(text, i, m!, tokens);
      continue;
    }
    const word = _word(text, i);
    if ((word.value === "{" || word.value === "}") && !word.quoted) {
      _refuse("it contains a command group");
    }
    tokens.push(word);
    i = word.end;
  }
  return tokens;
}

function _redirect(text: string, start: number, m: RegExpExecArray, tokens: Token[]): number {
  const op = m[2];
  let i = start + m[0].length;
  while (i < text.length && BLANK.has(text[i])) i++;
  if (i >= text.length || OPERATOR_CHARS.has(text[i])) _refuse(`a redirect (${op}) has no target`);
  const target = _word(text, i);
  const dup = op === ">&" || op === "<&";
  if (dup && /^(\d+|-)$/.test(target.value) && !target.dynamic) {
    tokens.push({ kind: "redirect", start, end: target.end });
    return target.end;
  }
  // `>&/dev/null` is bash's spelling of `&>/dev/null`.
  if ((!dup || op === ">&") && op !== "<>" && target.value === "/dev/null" && !target.dynamic) {
    tokens.push({ kind: "redirect", start, end: target.end });
    return target.end;
  }
  if (op === "<" || op === "<&" || op === "<>") {
    _refuse("it reads its input from a file");
  }
  _refuse("it redirects output into a file");
}

function _word(text: string, start: number): Word {
  let value = "";
  let dynamic = false;
  let quoted = false;
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (BLANK.has(c) || OPERATOR_CHARS.has(c)) break;
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) _refuse("it has an unclosed single quote");
      value += text.slice(i + 1, close);
      quoted = true;
      i = close + 1;
      continue;
    }
    if (c === '"') {
      quoted = true;
      i++;
      while (i < text.length && text[i] !== '"') {
        const d = text[i];
        if (d === "\\" && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) {
          value += text[i + 1];
          i += 2;
          continue;
        }
        if (d === "$") dynamic = true;
        value += d;
        i++;
      }
      if (i >= text.length) _refuse("it has an unclosed double quote");
      i++;
      continue;
    }
    if (c === "\\") {
      if (i + 1 >= text.length) _refuse("it ends with a lone backslash");
      value += text[i + 1];
      quoted = true;
      i += 2;
      continue;
    }
    // Outside quotes here: an expansion or a glob leaves the value to the shell.
    if (c === "$" || c === "*" || c === "?" || c === "[" || c === "{") dynamic = true;
    if (c === "~" && i === start) dynamic = true;
    value += c;
    i++;
  }
  return { kind: "word", start, end: i, value, dynamic, quoted };
}
