/**
 * Which command filter an argv selects, as agents actually type commands:
 *
 * - a tool by its name: `/usr/bin/git` and `./node_modules/.bin/tsc` count as `git` and `tsc`;
 *   the build wrappers `./gradlew` and `./mvnw` as `gradle` and `mvn`;
 * - through a runner: `python -m pytest`, `npx jest`, `pnpm exec vitest`, `bunx tsc`,
 *   `uv run pytest`, `bundle exec rspec` select the tool they run;
 * - by subcommand for the tools whose subcommands differ in output (`git log`, `cargo test`,
 *   `docker ps`, `npm install`), after the tool's own global options;
 * - `node --test` apart from `node`.
 *
 * @module
 */

import type { CommandFilter } from "./filter.ts";
import type { CommandMatch } from "./plugin.ts";
import { SUBCOMMAND_TOOLS, subcommandIndex } from "./grammar/subcommands.ts";
import { GIT_GLOBAL_VALUED } from "./grammar/git.ts";

// Build wrappers a project checks in, named by path (`./gradlew build`): each runs its tool, so
// its output is that tool's and its family is the tool's.
const WRAPPERS: Readonly<Record<string, string>> = { gradlew: "gradle", mvnw: "mvn" };

// `npx` and `bunx` options that take a value.
const RUNNER_VALUE_OPTIONS = new Set(["-p", "--package", "-c", "--call"]);

/** The tool's name: the last path segment of `argv[0]`. */
export function toolName(arg0: string): string {
  const slash = arg0.lastIndexOf("/");
  return slash < 0 ? arg0 : arg0.slice(slash + 1);
}

/** The index of git's subcommand in `args` (argv without `git`), or -1 when there is none. */
export function gitSubcommandIndex(args: readonly string[]): number {
  return subcommandIndex(args, GIT_GLOBAL_VALUED);
}

/**
 * Where the tool that produces the output starts in `argv`: 0, or past a runner
 * (`python -m`, `npx`, `bunx`, `npm|pnpm|yarn exec`, `pnpm|yarn dlx`, `bun x`, `uv run`,
 * `poetry run`, `bundle exec`).
 */
export function toolStart(argv: readonly string[]): number {
  const first = toolName(argv[0] ?? "");
  if (/^python(\d+(\.\d+)?)?$/.test(first)) return argv[1] === "-m" && argv[2] ? 2 : 0;
  if (first === "npx" || first === "bunx") return _pastOptions(argv, 1);
  const second = argv[1];
  if (
    ((first === "npm" || first === "pnpm" || first === "yarn") && second === "exec") ||
    ((first === "pnpm" || first === "yarn") && second === "dlx") ||
    (first === "bun" && second === "x") ||
    ((first === "uv" || first === "poetry") && second === "run") ||
    (first === "bundle" && second === "exec")
  ) {
    return _pastOptions(argv, 2);
  }
  return 0;
}

function _pastOptions(argv: readonly string[], from: number): number {
  for (let i = from; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") return i + 1 < argv.length ? i + 1 : 0;
    if (!arg.startsWith("-")) return i;
    if (RUNNER_VALUE_OPTIONS.has(arg)) i++;
  }
  return 0;
}

// How many words from the tool on select the family: 1, or through the subcommand.
function _selecting(tool: readonly string[]): number {
  const name = toolName(tool[0] ?? "");
  const options = Object.hasOwn(SUBCOMMAND_TOOLS, name) ? SUBCOMMAND_TOOLS[name] : null;
  if (!options) return 1;
  const i = subcommandIndex(tool.slice(1), options);
  return i < 0 ? 1 : i + 2;
}

/**
 * The family an argv belongs to for filters and the ledger: the tool's name, with its
 * subcommand for the tools that have them (`git log`, `cargo test`), `node --test` for
 * Node's test runner.
 */
export function familyOf(argv: readonly string[]): string {
  const tool = argv.slice(toolStart(argv));
  const name = toolName(tool[0] ?? "");
  if (name === "node" && tool.includes("--test")) return "node --test";
  const n = _selecting(tool);
  if (n > 1) return `${name} ${tool[n - 1]}`;
  return Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : name;
}

/** `argv` split into what selects the filter (`npx jest`, `git -C x log`) and its arguments. */
export function splitArgv(argv: readonly string[]): { prefix: string[]; args: string[] } {
  const start = toolStart(argv);
  const split = start + _selecting(argv.slice(start));
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
