/**
 * `rtok search <query>`: full-text search over the archived outputs of this project (or all),
 * the same search as the MCP tool `rtok_search`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { searchArchive, searchText } from "../plugins/archive/search.ts";
import { boot, openStore } from "./_boot.ts";
import { print } from "./_io.ts";
import { wholeNumber } from "./_flags.ts";

/** `rtok search --help`. */
export const SEARCH_HELP = `rtok search: which archived output mentioned something

Usage: rtok search <query> [--limit N] [--all-projects] [--format text|json]

Searches the raw outputs rtok archived (what its filters cut) of commands run in this
directory and below, newest first: each match's id (for rtok expand), age, exit code,
command, and its first matching lines.

  <query>          words (all must appear), "an exact phrase", prefix*, a OR b, NOT b;
                   a query that is not valid in that syntax is searched as plain words
  --limit N        at most N outputs (default 10)
  --all-projects   every project's outputs, not only this directory's
  --format         text (default) or json
`;

/** Runs `rtok search`; returns 0 when something matched, 1 when nothing did. */
export async function main(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      limit: { type: "string" },
      "all-projects": { type: "boolean" },
      format: { type: "string", default: "text" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    await print(SEARCH_HELP);
    return 0;
  }
  const query = positionals.join(" ");
  if (query.trim() === "") {
    throw new TypeError("expected a query: rtok search <query> (like: rtok search parseConfig)");
  }
  const format = values.format;
  if (format !== "text" && format !== "json") {
    throw new TypeError(`--format "${format}": expected text or json`);
  }
  const limit = wholeNumber("--limit", values.limit ?? "10", 1);
  const b = await boot();
  const store = await openStore(b);
  if (!store || b.home === null) throw new Error("the archive cannot be read (see the line above)");
  try {
    const project = values["all-projects"] ? null : Deno.cwd();
    const r = await searchArchive(store, b.home, query, { project, limit });
    await print(
      format === "json"
        ? JSON.stringify({ project, ...r }, null, 2) + "\n"
        : searchText(r, project),
    );
    return r.hits.length ? 0 : 1;
  } finally {
    store.close();
  }
}
