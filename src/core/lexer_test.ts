import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  joinContinuations,
  lex,
  type Lexed,
  type Token,
  unattestable,
  type Word,
} from "./lexer.ts";

function tokens(line: string): readonly Token[] {
  const r = lex(line);
  ok(r.ok, `lex(${JSON.stringify(line)}) refused: ${r.ok ? "" : r.reason}`);
  return r.tokens;
}

function words(line: string): Word[] {
  return tokens(line).filter((t): t is Word => t.kind === "word");
}

function word(start: number, end: number, value: string, dynamic = false, quoted = false): Word {
  return { kind: "word", start, end, value, dynamic, quoted };
}

function refusal(line: string): string {
  const r: Lexed = lex(line);
  ok(!r.ok, `lex(${JSON.stringify(line)}) did not refuse`);
  return r.reason;
}

Deno.test("lex() reads plain words with exact spans", () => {
  deepStrictEqual(lex("git log -5"), {
    ok: true,
    text: "git log -5",
    tokens: [word(0, 3, "git"), word(4, 7, "log"), word(8, 10, "-5")],
  });
});

Deno.test("lex() skips blanks (spaces, tabs, carriage returns) between words", () => {
  deepStrictEqual(tokens("  ls\t-la \r"), [word(2, 4, "ls"), word(5, 8, "-la")]);
});

Deno.test("lex() reads every list and pipe operator with its span", () => {
  deepStrictEqual(tokens("a && b || c; d & e | f |& g\nh"), [
    word(0, 1, "a"),
    { kind: "op", start: 2, end: 4, op: "&&" },
    word(5, 6, "b"),
    { kind: "op", start: 7, end: 9, op: "||" },
    word(10, 11, "c"),
    { kind: "op", start: 11, end: 12, op: ";" },
    word(13, 14, "d"),
    { kind: "op", start: 15, end: 16, op: "&" },
    word(17, 18, "e"),
    { kind: "op", start: 19, end: 20, op: "|" },
    word(21, 22, "f"),
    { kind: "op", start: 23, end: 25, op: "|&" },
    word(26, 27, "g"),
    { kind: "op", start: 27, end: 28, op: "\n" },
    word(28, 29, "h"),
  ]);
});

Deno.test("lex() splits operators glued to words", () => {
  deepStrictEqual(tokens("ls;ls&&ls|ls"), [
    word(0, 2, "ls"),
    { kind: "op", start: 2, end: 3, op: ";" },
    word(3, 5, "ls"),
    { kind: "op", start: 5, end: 7, op: "&&" },
    word(7, 9, "ls"),
    { kind: "op", start: 9, end: 10, op: "|" },
    word(10, 12, "ls"),
  ]);
});

Deno.test("lex() reads harmless redirects as one token spanning descriptor and target", () => {
  deepStrictEqual(tokens("git log 2>&1 >/dev/null"), [
    word(0, 3, "git"),
    word(4, 7, "log"),
    { kind: "redirect", start: 8, end: 12 },
    { kind: "redirect", start: 13, end: 23 },
  ]);
  deepStrictEqual(tokens("ls &> /dev/null"), [
    word(0, 2, "ls"),
    { kind: "redirect", start: 3, end: 15 },
  ]);
  deepStrictEqual(tokens("ls >&2 2>&- </dev/null >>/dev/null"), [
    word(0, 2, "ls"),
    { kind: "redirect", start: 3, end: 6 },
    { kind: "redirect", start: 7, end: 11 },
    { kind: "redirect", start: 12, end: 22 },
    { kind: "redirect", start: 23, end: 34 },
  ]);
});

Deno.test("lex() reads a redirect before the command and one glued to a word", () => {
  deepStrictEqual(tokens("2>/dev/null ls"), [
    { kind: "redirect", start: 0, end: 11 },
    word(12, 14, "ls"),
  ]);
  deepStrictEqual(tokens("ls>/dev/null"), [
    word(0, 2, "ls"),
    { kind: "redirect", start: 2, end: 12 },
  ]);
});

