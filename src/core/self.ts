/**
 * How a shell reaches this rtok: the words the hook puts in front of a rewritten command, and
 * the command `rtok init` writes into the agent's settings. `rtok` when it is on PATH; else
 * the installed launcher by absolute path; else this very program run by Deno.
 *
 * @module
 */

import { envVar } from "./env.ts";
import { RTOK_PERMISSIONS } from "./permissions.ts";
import { isFile, joinPath, parentDir } from "./paths.ts";
import { quoteWord } from "./shell.ts";

/** What {@linkcode rtokInvocation} looks at; every field has the live default. */
export interface SelfProbe {
  /** `PATH`. */
  readonly path?: string;
  /** `HOME`. */
  readonly home?: string;
  /** `DENO_INSTALL_ROOT`. */
  readonly denoInstallRoot?: string;
  /** The running Deno binary. */
  readonly execPath?: string;
  /** The running program's URL. */
  readonly mainModule?: string;
  /** True when `path` is an executable file. */
  readonly isExecutable?: (path: string) => boolean;
}

/** True when `path` is a regular file someone may execute. */
export function isExecutable(path: string): boolean {
  try {
    const st = Deno.statSync(path);
    return st.isFile && ((st.mode ?? 0o755) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** The directory on `path` (a `PATH` value) holding an executable `name`, or `null`. */
export function onPath(
  name: string,
  path: string,
  exec: (p: string) => boolean = isExecutable,
): string | null {
  for (const dir of path.split(":")) {
    if (dir && exec(joinPath(dir, name))) return dir;
  }
  return null;
}

/** True when `execPath` lies in npx's cache (`…/_npx/…`), which npm may clean. */
export function inNpxCache(execPath: string): boolean {
  return /[\\/]_npx[\\/]/.test(execPath);
}

/** What to do for a Deno binary that lasts, in words for a message. */
export function lastingDenoAdvice(version: string = Deno.version.deno): string {
  return `run npm install -g deno@${version}, then deno task install again in rtok's checkout`;
}

/**
 * The shell words that run this rtok: `rtok` when PATH has it; the launcher `deno install`
 * wrote, by absolute path; or Deno running this program with rtok's permissions.
 */
export function rtokInvocation(probe: SelfProbe = {}): string {
  if (probe.isExecutable || probe.execPath || probe.mainModule) return _invocation(probe);
  // A resident server asks on every rewrite, and a walk of PATH is dozens of failed stats:
  // the live answer is kept while PATH, HOME and the install root stay, checked again with
  // one stat when rtok was found on PATH, and looked up afresh after a second otherwise.
  const path = probe.path ?? envVar("PATH") ?? "";
  const home = probe.home ?? envVar("HOME");
  const root = probe.denoInstallRoot ?? envVar("DENO_INSTALL_ROOT");
  const key = `${path}\0${home ?? ""}\0${root ?? ""}`;
  const now = Date.now();
  const hit = _live.get(key);
  if (hit && (hit.found ? isExecutable(hit.found) : now - hit.at < _LIVE_MS)) return hit.words;
  const dir = onPath("rtok", path);
  const words = dir ? "rtok" : _invocation({ path, home, denoInstallRoot: root });
  if (_live.size >= 16) _live.clear();
  _live.set(key, { at: now, found: dir ? joinPath(dir, "rtok") : null, words });
  return words;
}

const _LIVE_MS = 1000;
const _live = new Map<string, { at: number; found: string | null; words: string }>();

function _invocation(probe: SelfProbe): string {
  const exec = probe.isExecutable ?? isExecutable;
  const path = probe.path ?? envVar("PATH") ?? "";
  if (onPath("rtok", path, exec)) return "rtok";
  const home = probe.home ?? envVar("HOME");
  const root = probe.denoInstallRoot ?? envVar("DENO_INSTALL_ROOT") ??
    (home ? joinPath(home, ".deno") : undefined);
  if (root && exec(joinPath(joinPath(root, "bin"), "rtok"))) {
    return quoteWord(joinPath(joinPath(root, "bin"), "rtok"));
  }
  return selfArgv(probe.execPath, probe.mainModule).map(quoteWord).join(" ");
}

/**
 * The words that run this very rtok: the compiled program itself, or Deno running this
 * program with rtok's permissions and its own config. Not `rtok` from PATH, which may be
 * another version.
 */
export function selfArgv(
  execPath: string = Deno.execPath(),
  mainModule: string = Deno.mainModule,
): string[] {
  if (!/(^|\/)deno(\.exe)?$/.test(execPath)) return [execPath];
  const words = [execPath, "run", "-q", ...RTOK_PERMISSIONS];
  if (!mainModule.startsWith("file:")) return [...words, mainModule];
  const target = decodeURIComponent(new URL(mainModule).pathname);
  // The import map is only needed for the npm packages, but without it Deno warns.
  const config = joinPath(parentDir(target), "deno.json");
  if (isFile(config)) words.push("--config", config);
  return [...words, target];
}

/** The command `rtok init` installs for the Claude Code hooks. */
export function hookCommand(probe: SelfProbe = {}): string {
  return `${rtokInvocation(probe)} hook claude`;
}
