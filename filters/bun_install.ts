/**
 * `bun install` / `bun i`: the packages added and removed on one line (`+ app-server@3.1.0,
 * fast-hash@2.0.0, - left-pad@1.3.0`), the count (`27 packages installed`), blocked lifecycle
 * scripts, `Saved lockfile`, and every warning and error. Cut and named: timings. The version banner and the
 * `Resolving dependencies` / `Resolved, downloaded and extracted [n]` progress lines go silently.
 * bun prints its summary on stdout and its progress, warnings and errors on stderr: the filter
 * reads either.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { Cuts, screenLines, withoutTiming } from "./_pm.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";

const BANNER = /^bun (?:install|add|remove|update|pm) v\d\S*(?: \([0-9a-f]+\))?$/;
const PROGRESS = /^(?:Resolving(?: dependencies)?|Resolved, downloaded and extracted \[\d+\])$/;
const CHANGE = /^([+-]) (\S+@\S+.*)$/;
const TIMED = / \[\d+(?:\.\d+)?m?s\]$/;

/** Filters what `bun install` printed, on either stream; see the module doc. */
export function filterBunInstall(raw: string, _input?: FilterInput): Filtered {
  const lines = screenLines(raw);
  const cuts = new Cuts();
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trimEnd();
    if (line.trim() === "" || BANNER.test(line) || PROGRESS.test(line)) continue;
    if (CHANGE.test(line)) {
      const changes = [line];
      while (i + 1 < lines.length && CHANGE.test(lines[i + 1])) changes.push(lines[++i].trimEnd());
      out.push(signOnce(changes));
      continue;
    }
    if (TIMED.test(line)) {
      const { text } = withoutTiming(line);
      cuts.add("timing");
      out.push(text);
      continue;
    }
    out.push(line);
  }
  return { text: out.length ? out.join("\n") + "\n" : "", cut: cuts.list() };
}

// `+ a@1`, `+ b@2`, `- c@3` as `+ a@1, b@2, - c@3`: the sign once for each run of it.
function signOnce(changes: readonly string[]): string {
  return changes.map((change, i) =>
    i > 0 && change[0] === changes[i - 1][0] ? change.slice(2) : change
  ).join(", ");
}

function bunInstallFamily(name: string): CommandFilter {
  return {
    name,
    textClass: "log",
    filterStderr: true,
    filter: filterBunInstall,
  };
}

/** The `bun install` filter. */
export const bunInstallFilter: CommandFilter = bunInstallFamily("bun install");
/** The `bun i` filter (`bun install` by its alias). */
export const bunIFilter: CommandFilter = bunInstallFamily("bun i");

/**
 * The families this module serves. Package managers write dependencies, lockfiles, caches and environments, and run install scripts; script runners run the project's code: never rewritten as read-only.
 */
export const FAMILIES: FamilyDeclarations = {
  "bun install": { filter: bunInstallFilter, rewrite: NOT_READ_ONLY, saving: 1 },
  "bun i": { filter: bunIFilter, rewrite: NOT_READ_ONLY, saving: null },
};
