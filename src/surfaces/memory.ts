/**
 * `rtok memory [--session ID] [--format text|json]`: the digest the memory plugin kept of a
 * session at its last compaction (the newest session of this directory by default).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { findDigest } from "../plugins/memory/rows.ts";
import { boot, drain, openStore } from "./_boot.ts";
import { print } from "./_io.ts";

/** `rtok memory --help`. */
export const MEMORY_HELP: string =
  `rtok memory: what rtok kept of a session when its context was compacted

Usage: rtok memory [--session ID] [--format text|json]

At each compaction, rtok's Claude Code hook builds a digest of the session from its
transcript (the user's requests, failing tests, build errors, files changed and read,
commands, the largest outputs rtok cut) and gives it back to the agent when the session
goes on. This prints the latest one.

  --session ID   that session's digest (default: the newest session of this directory)
  --format       text (default) or json
`;

/** Runs `rtok memory`: 0 when a digest was printed. */
export async function main(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      session: { type: "string" },
      format: { type: "string", default: "text" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    await print(MEMORY_HELP);
    return 0;
  }
  if (positionals.length) {
    throw new TypeError(
      `unexpected "${positionals[0]}": rtok memory [--session ID] [--format text|json]`,
    );
  }
  const format = values.format;
  if (format !== "text" && format !== "json") {
    throw new TypeError(`--format "${format}": expected text or json`);
  }
  const b = await boot();
  const store = await openStore(b);
  if (!store) throw new Error("the store cannot be read (see the line above)");
  try {
    await drain(b, store);
    let project = Deno.cwd();
    try {
      project = Deno.realPathSync(project);
    } catch { /* keep it as given */ }
    const session = values.session;
    const row = findDigest(store.db, session !== undefined ? { session } : { project });
    if (!row) {
      throw new Error(
        session !== undefined
          ? `no digest for session "${session}": rtok keeps one when Claude Code compacts it`
          : `no digest for "${project}": rtok keeps one when a Claude Code session here is compacted`,
      );
    }
    if (format === "json") {
      await print(JSON.stringify(row, null, 2) + "\n");
    } else if (row.text) {
      await print(row.text + "\n");
    } else {
      throw new Error(
        `session "${row.session}" has no digest: ${
          row.note ?? "its transcript held nothing to keep"
        }`,
      );
    }
    return 0;
  } finally {
    store.close();
  }
}
