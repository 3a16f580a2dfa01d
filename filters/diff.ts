/**
 * `diff` (GNU diffutils). Unified output gets one title line per file naming both paths whole
 * (timestamps dropped) and its hunks through the shared compactor; normal output keeps every command line (`12,14c12`)
 * and caps long `<`/`>` runs; `Only in` lines of one directory are written once. Exit code 1
 * only means the inputs differ.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { plural, splitLines, stripAnsi } from "../src/core/text.ts";
import {
  BODY_BUDGET,
  CHANGED_HEAD,
  CHANGED_TAIL,
  compactDiff,
  countChanges,
  countsLabel,
  type DiffItem,
  GAP,
  type Hunk,
  isHunkHeader,
  readHunk,
} from "./_hunks.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";
import { type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

const PASS_FLAGS = new Set([
  "--brief",
  "--side-by-side",
  "--ed",
  "--forward-ed",
  "--rcs",
  "--help",
  "--version",
  "--paginate",
  "--context",
]);
const PASS_PREFIXES = [
  "--ifdef",
  "--line-format",
  "--old-line-format",
  "--new-line-format",
  "--unchanged-line-format",
  "--old-group-format",
  "--new-group-format",
  "--changed-group-format",
  "--unchanged-group-format",
  "--context=",
];
// Short options for formats rtok does not rewrite: brief, side by side, ed, RCS, ifdef,
// paginated, version, and the context format (kept as printed rather than half-read).
const PASS_SHORT = "qyefnDlvcC";
// Short options whose value is the rest of the bundle or the next argument.
const VALUE_SHORT = "xXIFSLWU";

/** Why `diff` arguments ask for a format rtok does not rewrite, or `null`. */
export function diffutilsPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    if (PASS_FLAGS.has(arg) || PASS_PREFIXES.some((p) => arg.startsWith(p))) {
      return `the caller chose the output format (${arg})`;
    }
    if (!/^-[^-]/.test(arg)) continue;
    for (let k = 1; k < arg.length; k++) {
      if (PASS_SHORT.includes(arg[k])) return `the caller chose the output format (${arg})`;
      if (VALUE_SHORT.includes(arg[k])) {
        if (k === arg.length - 1) i++;
        break;
      }
    }
  }
  return null;
}

/** True when the caller gave a context width (`-U 5`, `-U5`, `--unified=5`): keep it all. */
export function diffutilsContextChosen(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === "--") break;
    if (/^-[a-zA-Z]*U/.test(arg) || arg.startsWith("--unified=")) return true;
  }
  return false;
}

/**
 * The two paths of a unified file, each whole so it can be typed back: `old/lib/a.js →
 * new/lib/a.js`; one path when they are the same.
 */
export function pairLabel(oldPath: string, newPath: string): string {
  return oldPath === newPath ? oldPath : `${oldPath} → ${newPath}`;
}

function isUnifiedStart(lines: readonly string[], i: number): boolean {
  return (lines[i] ?? "").startsWith("--- ") && (lines[i + 1] ?? "").startsWith("+++ ") &&
    isHunkHeader(lines[i + 2] ?? "");
}

// `--- a/x\t2026-12-03 08:11:24.8 +0000`: the path is what precedes the timestamp's tab.
function headerPath(line: string): string {
  return line.slice(4).split("\t")[0];
}

function readUnifiedFile(
  lines: readonly string[],
  start: number,
): { item: DiffItem; next: number } {
  const oldPath = headerPath(lines[start]);
  const newPath = headerPath(lines[start + 1]);
  const body: Hunk[] = [];
  let i = start + 2;
  for (let read = readHunk(lines, i); read; read = readHunk(lines, i)) {
    body.push(read.hunk);
    i = read.next;
  }
  const { added, deleted } = countChanges(body);
  const counts = countsLabel(added, deleted);
  const title = `diff ${pairLabel(oldPath, newPath)}${counts ? ` (${counts})` : ""}`;
  return { item: { title, path: newPath, extra: [], body }, next: i };
}

const NORMAL_COMMAND = /^\d+(?:,\d+)?[acd]\d+(?:,\d+)?$/;

/** What the normal-format reader dropped. */
interface NormalTally {
  used: number;
  capped: number;
  overBudget: number;
}

