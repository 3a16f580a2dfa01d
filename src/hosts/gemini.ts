/**
 * The Gemini CLI host (`@google/gemini-cli`, verified with 0.61.0; see
 * `scripts/probe/gemini.md`). Its hooks live in the user's `settings.json`
 * (`$GEMINI_CLI_HOME/.gemini/settings.json`, else `~/.gemini/settings.json`) as `BeforeTool` and
 * `AfterTool` groups matching `run_shell_command`. A `BeforeTool` answer of
 * `hookSpecificOutput.tool_input` replaces the call's arguments before Gemini's own approval
 * policy looks at them, so the user approves (or not) the rewritten command, and rtok never
 * answers `allow`. An `AfterTool` answer cannot replace a successful result (only turn it into
 * an error, or append to it), so rtok reads `AfterTool` only to count the call and tie the
 * `rtok` run it made to its session; it never cuts output there that it cannot deliver.
 *
 * @module
 */

import type { PostToolAnswer, PreToolDecision } from "../core/plugin.ts";
import { backupFile, writeAtomic } from "../core/settings_file.ts";
import { joinPath, parentDir } from "../core/paths.ts";
import { hostHookCommand, isObject, jsonErrorLine, runsRtokHook } from "./_shared.ts";
import { type HostAdapter, type HostEvent, readJsonObject } from "./host.ts";
import type {
  FileChange,
  HostCheck,
  HostInstaller,
  InstallOptions,
  InstallResult,
} from "./install.ts";

/** The Gemini CLI release rtok's hooks were verified with. */
export const GEMINI_VERIFIED_VERSION = "0.61.0";

/** Gemini CLI's name for its shell tool. */
export const GEMINI_SHELL_TOOL = "run_shell_command";

/** The hook timeout rtok installs, in milliseconds (Gemini CLI's unit). */
export const GEMINI_HOOK_TIMEOUT_MS = 10_000;

/** The `name` rtok's hook entries carry in Gemini CLI's settings. */
export const GEMINI_HOOK_NAME = "rtok";

/** The hook events rtok installs, in settings order. */
export const GEMINI_HOOK_EVENTS: readonly string[] = ["BeforeTool", "AfterTool"];

const _HOST = "gemini";

function _optionalString(p: Record<string, unknown>, key: string): string | null {
  const v = p[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") throw new TypeError(`${_HOST}: "${key}" is not a string`);
  return v;
}

function _readEvent(input: Uint8Array, cwd: string): HostEvent {
  const p = readJsonObject(input, _HOST);
  const name = p.hook_event_name;
  if (typeof name !== "string" || name === "") {
    throw new TypeError(`${_HOST}: the event has no "hook_event_name"`);
  }
  const session = _optionalString(p, "session_id");
  const at = _optionalString(p, "cwd") ?? cwd;
  if (name !== "BeforeTool" && name !== "AfterTool") {
    return { event: "Other", name, session, cwd: at };
  }
  const tool = p.tool_name;
  if (typeof tool !== "string" || tool === "") {
    throw new TypeError(`${_HOST}: the ${name} event has no "tool_name"`);
  }
  const toolInput = p.tool_input;
  if (!isObject(toolInput)) {
    throw new TypeError(`${_HOST}: the ${name} event's "tool_input" is not an object`);
  }
  if (name === "BeforeTool") {
    if (tool !== GEMINI_SHELL_TOOL) return { event: "Other", name, session, cwd: at };
    const command = toolInput.command;
    if (typeof command !== "string") {
      throw new TypeError(`${_HOST}: the ${GEMINI_SHELL_TOOL} call has no string "command"`);
    }
    return { event: "PreToolUse", command, input: toolInput, session, cwd: at };
  }
  if (p.tool_response !== undefined && !isObject(p.tool_response)) {
    throw new TypeError(`${_HOST}: the AfterTool event's "tool_response" is not an object`);
  }
  // Gemini CLI takes no replacement for a result (see the module doc): the result is left
  // unread, so no plugin cuts, archives or records a saving the model would never get.
  return { event: "PostToolUse", tool, input: toolInput, result: null, session, cwd: at };
}

function _preToolAnswer(
  d: PreToolDecision | null,
  ev: HostEvent & { event: "PreToolUse" },
): string {
  if (d?.kind === "deny") return JSON.stringify({ decision: "deny", reason: d.reason });
  if (d?.kind !== "rewrite" || typeof d.input.command !== "string") return "";
  if (d.input.command === ev.command) return "";
  // A rule of the user's or the admin's that names shell commands would judge the rtok form
  // instead of the agent's command: a deny for `git log` would not stop `rtok git log`.
  if (geminiShellRules(_hostEnv()) !== null) return "";
  // Gemini CLI replaces the call's arguments with these (not merges): keep the model's others.
  // No `decision`: Gemini's own policy then decides whether the user is asked.
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "BeforeTool",
      tool_input: { ...ev.input, command: d.input.command },
    },
  });
}

