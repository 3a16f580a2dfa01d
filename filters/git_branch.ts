/**
 * `git branch`: the current branch first, then the other local branches on one line, then one
 * line per remote. Every name is written whole, as git takes it back (`feature/login`,
 * `origin/main`: without the `remotes/` that `-a` puts in front). With `-v`/`-vv` each branch
 * keeps its own line with its hash, worktree and tracking as printed, without the alignment
 * padding and without the commit subject, which `git log` shows. Every branch name survives.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { plural, splitLines, stripAnsi } from "../src/core/text.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";

const PASS_FLAGS = new Set([
  "--show-current",
  "--delete",
  "--move",
  "--copy",
  "--unset-upstream",
  "--edit-description",
  "--track",
  "--no-track",
  "--force",
  "--create-reflog",
  "--column",
]);
const PASS_PREFIXES = ["--format", "--set-upstream-to", "--track=", "--column="];
// Short options that delete, rename, copy, create or set upstream: the output is no listing.
const MUTATING_SHORT = /[dDmMcCutf]/;
// Options whose presence makes positional arguments patterns or commits, not a new branch name.
const LISTING = new Set(["--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged"]);
const VALUE_OPTIONS = new Set(["--contains", "--no-contains", "--merged", "--no-merged"]);
const REQUIRED_VALUE = new Set(["--points-at", "--sort"]);

/**
 * Why `git branch` arguments produce no listing rtok may rewrite (a chosen format, a
 * mutation, a plain `git branch <name>` creating one), or `null`.
 */
export function branchPassthrough(args: readonly string[]): string | null {
  let positional = 0;
  let listing = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positional += args.length - i - 1;
      break;
    }
    if (PASS_FLAGS.has(arg) || PASS_PREFIXES.some((p) => arg.startsWith(p))) {
      return `not a branch listing (${arg})`;
    }
    if (/^-[^-]/.test(arg) && MUTATING_SHORT.test(arg)) return `not a branch listing (${arg})`;
    if (
      LISTING.has(arg) || arg.startsWith("--points-at") || /^--(no-)?(contains|merged)=/.test(arg)
    ) {
      listing = true;
    }
    if (REQUIRED_VALUE.has(arg)) i++;
    else if (VALUE_OPTIONS.has(arg) && i + 1 < args.length && !args[i + 1].startsWith("-")) i++;
    else if (!arg.startsWith("-")) positional++;
  }
  return positional > 0 && !listing ? "creates a branch" : null;
}

// Option arguments without the values of options that take one (`--sort -committerdate`).
function optionArgs(args: readonly string[]): string[] {
  const options: string[] = [];
  for (let i = 0; i < args.length && args[i] !== "--"; i++) {
    if (REQUIRED_VALUE.has(args[i])) i++;
    else if (args[i].startsWith("-")) options.push(args[i]);
  }
  return options;
}

function hasFlag(args: readonly string[], long: string, letter: string): boolean {
  return optionArgs(args).some((a) => a === long || (/^-[^-]/.test(a) && a.includes(letter)));
}

/** One line of the listing. */
interface Entry {
  /** `*` current, `+` checked out in another worktree, or `` otherwise. */
  mark: string;
  /** The name without `remotes/`: `main`, `origin/main`. */
  name: string;
  /** The remote for a remote branch, or `` for a local one. */
  remote: string;
  /** What follows the name in `-v` output (hash, tracking, subject), or `-> target`. */
  rest: string;
}

const ENTRY = /^([*+ ]) (\([^)]*\)|\S+)(?: +(.*))?$/;

/** Which refs the listing holds: `-r` prints remote names bare, `-a` prefixes them `remotes/`. */
type Scope = "local" | "all" | "remotes";

function parseEntry(line: string, scope: Scope): Entry | null {
  const m = ENTRY.exec(line);
  if (!m) return null;
  const mark = m[1].trim();
  const prefixed = scope === "all" && m[2].startsWith("remotes/");
  const remoteName = scope === "remotes" ? m[2] : prefixed ? m[2].slice("remotes/".length) : null;
  const slash = remoteName?.indexOf("/") ?? -1;
  if (remoteName && slash > 0) {
    return { mark, name: remoteName, remote: remoteName.slice(0, slash), rest: m[3] ?? "" };
  }
  return { mark, name: m[2], remote: "", rest: m[3] ?? "" };
}

