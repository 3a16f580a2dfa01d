/**
 * `git show`: the commit header as `git log` renders it (with a longer body), an annotated
 * tag's block in one line plus its message, then the diff through the `git diff` filtering.
 * Output that is not a commit (`git show HEAD:path`, a tree, a blob) passes unchanged.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { plural, splitLines, stripAnsi } from "../src/core/text.ts";
import { compactDiff, type DiffItem } from "./_hunks.ts";
import { compactDate, logPassthrough, parseLog, renderLog } from "./git_log.ts";
import { contextChosen, diffPassthrough, parseGitDiff } from "./git_diff.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";
import { GIT_READS } from "./_git.ts";
import {
  anyLine,
  hasLineStarting,
  type Sample,
  type ShapeMatch,
  shapeMatch,
} from "../src/core/shape.ts";

/** Non-trailer body lines `git show` keeps: the why of the commit; the rest is counted. */
export const SHOW_BODY_LINES = 6;

const COMMIT_LINE = /^commit [0-9a-f]{7,64}(?: |$)/;
const TAG_LINE = /^tag \S+$/;
const DIFF_START = /^diff --(git|cc|combined) /;
const SIGNATURE_BEGIN = /^-----BEGIN [A-Z ]*SIGNATURE-----$/;
const SIGNATURE_END = /^-----END [A-Z ]*SIGNATURE-----$/;

/** Why `git show` arguments ask for a format rtok must not rewrite, or `null`. */
export function showPassthrough(args: readonly string[]): string | null {
  return logPassthrough(args) ?? diffPassthrough(args);
}

function isTagStart(lines: readonly string[], i: number): boolean {
  return TAG_LINE.test(lines[i]) && (lines[i + 1] ?? "").startsWith("Tagger: ");
}

function isBlockStart(lines: readonly string[], i: number): boolean {
  return COMMIT_LINE.test(lines[i]) || isTagStart(lines, i);
}

/** Filters `git show` output: commits and annotated tags, each followed by its diff. */
export function filterShow(raw: string, input: FilterInput): Filtered {
  const lines = splitLines(stripAnsi(raw));
  if (lines.length === 0) return { text: "", cut: [] };
  // A tag on a tree or blob is followed by content, not by a commit: nothing to parse safely.
  if (!COMMIT_LINE.test(lines[0]) && !(isTagStart(lines, 0) && lines.some(isCommitLine))) {
    return { text: raw, cut: [] };
  }
  const items: DiffItem[] = [];
  const cut: string[] = [];
  let i = 0;
  while (i < lines.length) {
    let end = i + 1;
    while (end < lines.length && !isBlockStart(lines, end)) end++;
    const block = lines.slice(i, end);
    if (isTagStart(lines, i)) items.push(...renderTag(block, cut));
    else items.push(...renderCommit(block, cut));
    i = end;
  }
  const diff = compactDiff(items, { keepContext: contextChosen(input.args) });
  return { text: diff.lines.join("\n") + "\n", cut: [...cut, ...diff.cut] };
}

function isCommitLine(line: string): boolean {
  return COMMIT_LINE.test(line);
}

// One commit: its header through the `git log` renderer, then its diff as parsed items.
function renderCommit(block: readonly string[], cut: string[]): DiffItem[] {
  let split = block.findIndex((l) => DIFF_START.test(l));
  if (split < 0) split = block.length;
  const { entries } = parseLog(block.slice(0, split).join("\n"));
  const header = renderLog(entries, {
    maxCommits: entries.length,
    bodyLines: SHOW_BODY_LINES,
    hashChars: 10,
  });
  cut.push(...header.cut);
  return [...splitLines(header.text), ...parseGitDiff(block.slice(split))];
}

// `tag v1 by Name <email>, 2026-01-02 10:00:` then the message; a signature is counted as cut.
function renderTag(block: readonly string[], cut: string[]): string[] {
  const name = block[0].slice("tag ".length);
  const tagger = block[1].slice("Tagger: ".length).trim();
  let i = 2;
  let when = "";
  if ((block[i] ?? "").startsWith("Date: ")) {
    const date = compactDate(block[i].slice("Date: ".length).trim());
    when = date.time ? `, ${date.day} ${date.time}` : `, ${date.day}`;
    i++;
  }
  const out = [`tag ${name} by ${tagger}${when}:`];
  const message = block.slice(i);
  const begin = message.findIndex((l) => SIGNATURE_BEGIN.test(l));
  const close = message.findIndex((l, k) => k > begin && SIGNATURE_END.test(l));
  const signed = begin >= 0 && close > begin;
  if (signed) cut.push(`tag signature (${plural(close - begin + 1, "line")})`);
  message.forEach((line, k) => {
    const inSignature = signed && k >= begin && k <= close;
    if (!inSignature && line.trim() !== "") out.push(`  ${line}`);
  });
  return out;
}

/** The `git show` filter. */
export const gitShowFilter: CommandFilter = {
  name: "git show",
  textClass: "diff",
  quotes: true,
  passthrough: showPassthrough,
  filter: filterShow,
};

// A commit with its patch, or an annotated tag (the tag, then its tagger). Runs before the
// `git log` detector: a `git show` starts like a log.
function _detect(s: Sample, text: string): ShapeMatch | null {
  const [first = "", second = ""] = s.filled;
  if (/^tag \S+$/.test(first) && second.startsWith("Tagger: ")) return shapeMatch();
  if (!/^commit [0-9a-f]{40}( \(.*\))?$/.test(first)) return null;
  if (!anyLine(s.head, /^(Author|Merge): /)) return null;
  return hasLineStarting(text, "diff --git ") ? shapeMatch() : null;
}

/** The families this module serves. */
export const FAMILIES: FamilyDeclarations = {
  "git show": {
    filter: gitShowFilter,
    rewrite: GIT_READS,
    shapes: [{ rank: 300, detect: _detect }],
    saving: 47,
  },
};