Deno.test("lex() reads a quoted /dev/null target", () => {
  deepStrictEqual(tokens('ls 2>"/dev/null"'), [
    word(0, 2, "ls"),
    { kind: "redirect", start: 3, end: 16 },
  ]);
});

Deno.test("lex() reads # at a word start as a comment to the end of the line", () => {
  deepStrictEqual(tokens("ls # a && b\nls"), [
    word(0, 2, "ls"),
    { kind: "comment", start: 3, end: 11 },
    { kind: "op", start: 11, end: 12, op: "\n" },
    word(12, 14, "ls"),
  ]);
  deepStrictEqual(tokens("ls;# x"), [
    word(0, 2, "ls"),
    { kind: "op", start: 2, end: 3, op: ";" },
    { kind: "comment", start: 3, end: 6 },
  ]);
});

Deno.test("lex() keeps # inside a word or quotes as part of the word", () => {
  deepStrictEqual(tokens("grep a#b '#c' \"#d\""), [
    word(0, 4, "grep"),
    word(5, 8, "a#b"),
    word(9, 13, "#c", false, true),
    word(14, 18, "#d", false, true),
  ]);
});

Deno.test("lex() removes quotes and escapes from word values", () => {
  deepStrictEqual(words(`"a b"'c'\\ d`), [word(0, 11, "a bc d", false, true)]);
  deepStrictEqual(words(`'it''s'`), [word(0, 7, "its", false, true)]);
  deepStrictEqual(words(`""`), [word(0, 2, "", false, true)]);
  deepStrictEqual(words(`\\git`), [word(0, 4, "git", false, true)]);
});

Deno.test("lex() keeps operators, blanks and single quotes inside double quotes", () => {
  deepStrictEqual(words(`grep "a && b; c | d > e 'f'"`), [
    word(0, 4, "grep"),
    word(5, 28, "a && b; c | d > e 'f'", false, true),
  ]);
});

Deno.test('lex() unescapes only \\" \\\\ \\$ and \\` inside double quotes', () => {
  deepStrictEqual(words(String.raw`"a\"b\\c\$d\n"`).map((w) => w.value), [
    String.raw`a"b\c$d\n`,
  ]);
});

Deno.test("lex() keeps backslashes literal inside single quotes", () => {
  deepStrictEqual(words(String.raw`'a\nb\' x`).map((w) => w.value), ["a\\nb\\", "x"]);
});

Deno.test("lex() marks words the shell expands as dynamic", () => {
  const dynamic = (line: string) => words(line).map((w) => w.dynamic);
  deepStrictEqual(dynamic("$X"), [true]);
  deepStrictEqual(dynamic("${X}"), [true]);
  deepStrictEqual(dynamic('"$X"'), [true]);
  deepStrictEqual(dynamic('"a$X"b'), [true]);
  deepStrictEqual(dynamic("*.ts"), [true]);
  deepStrictEqual(dynamic("file?.txt"), [true]);
  deepStrictEqual(dynamic("[ab].txt"), [true]);
  deepStrictEqual(dynamic("{a,b}"), [true]);
  deepStrictEqual(dynamic("~"), [true]);
  deepStrictEqual(dynamic("~/src"), [true]);
});

Deno.test("lex() leaves quoted or escaped expansions and a mid-word ~ static", () => {
  const dynamic = (line: string) => words(line).map((w) => w.dynamic);
  deepStrictEqual(dynamic("'$X'"), [false]);
  deepStrictEqual(dynamic('"*.ts"'), [false]);
  deepStrictEqual(dynamic("'file?.txt'"), [false]);
  deepStrictEqual(dynamic('"\\$X"'), [false]);
  deepStrictEqual(dynamic("\\*"), [false]);
  deepStrictEqual(dynamic("HEAD~1"), [false]);
  deepStrictEqual(dynamic("plain -x --y=z"), [false, false, false]);
});