// `-v` rest: `hash [(worktree) ][[tracking] ]subject`, or `-> target` for a symbolic ref,
// which has no subject and stays whole.
function dropSubject(rest: string): { text: string; dropped: boolean } {
  const m = /^([0-9a-f]{4,64}(?: \([^)]*\))?(?: \[[^\]]*\])?)(?: (.*))?$/.exec(rest);
  if (!m || !m[2]) return { text: rest, dropped: false };
  return { text: m[1], dropped: true };
}

function renderVerbose(entries: readonly Entry[]): { lines: string[]; dropped: number } {
  const lines: string[] = [];
  let dropped = 0;
  for (const e of entries) {
    const rest = dropSubject(e.rest);
    if (rest.dropped) dropped++;
    lines.push(`${e.mark ? `${e.mark} ` : ""}${e.name} ${rest.text}`.trimEnd());
  }
  return { lines, dropped };
}

function renderNames(entries: readonly Entry[]): string[] {
  const lines = entries.filter((e) => e.mark && !e.remote).map((e) => `${e.mark} ${e.name}`);
  const local = entries.filter((e) => !e.mark && !e.remote).map((e) => e.name);
  if (local.length) lines.push(local.join(", "));
  const remotes = new Map<string, Entry[]>();
  for (const e of entries.filter((e) => e.remote)) {
    const list = remotes.get(e.remote);
    if (list) list.push(e);
    else remotes.set(e.remote, [e]);
  }
  for (const list of remotes.values()) {
    const symbolic = list.filter((e) => e.rest).map((e) => `${e.name} ${e.rest}`);
    const names = list.filter((e) => !e.rest).map((e) => e.name);
    lines.push([...symbolic, ...names].join(", "));
  }
  return lines;
}

/** Filters a `git branch` listing; lines rtok cannot read are kept verbatim at the end. */
export function filterBranch(raw: string, input: FilterInput): Filtered {
  const lines = splitLines(stripAnsi(raw));
  if (lines.length === 0) return { text: "", cut: [] };
  const scope: Scope = hasFlag(input.args, "--remotes", "r")
    ? "remotes"
    : hasFlag(input.args, "--all", "a")
    ? "all"
    : "local";
  const verbose = hasFlag(input.args, "--verbose", "v");
  const entries: Entry[] = [];
  const unread: string[] = [];
  for (const line of lines) {
    const entry = parseEntry(line, scope);
    if (entry) entries.push(entry);
    else unread.push(line);
  }
  // The current branch leads, wherever git sorted it.
  entries.sort((a, b) => rank(a) - rank(b));
  const cut: string[] = [];
  let out: string[];
  if (verbose) {
    const rendered = renderVerbose(entries);
    out = rendered.lines;
    if (rendered.dropped) cut.push(plural(rendered.dropped, "commit subject"));
  } else {
    out = renderNames(entries);
  }
  out.push(...unread);
  return { text: out.join("\n") + "\n", cut };
}

function rank(e: Entry): number {
  if (e.mark === "*") return 0;
  return e.remote ? 2 : 1;
}

/** The `git branch` filter. */
export const gitBranchFilter: CommandFilter = {
  name: "git branch",
  textClass: "paths",
  quotes: true,
  passthrough: branchPassthrough,
  filter: filterBranch,
};

/**
 * The families this module serves. `git branch NAME` creates a branch and `-d`/`-m`/`-u`
 * change them: only listing is reading.
 */
export const FAMILIES: FamilyDeclarations = {
  "git branch": {
    filter: gitBranchFilter,
    rewrite: {
      pipeSafe: true,
      readOnly: {
        only: [
          "-a",
          "-r",
          "-l",
          "-v",
          "-vv",
          "--all",
          "--remotes",
          "--list",
          "--verbose",
          "--show-current",
          "--no-color",
          "--color",
          "--no-column",
          "-q",
          "--quiet",
        ],
        onlyPrefixes: [
          "--sort=",
          "--format=",
          "--contains=",
          "--no-contains=",
          "--merged=",
          "--no-merged=",
          "--points-at=",
          "--color=",
          "--column=",
        ],
        operandsWith: ["--list", "-l"],
      },
    },
    saving: 52,
  },
};
