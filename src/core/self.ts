/**
 * How a shell reaches this rtok: the words the hook puts in front of a rewritten command, and
 * the command `rtok init` writes into the agent's settings. `rtok` when it is on PATH; else
 * the installed launcher by absolute path; else this very program run by Deno.
 *
 * @module
 */

import { RTOK_PERMISSIONS } from "./permissions.ts";
import { joinPath, parentDir } from "./paths.ts";
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

function _env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
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
  const exec = probe.isExecutable ?? isExecutable;
  const path = probe.path ?? _env("PATH") ?? "";
  if (onPath("rtok", path, exec)) return "rtok";
  const home = probe.home ?? _env("HOME");
  const root = probe.denoInstallRoot ?? _env("DENO_INSTALL_ROOT") ??
    (home ? joinPath(home, ".deno") : undefined);
  if (root && exec(joinPath(joinPath(root, "bin"), "rtok"))) {
    return quoteWord(joinPath(joinPath(root, "bin"), "rtok"));
  }
  const main = probe.mainModule ?? Deno.mainModule;
  const words = [probe.execPath ?? Deno.execPath(), "run", "-q", ...RTOK_PERMISSIONS];
  let target = main;
  if (main.startsWith("file:")) {
    target = decodeURIComponent(new URL(main).pathname);
    const config = joinPath(parentDir(target), "deno.json");
    if (_fileExists(config)) words.push("--config", config);
  }
  return [...words, target].map(quoteWord).join(" ");
}

function _fileExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The command `rtok init` installs for the Claude Code hooks. */
export function hookCommand(probe: SelfProbe = {}): string {
  return `${rtokInvocation(probe)} hook claude`;
}
