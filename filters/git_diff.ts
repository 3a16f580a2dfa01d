/**
 * `git diff`: one compact line per file instead of git's 4–6 header lines, then the hunks
 * through the shared compactor. Every changed path and every hunk header survive.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import {
  compactDiff,
  countChanges,
  countsLabel,
  type DiffItem,
  type Hunk,
  readHunk,
} from "./_hunks.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";
import { GIT_READS } from "./_git.ts";
import { GIT_DIFF_FORMAT_PREFIXES, GIT_DIFF_FORMATS } from "../src/core/grammar/git.ts";
import { type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

// Outputs that are not a patch, or a patch made for `git apply` rather than for reading.
const FORMAT_FLAGS = new Set([
  ...GIT_DIFF_FORMATS,
  "--stat",
  "--numstat",
  "--shortstat",
  "--color-words",
  "--binary",
  "--full-index",
  "--output",
  "--ext-diff",
]);
const FORMAT_PREFIXES = [
  ...GIT_DIFF_FORMAT_PREFIXES,
  "--stat=",
  "--stat-",
  "--word-diff-regex=",
  "--color-words=",
  "--output=",
  "--line-prefix=",
];

/**
 * Why `git diff` arguments ask for an output rtok must not rewrite (a stat, a name list, a
 * word diff, a patch for `git apply`), or `null`. Arguments after `--` are paths.
 */
export function diffPassthrough(args: readonly string[]): string | null {
  for (const arg of args) {
    if (arg === "--") break;
    if (FORMAT_FLAGS.has(arg) || FORMAT_PREFIXES.some((p) => arg.startsWith(p))) {
      return `the caller chose the output format (${arg})`;
    }
  }
  return null;
}

/** True when the caller chose the context width (`-U5`, `--unified=5`, `-W`): keep it all. */
export function contextChosen(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === "--") break;
    if (/^-U\d*$|^--unified(=|$)|^-W$|^--function-context$/.test(arg)) return true;
  }
  return false;
}

const FILE_START = /^diff --(git|cc|combined) (.*)$/;
const HEADER_LINE =
  /^(old mode|new mode|deleted file mode|new file mode|copy from|copy to|rename from|rename to|similarity index|dissimilarity index|index |mode |--- |\+\+\+ |Binary files )/;

/** What git's header lines say about one file. */
interface FileFacts {
  oldPath: string;
  newPath: string;
  status: "" | "new file" | "deleted" | "renamed" | "copied";
  similarity: string;
  oldMode: string;
  newMode: string;
  binary: boolean;
  combined: boolean;
  extra: string[];
}

/**
 * Splits a `diff --git`, `diff --cc` stream into files and verbatim lines. Lines before the
 * first file and lines rtok cannot place are kept as printed; blank lines between files go.
 */
export function parseGitDiff(lines: readonly string[]): DiffItem[] {
  const items: DiffItem[] = [];
  let i = 0;
  while (i < lines.length) {
    const start = FILE_START.exec(lines[i]);
    if (!start) {
      if (lines[i] !== "") items.push(lines[i]);
      i++;
      continue;
    }
    const facts = initialFacts(start[1] !== "git", start[2]);
    i++;
    for (; i < lines.length && HEADER_LINE.test(lines[i]); i++) readHeaderLine(lines[i], facts);
    const body: (Hunk | string)[] = [];
    while (i < lines.length && !FILE_START.test(lines[i])) {
      const read = readHunk(lines, i);
      if (read) {
        body.push(read.hunk);
        i = read.next;
      } else {
        if (lines[i] !== "") body.push(lines[i]);
        i++;
      }
    }
    items.push({
      title: titleOf(facts, body),
      path: facts.newPath,
      deleted: facts.status === "deleted",
      extra: facts.extra,
      body,
    });
  }
  return items;
}

function initialFacts(combined: boolean, rest: string): FileFacts {
  const [oldPath, newPath] = combined ? [rest, rest] : splitPaths(rest);
  return {
    oldPath,
    newPath,
    status: "",
    similarity: "",
    oldMode: "",
    newMode: "",
    binary: false,
    combined,
    extra: [],
  };
}

// `a/x b/x`: the two halves of git's line, which name the same path unless a rename (whose
// `rename from/to` lines then give the paths). Spaces in paths are not quoted, hence the halves.
function splitPaths(rest: string): [string, string] {
  const quoted = /^("(?:[^"\\]|\\.)*"|[^" ]+) ("(?:[^"\\]|\\.)*"|[^" ]+)$/.exec(rest);
  if (quoted) return stripPrefixes(quoted[1], quoted[2]);
  const mid = (rest.length - 1) / 2;
  if (Number.isInteger(mid) && rest[mid] === " ") {
    const a = rest.slice(0, mid);
    const b = rest.slice(mid + 1);
    if (a === b || a.slice(2) === b.slice(2)) return stripPrefixes(a, b);
  }
  return [rest, rest];
}

