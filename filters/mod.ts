/**
 * The built-in command filters, one per command family.
 *
 * @module
 */

import type { CommandFilter } from "../src/core/filter.ts";
import { diffFilter } from "./diff.ts";
import { findFilter } from "./find.ts";
import { gitBranchFilter } from "./git_branch.ts";
import { gitDiffFilter } from "./git_diff.ts";
import { gitLogFilter } from "./git_log.ts";
import { gitShowFilter } from "./git_show.ts";
import { gitStatusFilter } from "./git_status.ts";
import { grepFilter, rgFilter } from "./grep.ts";
import { lsFilter } from "./ls.ts";
import { treeFilter } from "./tree.ts";

/** Every built-in command filter. Git filters are named `git <subcommand>`. */
export const COMMAND_FILTERS: readonly CommandFilter[] = [
  gitLogFilter,
  gitStatusFilter,
  gitDiffFilter,
  gitShowFilter,
  gitBranchFilter,
  grepFilter,
  rgFilter,
  lsFilter,
  findFilter,
  treeFilter,
  diffFilter,
];
