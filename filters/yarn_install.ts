/**
 * `yarn install` and bare `yarn` (Yarn 1): what was saved (`success Saved lockfile.`,
 * `success Saved 2 new dependencies.` with the dependencies listed on one line), every error,
 * the deprecated packages named and counted on one line, the peer-dependency warnings as one
 * line each (`peer: ui-widgets@4.0.0 has incorrect peer view-core@^17.0.0`), optional packages
 * excluded as incompatible on one line, and any other warning. Cut and named: the closing
 * timing, deprecation notes, yarn's documentation links and bug-report hint, the frames of
 * yarn's own stack traces, and the `error Found incompatible module.` that closes the
 * incompatibility errors it sums up; the version banner and the `[1/4] Resolving packages...` steps go
 * silently. Yarn prints progress on stdout and warnings and errors on stderr: the filter reads
 * either.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { Cuts, screenLines } from "./_pm.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";

const BANNER = /^yarn (?:install|add|remove|upgrade|run) v\d\S*$/;
const STEP = /^\[\d+\/\d+\] \S.*\.{3}$/;
const DONE = /^(?:✨ {2})?Done in \d+(?:\.\d+)?m?s\.$/;
const DOCS = /^info Visit https:\/\/yarnpkg\.com\/\S+ for documentation about this command\.$/;
const BUG_HINT = /^info If you think this is a bug, please open a bug report/;
const PEER = /^warning "(?:.* > )?(\S+)" has (incorrect|unmet) peer dependency "(\S+)"\.$/;
const DEPRECATED = /^warning (?:\S+ > )*(@?[^\s@]+@[^\s:]+): (.+)$/;
// Warnings in the same `name@version: message` shape that are not deprecations: about the
// project's own package.json, or an engine or platform mismatch under --ignore-engines.
const NOT_DEPRECATION =
  /^(?:No (?:license|description|repository|README)|license should be|The (?:engine|platform|CPU architecture) )/;
const PLATFORM =
  /^info (\S+): The (platform|CPU architecture|engine) "(.+)" is incompatible with this module\.$/;
const EXCLUDED =
  /^info "(\S+)" is an optional dependency and failed compatibility check\. Excluding it from installation\.$/;
const TREE_HEAD = /^info (Direct dependencies|All dependencies)$/;
const TREE_ITEM = /^[├└│]─ (\S+)$/;
// A stack frame of yarn's own bundle or of node, under an `error Error:` line.
const INTERNAL_FRAME = /^\s+at .*(?:\/yarn\/lib\/cli\.js:|\(node:|\bnode:[\w/.]+:\d+:\d+)/;

/** Why these `yarn install` arguments ask for a machine format, or `null`. */
export function yarnInstallPassthrough(args: readonly string[]): string | null {
  for (const arg of args) {
    if (arg === "--") break;
    if (arg === "--json") return `the caller chose the output format (${arg})`;
  }
  return null;
}

/** Filters what `yarn install` printed, on either stream; see the module doc. */
export function filterYarnInstall(raw: string, _input?: FilterInput): Filtered {
  const lines = screenLines(raw);
  const cuts = new Cuts();
  const out: string[] = [];
  const deprecated: string[] = [];
  let deprecatedAt = -1;
  const excluded: string[] = [];
  let excludedAt = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "" || BANNER.test(line) || STEP.test(line)) continue;
    if (DONE.test(line)) {
      cuts.add("timing");
      continue;
    }
    if (DOCS.test(line) || BUG_HINT.test(line)) {
      cuts.add("yarn hints");
      continue;
    }
    if (INTERNAL_FRAME.test(line)) {
      cuts.add("yarn stack frames");
      continue;
    }
    const peer = PEER.exec(line);
    if (peer) {
      out.push(`warning peer: ${peer[1]} has ${peer[2]} peer ${peer[3]}`);
      continue;
    }
    const dep = DEPRECATED.exec(line);
    if (dep && !NOT_DEPRECATION.test(dep[2])) {
      if (deprecatedAt < 0) deprecatedAt = out.length;
      deprecated.push(dep[1]);
      continue;
    }
    const platform = PLATFORM.exec(line);
    if (platform && EXCLUDED.exec(lines[i + 1] ?? "")?.[1] === platform[1]) {
      if (excludedAt < 0) excludedAt = out.length;
      excluded.push(`${platform[1]} (${platform[2]} "${platform[3]}")`);
      i++;
      continue;
    }
    const tree = TREE_HEAD.exec(line);
    if (tree) {
      const items: string[] = [];
      while (i + 1 < lines.length && TREE_ITEM.test(lines[i + 1])) {
        items.push(TREE_ITEM.exec(lines[++i])![1]);
      }
      out.push(`info ${tree[1]} (${items.length}): ${items.join(", ")}`);
      continue;
    }
    // Yarn's closing line after the incompatibility errors it sums up.
    if (
      line === "error Found incompatible module." &&
      out.some((l) =>
        /^error \S+: The (?:engine|platform|CPU architecture) .* is incompatible/.test(l)
      )
    ) {
      cuts.add("yarn summary");
      continue;
    }
    out.push(line);
  }
  // Insert the later line first, so the earlier index stays right.
  const inserts: [number, string][] = [];
  if (deprecated.length) {
    cuts.add("deprecation notes");
    const unique = [...new Set(deprecated)];
    inserts.push([deprecatedAt, `warning deprecated (${unique.length}): ${unique.join(", ")}`]);
  }
  if (excluded.length) {
    inserts.push([excludedAt, `info optional, incompatible, excluded: ${excluded.join(", ")}`]);
  }
  inserts.sort((a, b) => b[0] - a[0]);
  for (const [at, line] of inserts) out.splice(at, 0, line);
  return { text: out.length ? out.join("\n") + "\n" : "", cut: cuts.list() };
}

function yarnInstallFamily(name: string): CommandFilter {
  return {
    name,
    textClass: "log",
    filterStderr: true,
    passthrough: yarnInstallPassthrough,
    filter: filterYarnInstall,
  };
}

/** The `yarn install` filter. */
export const yarnInstallFilter: CommandFilter = yarnInstallFamily("yarn install");
/** The bare `yarn` filter: with no subcommand Yarn installs. */
export const yarnFilter: CommandFilter = yarnInstallFamily("yarn");

/**
 * The families this module serves. Package managers write dependencies, lockfiles, caches and environments, and run install scripts; script runners run the project's code: never rewritten as read-only.
 */
export const FAMILIES: FamilyDeclarations = {
  "yarn install": { filter: yarnInstallFilter, rewrite: NOT_READ_ONLY, saving: 49 },
  "yarn": { filter: yarnFilter, rewrite: NOT_READ_ONLY, saving: 14 },
};