Deno.test("lex() marks quoted and escaped words as quoted", () => {
  deepStrictEqual(words(`a "b" 'c' \\d e`).map((w) => w.quoted), [
    false,
    true,
    true,
    true,
    false,
  ]);
});

Deno.test("lex() joins line continuations before reading", () => {
  const r = lex("git \\\n  log");
  deepStrictEqual(r, {
    ok: true,
    text: "git   log",
    tokens: [word(0, 3, "git"), word(6, 9, "log")],
  });
});

Deno.test("lex() reads the empty line as no tokens", () => {
  deepStrictEqual(lex(""), { ok: true, text: "", tokens: [] });
});

Deno.test("lex() refuses command and arithmetic substitution", () => {
  for (const line of ["ls $(pwd)", 'grep "$(cat p)" f', "echo $((1+2))", "grep '$(x)' $(y)"]) {
    strictEqual(refusal(line), "it contains command or arithmetic substitution", line);
  }
});

Deno.test("lex() reads what single quotes enclose as a literal word", () => {
  const r = lex("grep -rn '$(not a substitution)' src");
  ok(r.ok, "refused a single-quoted $(");
  const words = r.tokens.filter((t) => t.kind === "word").map((t) =>
    (t as { value: string }).value
  );
  deepStrictEqual(words, ["grep", "-rn", "$(not a substitution)", "src"]);
});

Deno.test("lex() refuses backticks", () => {
  for (const line of ["ls `pwd`", 'grep "`x`" f', "echo '`' `y`"]) {
    strictEqual(refusal(line), "it contains backtick substitution", line);
  }
});

Deno.test("lex() refuses process substitution", () => {
  for (const line of ["diff <(ls a) <(ls b)", "ls > >(cat)", 'grep "<(x)" f']) {
    strictEqual(refusal(line), "it contains process substitution", line);
  }
});

Deno.test("lex() refuses heredocs and herestrings", () => {
  for (const line of ["cat <<EOF\nx\nEOF", "cat <<-'EOF'\nEOF", 'grep x <<< "y"']) {
    strictEqual(refusal(line), "it contains a heredoc or herestring", line);
  }
});

Deno.test("lex() refuses ANSI-C and locale quoting", () => {
  strictEqual(refusal("grep $'\\t' f"), "it contains ANSI-C quoting");
  strictEqual(refusal("grep \"$'x'\" f"), "it contains ANSI-C quoting");
  strictEqual(refusal('grep $"x" f'), "it contains locale quoting");
});

Deno.test("lex() refuses arithmetic expansion", () => {
  strictEqual(refusal("echo $[1+1]"), "it contains arithmetic expansion");
});

Deno.test("lex() refuses case syntax", () => {
  strictEqual(refusal("x;; y"), "it contains case syntax");
  strictEqual(refusal("x;& y"), "it contains case syntax");
});

Deno.test("lex() refuses subshells and groupings", () => {
  for (const line of ["(ls)", "ls && (git log)", "f() ls", "((n++))"]) {
    strictEqual(refusal(line), "it contains a subshell or grouping", line);
  }
});

Deno.test("lex() refuses command groups but not quoted braces", () => {
  strictEqual(refusal("{ ls; }"), "it contains a command group");
  strictEqual(refusal("ls; }"), "it contains a command group");
  deepStrictEqual(words("grep '{' f").map((w) => w.value), ["grep", "{", "f"]);
});

Deno.test("lex() refuses unclosed quotes and a lone trailing backslash", () => {
  strictEqual(refusal("grep 'x f"), "it has an unclosed single quote");
  strictEqual(refusal('grep "x f'), "it has an unclosed double quote");
  strictEqual(refusal("grep x\\"), "it ends with a lone backslash");
});

