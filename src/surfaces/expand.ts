/**
 * `rtok expand <id>`: the exact raw bytes behind a cut output, or a part of them.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { findArchived, readArchived, recordExpand } from "../plugins/archive/archive.ts";
import { isPartial, parseRange, selectLines } from "../plugins/archive/expand.ts";
import { boot, openStore } from "./_boot.ts";
import { wholeNumber } from "./_flags.ts";
import { print, warn, writeStdout } from "./_io.ts";

/** `rtok expand --help`. */
export const EXPAND_HELP = `rtok expand: print the raw output behind an "[rtok: cut …]" line

Usage: rtok expand <id> [--grep PATTERN] [--lines A:B] [--head N] [--tail N]

  (no option)     the exact bytes the tool printed
  --lines A:B     lines A to B (1-based, inclusive; A: to the end)
  --grep PATTERN  lines matching a regular expression, each as "N:line"
  --head N        the first N lines; --tail N the last N lines
`;

/** Runs `rtok expand`; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      grep: { type: "string" },
      lines: { type: "string" },
      head: { type: "string" },
      tail: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    await print(EXPAND_HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new TypeError("expected one archive id: rtok expand <id> (see rtok expand --help)");
  }
  const sel = {
    ...(values.lines !== undefined ? { lines: parseRange(values.lines) } : {}),
    ...(values.grep !== undefined ? { grep: values.grep } : {}),
    ...(values.head !== undefined ? { head: wholeNumber("--head", values.head, 0) } : {}),
    ...(values.tail !== undefined ? { tail: wholeNumber("--tail", values.tail, 0) } : {}),
  };
  const b = await boot();
  const store = await openStore(b);
  if (!store || b.home === null) throw new Error("the archive cannot be read (see the line above)");
  try {
    const out = findArchived(store, positionals[0].toLowerCase(), b.home);
    const bytes = await readArchived(b.home, out);
    await writeStdout(isPartial(sel) ? new TextEncoder().encode(selectLines(bytes, sel)) : bytes);
    try {
      recordExpand(store, out.id, "cli");
    } catch (e) {
      warn(`the expand was not recorded: ${(e as Error).message}`);
    }
  } finally {
    store.close();
  }
  return 0;
}
