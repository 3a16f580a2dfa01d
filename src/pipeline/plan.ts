/**
 * The first stage of the run pipeline: what a command run will do, decided before the tool
 * starts: a whole-file `cat` (read as a host's Read is), or the tool with its filter and
 * stage-1 form, or a reason its output passes through (no filter, a format the caller chose,
 * served raw in this project). `line.ts` decides the same for a command line.
 *
 * @module
 */

import type { CommandFilter } from "../core/filter.ts";
import type { Registry } from "../core/registry.ts";
import { familyOf, toolName } from "../core/command.ts";
import { joinPath } from "../core/paths.ts";
import { readServedRaw, servedRawNote, writeServedRaw } from "../plugins/measure/served_raw.ts";
import { catOperand } from "../core/shell.ts";
import { decodeText } from "../core/text.ts";

/** What a run will do, decided before the tool starts. */
export interface Plan {
  /** The filter, or `null` when the output passes through. */
  readonly filter: CommandFilter | null;
  /** The plugin whose filter it is ("cmd" for built-ins and passthroughs). */
  readonly plugin: string;
  /** What the filter receives as its args (after stage 1). */
  readonly filterArgs: readonly string[];
  /** The tool's arguments as run. */
  readonly runArgs: readonly string[];
  /** True when stage 1 changed the arguments. */
  readonly shaped: boolean;
  /** Why the output passes through, when it does. */
  readonly passthrough: string | null;
  /** The ledger family. */
  readonly family: string;
}

/** What planning a run reads: the registry's filters, and home for the served-raw state. */
export interface PlanEnv {
  /** The enabled plugins. */
  readonly registry: Registry;
  /** `$RTOK_HOME`, or `null` when it is not known (then nothing is served raw). */
  readonly home: string | null;
}

/**
 * What a run of `argv` in `cwd` (the process's own when `undefined`) will do: its filter, the
 * arguments stage 1 gives the tool, or why its output passes through. `tell` gets the line
 * that says, once per project, that a family is served raw.
 */
export async function planRun(
  env: PlanEnv,
  argv: readonly string[],
  cwd: string | undefined,
  tell: (line: string) => void,
): Promise<Plan> {
  const found = await env.registry.commandFilter(argv, cwd);
  const match = found?.match;
  const family = match?.filter.name ?? familyOf(argv);
  const plain = {
    filter: null,
    plugin: found?.plugin ?? "cmd",
    filterArgs: [],
    runArgs: argv.slice(1),
    shaped: false,
    family,
  };
  if (!match) return { ...plain, passthrough: "no filter" };
  const reason = match.filter.passthrough?.(match.args) ?? null;
  if (reason) {
    match.filter.release?.();
    return { ...plain, passthrough: reason };
  }
  // A family agents kept fetching again in this project goes out as the tool printed it.
  const raw = env.home ? servedRawRate(env.home, cwd ?? Deno.cwd(), family, tell) : null;
  if (raw !== null) {
    match.filter.release?.();
    return { ...plain, passthrough: `served raw in this project (re-fetch rate ${raw} %)` };
  }
  const shaped = match.filter.shape?.(match.args) ?? null;
  const filterArgs = shaped ?? match.args;
  return {
    filter: match.filter,
    plugin: found!.plugin,
    filterArgs,
    runArgs: [...match.prefix.slice(1), ...filterArgs],
    shaped: shaped !== null,
    passthrough: null,
    family,
  };
}

/**
 * The re-fetch rate `family` is served raw at in `project`, or `null` when it is filtered.
 * With `tell`, the first run that serves it raw says so, once (the state file remembers).
 */
export function servedRawRate(
  home: string,
  project: string,
  family: string,
  tell?: (line: string) => void,
): number | null {
  const state = readServedRaw(home);
  const r = state.projects[project]?.[family];
  if (!r) return null;
  if (tell && !r.told) {
    tell(servedRawNote(family, r));
    try {
      writeServedRaw(home, {
        ...state,
        projects: {
          ...state.projects,
          [project]: { ...state.projects[project], [family]: { ...r, told: true } },
        },
      });
    } catch { /* told again next time */ }
  }
  return r.ratePct;
}

/**
 * True for `cat FILE` of one operand, no option, a regular UTF-8 file of at most `max` bytes,
 * which rtok reads as a host's whole-file Read (anything else runs cat itself).
 */
export function catOfOneFile(argv: readonly string[], max: number): boolean {
  if (argv.length !== 2 || toolName(argv[0]) !== "cat" || argv[1].startsWith("-")) return false;
  try {
    const info = Deno.statSync(argv[1]);
    if (!info.isFile || info.size > max) return false;
    return decodeText(Deno.readFileSync(argv[1])) !== null;
  } catch {
    return false;
  }
}

/** The file a `cat FILE` line of one operand names, resolved against `cwd`; else `null`. */
export function catPath(line: string, cwd: string): { operand: string; path: string } | null {
  const operand = catOperand(line);
  if (operand === null) return null;
  return { operand, path: operand.startsWith("/") ? operand : joinPath(cwd, operand) };
}
