/**
 * Whether a project has a symbol index: a marker file per project root under
 * `$RTOK_HOME/graph/`, written by the `graph` plugin when it indexes the project. The hook
 * checks it (one stat, no SQLite) before it asks the store anything about symbols.
 *
 * @module
 */

import { joinPath, pathExists } from "../../core/paths.ts";

/** The marker file saying that `root` has a symbol index in the store of `home`. */
export async function symbolIndexMarker(home: string, root: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(root));
  const hex = Array.from(new Uint8Array(d).subarray(0, 8), (b) => b.toString(16).padStart(2, "0"))
    .join("");
  return joinPath(joinPath(home, "graph"), `${hex}.json`);
}

/** Writes the marker for `root` (idempotent). */
export async function markIndexed(home: string, root: string): Promise<void> {
  const path = await symbolIndexMarker(home, root);
  if (pathExists(path, false)) return;
  Deno.mkdirSync(joinPath(home, "graph"), { recursive: true, mode: 0o700 });
  Deno.writeTextFileSync(path, JSON.stringify({ root }) + "\n", { mode: 0o600 });
}

/** True when `root` has a symbol index in the store of `home` (its marker exists). */
export async function hasSymbolIndex(home: string, root: string): Promise<boolean> {
  return pathExists(await symbolIndexMarker(home, root), false);
}
