/**
 * The outline of code no grammar reads (Ruby, Kotlin, Swift, Lua, Elixir…), or of a file whose
 * grammar failed to load: a line is a symbol when it starts, after modifiers, with a declaring
 * keyword (`class`, `module`, `def`, `fun`, `fn`, `func`, `function`, `interface`, `struct`,
 * `enum`, `trait`, `object`, …) followed by a name. The symbol runs to the last line before the
 * next non-blank line indented no deeper than it; a closing line at its own indent (`}`, `end`)
 * is its last line, and so are the lines at its indent that carry on a block (`} else {`,
 * `rescue`, `): Int {`). Annotation lines (`@…`, `#[…]`) right above it at its indent start it.
 * The lines are true; the ranges are as good as the file's indentation.
 *
 * @module
 */

import type { OutlineSymbol } from "./symbol.ts";

const _FUNCTION_WORDS = new Set([
  "def",
  "defp",
  "fn",
  "func",
  "function",
  "fun",
  "sub",
  "proc",
  "method",
  "defmacro",
]);

const _KIND_OF: Readonly<Record<string, string>> = {
  defmodule: "module",
  defmacro: "macro",
  macro: "macro",
};

// Modifiers that may stand before the declaring word.
const _MODIFIER = String
  .raw`(?:export|default|public|private|protected|internal|static|abstract|final|open|override|async|unsafe|extern(?:\s+"[^"]*")?|inline|declare|local|virtual|partial|readonly|sealed|data|inner|value|companion|annotation|suspend|tailrec|operator|infix|external|expect|actual|lateinit|const|pub(?:\([^)]*\))?|enum(?=\s+class\b))`;
const _WORD = String
  .raw`(class|interface|struct|enum|trait|impl|module|namespace|object|record|protocol|extension|union|type|def|defp|defmodule|defmacro|macro|fn|func|function|fun|sub|proc)`;
// After the word: a Go receiver `(r *T)`, type parameters `<T>`, then the name as written, which
// may be qualified (`self.name`, `Foo::Bar`, Kotlin's `List<T>.second`).
const _HEADER = new RegExp(
  String.raw`^(\s*)(?:${_MODIFIER}\s+)*${_WORD}\b\s*(?:(?<=func\s*)\([^)]*\)\s*)?(?:<[^>]*>\s*)?` +
    String.raw`((?:[A-Za-z_$][\w$]*(?:<[^>]*>)?(?:\.|::))*[A-Za-z_$][\w$]*[?!=]?)`,
);
const _COMMENT = /^\s*(?:\/\/|\/\*|\*|#(?!\[)|--|;|%)/;
const _CLOSER = /^\s*(?:[}\])]|end\b|fi\b|done\b|esac\b|endfunction\b|endif\b)/;
const _OPENER_END = /(?:[{(\[:=]|->|=>|\bdo|\bthen)\s*(?:(?:\/\/|#).*)?$/;
const _CONTINUE = /^\s*(?:rescue|ensure|else|elsif|elif|when|in|catch|except|finally)\b/;
const _ANNOTATION = /^\s*(?:@[A-Za-z_]|#\[)/;

function _indent(line: string): number {
  let n = 0;
  for (const ch of line) {
    if (ch === " ") n++;
    else if (ch === "\t") n += 4;
    else break;
  }
  return n;
}

const _SCOPES = new Set([
  "class",
  "interface",
  "struct",
  "enum",
  "trait",
  "impl",
  "module",
  "namespace",
  "object",
  "record",
  "protocol",
  "extension",
  "union",
]);

/** The indentation outline of `text`: declaring lines and the ranges their indentation gives. */
export function indentSymbols(text: string): OutlineSymbol[] {
  const lines = text.split("\n").map((l) => l.endsWith("\r") ? l.slice(0, -1) : l);
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const blank = lines.map((l) => l.trim() === "");
  const out: OutlineSymbol[] = [];
  const open: OutlineSymbol[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (blank[i] || _COMMENT.test(line)) continue;
    const m = _HEADER.exec(line);
    if (!m) continue;
    const [, lead, word, name] = m;
    const indent = _indent(lead);
    let end = i;
    for (let j = i + 1; j < lines.length; j++) {
      if (blank[j]) continue;
      const at = _indent(lines[j]);
      if (at > indent) {
        end = j;
        continue;
      }
      if (at === indent && _CLOSER.test(lines[j]) && _OPENER_END.test(lines[j])) {
        end = j; // `} else {`, `): Int {`: the block goes on.
        continue;
      }
      if (at === indent && _CONTINUE.test(lines[j])) {
        end = j;
        continue;
      }
      if (at === indent && _CLOSER.test(lines[j])) end = j;
      break;
    }
    let start = i;
    while (
      start > 0 && _ANNOTATION.test(lines[start - 1]) && _indent(lines[start - 1]) === indent
    ) {
      start--;
    }
    while (open.length && open[open.length - 1].end < i + 1) open.pop();
    const parent = open[open.length - 1];
    const kind = _FUNCTION_WORDS.has(word) && word !== "defmacro"
      ? parent && _SCOPES.has(parent.kind) ? "method" : "function"
      : word === "class" && /\benum\s+class\b/.test(m[0])
      ? "enum"
      : _KIND_OF[word] ?? word;
    const symbol: OutlineSymbol = {
      kind,
      name,
      start: start + 1,
      end: end + 1,
      depth: open.length,
    };
    out.push(symbol);
    open.push(symbol);
  }
  return out;
}
