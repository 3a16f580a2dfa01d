/**
 * `pnpm install` / `pnpm i`: the package count (`Packages: +27 -1`), the direct dependencies
 * added or removed on one line per section (`dependencies: +app-server 3.1.0, …`), every
 * warning (peer issues, deprecated subdependencies, ignored build scripts; the first two in
 * fewer words, with every name and command), build-script output, and errors with their
 * `ERR_PNPM_…` code and pnpm's help lines. Cut and named: the progress counters, the
 * update-available box, the closing timing, and the notes on a lockfile that needed nothing
 * (`Lockfile is up to date, resolution step is skipped`, `✓ Lockfile passes supply-chain
 * policies`). The `+++` bar (it only draws the
 * count) and the note on how pnpm links from its store, with the store paths (configuration, the
 * same on every install), go silently. pnpm prints its report on stdout and, from pnpm 11, its
 * errors on stderr: the filter reads either.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { Cuts, screenLines } from "./_pm.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";

const PROGRESS = /^Progress: resolved \d+, reused \d+, downloaded \d+, added \d+(?:, done)?$/;
const STORE_NOTE = /^Packages are (?:hard linked|copied|cloned) from the content-addressable store/;
const STORE_PATH = /^\s+(?:Content-addressable store|Virtual store) is at:/;
const BAR = /^[+-]+$/;
const SECTION = /^(dependencies|devDependencies|optionalDependencies|peerDependencies):$/;
const ENTRY = /^([+-]) (\S+ \S+.*)$/;
// What pnpm says of a lockfile that needed nothing: it is current, and it passed its checks.
const LOCKFILE_NOTE =
  /^(?:Lockfile is up to date, resolution step is skipped|✓ Lockfile passes supply-chain policies(?: \(verified .*\))?)$/;
const DONE = /^Done in \d+(?:\.\d+)?m?s(?: using pnpm v\S+)?$/;
const BOX_TOP = /^\s*╭/;
const BOX_BOTTOM = /^\s*╰─*╯\s*$/;
const BOX_SIDE = /^\s*│(.*)│\s*$/;

/** Why these `pnpm install` arguments ask for a machine format, or `null`. */
export function pnpmInstallPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    const reporter = /^--reporter=(.+)$/.exec(arg)?.[1] ??
      (arg === "--reporter" ? args[i + 1] : undefined);
    if (reporter === "ndjson" || arg === "--json") {
      return `the caller chose the output format (${arg}${
        arg === "--reporter" ? ` ${reporter}` : ""
      })`;
    }
  }
  return null;
}

/** Filters what `pnpm install` printed, on either stream; see the module doc. */
export function filterPnpmInstall(raw: string, _input?: FilterInput): Filtered {
  const lines = screenLines(raw);
  const cuts = new Cuts();
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "" || BAR.test(line)) continue;
    if (PROGRESS.test(line)) {
      cuts.add("progress");
      continue;
    }
    // How pnpm links packages and where its store is: the same on every install.
    if (STORE_NOTE.test(line) || STORE_PATH.test(line)) continue;
    if (DONE.test(line)) {
      cuts.add("timing");
      continue;
    }
    if (LOCKFILE_NOTE.test(line)) {
      cuts.add("lockfile notes");
      continue;
    }
    if (BOX_TOP.test(line)) {
      i = box(lines, i, out, cuts);
      continue;
    }
    const section = SECTION.exec(line);
    if (section) {
      const entries: string[] = [];
      while (i + 1 < lines.length && ENTRY.test(lines[i + 1])) {
        entries.push(lines[++i].replace(ENTRY, "$1$2"));
      }
      out.push(entries.length ? `${section[1]}: ${entries.join(", ")}` : line);
      continue;
    }
    // pnpm 11+ errors: `Error: ERR_PNPM_X` then `× what`, `╰─▶ why`, indented detail, `help:`.
    const pnpmError = /^Error: (ERR_PNPM_\S+)$/.exec(line);
    if (pnpmError) {
      out.push(`Error: ${pnpmError[1]}`);
      while (i + 1 < lines.length && (lines[i + 1] === "" || /^\s/.test(lines[i + 1]))) {
        const detail = lines[++i].trim();
        if (detail) out.push(`  ${detail}`);
      }
      continue;
    }
    out.push(shortWarning(line.replace(/^ (WARN|ERR_PNPM_\S+|ERROR) {2}/, "$1 ")));
  }
  return { text: out.length ? out.join("\n") + "\n" : "", cut: cuts.list() };
}

// pnpm's warnings in fewer words, every name and command kept.
const PEER_ISSUES =
  /^(\[WARN\]|WARN) Issues with peer dependencies found\. Run "([^"]+)" to list them\.$/;
const DEPRECATED_SUBDEPS = /^(\[WARN\]|WARN) (\d+) deprecated subdependenc(?:y|ies) found: (.+)$/;

function shortWarning(line: string): string {
  let m = PEER_ISSUES.exec(line);
  if (m) return `${m[1]} Issues with peer dependencies found (list: ${m[2]})`;
  m = DEPRECATED_SUBDEPS.exec(line);
  if (m) return `${m[1]} deprecated subdependencies (${m[2]}): ${m[3]}`;
  return line;
}

// A box pnpm draws around a notice: the update notice goes, any other box keeps its text.
function box(lines: readonly string[], i: number, out: string[], cuts: Cuts): number {
  const inner: string[] = [];
  let j = i + 1;
  for (; j < lines.length && !BOX_BOTTOM.test(lines[j]); j++) {
    const side = BOX_SIDE.exec(lines[j]);
    if (side && side[1].trim()) inner.push(side[1].trim());
    else if (!side) break;
  }
  if (j < lines.length && !BOX_BOTTOM.test(lines[j])) {
    // Not a box after all: keep the lines as they were.
    out.push(lines[i]);
    return i;
  }
  if (inner.some((text) => /Update available!/.test(text))) cuts.add("update notice");
  else out.push(...inner);
  return j;
}

function pnpmInstallFamily(name: string): CommandFilter {
  return {
    name,
    textClass: "log",
    filterStderr: true,
    passthrough: pnpmInstallPassthrough,
    filter: filterPnpmInstall,
  };
}

/** The `pnpm install` filter. */
export const pnpmInstallFilter: CommandFilter = pnpmInstallFamily("pnpm install");
/** The `pnpm i` filter (`pnpm install` by its alias). */
export const pnpmIFilter: CommandFilter = pnpmInstallFamily("pnpm i");

/**
 * The families this module serves. Package managers write dependencies, lockfiles, caches and environments, and run install scripts; script runners run the project's code: never rewritten as read-only.
 */
export const FAMILIES: FamilyDeclarations = {
  "pnpm install": { filter: pnpmInstallFilter, rewrite: NOT_READ_ONLY, saving: 48 },
  "pnpm i": { filter: pnpmIFilter, rewrite: NOT_READ_ONLY, saving: 49 },
};
