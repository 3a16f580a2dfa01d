/**
 * The project a directory belongs to: the nearest enclosing directory holding `.git` (a
 * repository's work tree, or a worktree's `.git` file), else the directory itself; canonical
 * either way. Found by looking, never by running git, so the hook may ask too.
 *
 * @module
 */

import { joinPath, parentDir, pathExists } from "./paths.ts";

/** The canonical project root of `dir` (see the module doc); `dir` as given when it is gone. */
export function projectRoot(dir: string): string {
  let real: string;
  try {
    real = Deno.realPathSync(dir);
  } catch {
    return dir;
  }
  for (let d = real;; d = parentDir(d)) {
    if (pathExists(joinPath(d, ".git"), false)) return d;
    if (d === "/") return real;
  }
}
