/**
 * `tree`: two spaces per level instead of box drawing, the first 20 children of a directory
 * that has more than 30, and the deepest levels folded when the listing passes about 400 lines.
 * Root lines, the report line, bracketed columns and `name -> target` links are kept.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { plural, splitLines, stripAnsi } from "../src/core/text.ts";
import { lastFlag, type OptionSpec, scanOptions } from "./_args.ts";
import { extensionSummary } from "./ls.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";
import { type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

/** A directory with more children than this shows only the first `TREE_DIR_SHOWN`. */
export const TREE_DIR_LIMIT: number = 30;
/** Children shown of a directory past `TREE_DIR_LIMIT`. */
export const TREE_DIR_SHOWN: number = 20;
/** Lines the listing may take before its deepest levels are folded. */
export const TREE_LINES: number = 400;

const TREE_SPEC: OptionSpec = {
  shortValued: "LPIoHT",
  longValued: new Set([
    "charset",
    "filelimit",
    "timefmt",
    "sort",
    "gitfile",
    "infofile",
    "hintro",
    "houtro",
  ]),
};

// Machine formats, and line graphics drawn with escapes or code page 437 that are not parsed.
const PASSTHROUGH = ["-J", "-X", "-H", "-A", "-S", "--help", "--version"];

function treePassthrough(args: readonly string[]): string | null {
  const chosen = lastFlag(scanOptions(args, TREE_SPEC), PASSTHROUGH);
  return chosen ? `the caller chose the output format (${chosen.flag})` : null;
}

/** One entry of the listing and the entries below it. */
interface TreeNode {
  readonly depth: number;
  /** The line without its indentation: columns, name and link target as printed. */
  readonly text: string;
  readonly children: TreeNode[];
}

type TreeItem = { readonly node: TreeNode } | { readonly line: string };

