/**
 * The OpenCode host (`opencode-ai` on npm). OpenCode has no command hooks; rtok installs one
 * plain-JavaScript plugin file (`opencode_plugin.ts`) into its plugins folder, which sends each
 * finished `bash` call to `rtok hook opencode` as one JSON event (rtok's own protocol, read
 * here) and puts rtok's answer in place of the output. Commands are not rewritten: OpenCode
 * runs `tool.execute.before` before its own permission check, which would then judge the
 * rewritten command against the user's `permission.bash` rules instead of the agent's.
 * Verified with OpenCode {@linkcode VERIFIED_VERSION} (`scripts/probe/opencode.md`).
 *
 * @module
 */

import type { PostToolAnswer } from "../core/plugin.ts";
import type { ToolResult } from "../core/tool_result.ts";
import { joinPath } from "../core/paths.ts";
import { rtokHome } from "../core/config.ts";
import { hostHookCommand, isObject } from "./_shared.ts";
import { type HostAdapter, type HostEvent, readJsonObject } from "./host.ts";
import type {
  FileChange,
  HostCheck,
  HostInstaller,
  InstallOptions,
  InstallResult,
} from "./install.ts";
import { PLUGIN_FILE, pluginSource, readPluginFile } from "./opencode_plugin.ts";

/** The OpenCode release whose plugin hooks and tool output rtok was verified with. */
export const VERIFIED_VERSION = "1.18.33";

/** The event the plugin sends for a finished tool call. */
export const AFTER_EVENT = "tool.execute.after";

/** The event OpenCode fires before a tool runs (rtok's plugin does not send it). */
export const BEFORE_EVENT = "tool.execute.before";

/** OpenCode's shell tool. */
export const SHELL_TOOL = "bash";

const _HOST = "opencode";

function _resolve(dir: string, path: string): string {
  return path.startsWith("/") ? path : joinPath(dir, path);
}

// The result rtok may cut: a bash call's whole output, exit code known. A truncated output
// (OpenCode kept the rest in a file), or one ended by a timeout or an abort, is left alone.
function _shellResult(
  tool: string,
  args: Record<string, unknown>,
  output: string,
  meta: Record<string, unknown>,
): ToolResult | null {
  if (tool !== SHELL_TOOL || typeof args.command !== "string") return null;
  if (meta.truncated === true || typeof meta.exit !== "number") return null;
  if (output.includes("\n<shell_metadata>\n")) return null;
  return { kind: "shell", tool, text: output, command: args.command, exitCode: meta.exit };
}

/** Reads one event of rtok's OpenCode plugin (see `opencode_plugin.ts`). */
export function readOpenCodeEvent(input: Uint8Array, cwd: string): HostEvent {
  const p = readJsonObject(input, _HOST);
  const event = p.event;
  if (typeof event !== "string") throw new TypeError(`${_HOST}: the event has no "event" name`);
  const session = typeof p.sessionID === "string" ? p.sessionID : null;
  const dir = typeof p.directory === "string" && p.directory.startsWith("/") ? p.directory : cwd;
  const callId = typeof p.callID === "string" ? { callId: p.callID } : {};
  if (event === BEFORE_EVENT) return { event: "Other", name: event, session, cwd: dir, ...callId };
  if (event !== AFTER_EVENT) throw new TypeError(`${_HOST}: unknown event "${event}"`);
  if (typeof p.tool !== "string") throw new TypeError(`${_HOST}: ${event} has no tool name`);
  if (!isObject(p.args)) throw new TypeError(`${_HOST}: ${event} of ${p.tool} has no args object`);
  if (typeof p.output !== "string") {
    throw new TypeError(`${_HOST}: ${event} of ${p.tool} has no string output`);
  }
  if (!isObject(p.metadata) || !("exit" in p.metadata)) {
    throw new TypeError(`${_HOST}: ${event} of ${p.tool} has no metadata.exit`);
  }
  const args = p.args;
  const workdir = typeof args.workdir === "string" && args.workdir ? args.workdir : null;
  return {
    event: "PostToolUse",
    session,
    cwd: workdir ? _resolve(dir, workdir) : dir,
    ...callId,
    tool: p.tool,
    input: args,
    result: _shellResult(p.tool, args, p.output, p.metadata),
  };
}

/** The plugin's answer to a finished call: `{"output": <replacement>}`, or `""` to leave it. */
export function openCodePostAnswer(
  a: PostToolAnswer | null,
  ev: HostEvent & { event: "PostToolUse" },
): string {
  if (!a || a.keep || !ev.result) return "";
  const text = a.text ?? ev.result.text;
  const context = a.context ? `\n\n${a.context}` : "";
  if (a.text === undefined && !context) return "";
  return JSON.stringify({ output: text + context });
}

/** The hook protocol of rtok's OpenCode plugin. */
export const ADAPTER: HostAdapter = {
  id: "opencode",
  name: "OpenCode",
  readEvent: readOpenCodeEvent,
  // No rewrite: the plugin never asks (see the module's note on OpenCode's permission check).
  preToolAnswer: () => "",
  postToolAnswer: openCodePostAnswer,
};

