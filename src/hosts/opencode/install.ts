/**
 * `rtok init --host opencode`: rtok's plugin file (`plugin.ts` writes it) in OpenCode's global
 * plugins folder, refused while a config file of that folder does not parse (OpenCode would
 * not start); `--uninstall` removes the file and the folders rtok made for it.
 *
 * @module
 */

import { joinPath } from "../../core/paths.ts";
import { rtokHome } from "../../core/config.ts";
import { hostHookCommand } from "../shared.ts";
import type { FileChange, HostInstaller, InstallOptions, InstallResult } from "../install.ts";
import { PLUGIN_FILE, pluginSource, readPluginFile } from "./plugin.ts";

/** OpenCode's global config folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`. */
export function openCodeConfigDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && xdg.startsWith("/")) return joinPath(xdg, "opencode");
  if (!env.HOME) throw new TypeError("Cannot find OpenCode's config folder: HOME is not set");
  return joinPath(joinPath(env.HOME, ".config"), "opencode");
}

/** The config files OpenCode reads from its global folder, in its order. */
export const CONFIG_FILES: readonly string[] = ["config.json", "opencode.json", "opencode.jsonc"];

/** The text of `path`, or `null` when it cannot be read. */
export function readText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw new Error(`Cannot read "${path}": ${(e as Error).message}`);
  }
}

function _isDir(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/**
 * Blanks JSONC's comments and trailing commas (keeping every offset and newline), so
 * `JSON.parse` reads what OpenCode reads and its error offsets name the right line.
 */
export function stripJsonc(text: string): string {
  const out = text.split("");
  let i = 0;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === ",") {
      let j = i + 1;
      while (j < text.length && /\s/.test(out[j])) j++;
      if (out[j] === "}" || out[j] === "]") out[i] = " ";
      i++;
    } else i++;
  }
  return out.join("");
}

/** Why a JSONC text does not parse, as `line N: <reason>`, or `null` when it does. */
export function jsoncError(text: string): string | null {
  const plain = stripJsonc(text);
  if (plain.trim() === "") return null;
  try {
    JSON.parse(plain);
    return null;
  } catch (e) {
    const message = (e as Error).message.split("\n")[0];
    const at = /at position (\d+)/.exec(message);
    const lineCol = /\(line (\d+) column \d+\)/.exec(message);
    const line = lineCol
      ? Number(lineCol[1])
      : at
      ? plain.slice(0, Number(at[1])).split("\n").length
      : plain.split("\n").length;
    const reason = message.replace(/\s*\(line \d+ column \d+\)/, "").replace(
      /,? (?:in JSON )?at position \d+/,
      "",
    );
    return `line ${line}: ${reason}`;
  }
}

// Every config file of OpenCode's folder must parse, or OpenCode will not run the plugin.
function _checkConfigs(dir: string): void {
  for (const name of CONFIG_FILES) {
    const path = joinPath(dir, name);
    const text = readText(path);
    if (text === null) continue;
    const err = jsoncError(text);
    if (err) {
      throw new SyntaxError(
        `Cannot install into OpenCode: "${path}" does not parse (${err}); fix it, then run ` +
          "rtok init --host opencode again (nothing was changed)",
      );
    }
  }
}

// The plugins folder: an existing `plugins` or `plugin` (OpenCode reads both), else `plugins`.
function _pluginsDir(dir: string): string {
  for (const name of ["plugins", "plugin"]) {
    const d = joinPath(dir, name);
    if (_isDir(d)) return d;
    const existing = readText(joinPath(d, PLUGIN_FILE));
    if (existing !== null) return d;
  }
  return joinPath(dir, "plugins");
}

/** The rtok plugin file already in either plugins folder, if any. */
export function installedPlugin(dir: string): { path: string; text: string } | null {
  for (const name of ["plugins", "plugin"]) {
    const path = joinPath(joinPath(dir, name), PLUGIN_FILE);
    const text = readText(path);
    if (text !== null) return { path, text };
  }
  return null;
}

async function _install(opts: InstallOptions): Promise<InstallResult> {
  const dir = openCodeConfigDir(opts.env);
  const command = hostHookCommand(opts.rtok, "opencode");
  const found = installedPlugin(dir);
  if (found && !readPluginFile(found.text)) {
    return {
      changes: [],
      notes: [`${found.path} exists and is not rtok's: left as it is; rtok's plugin not installed`],
    };
  }
  if (opts.uninstall) {
    if (!found) return { changes: [], notes: [`no rtok plugin in ${dir}: nothing to remove`] };
    const created = readPluginFile(found.text)!.createdDirs;
    if (!opts.dryRun) {
      await Deno.remove(found.path);
      // The folders rtok made for the plugin go with it, when nothing else is in them.
      for (const d of [...created].sort((a, b) => b.length - a.length)) {
        try {
          if ([...Deno.readDirSync(d)].length === 0) Deno.removeSync(d);
        } catch { /* gone already */ }
      }
    }
    return {
      changes: [{ path: found.path, before: found.text, after: null }],
      notes: [`OpenCode will no longer send bash output to rtok (restart running sessions)`],
    };
  }
  _checkConfigs(dir);
  const pluginsDir = found ? found.path.slice(0, found.path.lastIndexOf("/")) : _pluginsDir(dir);
  const created = found
    ? readPluginFile(found.text)!.createdDirs
    : [dir, pluginsDir].filter((d) => !_isDir(d));
  const path = joinPath(pluginsDir, PLUGIN_FILE);
  const text = pluginSource(command, created, serveStatePath());
  const notes = [
    `OpenCode sends each finished bash call's output to \`${command}\`; rtok replaces the ` +
    "output of the commands it filters (restart running sessions)",
    "commands are not rewritten: OpenCode checks permission.bash after its plugins, so a " +
    "rewrite would change what your rules judge",
  ];
  if (found && found.text === text) {
    return { changes: [], notes: [`rtok's plugin is already installed: ${path}`] };
  }
  const change: FileChange = { path, before: found?.text ?? null, after: text };
  if (!opts.dryRun) {
    await Deno.mkdir(pluginsDir, { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  return { changes: [change], notes };
}

/** rtok's installer for OpenCode: one plugin file in its global plugins folder. */
export const INSTALLER: HostInstaller = { install: _install };

/** Where rtok's resident server says where it answers (`rtok serve` writes it). */
export function serveStatePath(): string {
  return joinPath(rtokHome(), "serve.json");
}