/** Gemini CLI's hook protocol. */
export const ADAPTER: HostAdapter = {
  id: "gemini",
  name: "Gemini CLI",
  readEvent: _readEvent,
  preToolAnswer: _preToolAnswer,
  // A successful result cannot be replaced (a `deny` reaches the model as an error): nothing.
  postToolAnswer: (_a: PostToolAnswer | null) => "",
};

/** The user settings file Gemini CLI reads, for the environment `env`. */
export function geminiSettingsPath(env: Readonly<Record<string, string | undefined>>): string {
  const home = env.GEMINI_CLI_HOME || env.HOME;
  if (!home) throw new Error("Cannot find Gemini CLI's settings: neither GEMINI_CLI_HOME nor HOME");
  return joinPath(joinPath(home, ".gemini"), "settings.json");
}

/** The hook entry rtok installs for one event. */
export function geminiHookGroup(rtok: string): Record<string, unknown> {
  return {
    matcher: GEMINI_SHELL_TOOL,
    hooks: [{
      type: "command",
      name: GEMINI_HOOK_NAME,
      command: hostHookCommand(rtok, "gemini"),
      timeout: GEMINI_HOOK_TIMEOUT_MS,
    }],
  };
}

/** True for a hook (one entry of a group's `hooks`) that rtok installed. */
export function isRtokGeminiHook(h: unknown): boolean {
  if (!isObject(h)) return false;
  if (h.name === GEMINI_HOOK_NAME) return true;
  return typeof h.command === "string" &&
    runsRtokHook(h.command, "gemini");
}

// Whether `text` parses once `//` and `/* */` comments (outside strings) are removed.
function _parsesWithoutComments(text: string): boolean {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  try {
    JSON.parse(out);
    return true;
  } catch {
    return false;
  }
}

/** Reads a settings file: its object and bytes, or `null`s when it does not exist. */
async function _readSettings(
  path: string,
): Promise<{ settings: Record<string, unknown> | null; text: string | null }> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { settings: null, text: null };
    throw new Error(`Cannot read "${path}": ${(e as Error).message}`);
  }
  if (text.trim() === "") return { settings: {}, text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    if (_parsesWithoutComments(text)) {
      throw new SyntaxError(
        `${path} has comments, which rtok cannot keep when it edits the file; left untouched`,
      );
    }
    const line = jsonErrorLine(text) ?? 1;
    const why = (e as Error).message.split("\n")[0].split(', "')[0]
      .replace(/ (in|after) JSON at position.*$/, "");
    throw new SyntaxError(`${path}:${line} is not valid JSON (${why}); left untouched`);
  }
  if (!isObject(parsed)) throw new SyntaxError(`${path} is not a JSON object; left untouched`);
  return { settings: parsed, text };
}

