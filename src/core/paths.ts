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
