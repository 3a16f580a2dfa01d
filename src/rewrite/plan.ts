/**
 * Planning a rewrite: which simple commands of a line get `rtok` put in front of them. The
 * line is split on `&&`, `||`, `;`, `&` and newlines, each part rewritten on its own; in a
 * pipeline only the last stage may be, and only when its filter is right on piped input.
 * Environment prefixes and the wrappers `timeout`, `time`, `nice`, `nohup`, `command` and
 * `exec` are looked through; `sudo` never is. Every byte not inserted stays as written.
 *
 * @module
 */

import { familyOf, splitArgv, toolName } from "../core/command.ts";
import { lex, type Redirect, type Word } from "../core/lexer.ts";
import { rewriteRule } from "./rules.ts";
import { DISABLE_VAR, disables } from "../core/env.ts";
import { peelWrappers } from "../core/grammar/wrappers.ts";

/** One simple command of the line, as the permission check and the rewrite see it. */
export interface SimpleCommand {
  /** Its text as written (assignments, wrappers and redirects included). */
  readonly text: string;
  /** Its words after the assignments and wrappers: what actually runs. */
  readonly argv: readonly string[];
  /** True when an assignment or wrapper came before the tool. */
  readonly prefixed: boolean;
  /** True when any word's value is left to the shell (`$VAR`, a glob, `~`). */
  readonly dynamic: boolean;
  /** True when it carries a redirect. */
  readonly redirected: boolean;
  /** Its filter family, when it is rewritten. */
  readonly family: string | null;
  /** Why it is not rewritten, when it is not. */
  readonly skipped: string | null;
}

/** A planned rewrite. */
export type Plan =
  | {
    /** The line cannot be vouched for; nothing is rewritten. */
    readonly kind: "refused";
    /** Why. */
    readonly reason: string;
  }
  | {
    /** The line was read; `command` is the rewrite (equal to the line when nothing was). */
    readonly kind: "read";
    /** The line with `rtok` put in front of each rewritten command. */
    readonly command: string;
    /** Every simple command, in order. */
    readonly commands: readonly SimpleCommand[];
    /** True when a command is sent to the background (`&`). */
    readonly background: boolean;
  };

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "select",
  "function",
  "in",
  "!",
  "[[",
  "]]",
  "coproc",
]);

/** Plans the rewrite of `line`, putting `rtok` (the words that reach rtok) in front. */
export function planRewrite(line: string, rtok: string = "rtok"): Plan {
  const lexed = lex(line);
  if (!lexed.ok) return { kind: "refused", reason: lexed.reason };
  const { text, tokens } = lexed;
  const stages: { words: Word[]; redirects: Redirect[] }[][] = [[]];
  const background = tokens.some((t) => t.kind === "op" && t.op === "&");
  let stage: { words: Word[]; redirects: Redirect[] } | null = null;
  // The operator still waiting for its right-hand command: a newline after it continues the
  // line (`ls |` then `head` on the next line is one pipeline).
  let pending: string | null = null;
  for (const t of tokens) {
    if (t.kind === "word" || t.kind === "redirect") {
      if (!stage) {
        stage = { words: [], redirects: [] };
        stages[stages.length - 1].push(stage);
      }
      if (t.kind === "word") stage.words.push(t);
      else stage.redirects.push(t);
      pending = null;
    } else if (t.kind === "op") {
      if (t.op === "\n" && pending) continue;
      const binary = t.op === "|" || t.op === "|&" || t.op === "&&" || t.op === "||";
      if (binary && !stage) {
        return { kind: "refused", reason: `"${t.op}" has no command before it` };
      }
      stage = null;
      pending = binary ? t.op : null;
      if (t.op !== "|" && t.op !== "|&") stages.push([]);
    }
  }
  if (pending) return { kind: "refused", reason: `"${pending}" has no command after it` };
  const commands: SimpleCommand[] = [];
  const inserts: number[] = [];
  for (const pipeline of stages) {
    pipeline.forEach((s, i) => {
      const last = i === pipeline.length - 1;
      const c = _simple(text, s.words, s.redirects, last, pipeline.length > 1);
      commands.push(c.command);
      if (c.insertAt !== null) inserts.push(c.insertAt);
    });
  }
  if (commands.some((c) => c.skipped === `${DISABLE_VAR} is set`)) {
    return { kind: "refused", reason: `${DISABLE_VAR} is set` };
  }
  let out = text;
  for (const at of inserts.sort((a, b) => b - a)) {
    out = `${out.slice(0, at)}${rtok} ${out.slice(at)}`;
  }
  return { kind: "read", command: out, commands, background };
}

