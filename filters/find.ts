/**
 * `find`: paths grouped by directory, one line per directory in order of first appearance,
 * each line headed by its directory written in full from the listing's root
 * (`./node_modules/glob/dist/: index.js, index.d.ts`), under the true totals; past 200 names,
 * directories show their counts only.
 *
 * @module
 */

import type { CommandFilter, Filtered } from "../src/core/filter.ts";
import { plural, splitLines, stripAnsi } from "../src/core/text.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";
import { type Sample, type ShapeMatch, shapeMatch, shareOf } from "../src/core/shape.ts";
import { pathLike } from "./_text.ts";
import { FIND_ACTIONS, FIND_INFO, FIND_MUTATING, readFind } from "../src/core/grammar/find.ts";

/**
 * Names shown before directories are given as counts only. Every directory is written in full,
 * so at 200 a listing of a few hundred paths spread over small directories (a copied
 * node_modules) still costs about 60 % of its raw; one of larger directories, well under half.
 */
export const FIND_NAMES_SHOWN: number = 200;
/** Directories given as counts once the names run out; the rest share one line. */
export const FIND_DIRS_COUNTED: number = 50;

// Actions that print in a format of the caller's choosing or do something besides printing,
// and options that print no listing: the output is the caller's, as asked.
function findPassthrough(args: readonly string[]): string | null {
  for (const { name } of readFind(args).primaries) {
    const effect = Object.hasOwn(FIND_ACTIONS, name) ? FIND_ACTIONS[name] : null;
    const chosen = (effect !== null && effect !== "prints" && effect !== "quits") ||
      FIND_INFO.includes(name);
    if (chosen) return `the caller chose what find prints or does (${name})`;
  }
  return null;
}

/** A directory and the names listed in it. */
interface DirGroup {
  readonly dir: string;
  readonly names: string[];
}

function parentOf(path: string): string {
  const trimmed = path.endsWith("/") ? path.slice(0, -1) : path;
  return path.slice(0, trimmed.lastIndexOf("/") + 1);
}

// A path that is the parent of other listed paths is implied by their directory's line.
function groupByDir(paths: readonly string[]): DirGroup[] {
  const groups = new Map<string, DirGroup>();
  for (const path of paths) {
    const dir = parentOf(path);
    if (!groups.has(dir)) groups.set(dir, { dir, names: [] });
  }
  for (const path of paths) {
    const implied = groups.has(path.endsWith("/") ? path : `${path}/`);
    if (!implied) groups.get(parentOf(path))?.names.push(path.slice(parentOf(path).length));
  }
  return [...groups.values()];
}

/** A name JSON-quoted when a comma list or the line's own `: ` would misread it. */
export function quoteName(name: string): string {
  const ambiguous = name.includes(", ") || name.includes(": ") || /^[\s"]|\s$/.test(name);
  return ambiguous ? JSON.stringify(name) : name;
}

// A directory's line starts with its path from the listing's root, written in full, so each
// name on it is that path plus the name: `./node_modules/glob/dist/: index.js, index.d.ts`.
function dirLine(dir: string, body: string): string {
  return dir === "" ? body : `${quoteName(dir)}: ${body}`;
}

function renderGroups(groups: readonly DirGroup[], total: number): Filtered {
  const dirs = groups.filter((group) => group.dir !== "").length;
  const lines: string[] = [];
  let budget = FIND_NAMES_SHOWN;
  let counted = 0;
  let hiddenNames = 0;
  let restDirs = 0;
  let restNames = 0;
  for (const { dir, names } of groups) {
    if (names.length === 0) continue;
    const shown = names.slice(0, budget);
    budget -= shown.length;
    hiddenNames += names.length - shown.length;
    if (shown.length > 0) {
      const more = names.length > shown.length ? `, … +${names.length - shown.length} more` : "";
      lines.push(dirLine(dir, shown.map(quoteName).join(", ") + more));
    } else if (counted < FIND_DIRS_COUNTED) {
      lines.push(dirLine(dir, plural(names.length, "entry", "entries")));
      counted++;
    } else {
      restDirs++;
      restNames += names.length;
    }
  }
  const out = [
    dirs > 0 ? `${plural(total, "path")} in ${plural(dirs, "dir")}` : plural(total, "path"),
    ...lines,
  ];
  if (restDirs > 0) {
    out.push(`… +${plural(restDirs, "more dir")} with ${plural(restNames, "entry", "entries")}`);
  }
  const cut = hiddenNames > 0 ? [`${plural(hiddenNames, "name")} (counted per dir)`] : [];
  if (restDirs > 0) cut.push(`${plural(restDirs, "dir name")}`);
  return { text: out.join("\n"), cut };
}

function filterFind(raw: string): Filtered {
  const paths = splitLines(stripAnsi(raw)).filter((line) => line !== "");
  if (paths.length === 0) return { text: "", cut: [] };
  return renderGroups(groupByDir(paths), paths.length);
}

/** `find`: paths grouped by directory under the true totals. */
export const findFilter: CommandFilter = {
  name: "find",
  textClass: "paths",
  quotes: true,
  passthrough: findPassthrough,
  filter: (raw) => filterFind(raw),
};

// Paths, one a line, most with a slash.
function _detect(s: Sample): ShapeMatch | null {
  const lines = s.filled;
  if (lines.length < 5 || shareOf(lines, pathLike) < 0.9) return null;
  return shareOf(lines, (l) => l.includes("/")) >= 0.8 ? shapeMatch() : null;
}

/** The families this module serves. Actions that run programs or write files are not reads. */
export const FAMILIES: FamilyDeclarations = {
  "find": {
    filter: findFilter,
    rewrite: {
      pipeSafe: true,
      readOnly: { unless: FIND_MUTATING },
    },
    shapes: [{ rank: 415, detect: _detect }],
    saving: 51,
  },
};
