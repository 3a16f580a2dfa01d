/**
 * Seeing the agent read an archived output directly (Claude Code's `Read` tool on
 * `$RTOK_HOME/archive/<sha256>`): that is an expand too, and counts toward the expand rate.
 * Runs inside the hook, so it only compares paths: no SQLite, no file read.
 *
 * @module
 */

import { joinPath, parentDir } from "../../core/paths.ts";

const SHA256_NAME = /^[0-9a-f]{64}$/;

/**
 * The archive id of `filePath` when it names an archived output under `home`'s archive
 * (relative paths resolved against `cwd`), else `null`.
 */
export function archiveIdOfPath(filePath: unknown, home: string, cwd: string): string | null {
  if (typeof filePath !== "string" || !home) return null;
  const path = filePath.startsWith("/") ? filePath : joinPath(cwd, filePath);
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  // Cheap test first: almost every Read is of something else.
  if (!SHA256_NAME.test(name)) return null;
  const dir = _normal(parentDir(path));
  const archive = _normal(joinPath(home, "archive"));
  if (dir === archive) return name.slice(0, 12);
  const real = _real(archive);
  return real !== null && _real(dir) === real ? name.slice(0, 12) : null;
}

// `a/./b`, `a//b` and `a/x/../b` as `a/b`, so a path the agent spelled oddly still matches.
function _normal(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return "/" + out.join("/");
}

function _real(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}