// `settings` without rtok's hooks (groups left empty removed, an emptied `hooks` too).
function _withoutRtok(settings: Record<string, unknown>): Record<string, unknown> {
  const hooks = settings.hooks;
  if (!isObject(hooks)) return settings;
  const nextHooks: Record<string, unknown> = {};
  let changed = false;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      nextHooks[event] = groups;
      continue;
    }
    const kept: unknown[] = [];
    for (const g of groups) {
      if (!isObject(g) || !Array.isArray(g.hooks) || !g.hooks.some(isRtokGeminiHook)) {
        kept.push(g);
        continue;
      }
      changed = true;
      const rest = g.hooks.filter((h) => !isRtokGeminiHook(h));
      if (rest.length) kept.push({ ...g, hooks: rest });
    }
    if (kept.length || !changed) nextHooks[event] = kept;
  }
  if (!changed) return settings;
  const out = { ...settings };
  if (Object.keys(nextHooks).length) out.hooks = nextHooks;
  else delete out.hooks;
  return out;
}

// `settings` with rtok's hooks for `rtok` (any earlier ones of rtok's replaced).
function _withRtok(settings: Record<string, unknown>, rtok: string): Record<string, unknown> {
  const base = _withoutRtok(settings);
  if (base.hooks !== undefined && !isObject(base.hooks)) {
    throw new TypeError(`its "hooks" is not an object`);
  }
  const hooks: Record<string, unknown> = { ...(base.hooks as Record<string, unknown> ?? {}) };
  for (const event of GEMINI_HOOK_EVENTS) {
    const groups = hooks[event] ?? [];
    if (!Array.isArray(groups)) throw new TypeError(`its "hooks.${event}" is not an array`);
    hooks[event] = [...groups, geminiHookGroup(rtok)];
  }
  return { ...base, hooks };
}

function _same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

// The newest backup of `path` whose settings are `wanted`: its text, or `null`.
async function _matchingBackup(
  path: string,
  wanted: Record<string, unknown>,
): Promise<string | null> {
  const dir = parentDir(path);
  const prefix = `${path.slice(dir.length + 1)}.rtok-backup-`;
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.startsWith(prefix)) names.push(e.name);
    }
  } catch {
    return null;
  }
  for (const name of names.sort().reverse()) {
    try {
      const text = await Deno.readTextFile(joinPath(dir, name));
      if (_same(JSON.parse(text), wanted)) return text;
    } catch { /* not a backup of a JSON object: skip it */ }
  }
  return null;
}

function _json(settings: Record<string, unknown>): string {
  return JSON.stringify(settings, null, 2) + "\n";
}

// The notes an install adds: what Gemini CLI will and will not do with the hooks.
function _installNotes(path: string, settings: Record<string, unknown>): string[] {
  const notes = [
    `installed rtok's BeforeTool and AfterTool hooks (${GEMINI_SHELL_TOOL}) in ${path}`,
    "Gemini CLI cannot replace a shell command's output from a hook: rtok shrinks only the " +
    "commands it rewrites before they run (git log becomes rtok git log)",
    "Gemini CLI still asks before running a rewritten command in its default approval mode, " +
    "and runs hooks only in trusted folders; restart running sessions for this to apply",
  ];
  const cfg = settings.hooksConfig;
  if (isObject(cfg) && cfg.enabled === false) {
    notes.push(`hooks are off in ${path} (hooksConfig.enabled: false): rtok left that as it is`);
  }
  if (isObject(cfg) && Array.isArray(cfg.disabled) && cfg.disabled.includes(GEMINI_HOOK_NAME)) {
    notes.push(`${path} disables hooks named "${GEMINI_HOOK_NAME}" (hooksConfig.disabled)`);
  }
  return notes;
}