function _simple(
  text: string,
  words: readonly Word[],
  redirects: readonly Redirect[],
  last: boolean,
  piped: boolean,
): { command: SimpleCommand; insertAt: number | null } {
  const spans = [...words, ...redirects];
  const start = Math.min(...spans.map((w) => w.start));
  const end = Math.max(...spans.map((w) => w.end));
  const base = {
    text: text.slice(start, end),
    redirected: redirects.length > 0,
    dynamic: words.some((w) => w.dynamic),
  };
  const skip = (argv: readonly string[], prefixed: boolean, why: string) => ({
    command: { ...base, argv, prefixed, family: null, skipped: why },
    insertAt: null,
  });
  let k = 0;
  while (k < words.length && ASSIGNMENT.test(text.slice(words[k].start, words[k].end))) {
    const name = words[k].value.slice(0, words[k].value.indexOf("="));
    if (name === DISABLE_VAR && disables(words[k].value.slice(name.length + 1))) {
      return skip([], true, `${DISABLE_VAR} is set`);
    }
    k++;
  }
  const peeled = peelWrappers(words, k);
  if (typeof peeled === "string") return skip(_values(words, k), true, peeled);
  k = peeled;
  const prefixed = k > 0;
  const argv = _values(words, k);
  if (argv.length === 0) return skip(argv, prefixed, "no command");
  const tool = words[k];
  if (tool.dynamic) return skip(argv, prefixed, "the command name is left to the shell");
  if (!tool.quoted && RESERVED.has(tool.value)) {
    return skip(argv, prefixed, `"${tool.value}" is shell syntax`);
  }
  const name = toolName(tool.value);
  if (name === "rtok") return skip(argv, prefixed, "already runs through rtok");
  // A relative path may be a local script named like a tool; a package's own bin is not, nor
  // the build wrapper a project checks in at its root (`./gradlew`, `./mvnw`).
  if (
    tool.value.includes("/") && !tool.value.startsWith("/") &&
    !/(^|\/)node_modules\/\.bin\/[^/]+$/.test(tool.value) &&
    !/^\.\/(gradlew|mvnw)$/.test(tool.value)
  ) {
    return skip(argv, prefixed, "a tool named by a relative path may be a local script");
  }
  if (name === "sudo" || name === "doas") return skip(argv, prefixed, `${name} is never rewritten`);
  const family = familyOf(argv);
  const rule = rewriteRule(family);
  if (!rule) return skip(argv, prefixed, `no filter for "${family}"`);
  const selecting = words.slice(k, k + splitArgv(argv).prefix.length);
  if (selecting.some((w) => w.dynamic)) {
    return skip(argv, prefixed, "a word that selects the filter is left to the shell");
  }
  if (piped && !last) return skip(argv, prefixed, "its output feeds a pipe");
  if (piped && !rule.pipeSafe) {
    return skip(argv, prefixed, `the ${family} filter needs its own input`);
  }
  return {
    command: { ...base, argv, prefixed, family, skipped: null },
    insertAt: tool.start,
  };
}

function _values(words: readonly Word[], from: number): string[] {
  return words.slice(from).map((w) => w.value);
}

/**
 * True when git has no global options before its subcommand. Claude Code asks before any
 * (`git -C dir log`, even `git --no-pager log`: seen with Claude Code 2.1.332), and some
 * (`-c`, `--exec-path`) can make git run a program.
 */
export function gitGlobalsHarmless(argv: readonly string[]): boolean {
  return splitArgv(argv).prefix.length === 2;
}

/** The arguments a family's read-only check looks at: the argv after the family's words. */
export function familyArgs(argv: readonly string[]): readonly string[] {
  return splitArgv(argv).args;
}
