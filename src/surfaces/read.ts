/**
 * `rtok read FILE [--outline | --lines A:B]`: a file read the way rtok compresses a host's
 * whole-file Read, for hosts and people without a PostToolUse hook.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { parseRange } from "../plugins/archive/expand.ts";
import { boot } from "./_boot.ts";
import { viewForAgent } from "./_file_view.ts";
import { print, writeStdout } from "./_io.ts";

/** `rtok read --help`. */
export const READ_HELP = `rtok read: a file as an agent should first see it

Usage: rtok read FILE [--outline | --lines A:B]

  (no option)   a file over 250 lines or 12,000 chars ([plugins.posttool] read_lines,
                read_chars): its first lines as they are, then for code every class,
                function and method with its line range, for JSON its structure, for a
                log its levels with every WARN and ERROR line; the file is archived and
                the last line names it (rtok expand <id>). A shorter file: as it is.
  --outline     that view whatever the file's length
  --lines A:B   lines A to B exactly (1-based, inclusive; A: to the end), each as N<TAB>line
`;

/** Runs `rtok read`; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      outline: { type: "boolean" },
      lines: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    await print(READ_HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new TypeError("expected one file: rtok read FILE (see rtok read --help)");
  }
  if (values.outline && values.lines !== undefined) {
    throw new TypeError("--outline and --lines ask for different things: give one");
  }
  const opts = {
    ...(values.outline ? { outline: true } : {}),
    ...(values.lines !== undefined ? { lines: parseRange(values.lines) } : {}),
  };
  const file = positionals[0];
  const command = ["read", ...args].join(" ");
  const answer = await viewForAgent(await boot(), file, opts, {
    surface: "cli",
    family: "read",
    command,
  });
  await writeStdout(new TextEncoder().encode(answer.text));
  return 0;
}