async function _install(opts: InstallOptions): Promise<InstallResult> {
  const path = geminiSettingsPath(opts.env);
  const { settings, text } = await _readSettings(path);
  const current = settings ?? {};
  let after: Record<string, unknown>;
  try {
    after = opts.uninstall ? _withoutRtok(current) : _withRtok(current, opts.rtok);
  } catch (e) {
    throw new TypeError(`Cannot edit ${path}: ${(e as Error).message}; left untouched`);
  }
  if (_same(after, current) && (settings !== null || opts.uninstall)) {
    return {
      changes: [],
      notes: [
        opts.uninstall
          ? `no rtok hooks in ${path}: nothing to remove`
          : `rtok's hooks are already installed in ${path}`,
      ],
    };
  }
  let next: string | null;
  if (opts.uninstall) {
    // The bytes the install replaced, when nothing else changed since: byte for byte.
    next = await _matchingBackup(path, after) ??
      (Object.keys(after).length === 0 ? null : _json(after));
  } else next = _json(after);
  const change: FileChange = { path, before: text, after: next };
  const notes = opts.uninstall ? [`removed rtok's hooks from ${path}`] : _installNotes(path, after);
  if (opts.dryRun) return { changes: [change], notes: [...notes, "dry run: nothing written"] };
  if (text !== null) {
    notes.unshift(`backed up ${path} to ${await backupFile(path, new TextEncoder().encode(text))}`);
  }
  if (next === null) await Deno.remove(path);
  else await writeAtomic(path, next);
  return { changes: [change], notes };
}

// The installed `gemini`: its package's version and hooks reference, or `null`.
async function _installedGemini(): Promise<{ version: string; reference: string | null } | null> {
  const path = Deno.env.get("PATH") ?? "";
  for (const dir of path.split(":")) {
    if (!dir) continue;
    let real: string;
    try {
      real = await Deno.realPath(joinPath(dir, "gemini"));
    } catch {
      continue;
    }
    // The npm package: <pkg>/bundle/gemini.js, <pkg>/package.json.
    const pkg = parentDir(parentDir(real));
    try {
      const meta = JSON.parse(await Deno.readTextFile(joinPath(pkg, "package.json")));
      if (meta.name !== "@google/gemini-cli" || typeof meta.version !== "string") continue;
      const reference = await Deno.readTextFile(
        joinPath(pkg, "bundle/docs/hooks/reference.md"),
      ).catch(() => null);
      return { version: meta.version, reference };
    } catch {
      continue;
    }
  }
  return null;
}

/** The hook protocol facts rtok relies on, as Gemini CLI's own hooks reference states them. */
export const GEMINI_FORMAT_MARKERS: readonly string[] = [
  "BeforeTool",
  "AfterTool",
  "hookSpecificOutput.tool_input",
  "tool_input",
  "milliseconds",
];

async function _doctor(opts: Pick<InstallOptions, "rtok" | "env" | "cwd">): Promise<HostCheck[]> {
  const checks: HostCheck[] = [];
  let path: string;
  try {
    path = geminiSettingsPath(opts.env);
  } catch {
    return [];
  }
  const installed = await _installedGemini();
  let settings: Record<string, unknown> | null = null;
  try {
    settings = (await _readSettings(path)).settings;
  } catch (e) {
    checks.push({ status: "FAIL", label: "gemini hooks", detail: (e as Error).message });
  }
  const groups = (event: string) => {
    const h = isObject(settings?.hooks) ? (settings!.hooks as Record<string, unknown>)[event] : [];
    return (Array.isArray(h) ? h : []).filter((g) =>
      isObject(g) && Array.isArray(g.hooks) && g.hooks.some(isRtokGeminiHook)
    ) as Record<string, unknown>[];
  };
  const ours = GEMINI_HOOK_EVENTS.map((e) => ({ event: e, groups: groups(e) }));
  const any = ours.some((o) => o.groups.length > 0);
  if (!installed && !any) return checks;
  if (settings !== null || checks.length === 0) {
    if (!any) {
      checks.push({
        status: "warn",
        label: "gemini hooks",
        detail: `not installed in ${path}: run rtok init --host gemini`,
      });
    } else {
      const wrong = ours.filter((o) =>
        o.groups.length !== 1 || !_same(o.groups[0], geminiHookGroup(opts.rtok))
      );
      const cfg = settings?.hooksConfig;
      if (wrong.length) {
        checks.push({
          status: "FAIL",
          label: "gemini hooks",
          detail: `${wrong.map((o) => o.event).join(", ")} in ${path} differ from what ` +
            "rtok init --host gemini writes: run it again",
        });
      } else if (isObject(cfg) && cfg.enabled === false) {
        checks.push({
          status: "FAIL",
          label: "gemini hooks",
          detail: `installed, but hooksConfig.enabled is false in ${path}: they will not run`,
        });
      } else {
        checks.push({
          status: "ok",
          label: "gemini hooks",
          detail: `BeforeTool and AfterTool run ${opts.rtok} hook gemini (${path})`,
        });
      }
    }
  }
  if (!installed) {
    checks.push({
      status: "warn",
      label: "gemini version",
      detail: "no gemini on PATH: the hooks are installed for a Gemini CLI not found",
    });
  } else if (installed.version === GEMINI_VERIFIED_VERSION) {
    checks.push({
      status: "ok",
      label: "gemini version",
      detail: `${installed.version}, the release rtok's hooks were verified with`,
    });
  } else {
    const missing = installed.reference === null
      ? null
      : GEMINI_FORMAT_MARKERS.filter((m) => !installed.reference!.includes(m));
    checks.push(
      missing && missing.length
        ? {
          status: "FAIL",
          label: "gemini version",
          detail: `${installed.version}: its hooks reference no longer names ` +
            `${missing.join(", ")}; rtok was verified with ${GEMINI_VERIFIED_VERSION}`,
        }
        : {
          status: "warn",
          label: "gemini version",
          detail: `${installed.version}, not the verified ${GEMINI_VERIFIED_VERSION}: the hook ` +
            "format " + (missing ? "reads the same but is unverified" : "could not be checked"),
        },
    );
  }
  return checks;
}

