/**
 * Path joining without `node:path`: loading Node's compatibility layer costs the command
 * milliseconds on every run, and rtok only ever joins a directory and a name.
 *
 * @module
 */

/** `dir` and `name` joined with one `/`. */
export function joinPath(dir: string, name: string): string {
  return dir.endsWith("/") ? dir + name : `${dir}/${name}`;
}

/** The directory part of `path` (`.` when it has none). */
export function parentDir(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const slash = trimmed.lastIndexOf("/");
  if (slash < 0) return ".";
  return slash === 0 ? "/" : trimmed.slice(0, slash);
}

/**
 * True when something is at `path` (a symlink counts, whatever it points to), false when
 * nothing is. When that cannot be told (a directory on the way may not be read), `unknown` is
 * the answer if given; else the error is thrown.
 */
export function pathExists(path: string, unknown?: boolean): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    if (unknown !== undefined) return unknown;
    throw e;
  }
}

/** True when `path` is a regular file (or a symlink to one); false on any error. */
export function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