// Continuation units (`│   `, `|   `, four spaces; tree pads with no-break spaces in UTF-8)
// then one connector (`├── `, `└── `, `|-- `, `` `-- ``).
const INDENT = /^((?:[│|\u00a0 ][\u00a0 ]{3})*)(?:[├└]──|[|`]--)[\u00a0 ]/;
const REPORT = /^\d+ director(?:y|ies)(?:, \d+ files?)?$/;

function parseTree(lines: readonly string[]): TreeItem[] {
  const items: TreeItem[] = [];
  const open: TreeNode[] = [];
  for (const line of lines) {
    if (line === "") continue;
    const m = INDENT.exec(line);
    const depth = m ? m[1].length / 4 + 1 : 0;
    const parent = open[depth - 1];
    if (REPORT.test(line) || (m && !parent)) {
      items.push({ line });
      continue;
    }
    const node: TreeNode = { depth, text: m ? line.slice(m[0].length) : line, children: [] };
    if (parent) parent.children.push(node);
    else items.push({ node });
    open.length = depth;
    open.push(node);
  }
  return items;
}

function descendants(node: TreeNode): number {
  return node.children.reduce((sum, child) => sum + 1 + descendants(child), 0);
}

// The name alone: without `[size]`-style columns in front or a link target after.
function bareName(text: string): string {
  return text.replace(/^\[[^\]]*\]\s+/, "").replace(/ -> .*$/, "");
}

/** What a fold dropped, counted for `cut`. */
interface Folds {
  wide: number;
  deep: number;
}

function foldLine(hidden: readonly TreeNode[], depth: number, dirsOnly: boolean): string {
  const isDir = (node: TreeNode) => dirsOnly || node.children.length > 0 || node.text.endsWith("/");
  const dirs = hidden.filter(isDir);
  const others = hidden.filter((node) => !isDir(node)).map((node) => bareName(node.text));
  const kinds = [dirs.length ? plural(dirs.length, "dir") : "", extensionSummary(others)]
    .filter((part) => part !== "").join(", ");
  const nested = hidden.reduce((sum, node) => sum + descendants(node), 0);
  const inside = nested ? ` (+${nested} inside)` : "";
  return `${"  ".repeat(depth)}… +${hidden.length} more${kinds ? `: ${kinds}` : ""}${inside}`;
}

function renderNode(
  node: TreeNode,
  maxDepth: number,
  dirsOnly: boolean,
  out: string[],
  folds: Folds,
): void {
  out.push("  ".repeat(node.depth) + node.text);
  if (node.children.length === 0) return;
  const deep = node.depth >= maxDepth;
  const shown = deep
    ? []
    : node.children.length > TREE_DIR_LIMIT
    ? node.children.slice(0, TREE_DIR_SHOWN)
    : node.children;
  for (const child of shown) renderNode(child, maxDepth, dirsOnly, out, folds);
  const hidden = node.children.slice(shown.length);
  if (hidden.length === 0) return;
  const count = hidden.length + hidden.reduce((sum, child) => sum + descendants(child), 0);
  if (deep) folds.deep += count;
  else folds.wide += count;
  out.push(foldLine(hidden, node.depth + 1, dirsOnly));
}

function renderAt(items: readonly TreeItem[], maxDepth: number, dirsOnly: boolean) {
  const out: string[] = [];
  const folds: Folds = { wide: 0, deep: 0 };
  for (const item of items) {
    if ("line" in item) out.push(item.line);
    else renderNode(item.node, maxDepth, dirsOnly, out, folds);
  }
  return { out, folds };
}

function deepest(node: TreeNode): number {
  return node.children.reduce((max, child) => Math.max(max, deepest(child)), node.depth);
}

// Folds the deepest levels first: the top of the tree says more than one long branch of it.
function renderTree(items: readonly TreeItem[], dirsOnly: boolean): Filtered {
  const depth = items.reduce(
    (max, item) => "node" in item ? Math.max(max, deepest(item.node)) : max,
    0,
  );
  let level = depth;
  let rendered = renderAt(items, level, dirsOnly);
  while (rendered.out.length > TREE_LINES && level > 1) {
    rendered = renderAt(items, --level, dirsOnly);
  }
  const { out, folds } = rendered;
  const cut: string[] = [];
  if (folds.wide) {
    cut.push(`${plural(folds.wide, "entry", "entries")} past ${TREE_DIR_SHOWN} per dir`);
  }
  if (folds.deep) cut.push(`${plural(folds.deep, "entry", "entries")} below level ${level}`);
  if (out.length <= TREE_LINES) return { text: out.join("\n"), cut };
  // Only a listing without indentation (`-i`, many roots) gets here; its report line stays.
  const report = REPORT.test(out[out.length - 1]) ? out.slice(-1) : [];
  const kept = out.slice(0, TREE_LINES - report.length);
  const extra = out.length - report.length - kept.length;
  cut.push(plural(extra, "line"));
  return { text: [...kept, `… +${plural(extra, "more line")}`, ...report].join("\n"), cut };
}

function filterTree(raw: string, input: FilterInput): Filtered {
  const lines = splitLines(stripAnsi(raw));
  if (lines.length === 0) return { text: "", cut: [] };
  const dirsOnly = lastFlag(scanOptions(input.args, TREE_SPEC), ["-d"]) !== undefined;
  return renderTree(parseTree(lines), dirsOnly);
}

/** `tree`: indentation by two spaces per level, wide directories and deep levels folded. */
export const treeFilter: CommandFilter = {
  name: "tree",
  textClass: "paths",
  passthrough: treePassthrough,
  filter: filterTree,
};

// Box-drawing branches, and the `N directories, M files` count at the end.
function _detect(s: Sample): ShapeMatch | null {
  if (!/^\d+ director(y|ies)(, \d+ files?)?$/.test(s.last)) return null;
  if (!s.head.some((l) => l.includes("├── ") || l.includes("└── "))) return null;
  return shapeMatch();
}

/**
 * The families this module serves. `-o` writes the listing to a file; `-R` with `-H` writes
 * an index into every directory.
 */
export const FAMILIES: FamilyDeclarations = {
  "tree": {
    filter: treeFilter,
    rewrite: { pipeSafe: true, readOnly: { unless: [], unlessShort: "oR" } },
    shapes: [{ rank: 400, detect: _detect }],
    saving: 73,
  },
};
