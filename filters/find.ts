/**
 * `find`: paths grouped by directory, one line per directory in order of first appearance,
 * under the true totals; past 200 names, directories show their counts only.
 *
 * @module
 */

import type { CommandFilter, Filtered } from "../src/core/filter.ts";
import { plural, splitLines, stripAnsi } from "../src/core/text.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";
import { type Sample, type ShapeMatch, shapeMatch, shareOf } from "../src/core/shape.ts";
import { pathLike } from "./_text.ts";

/**
 * Names shown before directories are given as counts only: at 200, a listing of a few hundred
 * paths spread over small directories (a copied node_modules) still costs under half its raw.
 */
export const FIND_NAMES_SHOWN: number = 200;
/** Directories given as counts once the names run out; the rest share one line. */
export const FIND_DIRS_COUNTED: number = 50;

// Actions that print in a format of the caller's choosing, or do something besides printing.
const ACTIONS = new Set([
  "-print0",
  "-printf",
  "-fprint",
  "-fprint0",
  "-fprintf",
  "-ls",
  "-fls",
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-delete",
  "-help",
  "--help",
  "-version",
  "--version",
]);

// Tests and options whose next argument is a value (`-name -ls` looks for files named `-ls`).
const VALUED = new Set([
  "-D",
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-regextype",
  "-lname",
  "-ilname",
  "-type",
  "-xtype",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-perm",
  "-size",
  "-links",
  "-inum",
  "-samefile",
  "-newer",
  "-anewer",
  "-cnewer",
  "-mtime",
  "-atime",
  "-ctime",
  "-mmin",
  "-amin",
  "-cmin",
  "-used",
  "-maxdepth",
  "-mindepth",
  "-fstype",
  "-context",
  "-files0-from",
]);

function findPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (ACTIONS.has(arg)) return `the caller chose what find prints or does (${arg})`;
    if (VALUED.has(arg) || /^-newer[aBcmt][aBcmt]$/.test(arg)) i++;
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

// JSON-quoted when a comma list or the line's own `: ` would misread the name.
function quoteName(name: string): string {
  const ambiguous = name.includes(", ") || name.includes(": ") || /^[\s"]|\s$/.test(name);
  return ambiguous ? JSON.stringify(name) : name;
}

/** One directory's line before sections are factored out: its path and what follows `: `. */
interface DirLine {
  readonly dir: string;
  readonly body: string;
}

// The first two levels of a path (`./node_modules/`, `src/core/`, `/usr/lib/`), or `null`.
function sectionOf(dir: string): string | null {
  const m = /^\/?[^/]+\/[^/]+\//.exec(dir);
  return m ? m[0] : null;
}

// Consecutive lines under one section are written relative to it, indented under a header:
// `./node_modules/` then `  glob/dist/: index.js`. A lone line keeps its full path, and the
// section's own line, when it has one, is the header.
function factorSections(lines: readonly DirLine[]): string[] {
  const out: string[] = [];
  let open: string | null = null;
  lines.forEach(({ dir, body }, i) => {
    const section = sectionOf(dir);
    const relative = () => `  ${quoteName(dir.slice(section?.length ?? 0))}: ${body}`;
    if (section !== null && section !== dir && section === open) {
      out.push(relative());
      return;
    }
    const nextShares = section !== null && sectionOf(lines[i + 1]?.dir ?? "") === section;
    if (section !== null && section !== dir && nextShares) {
      out.push(section, relative());
      open = section;
      return;
    }
    out.push(dir === "" ? body : `${quoteName(dir)}: ${body}`);
    open = dir === section ? section : null;
  });
  return out;
}

function renderGroups(groups: readonly DirGroup[], total: number): Filtered {
  const dirs = groups.filter((group) => group.dir !== "").length;
  const lines: DirLine[] = [];
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
      lines.push({ dir, body: shown.map(quoteName).join(", ") + more });
    } else if (counted < FIND_DIRS_COUNTED) {
      lines.push({ dir, body: plural(names.length, "entry", "entries") });
      counted++;
    } else {
      restDirs++;
      restNames += names.length;
    }
  }
  const out = [
    dirs > 0 ? `${plural(total, "path")} in ${plural(dirs, "dir")}` : plural(total, "path"),
    ...factorSections(lines),
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
      readOnly: {
        unless: [
          "-exec",
          "-execdir",
          "-ok",
          "-okdir",
          "-delete",
          "-fprint",
          "-fprint0",
          "-fprintf",
          "-fls",
        ],
      },
    },
    shapes: [{ rank: 415, detect: _detect }],
    saving: 62,
  },
};