// One normal-format change: its command line, `<` lines, `---`, `>` lines.
function readNormalChange(
  lines: readonly string[],
  start: number,
  tally: NormalTally,
): { out: string[]; next: number } {
  let i = start + 1;
  const take = (side: RegExp): string[] => {
    const run: string[] = [];
    for (; i < lines.length && (side.test(lines[i]) || lines[i].startsWith("\\")); i++) {
      run.push(lines[i]);
    }
    return run;
  };
  const old = take(/^<( |\t|$)/);
  const separator = lines[i] === "---" && old.length > 0 ? [lines[i++]] : [];
  const added = take(/^>( |\t|$)/);
  if (tally.used >= BODY_BUDGET) {
    tally.overBudget++;
    return { out: [lines[start]], next: i };
  }
  const body = [...capRun(old, tally), ...separator, ...capRun(added, tally)];
  tally.used += body.length;
  return { out: [lines[start], ...body], next: i };
}

function capRun(run: readonly string[], tally: NormalTally): string[] {
  if (run.length <= CHANGED_HEAD + CHANGED_TAIL) return [...run];
  const dropped = run.length - CHANGED_HEAD - CHANGED_TAIL;
  tally.capped += dropped;
  return [
    ...run.slice(0, CHANGED_HEAD),
    `${GAP} ${plural(dropped, "more line")}`,
    ...run.slice(run.length - CHANGED_TAIL),
  ];
}

// `Only in a/sub: x` then `Only in a/sub: y` → `Only in a/sub: x, y`.
function readOnlyIn(lines: readonly string[], start: number): { out: string; next: number } {
  const dir = lines[start].slice(0, lines[start].indexOf(": ") + 2);
  const names: string[] = [];
  let i = start;
  for (; i < lines.length && lines[i].startsWith(dir); i++) names.push(lines[i].slice(dir.length));
  return { out: dir + names.join(", "), next: i };
}

/** Filters diffutils output in unified or normal format; other lines are kept verbatim. */
export function filterDiffutils(raw: string, input: FilterInput): Filtered {
  const lines = splitLines(stripAnsi(raw));
  if (lines.length === 0) return { text: "", cut: [] };
  const items: DiffItem[] = [];
  const tally: NormalTally = { used: 0, capped: 0, overBudget: 0 };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("diff ") && isUnifiedStart(lines, i + 1)) {
      i++; // `diff -ru a/x b/x`: the title names both paths.
    } else if (isUnifiedStart(lines, i)) {
      const read = readUnifiedFile(lines, i);
      items.push(read.item);
      i = read.next;
    } else if (NORMAL_COMMAND.test(line)) {
      const read = readNormalChange(lines, i, tally);
      items.push(...read.out);
      i = read.next;
    } else if (/^Only in .+: /.test(line)) {
      const read = readOnlyIn(lines, i);
      items.push(read.out);
      i = read.next;
    } else {
      items.push(line);
      i++;
    }
  }
  const compacted = compactDiff(items, { keepContext: diffutilsContextChosen(input.args) });
  const cut = [...compacted.cut];
  if (tally.capped) cut.push(`${plural(tally.capped, "line")} of long changes`);
  if (tally.overBudget) {
    cut.push(`bodies of ${plural(tally.overBudget, "change")} past ${BODY_BUDGET} lines`);
  }
  return { text: compacted.lines.join("\n") + "\n", cut };
}

/** The `diff` (diffutils) filter. */
export const diffFilter: CommandFilter = {
  name: "diff",
  textClass: "diff",
  quotes: true,
  passthrough: diffutilsPassthrough,
  filter: filterDiffutils,
};

// A unified diff: `--- a` then `+++ b`, maybe under a `diff -u a b` line.
function _detect(s: Sample): ShapeMatch | null {
  const [a = "", b = "", c = ""] = s.filled;
  const unified = (x: string, y: string) => /^--- \S/.test(x) && /^\+\+\+ \S/.test(y);
  if (unified(a, b) || (/^diff (-\S+ )*\S+ \S+$/.test(a) && unified(b, c))) return shapeMatch();
  return null;
}

/** The families this module serves. diff only reads the files it compares. */
export const FAMILIES: FamilyDeclarations = {
  "diff": {
    filter: diffFilter,
    rewrite: { pipeSafe: true, readOnly: true, failsWithOutput: true },
    shapes: [{ rank: 315, detect: _detect }],
    saving: 59,
  },
};
