/**
 * The built-in command filters by family, each loaded only when its command runs: a run needs
 * one filter, and loading every module would cost each run milliseconds.
 *
 * @module
 */

import type { CommandFilter } from "../src/core/filter.ts";

/** Family name → a loader for its filter. The same set as `COMMAND_FILTERS`. */
export const FILTER_LOADERS: Readonly<Record<string, () => Promise<CommandFilter>>> = {
  "git log": async () => (await import("./git_log.ts")).gitLogFilter,
  "git status": async () => (await import("./git_status.ts")).gitStatusFilter,
  "git diff": async () => (await import("./git_diff.ts")).gitDiffFilter,
  "git show": async () => (await import("./git_show.ts")).gitShowFilter,
  "git branch": async () => (await import("./git_branch.ts")).gitBranchFilter,
  "grep": async () => (await import("./grep.ts")).grepFilter,
  "rg": async () => (await import("./grep.ts")).rgFilter,
  "ls": async () => (await import("./ls.ts")).lsFilter,
  "find": async () => (await import("./find.ts")).findFilter,
  "tree": async () => (await import("./tree.ts")).treeFilter,
  "diff": async () => (await import("./diff.ts")).diffFilter,
};
