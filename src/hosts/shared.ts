/**
 * What the host adapters and installers share: reading JSON values, the canonical JSON a
 * hash is taken over, where a JSON text stops parsing, the backup that holds a file's bytes
 * from before rtok's edit, and the installed CLI's version.
 *
 * @module
 */

/** True for a plain object (not an array, not `null`). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** JSON with every object's keys sorted and no spaces: one text per value, for comparing. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/**
 * The line (from 1) where `text` stops being JSON, or `null` when it parses. V8 names a
 * position only for some errors, so the longest prefix that still reads as the start of a
 * JSON value is found instead.
 */
export function jsonErrorLine(text: string): number | null {
  if (_parses(text)) return null;
  try {
    JSON.parse(text);
  } catch (e) {
    const v8 = /\(line (\d+) column \d+\)/.exec((e as Error).message);
    if (v8) return Number(v8[1]);
  }
  // A prefix either still reads as the start of a JSON value (it fails only for ending early)
  // or not; the first that does not holds the error.
  const starts = (n: number): boolean => {
    try {
      JSON.parse(text.slice(0, n));
      return true;
    } catch (e) {
      const m = (e as Error).message;
      const at = /at position (\d+)/.exec(m);
      return /end of JSON input/i.test(m) || (at !== null && Number(at[1]) >= n);
    }
  };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts(mid + 1)) lo = mid + 1;
    else hi = mid;
  }
  return text.slice(0, lo).split("\n").length;
}

function _parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The newest backup of `path` (`<path>.rtok-backup-…`, as `backupFile` writes them) whose JSON
 * is `want`: the bytes the file had before rtok's edit, or `null` when none is.
 */
export async function originalBackup(
  path: string,
  want: Record<string, unknown>,
): Promise<string | null> {
  const dir = path.slice(0, path.lastIndexOf("/"));
  const prefix = `${path.slice(dir.length + 1)}.rtok-backup-`;
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) if (e.name.startsWith(prefix)) names.push(e.name);
  } catch {
    return null;
  }
  for (const name of names.sort().reverse()) {
    try {
      const text = await Deno.readTextFile(`${dir}/${name}`);
      if (canonicalJson(JSON.parse(text)) === canonicalJson(want)) return text;
    } catch { /* not a backup rtok can read: the next one */ }
  }
  return null;
}

/**
 * The version `<program> --version` prints (`1.2.3`), run from PATH with `env` added and a
 * time limit; `null` when it is not there, fails, or names no version.
 */
export async function installedVersion(
  program: string,
  env: Record<string, string> = {},
): Promise<string | null> {
  try {
    const o = await new Deno.Command(program, {
      args: ["--version"],
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(15_000),
    }).output();
    if (!o.success) return null;
    return /(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)/.exec(new TextDecoder().decode(o.stdout))?.[1] ??
      null;
  } catch {
    return null;
  }
}

/** The hook command rtok installs into `host`: `<rtok> hook <host>`. */
export function hostHookCommand(rtok: string, host: string): string {
  return `${rtok} hook ${host}`;
}

/**
 * True for a command that runs rtok's hook for `host` (`… rtok hook <host>`, Deno running
 * cli.ts, or `sh …/rtok_hook.sh hook <host>`).
 */
export function runsRtokHook(command: string, host: string): boolean {
  return new RegExp(`(?:^|[\\s/'"])(?:rtok|cli\\.ts|rtok_hook\\.sh)['"]?\\s+hook\\s+${host}\\s*$`)
    .test(command);
}

/**
 * A host's home folder: the variable that names it (`CODEX_HOME`), else `~/<dotDir>`. Throws a
 * `TypeError` naming both when neither is set.
 */
export function hostHome(
  env: Readonly<Record<string, string | undefined>>,
  variable: string,
  dotDir: string,
  host: string,
): string {
  const set = env[variable];
  if (set) return set.replace(/\/+$/, "") || "/";
  if (env.HOME) return `${env.HOME.replace(/\/+$/, "")}/${dotDir}`;
  throw new TypeError(`cannot find ${host}'s home: neither ${variable} nor HOME is set`);
}
