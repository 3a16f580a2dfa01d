/**
 * What the git family's filters share about their commands.
 *
 * @module
 */

import type { RewriteSpec } from "../src/core/family.ts";

/**
 * The rule of git's reading commands (log, status, diff, show, branch, blame): right on a pipe's last stage,
 * and a read unless `--output` writes a file or an external diff or textconv runs a program
 * the repository's config names.
 */
export const GIT_READS: RewriteSpec = {
  pipeSafe: true,
  readOnly: { unless: ["--output", "--ext-diff", "--textconv"] },
};
