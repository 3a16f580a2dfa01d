/**
 * Text helpers only the built-in command filters share (the ones every layer uses are in
 * `src/core/text.ts`).
 *
 * @module
 */

/**
 * The line that says a run failed when its output did not: `pytest: failed with exit code 4`,
 * or `pytest: failed` when the exit code is not known (negative: text read without its run).
 */
export function failureLine(tool: string, exitCode: number): string {
  return exitCode < 0 ? `${tool}: failed` : `${tool}: failed with exit code ${exitCode}`;
}

/**
 * Groups paths by their parent directory, in order of first appearance:
 * `["src/a.ts", "src/b.ts", "README.md"]` → `["src/{a.ts,b.ts}", "README.md"]`. Top-level
 * names stay one item each.
 * Every path survives; only the repeated directory prefix is written once.
 */
export function groupPaths(paths: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const path of paths) {
    const trimmed = path.endsWith("/") ? path.slice(0, -1) : path;
    const slash = trimmed.lastIndexOf("/");
    const dir = slash < 0 ? "" : path.slice(0, slash + 1);
    const name = path.slice(dir.length);
    const names = groups.get(dir);
    if (names) names.push(name);
    else groups.set(dir, [name]);
  }
  const out: string[] = [];
  for (const [dir, names] of groups) {
    if (dir === "" || names.length === 1) out.push(...names.map((name) => dir + name));
    else out.push(`${dir}{${names.join(",")}}`);
  }
  return out;
}

/**
 * True when `line` may be a path: no tab, no `: `, no leading space, and at most two single
 * spaces (a path has few; prose has many).
 */
export function pathLike(line: string): boolean {
  if (line.length > 300 || /^\s/.test(line) || line.includes("\t") || line.includes(": ")) {
    return false;
  }
  let spaces = 0;
  for (const ch of line) if (ch === " " && ++spaces > 2) return false;
  return true;
}
