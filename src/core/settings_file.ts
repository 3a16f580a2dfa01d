/**
 * Editing a user's settings file safely: a backup of the old bytes that never overwrites an
 * earlier one, and a write in one rename (through a symlink, keeping the file's mode), so the
 * program that reads the file never sees half of it. Shared by `rtok init` for every host.
 *
 * @module
 */

import { parentDir } from "./paths.ts";

/**
 * Copies the old file to `<path>.rtok-backup-<local time>`, owner-only. Never overwrites an
 * earlier backup: two runs in one second get `-2`, `-3`, … so the first original survives.
 */
export async function backupFile(path: string, bytes: Uint8Array): Promise<string> {
  const d = new Date();
  const p2 = (n: number) => String(n).padStart(2, "0");
  const stamp = `${d.getFullYear()}${p2(d.getMonth() + 1)}${p2(d.getDate())}T` +
    `${p2(d.getHours())}${p2(d.getMinutes())}${p2(d.getSeconds())}`;
  for (let n = 1;; n++) {
    const name = `${path}.rtok-backup-${stamp}${n === 1 ? "" : `-${n}`}`;
    try {
      await Deno.writeFile(name, bytes, { mode: 0o600, createNew: true });
      return name;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) {
        throw new Error(`Cannot back up "${path}" to "${name}": ${(e as Error).message}`);
      }
    }
  }
}

/**
 * Replaces the file in one rename, so Claude Code never reads half a file. A symlinked
 * settings file (a dotfiles repository) is written through, not replaced by a plain file.
 */
export async function writeAtomic(path: string, text: string): Promise<void> {
  let target = path;
  let mode = 0o600;
  try {
    if ((await Deno.lstat(path)).isSymlink) target = await Deno.realPath(path);
    mode = (await Deno.stat(target)).mode ?? mode;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    await Deno.mkdir(parentDir(path), { recursive: true, mode: 0o700 });
  }
  const tmp = `${target}.tmp-${Deno.pid}`;
  try {
    await Deno.writeTextFile(tmp, text, { mode: mode & 0o777 });
    await Deno.chmod(tmp, mode & 0o777);
    await Deno.rename(tmp, target);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw new Error(`Cannot write "${target}": ${(e as Error).message}`);
  }
}
