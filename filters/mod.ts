/**
 * The built-in command filters, one per command family.
 *
 * @module
 */

import type { CommandFilter } from "../src/core/filter.ts";
import { gitLogFilter } from "./git_log.ts";

/** Every built-in command filter. Git filters are named `git <subcommand>`. */
export const COMMAND_FILTERS: readonly CommandFilter[] = [gitLogFilter];
