/**
 * `rtok rewrite <command line>`: the hook's rewrite and verdict, for people and programs.
 * Exit 0: rewritten and allowed; 1: no rewrite; 2: denied by the user's rules; 3: rewritten,
 * and the host must ask. `--json` prints `{"command", "verdict", "reason"}` and exits 0.
 *
 * @module
 */

import type { Verdict } from "../rewrite/decide.ts";
import { rewriteLine } from "../rewrite/host.ts";
import { rtokEnv } from "../core/env.ts";
import { print } from "./_io.ts";

/** The exit code for each verdict. */
export const VERDICT_EXIT: Readonly<Record<Verdict, number>> = {
  allow: 0,
  none: 1,
  deny: 2,
  ask: 3,
};

const USAGE = `Usage: rtok rewrite [--json] <command line>

Prints the command line in its rtok form, as the Claude Code hook would rewrite it, judged by
your Claude Code permission rules (user, project and local settings).

Exit status: 0 rewritten and allowed, 1 no rewrite, 2 denied by your rules,
3 rewritten but Claude Code must ask. With --json: {"command", "verdict", "reason"}, exit 0.
`;

/** Runs `rtok rewrite`. */
export async function main(args: readonly string[]): Promise<number> {
  let json = false;
  const rest = [...args];
  while (rest.length && rest[0].startsWith("-")) {
    const flag = rest.shift()!;
    if (flag === "--json") json = true;
    else if (flag === "--help" || flag === "-h") {
      await print(USAGE);
      return 0;
    } else if (flag === "--") break;
    else throw new TypeError(`unknown option "${flag}"; see rtok rewrite --help`);
  }
  if (rest.length === 0) {
    throw new TypeError('expected a command line, like: rtok rewrite "git log -5"');
  }
  const line = rest.length === 1 ? rest[0] : rest.join(" ");
  const d = rewriteLine(line, rtokEnv(), Deno.cwd());
  if (json) {
    await print(
      JSON.stringify({ command: d.command, verdict: d.verdict, reason: d.reason }) + "\n",
    );
    return 0;
  }
  if (d.verdict === "allow" || d.verdict === "ask") await print(d.command + "\n");
  return VERDICT_EXIT[d.verdict];
}
