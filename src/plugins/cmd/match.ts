/**
 * Which command filter an argv selects: the tool by its name (a path like `/usr/bin/git`
 * counts as `git`), and for git the subcommand after git's own global options.
 *
 * @module
 */

import type { CommandFilter } from "../../core/filter.ts";
import type { CommandMatch } from "../../core/plugin.ts";

// git's global options that take the next argument as their value.
const GIT_VALUE_OPTIONS = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--config-env",
  "--exec-path",
  "--list-cmds",
]);

/** The tool's name: the last path segment of `argv[0]`. */
export function toolName(arg0: string): string {
  const slash = arg0.lastIndexOf("/");
  return slash < 0 ? arg0 : arg0.slice(slash + 1);
}

/** The index of git's subcommand in `args` (argv without `git`), or -1 when there is none. */
export function gitSubcommandIndex(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("-")) return i;
    if (GIT_VALUE_OPTIONS.has(arg)) i++;
  }
  return -1;
}

/**
 * The family an argv belongs to for the ledger: `git <subcommand>` for git, else the tool's
 * name.
 */
export function familyOf(argv: readonly string[]): string {
  const tool = toolName(argv[0] ?? "");
  if (tool !== "git") return tool;
  const i = gitSubcommandIndex(argv.slice(1));
  return i < 0 ? "git" : `git ${argv[i + 1]}`;
}

/** `argv` split into what selects the filter (`git -C x log`) and what the filter sees. */
export function splitArgv(argv: readonly string[]): { prefix: string[]; args: string[] } {
  const split = toolName(argv[0] ?? "") === "git" ? gitSubcommandIndex(argv.slice(1)) + 2 : 1;
  return { prefix: argv.slice(0, split), args: argv.slice(split) };
}

/** The filter among `filters` for `argv`, with the argv split around it; `null` when none. */
export function matchCommand(
  argv: readonly string[],
  filters: readonly CommandFilter[],
): CommandMatch | null {
  if (argv.length === 0) return null;
  const family = familyOf(argv);
  const filter = filters.find((f) => f.name === family);
  return filter ? { filter, ...splitArgv(argv) } : null;
}
