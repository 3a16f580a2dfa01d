/**
 * `tree`: one line per directory instead of box drawing, headed by the directory's path written
 * in full from the root as tree names it (`./lib/cli/: entry.js, exit-handler.js`), its
 * subdirectories marked with `/` and given their own lines below it; the first 20 children of a
 * directory that has more than 30, and the deepest levels folded when the listing passes about
 * 400 entries. The report line, bracketed columns and `name -> target` links are kept.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { plural, splitLines, stripAnsi } from "../src/core/text.ts";
import { lastFlag, scanOptions } from "./_args.ts";
import { TREE, TREE_FORMAT, TREE_WRITES_SHORT } from "../src/core/grammar/tree.ts";
import { extensionSummary } from "./ls.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";
import { type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";
import { quoteName } from "./find.ts";

/** A directory with more children than this shows only the first `TREE_DIR_SHOWN`. */
export const TREE_DIR_LIMIT: number = 30;
/** Children shown of a directory past `TREE_DIR_LIMIT`. */
export const TREE_DIR_SHOWN: number = 20;
/**
 * Entries the listing may show before its deepest levels are folded; a listing without
 * indentation (`-i`) is cut to this many lines.
 */
export const TREE_ENTRIES: number = 400;

function treePassthrough(args: readonly string[]): string | null {
  const chosen = lastFlag(scanOptions(args, TREE), TREE_FORMAT);
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
    // A line of box drawing that is no entry (`│   stray`) would read as a root: kept as is.
    if (REPORT.test(line) || (m && !parent) || (!m && /^[│|][\u00a0 ]/.test(line))) {
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

function foldText(hidden: readonly TreeNode[], dirsOnly: boolean): string {
  const isDir = (node: TreeNode) => dirsOnly || node.children.length > 0 || node.text.endsWith("/");
  const dirs = hidden.filter(isDir);
  const others = hidden.filter((node) => !isDir(node)).map((node) => bareName(node.text));
  const kinds = [dirs.length ? plural(dirs.length, "dir") : "", extensionSummary(others)]
    .filter((part) => part !== "").join(", ");
  const nested = hidden.reduce((sum, node) => sum + descendants(node), 0);
  const inside = nested ? ` (+${nested} inside)` : "";
  return `… +${hidden.length} more${kinds ? `: ${kinds}` : ""}${inside}`;
}

/** How one rendering goes: the depth past which children fold, and what it found. */
interface Render {
  readonly maxDepth: number;
  readonly dirsOnly: boolean;
  /** `-f`: tree prints each entry as its full path already. */
  readonly fullNames: boolean;
  readonly out: string[];
  readonly folds: Folds;
  /** Entries and verbatim lines shown. */
  shown: number;
}

// A child's path: its parent's joined with its name, or the name itself under `-f`.
function childPath(parent: string, child: TreeNode, render: Render): string {
  const name = bareName(child.text);
  if (render.fullNames) return name;
  return parent.endsWith("/") ? parent + name : `${parent}/${name}`;
}

// An entry as listed on its directory's line: as printed, a directory marked with `/`.
function itemText(node: TreeNode, dirsOnly: boolean): string {
  const marked = (dirsOnly || node.children.length > 0) && !/\/$| -> /.test(node.text);
  return quoteName(marked ? `${node.text}/` : node.text);
}

// A directory's line: its path in full, then the children shown and what the rest are; then the
// lines of the directories shown below it, so no line needs another to be read.
function renderDir(node: TreeNode, path: string, render: Render): void {
  const deep = node.depth >= render.maxDepth;
  const shown = deep
    ? []
    : node.children.length > TREE_DIR_LIMIT
    ? node.children.slice(0, TREE_DIR_SHOWN)
    : node.children;
  const hidden = node.children.slice(shown.length);
  const items = shown.map((child) => itemText(child, render.dirsOnly));
  if (hidden.length > 0) {
    items.push(foldText(hidden, render.dirsOnly));
    const count = hidden.length + hidden.reduce((sum, child) => sum + descendants(child), 0);
    if (deep) render.folds.deep += count;
    else render.folds.wide += count;
  }
  const dir = path.endsWith("/") ? path : `${path}/`;
  render.out.push(`${quoteName(dir)}: ${items.join(", ")}`);
  render.shown += shown.length;
  for (const child of shown) {
    if (child.children.length > 0) renderDir(child, childPath(path, child, render), render);
  }
}

function renderAt(
  items: readonly TreeItem[],
  maxDepth: number,
  options: { dirsOnly: boolean; fullNames: boolean },
): Render {
  const render: Render = { maxDepth, ...options, out: [], folds: { wide: 0, deep: 0 }, shown: 0 };
  for (const item of items) {
    render.shown++;
    if ("line" in item) render.out.push(item.line);
    else {
      const { node } = item;
      const name = bareName(node.text);
      // A root's own line stays when it holds more than its name (`[drwxr-xr-x 4.0K]  src`).
      if (node.children.length === 0 || node.text !== name) render.out.push(node.text);
      if (node.children.length > 0) renderDir(node, name, render);
    }
  }
  return render;
}

function deepest(node: TreeNode): number {
  return node.children.reduce((max, child) => Math.max(max, deepest(child)), node.depth);
}

// Folds the deepest levels first: the top of the tree says more than one long branch of it.
function renderTree(
  items: readonly TreeItem[],
  options: { dirsOnly: boolean; fullNames: boolean },
): Filtered {
  const depth = items.reduce(
    (max, item) => "node" in item ? Math.max(max, deepest(item.node)) : max,
    0,
  );
  let level = depth;
  let rendered = renderAt(items, level, options);
  while (rendered.shown > TREE_ENTRIES && level > 1) {
    rendered = renderAt(items, --level, options);
  }
  const { out, folds } = rendered;
  const cut: string[] = [];
  if (folds.wide) {
    cut.push(`${plural(folds.wide, "entry", "entries")} past ${TREE_DIR_SHOWN} per dir`);
  }
  if (folds.deep) cut.push(`${plural(folds.deep, "entry", "entries")} below level ${level}`);
  if (out.length <= TREE_ENTRIES) return { text: out.join("\n"), cut };
  // Only a listing without indentation (`-i`, many roots) gets here; its report line stays.
  const report = REPORT.test(out[out.length - 1]) ? out.slice(-1) : [];
  const kept = out.slice(0, TREE_ENTRIES - report.length);
  const extra = out.length - report.length - kept.length;
  cut.push(plural(extra, "line"));
  return { text: [...kept, `… +${plural(extra, "more line")}`, ...report].join("\n"), cut };
}

function filterTree(raw: string, input: FilterInput): Filtered {
  const lines = splitLines(stripAnsi(raw));
  if (lines.length === 0) return { text: "", cut: [] };
  const scanned = scanOptions(input.args, TREE);
  const dirsOnly = lastFlag(scanned, ["-d"]) !== undefined;
  const fullNames = lastFlag(scanned, ["-f"]) !== undefined;
  return renderTree(parseTree(lines), { dirsOnly, fullNames });
}

/** `tree`: one line per directory, written in full; wide directories and deep levels folded. */
export const treeFilter: CommandFilter = {
  name: "tree",
  textClass: "paths",
  quotes: true,
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
    rewrite: { pipeSafe: true, readOnly: { unless: [], unlessShort: TREE_WRITES_SHORT } },
    shapes: [{ rank: 400, detect: _detect }],
    saving: 73,
  },
};