Deno.test("lex() refuses a redirect with no target", () => {
  strictEqual(refusal("ls >"), "a redirect (>) has no target");
  strictEqual(refusal("ls 2>"), "a redirect (>) has no target");
  strictEqual(refusal("ls > | cat"), "a redirect (>) has no target");
  strictEqual(refusal("ls >> ; x"), "a redirect (>>) has no target");
});

Deno.test("lex() refuses a redirect into a file", () => {
  for (
    const line of [
      "ls > out.txt",
      "ls >> log",
      "ls 2> err.txt",
      "ls &> f",
      "ls &>> f",
      "ls >|f",
      "ls>x",
      "ls >& f",
      'ls > "$F"',
      "ls > /dev/null2",
      "ls 2>&$FD",
    ]
  ) {
    strictEqual(refusal(line), "it redirects output into a file", line);
  }
});

Deno.test("lex() refuses input read from a file", () => {
  for (const line of ["grep x < input", "grep x 0<input", "ls <> /dev/null", "ls <&x"]) {
    strictEqual(refusal(line), "it reads its input from a file", line);
  }
});

Deno.test("lex() keeps the joined text when it refuses", () => {
  deepStrictEqual(lex("ls \\\n> f"), {
    ok: false,
    text: "ls > f",
    reason: "it redirects output into a file",
  });
});

Deno.test("unattestable() names the first construct it will not vouch for, or null", () => {
  strictEqual(unattestable("git log -5 | grep x && ls > f"), null);
  strictEqual(unattestable("a `b` $(c)"), "command or arithmetic substitution");
  strictEqual(unattestable("a <(b)"), "process substitution");
});

Deno.test("unattestable() passes what single quotes enclose", async (t) => {
  const cases: [string, string | null][] = [
    ["grep -rn '$(not a substitution)' src", null],
    ["grep 'a`b`' '<(x)' '<<EOF' '$[1]' f", null],
    ["grep 'x' $(y)", "command or arithmetic substitution"],
    ["grep \"'$(x)'\" f", "command or arithmetic substitution"],
    ["grep \\'$(x)\\' f", "command or arithmetic substitution"],
    ["grep $'\\n' f", "ANSI-C quoting"],
    ["grep a'x'<'y'<b f", null],
    ["grep 'open $(x)", "command or arithmetic substitution"],
    ["ls # it's\n$(rm x)", "command or arithmetic substitution"],
  ];
  for (const [line, want] of cases) {
    await t.step(line, () => strictEqual(unattestable(line), want));
  }
});

Deno.test("joinContinuations() leaves a line without continuations as it is", () => {
  const line = "git log 'a\\b' \"c\\d\"\nls";
  strictEqual(joinContinuations(line), line);
});

Deno.test("joinContinuations() removes backslash-newline outside quotes", () => {
  strictEqual(joinContinuations("git log \\\n  --oneline \\\n -5"), "git log   --oneline  -5");
  strictEqual(joinContinuations("gi\\\nt"), "git");
});

Deno.test("joinContinuations() removes backslash-newline inside double quotes", () => {
  strictEqual(joinContinuations('grep "a\\\nb" f'), 'grep "ab" f');
});

Deno.test("joinContinuations() keeps backslash-newline inside single quotes", () => {
  strictEqual(joinContinuations("grep 'a\\\nb' f \\\n x"), "grep 'a\\\nb' f  x");
});

Deno.test("joinContinuations() keeps backslash-newline inside a comment", () => {
  strictEqual(joinContinuations("ls # a \\\nls \\\n -l"), "ls # a \\\nls  -l");
});

Deno.test("joinContinuations() keeps an escaped backslash before a newline", () => {
  strictEqual(joinContinuations("ls \\\\\nls \\\n-l"), "ls \\\\\nls -l");
});

Deno.test("joinContinuations() keeps a mid-word # as text, not a comment", () => {
  strictEqual(joinContinuations("grep a#b \\\nf"), "grep a#b f");
});
