/**
 * The source files of a project the index reads: in a git work tree, what git tracks and
 * what it would add (`git ls-files --cached --others --exclude-standard`, so whatever
 * `.gitignore` ignores is left out); elsewhere, or when git cannot run, a walk that skips
 * hidden folders and the usual vendored and built ones, and stops at
 * {@linkcode MAX_WALKED_FILES} source files (a walk of a home folder or of `/` is not a
 * project). Only files a grammar reads (by extension) are kept.
 *
 * @module
 */

import { languageOf } from "../../content/outline/outline.ts";
import { joinPath, pathExists } from "../../core/paths.ts";

/** The files found, and how. */
export interface ProjectFiles {
  /** Paths relative to the root, `/`-separated, sorted. */
  readonly paths: readonly string[];
  /** How they were listed. */
  readonly lister: "git" | "walk";
}

/** Directories the walk never enters, besides hidden ones (`.git`, `.venv`, `.cache`…). */
export const WALK_SKIPS: readonly string[] = ["node_modules", "target", "dist", "__pycache__"];

/** The most source files a walk outside git lists before it gives up. */
export const MAX_WALKED_FILES = 20_000;

/** The source files under `root` (see the module doc). */
export async function listProjectFiles(root: string): Promise<ProjectFiles> {
  if (pathExists(joinPath(root, ".git"), false)) {
    const listed = await _gitFiles(root);
    if (listed) return { paths: _keep(listed), lister: "git" };
  }
  return { paths: _keep(await _walk(root)), lister: "walk" };
}

function _keep(paths: readonly string[]): string[] {
  return [...new Set(paths.filter((p) => languageOf(p) !== null))].sort();
}

async function _gitFiles(root: string): Promise<string[] | null> {
  try {
    const out = await new Deno.Command("git", {
      args: ["-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!out.success) return null;
    return new TextDecoder().decode(out.stdout).split("\0").filter((p) => p !== "");
  } catch {
    // git is not installed, or running it is not permitted: the walk instead.
    return null;
  }
}

async function _walk(root: string): Promise<string[]> {
  const out: string[] = [];
  let sources = 0;
  const visit = async (dir: string, rel: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return; // unreadable: nothing under it is indexed
    }
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) {
        if (!e.name.startsWith(".") && !WALK_SKIPS.includes(e.name)) {
          await visit(joinPath(dir, e.name), path);
        }
      } else if (e.isFile) {
        out.push(path);
        if (languageOf(path) !== null && ++sources > MAX_WALKED_FILES) {
          throw new RangeError(
            `Cannot index "${root}": it is not a git work tree and holds over ` +
              `${MAX_WALKED_FILES} source files; run it inside a project`,
          );
        }
      }
    }
  };
  await visit(root, "");
  return out;
}
