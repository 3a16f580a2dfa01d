/**
 * `rtok init --host gemini`: rtok's `BeforeTool` and `AfterTool` hook groups (matching
 * `run_shell_command`) in Gemini CLI's user `settings.json`, every other byte of the file
 * kept; `--uninstall` gives back the bytes the file had.
 *
 * @module
 */

import { backupFile, writeAtomic } from "../../core/settings_file.ts";
import { joinPath, parentDir } from "../../core/paths.ts";
import { hostHookCommand, isObject, jsonErrorLine, runsRtokHook } from "../shared.ts";
import type { FileChange, HostInstaller, InstallOptions, InstallResult } from "../install.ts";
import {
  GEMINI_HOOK_EVENTS,
  GEMINI_HOOK_NAME,
  GEMINI_HOOK_TIMEOUT_MS,
  GEMINI_SHELL_TOOL,
  geminiSettingsPath,
} from "./adapter.ts";

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
export async function readGeminiSettings(
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
  const { settings, text } = await readGeminiSettings(path);
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

/** Gemini CLI's installer: user settings, `BeforeTool` and `AfterTool` hooks. */
export const INSTALLER: HostInstaller = { install: _install };
