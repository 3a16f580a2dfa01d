/**
 * The symbol index as the hook reads it: how many definitions of a name a project's index
 * holds, by one read-only indexed query that gives up at once when the store is busy, so the
 * guard can name `rtok where NAME` and the size of its answer without loading a grammar. It
 * loads `node:sqlite`: reach it through `countDefinitions` in `mod.ts`, which loads it only
 * when asked.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { storePath } from "../../core/store.ts";

/** How long the lookup waits for a store another process holds, in milliseconds. */
export const LOOKUP_TIMEOUT_MS = 50;

/**
 * How many definitions of `name` the index of `root` holds in the store of `home`, or `null`
 * when that cannot be told now (no store, no index, a busy or damaged store).
 */
export function countDefinitions(home: string, root: string, name: string): number | null {
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(storePath(home), { readOnly: true, timeout: LOOKUP_TIMEOUT_MS });
    const row = db.prepare(
      `SELECT count(*) AS n FROM graph_defs d JOIN graph_files f ON f.id = d.file_id
       JOIN graph_projects p ON p.id = f.project_id WHERE d.name = ? AND p.root = ?`,
    ).get(name, root) as { n: number } | undefined;
    return row ? Number(row.n) : null;
  } catch {
    return null;
  } finally {
    try {
      db?.close();
    } catch { /* closing a handle that failed to open */ }
  }
}
