/**
 * How a command line given to rtok runs (MCP's `rtok_run`, a host's shell call): a whole-file
 * `cat`, one plain command run as the tool itself, or the shell. Apart from `plan.ts` so a
 * command run (`rtok <tool>`) does not load the shell grammar.
 *
 * @module
 */

import { planRewrite } from "../rewrite/plan.ts";
import { catPath } from "./plan.ts";

/**
 * A line that is one plain command of a filtered family, as its family and argv: nothing the
 * shell would do (no pipe, chain, redirect, prefix, expansion) is lost by running it without
 * one. `null` for any other line.
 */
export function plainCommand(line: string): { family: string; argv: string[] } | null {
  const plan = planRewrite(line);
  if (plan.kind !== "read" || plan.background || plan.commands.length !== 1) return null;
  const c = plan.commands[0];
  if (c.family === null || c.prefixed || c.redirected || c.dynamic) return null;
  return { family: c.family, argv: [...c.argv] };
}

/** How a command line given to rtok runs. */
export type LinePlan =
  /** `cat FILE`: the file, read as a host's whole-file Read is. */
  | { readonly kind: "cat"; readonly operand: string; readonly path: string }
  /** One plain command: the tool itself, filtered in this process. */
  | { readonly kind: "plain"; readonly argv: readonly string[] }
  /** Anything else: the shell, its filtered commands rewritten to their rtok form. */
  | { readonly kind: "shell" };

/** How `line`, run in `cwd`, runs: a whole-file `cat`, one plain command, or the shell. */
export function planLine(line: string, cwd: string): LinePlan {
  const cat = catPath(line, cwd);
  if (cat !== null) return { kind: "cat", ...cat };
  const plain = plainCommand(line);
  return plain === null ? { kind: "shell" } : { kind: "plain", argv: plain.argv };
}