/** Gemini CLI's installer: user settings, `BeforeTool` and `AfterTool` hooks. */
export const INSTALLER: HostInstaller = { install: _install, doctor: _doctor };

function _hostEnv(): Record<string, string | undefined> {
  const get = (name: string) => {
    try {
      return Deno.env.get(name);
    } catch {
      return undefined; // not granted: as if unset
    }
  };
  return { HOME: get("HOME"), GEMINI_CLI_HOME: get("GEMINI_CLI_HOME") };
}

/** Where Gemini CLI's admin policies live on Linux (its policy engine's standard path). */
export const GEMINI_ADMIN_POLICIES = "/etc/gemini-cli/policies";

/**
 * The first file in which the user or an admin names shell commands for Gemini CLI's
 * permission checks (a policy file that mentions `run_shell_command`, or the settings'
 * `tools.core` / `tools.exclude` lists), or `null` when none does. While one does, rtok
 * rewrites nothing for Gemini CLI: its rules would judge the rtok form, not the command.
 */
export function geminiShellRules(
  env: Readonly<Record<string, string | undefined>>,
  adminDir: string = GEMINI_ADMIN_POLICIES,
): string | null {
  const home = env.GEMINI_CLI_HOME || env.HOME;
  const dirs = [adminDir, ...(home ? [joinPath(joinPath(home, ".gemini"), "policies")] : [])];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".toml")).map((e) => e.name);
    } catch {
      continue; // no such folder: no rules there
    }
    for (const name of names.sort()) {
      const path = joinPath(dir, name);
      try {
        if (Deno.readTextFileSync(path).includes(GEMINI_SHELL_TOOL)) return path;
      } catch {
        return path; // a rule file rtok cannot read may name shell commands: assume it does
      }
    }
  }
  if (!home) return null;
  const settings = geminiSettingsPath(env);
  let text: string;
  try {
    text = Deno.readTextFileSync(settings);
  } catch {
    return null;
  }
  try {
    const tools = (JSON.parse(text) as { tools?: Record<string, unknown> }).tools;
    const lists = [tools?.core, tools?.exclude].filter(Array.isArray) as unknown[][];
    if (lists.some((l) => l.some((t) => String(t).startsWith(GEMINI_SHELL_TOOL)))) return settings;
  } catch {
    return settings; // settings rtok cannot read may hold such a list
  }
  return null;
}