// Removes git's `a/` and `b/` (or mnemonic `i/`, `w/`…) prefixes, inside quotes too.
function stripPrefixes(a: string, b: string): [string, string] {
  const q = a.startsWith('"') ? 1 : 0;
  const pa = a.slice(q, q + 2);
  const pb = b.slice(b.startsWith('"') ? 1 : 0).slice(0, 2);
  if (/^[a-z]\/$/.test(pa) && /^[a-z]\/$/.test(pb) && pa !== pb) {
    return [unprefix(a), unprefix(b)];
  }
  return [a, b];
}

function unprefix(path: string): string {
  return path.startsWith('"') ? '"' + path.slice(3) : path.slice(2);
}

const FIELD =
  /^(rename from|rename to|copy from|copy to|similarity index|new file mode|deleted file mode|old mode|new mode) (.*)$/;

// `index` and `---`/`+++` lines repeat what the title says (blob ids aside): boilerplate.
function readHeaderLine(line: string, facts: FileFacts): void {
  const field = FIELD.exec(line);
  if (field) applyField(field[1], field[2], facts);
  else if (line.startsWith("Binary files ")) facts.binary = true;
  else if (!/^(index |mode |--- |\+\+\+ )/.test(line)) facts.extra.push(line);
}

function applyField(key: string, value: string, facts: FileFacts): void {
  switch (key) {
    case "rename from":
    case "copy from":
      facts.oldPath = value;
      facts.status = key === "rename from" ? "renamed" : "copied";
      break;
    case "rename to":
    case "copy to":
      facts.newPath = value;
      break;
    case "similarity index":
      facts.similarity = value;
      break;
    case "new file mode":
      facts.status = "new file";
      facts.newMode = value;
      break;
    case "deleted file mode":
      facts.status = "deleted";
      break;
    case "old mode":
      facts.oldMode = value;
      break;
    case "new mode":
      facts.newMode = value;
      break;
  }
}

function titleOf(facts: FileFacts, body: readonly (Hunk | string)[]): string {
  const parts: string[] = [];
  if (facts.status === "new file") {
    parts.push(
      facts.newMode && facts.newMode !== "100644" ? `new file ${facts.newMode}` : "new file",
    );
  } else if (facts.status === "deleted") parts.push("deleted");
  else if (facts.status) parts.push(`${facts.status}, ${facts.similarity}`);
  if (facts.oldMode) parts.push(`mode ${facts.oldMode} → ${facts.newMode}`);
  if (facts.combined) parts.push("merge");
  if (facts.binary) parts.push("binary");
  const { added, deleted } = countChanges(body);
  const counts = countsLabel(added, deleted);
  if (counts) parts.push(counts);
  const moved = facts.oldPath !== facts.newPath;
  const paths = moved ? `${facts.oldPath} → ${facts.newPath}` : facts.newPath;
  return parts.length ? `diff ${paths} (${parts.join(", ")})` : `diff ${paths}`;
}

/** Filters a whole `git diff`-style stream (also the diff part of `git show`). */
export function filterGitDiff(text: string, args: readonly string[]): Filtered {
  const lines = splitLines(stripAnsi(text));
  if (lines.length === 0) return { text: "", cut: [] };
  const { lines: out, cut } = compactDiff(parseGitDiff(lines), {
    keepContext: contextChosen(args),
  });
  return { text: out.length ? out.join("\n") + "\n" : "", cut };
}

/** The `git diff` filter. */
export const gitDiffFilter: CommandFilter = {
  name: "git diff",
  textClass: "diff",
  quotes: true,
  passthrough: diffPassthrough,
  filter(raw: string, input: FilterInput): Filtered {
    return filterGitDiff(raw, input.args);
  },
};

// `diff --git a/… b/…` first.
function _detect(s: Sample): ShapeMatch | null {
  return /^diff --git \S/.test(s.filled[0] ?? "") ? shapeMatch() : null;
}

/** The families this module serves. */
export const FAMILIES: FamilyDeclarations = {
  "git diff": {
    filter: gitDiffFilter,
    rewrite: GIT_READS,
    shapes: [{ rank: 310, detect: _detect }],
    saving: 62,
  },
};