/** OpenCode's global config folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`. */
export function openCodeConfigDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && xdg.startsWith("/")) return joinPath(xdg, "opencode");
  if (!env.HOME) throw new TypeError("Cannot find OpenCode's config folder: HOME is not set");
  return joinPath(joinPath(env.HOME, ".config"), "opencode");
}

/** The config files OpenCode reads from its global folder, in its order. */
export const CONFIG_FILES: readonly string[] = ["config.json", "opencode.json", "opencode.jsonc"];

function _readText(path: string): string | null {
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
    const text = _readText(path);
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
    const existing = _readText(joinPath(d, PLUGIN_FILE));
    if (existing !== null) return d;
  }
  return joinPath(dir, "plugins");
}

// The rtok plugin file already in either plugins folder, if any.
function _installedPlugin(dir: string): { path: string; text: string } | null {
  for (const name of ["plugins", "plugin"]) {
    const path = joinPath(joinPath(dir, name), PLUGIN_FILE);
    const text = _readText(path);
    if (text !== null) return { path, text };
  }
  return null;
}

async function _install(opts: InstallOptions): Promise<InstallResult> {
  const dir = openCodeConfigDir(opts.env);
  const command = hostHookCommand(opts.rtok, "opencode");
  const found = _installedPlugin(dir);
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
  const text = pluginSource(command, created, _serveState());
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

// `opencode --version` from PATH, or null when it is not there or says nothing.
async function _version(path: string | undefined): Promise<string | null> {
  for (const d of (path ?? "").split(":")) {
    if (!d) continue;
    const bin = joinPath(d, "opencode");
    try {
      if (!Deno.statSync(bin).isFile) continue;
    } catch {
      continue;
    }
    try {
      const o = await new Deno.Command(bin, {
        args: ["--version"],
        stdin: "null",
        stdout: "piped",
        stderr: "null",
        signal: AbortSignal.timeout(5000),
      }).output();
      const v = /\d+\.\d+\.\d+\S*/.exec(new TextDecoder().decode(o.stdout))?.[0];
      return v ?? "an unknown version";
    } catch {
      return "an unknown version";
    }
  }
  return null;
}

async function _doctor(opts: Pick<InstallOptions, "rtok" | "env" | "cwd">): Promise<HostCheck[]> {
  let dir: string;
  try {
    dir = openCodeConfigDir(opts.env);
  } catch {
    return [];
  }
  const version = await _version(opts.env.PATH ?? Deno.env.get("PATH"));
  const found = _installedPlugin(dir);
  if (version === null && !found) return [];
  const checks: HostCheck[] = [];
  if (version === null) {
    checks.push({
      status: "warn",
      label: "opencode",
      detail: `not on PATH; rtok's plugin is in ${dir}`,
    });
  } else if (version === VERIFIED_VERSION) {
    checks.push({
      status: "ok",
      label: "opencode",
      detail: `${version}, the version rtok verified`,
    });
  } else {
    checks.push({
      status: "warn",
      label: "opencode",
      detail: `${version}; rtok verified its plugin with ${VERIFIED_VERSION}: a changed event ` +
        "shape leaves the output alone and one failures row per call",
    });
  }
  if (!found) {
    checks.push({
      status: "warn",
      label: "opencode plugin",
      detail: `not installed in ${dir}: rtok init --host opencode`,
    });
    return checks;
  }
  const mine = readPluginFile(found.text);
  const want = hostHookCommand(opts.rtok, "opencode");
  if (!mine) {
    checks.push({
      status: "warn",
      label: "opencode plugin",
      detail: `${found.path} is not rtok's`,
    });
  } else if (found.text !== pluginSource(want, mine.createdDirs, _serveState())) {
    checks.push({
      status: "warn",
      label: "opencode plugin",
      detail: `${found.path} runs \`${mine.command ?? "?"}\`, not this rtok's plugin: ` +
        "rtok init --host opencode",
    });
  } else {
    const bad = CONFIG_FILES.map((n) => joinPath(dir, n)).map((p) => {
      const t = _readText(p);
      const e = t === null ? null : jsoncError(t);
      return e ? `${p} ${e}` : null;
    }).find((x) => x !== null);
    checks.push(
      bad
        ? { status: "FAIL", label: "opencode plugin", detail: `OpenCode cannot start: ${bad}` }
        : { status: "ok", label: "opencode plugin", detail: `${found.path} runs \`${want}\`` },
    );
  }
  return checks;
}

/** rtok's installer for OpenCode: one plugin file in its global plugins folder. */
export const INSTALLER: HostInstaller = {
  install: _install,
  doctor: _doctor,
};

// Where rtok's resident server says where it answers (`rtok serve` writes it).
function _serveState(): string {
  return joinPath(rtokHome(), "serve.json");
}
