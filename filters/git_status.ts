/**
 * `git status`: the branch and tracking state on one line, short section headings, and every
 * path under its state on one line, each path written whole (`modified: src/a.ts, src/b.ts`).
 * git's `(use "git …")` hints and blank lines go; any line rtok does not know (a rebase or
 * merge in progress, `nothing to commit`) stays verbatim. Nothing is dropped, so `cut` is empty.
 *
 * @module
 */

import type { CommandFilter, Filtered } from "../src/core/filter.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import type { FamilyDeclarations } from "../src/core/family.ts";
import { GIT_READS } from "./_git.ts";
import { type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

const FORMAT_FLAGS = new Set(["-z", "--null", "-v", "-vv", "--verbose", "--porcelain"]);

/** Why `git status` arguments ask for an output rtok must not rewrite, or `null`. */
export function statusPassthrough(args: readonly string[]): string | null {
  for (const arg of args) {
    if (arg === "--") break;
    // Short options bundle (`-sz`), so a `z` or `v` anywhere in one counts.
    const bundled = /^-[a-zA-Z]*[zv]/.test(arg);
    if (FORMAT_FLAGS.has(arg) || arg.startsWith("--porcelain=") || bundled) {
      return `the caller chose the output format (${arg})`;
    }
  }
  return null;
}

const HEADINGS: Readonly<Record<string, string>> = {
  "Changes to be committed:": "staged",
  "Changes not staged for commit:": "unstaged",
  "Untracked files:": "untracked",
  "Ignored files:": "ignored",
  "Unmerged paths:": "unmerged",
};
// Sections whose entries are bare paths, without a `state:` label.
const BARE_SECTIONS = new Set(["untracked", "ignored"]);
const STATES =
  /^(new file|modified|deleted|renamed|copied|typechange|unknown|both modified|both added|both deleted|added by us|added by them|deleted by us|deleted by them):\s+(.+)$/;
const HINT = /^ {2}\(.*\)$/;
const TRAILING_HINT = / \(use "git [^)]*\)$/;
const SHORT_ENTRY = /^(?! {2})([ MTADRCU?!]{2}) (.+)$/;

/** Paths under one label (a state, or an `XY` code), in order of first appearance. */
type Groups = Map<string, string[]>;

function addPath(groups: Groups, label: string, path: string): void {
  const paths = groups.get(label);
  if (paths) paths.push(path);
  else groups.set(label, [path]);
}

/** `Your branch …` lines as a suffix for the branch line, or `null` when not recognised. */
function trackingSuffix(
  line: string,
  next = "",
): { text: string; lines: number } | null {
  let m = /^Your branch is up to date with '(.+)'\.$/.exec(line);
  if (m) return { text: `, up to date with ${m[1]}`, lines: 1 };
  m = /^Your branch is (ahead of|behind) '(.+)' by (\d+) commits?(, and can be fast-forwarded)?\.$/
    .exec(line);
  if (m) {
    const ff = m[4] ? ", can fast-forward" : "";
    return { text: `, ${m[1]} ${m[2]} by ${m[3]}${ff}`, lines: 1 };
  }
  m = /^Your branch and '(.+)' have diverged,$/.exec(line);
  const counts = /^and have (\d+) and (\d+) different commits each, respectively\.$/.exec(next);
  if (m && counts) {
    return { text: `, diverged from ${m[1]} (ahead ${counts[1]}, behind ${counts[2]})`, lines: 2 };
  }
  m = /^Your branch is based on '(.+)', but the upstream is gone\.$/.exec(line);
  if (m) return { text: `, upstream ${m[1]} is gone`, lines: 1 };
  return null;
}

/** One long-format section: its short heading, its paths by state, entries rtok could not read. */
interface Section {
  name: string;
  groups: Groups;
  unread: string[];
}

/** Renders git status' long and short formats compactly; see the module doc. */
export function filterStatus(raw: string): Filtered {
  const lines = splitLines(stripAnsi(raw));
  const out: string[] = [];
  const short: Groups = new Map();
  let section: Section | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (section && line.startsWith("\t")) {
      readEntry(section, line.slice(1));
      continue;
    }
    if (line === "" || HINT.test(line)) continue;
    if (section) out.push(...renderSection(section));
    section = null;
    const heading = HEADINGS[line];
    const entry = SHORT_ENTRY.exec(line);
    const last = out.length - 1;
    const tracking = out[last]?.startsWith("branch ") ? trackingSuffix(line, lines[i + 1]) : null;
    if (heading) section = { name: heading, groups: new Map(), unread: [] };
    else if (entry) addPath(short, entry[1], entry[2]);
    else if (line.startsWith("On branch ")) out.push(`branch ${line.slice("On branch ".length)}`);
    else if (tracking) {
      out[last] += tracking.text;
      i += tracking.lines - 1;
    } else out.push(line.replace(TRAILING_HINT, ""));
  }
  if (section) out.push(...renderSection(section));
  for (const [code, paths] of short) out.push(`${code} ${paths.join(", ")}`);
  return { text: out.length ? out.join("\n") + "\n" : "", cut: [] };
}

function readEntry(section: Section, entry: string): void {
  if (BARE_SECTIONS.has(section.name)) return addPath(section.groups, "", entry);
  const state = STATES.exec(entry);
  if (state) addPath(section.groups, state[1], state[2]);
  else section.unread.push(entry);
}

function renderSection(section: Section): string[] {
  if (BARE_SECTIONS.has(section.name)) {
    return [`${section.name}: ${(section.groups.get("") ?? []).join(", ")}`];
  }
  const out = [`${section.name}:`];
  for (const [state, paths] of section.groups) out.push(`  ${state}: ${paths.join(", ")}`);
  for (const entry of section.unread) out.push(`  ${entry}`);
  return out;
}

/** The `git status` filter. */
export const gitStatusFilter: CommandFilter = {
  name: "git status",
  textClass: "paths",
  quotes: true,
  passthrough: statusPassthrough,
  filter: filterStatus,
};

// The branch line git status opens with.
function _detect(s: Sample): ShapeMatch | null {
  const first = s.filled[0] ?? "";
  const branch = /^(On branch \S+$|HEAD detached (at|from) \S+$|Not currently on any branch\.$)/;
  return branch.test(first) ? shapeMatch() : null;
}

/** The families this module serves. */
export const FAMILIES: FamilyDeclarations = {
  "git status": {
    filter: gitStatusFilter,
    rewrite: GIT_READS,
    shapes: [{ rank: 320, detect: _detect }],
    saving: 49,
  },
};
