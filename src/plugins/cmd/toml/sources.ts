/**
 * Where declarative filters come from, in order: the project's `.rtok/filters.toml` (only
 * while `rtok trust` has pinned its exact content), then `$RTOK_HOME/filters.toml`; the
 * built-ins come after them (`filters/index.ts`), then passthrough.
 *
 * A run with neither file pays one `stat` each (in the plugin, before this module loads). A
 * file that exists is parsed once per content (`cache.ts`), so later runs skip the TOML
 * parser. A file that does not parse is skipped with one warning naming file, line and
 * problem. An untrusted project file is parsed (that runs none of its patterns on output) only
 * to say, when it has a filter for the command being run, that it is not used.
 *
 * @module
 */

import { joinPath } from "../../../core/paths.ts";
import type { CommandMatch } from "../../../core/plugin.ts";
import { homeOrNull, parseCached } from "./cache.ts";
import { commandLine } from "./engine.ts";
import type { FilterDef } from "./spec.ts";
import { isTrusted } from "./trust.ts";

export { homeOrNull };

/** Where a filter file sits in the order. */
export type SourceKind = "project" | "user";

/** A filter file found on disk. */
export interface Source {
  /** Project or user. */
  readonly kind: SourceKind;
  /** Its path. */
  readonly path: string;
  /** How messages name it (`.rtok/filters.toml`, `~/.rtok/filters.toml`). */
  readonly label: string;
  /** Its text (empty when it cannot be read). */
  readonly text: string;
  /** Its filters, in file order; empty when it does not parse. */
  readonly defs: readonly FilterDef[];
  /** Why it cannot be used (file, line and problem), or `null`. */
  readonly error: string | null;
}

/** A run's answer: the filter from a file, if one matches, and the warnings to print. */
export interface SourceAnswer {
  /** The first matching filter of a usable file, or `null`. */
  readonly match: CommandMatch | null;
  /** One line each, without the `rtok: ` prefix. */
  readonly warnings: readonly string[];
}

/** The project's filter file, relative to the working directory. */
export const PROJECT_FILE = ".rtok/filters.toml";

/** The line printed when an untrusted project file has a filter for the command. */
export const UNTRUSTED_WARNING =
  `${PROJECT_FILE} is not trusted (read it, then run rtok trust); its filters are not used`;

/** The project filter file of `cwd`. */
export function projectFilterFile(cwd: string): string {
  return joinPath(cwd, PROJECT_FILE);
}

/** The user filter file in `home`. */
export function userFilterFile(home: string): string {
  return joinPath(home, "filters.toml");
}

/**
 * Reads and parses the filter file at `path`, or returns `null` when there is none. `home`
 * holds the parse cache (`null`: no cache).
 */
export async function loadSource(
  kind: SourceKind,
  path: string,
  home: string | null,
): Promise<Source | null> {
  let text: string;
  try {
    // Sync: one system call, and a run without filter files pays nothing more.
    text = Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) return null;
    const label = _label(kind, path);
    return {
      kind,
      path,
      label,
      text: "",
      defs: [],
      error: `Cannot read filters "${label}": ${(e as Error).message}`,
    };
  }
  const label = _label(kind, path);
  return { kind, path, label, text, ...await parseCached(text, label, path, home) };
}

/**
 * True when `source` may be used: the user's file, or a project file pinned (in `home`) with
 * exactly its current text.
 */
export async function trusted(source: Source, home: string | null): Promise<boolean> {
  if (source.kind === "user") return true;
  return home !== null && source.error === null && await isTrusted(home, source.path, source.text);
}

/** The project and user files that exist, in order. */
export async function loadSources(cwd: string, home: string | null): Promise<Source[]> {
  const out: Source[] = [];
  const project = await loadSource("project", projectFilterFile(cwd), home);
  if (project) out.push(project);
  if (home !== null) {
    const user = await loadSource("user", userFilterFile(home), home);
    if (user) out.push(user);
  }
  return out;
}

/**
 * The first filter of a usable filter file whose pattern accepts `argv`, run in `cwd`; with
 * the warnings a run prints (a file that does not parse, an untrusted project file that has
 * a filter for this command).
 */
export async function matchSourceFilter(
  argv: readonly string[],
  cwd: string,
  home: string | null = homeOrNull(),
): Promise<SourceAnswer> {
  const warnings: string[] = [];
  if (argv.length === 0) return { match: null, warnings };
  const line = commandLine(argv);
  for (const source of await loadSources(cwd, home)) {
    if (source.error !== null) {
      warnings.push(`${source.error}; its filters are not used`);
      continue;
    }
    // Matching the command line runs a file's command patterns, never its output patterns.
    const def = source.defs.find((d) => new RegExp(d.match).test(line));
    if (!def) continue;
    if (!await trusted(source, home)) {
      warnings.push(UNTRUSTED_WARNING);
      continue;
    }
    const { isolate } = await import("./sandbox.ts");
    return { match: { filter: isolate(def), prefix: [argv[0]], args: argv.slice(1) }, warnings };
  }
  return { match: null, warnings };
}

// `~/…` for a path under the user's home, the project file relative to the project.
function _label(kind: SourceKind, path: string): string {
  if (kind === "project") return PROJECT_FILE;
  const user = Deno.env.get("HOME");
  return user && path.startsWith(user + "/") ? "~" + path.slice(user.length) : path;
}

/** Prints each warning as one `rtok: …` line on stderr. */
export function printWarnings(warnings: readonly string[]): void {
  for (const w of warnings) {
    try {
      Deno.stderr.writeSync(new TextEncoder().encode(`rtok: ${w}\n`));
    } catch { /* stderr closed: nothing left to tell */ }
  }
}
