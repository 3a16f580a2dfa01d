/**
 * `rtok init --host codex`: rtok's `PostToolUse` hook in Codex's user hooks file
 * (`$CODEX_HOME/hooks.json`, else `~/.codex/hooks.json`), and the trust Codex needs before it
 * runs a hook, written as Codex's own `/hooks` screen writes it: a `[hooks.state."<key>"]`
 * table in `config.toml` whose `trusted_hash` is the SHA-256 of the hook's canonical JSON.
 * The table goes in a block between two marker comments at the end of the file, so
 * `--uninstall` takes out exactly what rtok added and gives back the user's bytes.
 *
 * @module
 */

import { parse as parseToml } from "smol-toml";
import { backupFile, writeAtomic } from "../../core/settings_file.ts";
import {
  canonicalJson,
  hostHome,
  hostHookCommand,
  isObject,
  originalBackup,
  runsRtokHook,
} from "../shared.ts";
import type { FileChange, HostInstaller, InstallOptions, InstallResult } from "../install.ts";
import { CODEX_SHELL_TOOL } from "./adapter.ts";

/** The matcher rtok's hook group has: Codex's hook name for its shell tool. */
export const CODEX_HOOK_MATCHER: string = CODEX_SHELL_TOOL;

/** The seconds Codex gives rtok's hook. */
export const CODEX_HOOK_TIMEOUT_SEC = 30;

/** The event rtok's hook is under, as hooks.json names it. */
export const CODEX_EVENT = "PostToolUse";
/** The same event, as a trust key names it. */
export const CODEX_EVENT_KEY = "post_tool_use";

/** The first line of rtok's block in `config.toml`. */
export const CODEX_BLOCK_BEGIN = "# >>> rtok: trust for rtok's Codex hook " +
  "(rtok init --host codex --uninstall removes this block)";
// The same, when rtok created config.toml for it (its removal then removes the file).
const _BEGIN_CREATED = `${CODEX_BLOCK_BEGIN.slice(0, -1)}; rtok created this file)`;

/** The last line of rtok's block in `config.toml`. */
export const CODEX_BLOCK_END = "# <<< rtok";

type _Env = Readonly<Record<string, string | undefined>>;

/** Codex's home: `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: _Env): string {
  return hostHome(env, "CODEX_HOME", ".codex", "Codex");
}

/** The hook command rtok installs. */
export function codexHookCommand(rtok: string): string {
  return hostHookCommand(rtok, "codex");
}

/** True for a hook handler rtok installed (`… rtok hook codex`, or Deno running cli.ts). */
export function isRtokCodexHandler(h: unknown): boolean {
  if (!isObject(h) || h.type !== "command" || typeof h.command !== "string") return false;
  return runsRtokHook(h.command, "codex");
}

// A group of rtok's own: every handler in it is rtok's (a group shared with the user's is not).
function _onlyRtok(group: unknown): boolean {
  return isObject(group) && Array.isArray(group.hooks) && group.hooks.length > 0 &&
    group.hooks.every(isRtokCodexHandler);
}

/** True for a hook group that holds rtok's handler. */
export function hasRtok(group: unknown): boolean {
  return isObject(group) && Array.isArray(group.hooks) && group.hooks.some(isRtokCodexHandler);
}

/** The matcher group rtok adds under `PostToolUse`. */
export function codexHookGroup(rtok: string): Record<string, unknown> {
  return {
    matcher: CODEX_HOOK_MATCHER,
    hooks: [{ type: "command", command: codexHookCommand(rtok), timeout: CODEX_HOOK_TIMEOUT_SEC }],
  };
}

/**
 * The `trusted_hash` Codex expects for handler `handler` of matcher group `group` under
 * `event` (`post_tool_use`): `sha256:` and the hex SHA-256 of the canonical JSON (keys sorted,
 * compact) of `{event_name, matcher, hooks: [handler]}`, the handler normalized as Codex does
 * (its timeout defaulted to 600, `async` to false, `commandWindows` left out).
 */
export async function codexHookHash(
  event: string,
  group: Readonly<Record<string, unknown>>,
  handler = 0,
): Promise<string> {
  const h = ((group.hooks ?? []) as Record<string, unknown>[])[handler] ?? {};
  const normal: Record<string, unknown> = {
    type: "command",
    command: h.command,
    timeout: Math.max(1, typeof h.timeout === "number" ? h.timeout : 600),
    async: h.async === true,
  };
  if (typeof h.statusMessage === "string") normal.statusMessage = h.statusMessage;
  const identity: Record<string, unknown> = { event_name: event, hooks: [normal] };
  if (typeof group.matcher === "string") identity.matcher = group.matcher;
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(canonicalJson(identity)),
  );
  return `sha256:${
    [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")
  }`;
}

/** Codex's trust key for a hook: `<real path of hooks.json>:<event>:<group>:<handler>`. */
export function codexTrustKey(
  hooksPath: string,
  event: string,
  group: number,
  handler = 0,
): string {
  return `${hooksPath}:${event}:${group}:${handler}`;
}

/** `path` with symlinks resolved as far as it exists (Codex keys trust by the real path). */
export function realPath(path: string): string {
  const parts = path.split("/");
  for (let i = parts.length; i > 0; i--) {
    const head = parts.slice(0, i).join("/") || "/";
    try {
      const real = Deno.realPathSync(head);
      const rest = parts.slice(i).join("/");
      return rest ? `${real.replace(/\/$/, "")}/${rest}` : real;
    } catch { /* not there yet: one level up */ }
  }
  return path;
}

/** `config.toml`: its text (`null`: absent) and its value. */
export interface CodexToml {
  readonly text: string | null;
  readonly value: Record<string, unknown>;
}

/** `hooks.json`: its text (`null`: absent) and its value. */
export interface CodexHooks {
  readonly text: string | null;
  readonly value: Record<string, unknown> | null;
}

const _FIX = "fix it or move it aside, then run rtok init --host codex again";

async function _readText(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw new Error(`Cannot read "${path}": ${(e as Error).message}`);
  }
}

function _parseToml(text: string, path: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (e) {
    const err = e as Error & { line?: number };
    const first = err.message.split("\n")[0].replace(/^Invalid TOML document: /, "");
    throw new SyntaxError(
      `Cannot edit "${path}": not valid TOML at line ${err.line ?? 1}: ${first}; ${_FIX}`,
    );
  }
}

/** Reads `config.toml`; throws a one-line error for a file rtok cannot read or parse. */
export async function readCodexToml(path: string): Promise<CodexToml> {
  const text = await _readText(path);
  return { text, value: text === null ? {} : _parseToml(text, path) };
}

/** Reads `hooks.json`; throws a one-line error for a file rtok cannot read or parse. */
export async function readCodexHooks(path: string): Promise<CodexHooks> {
  const text = await _readText(path);
  if (text === null) return { text, value: null };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const m = /\(line (\d+) column \d+\)/.exec((e as Error).message);
    const why = (e as Error).message.replace(/\s*\(line \d+ column \d+\)/, "").split("\n")[0];
    throw new SyntaxError(
      `Cannot edit "${path}": not valid JSON at line ${m ? m[1] : 1}: ${why}; ${_FIX}`,
    );
  }
  if (
    !isObject(value) || (value.hooks !== undefined && !isObject(value.hooks)) ||
    (isObject(value.hooks) && Object.values(value.hooks).some((l) => !Array.isArray(l)))
  ) {
    throw new SyntaxError(
      `Cannot edit "${path}": line 1: not a Codex hooks file (an object whose "hooks" maps ` +
        `events to lists); ${_FIX}`,
    );
  }
  return { text, value };
}

function _render(value: Record<string, unknown>): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** The hook groups under the event rtok's hook is under. */
export function postGroups(value: Record<string, unknown> | null): unknown[] {
  const hooks = value?.hooks as Record<string, unknown> | undefined;
  const list = hooks?.[CODEX_EVENT];
  return Array.isArray(list) ? list : [];
}

// `value` without rtok's handlers: groups, events and a hooks object left empty go too.
function _without(value: Record<string, unknown>): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const [event, list] of Object.entries((value.hooks ?? {}) as Record<string, unknown>)) {
    const kept = (list as unknown[]).flatMap((g) => {
      if (!hasRtok(g)) return [g];
      const rest = ((g as Record<string, unknown>).hooks as unknown[]).filter((h) =>
        !isRtokCodexHandler(h)
      );
      return rest.length ? [{ ...(g as Record<string, unknown>), hooks: rest }] : [];
    });
    if (kept.length) hooks[event] = kept;
  }
  const out: Record<string, unknown> = { ...value };
  if (Object.keys(hooks).length) out.hooks = hooks;
  else delete out.hooks;
  return out;
}

function _anyRtok(value: Record<string, unknown> | null): boolean {
  if (!value) return false;
  return Object.values((value.hooks ?? {}) as Record<string, unknown[]>).some((l) =>
    l.some(hasRtok)
  );
}

/** Where rtok's block is in a `config.toml` text: its start, its end, and the file's origin. */
interface _Block {
  readonly start: number;
  readonly end: number;
  readonly created: boolean;
}

function _findBlock(text: string): _Block | null {
  const lines = text.split("\n");
  let at = 0;
  let start = -1;
  let created = false;
  for (const line of lines) {
    if (start < 0 && (line === CODEX_BLOCK_BEGIN || line === _BEGIN_CREATED)) {
      start = at;
      created = line === _BEGIN_CREATED;
    } else if (start >= 0 && line === CODEX_BLOCK_END) {
      const end = Math.min(text.length, at + line.length + 1);
      return { start, end, created };
    }
    at += line.length + 1;
  }
  return null;
}

/**
 * `text` without rtok's block and the one newline rtok put before it; `null` when the file
 * is to go (rtok created it and nothing else is in it). The text as is when there is none.
 */
export function removeCodexBlock(text: string): string | null {
  const b = _findBlock(text);
  if (!b) return text;
  let head = text.slice(0, b.start);
  if (head.endsWith("\n")) head = head.slice(0, -1);
  const rest = head + text.slice(b.end);
  return rest === "" && b.created ? null : rest;
}

/**
 * `text` (`null`: no file) with rtok's block appended: a newline first when the text has
 * content (a blank line before the block when it ended in one), then the trust table.
 */
export function appendCodexBlock(text: string | null, key: string, hash: string): string {
  const begin = text === null ? _BEGIN_CREATED : CODEX_BLOCK_BEGIN;
  const body = text ?? "";
  const block = `${begin}\n[hooks.state.${JSON.stringify(key)}]\n` +
    `trusted_hash = ${JSON.stringify(hash)}\n${CODEX_BLOCK_END}\n`;
  return body === "" ? block : `${body}\n${block}`;
}

/** The `[hooks.state."<key>"]` table of `config.toml`, or `null`. */
export function trustState(
  value: Record<string, unknown>,
  key: string,
): Record<string, unknown> | null {
  const hooks = value.hooks;
  const state = isObject(hooks) ? hooks.state : undefined;
  const entry = isObject(state) ? state[key] : undefined;
  return isObject(entry) ? entry : null;
}

/** True when `config.toml` turns Codex's hooks off. */
export function hooksOff(value: Record<string, unknown>): boolean {
  return isObject(value.features) && value.features.hooks === false;
}

async function _write(path: string, before: string | null, after: string | null, notes: string[]) {
  if (after === null) {
    await Deno.remove(path);
    return;
  }
  if (before !== null) {
    notes.push(`backed up ${path} to ${await backupFile(path, new TextEncoder().encode(before))}`);
  }
  await writeAtomic(path, after);
}

async function _uninstall(opts: InstallOptions, home: string): Promise<InstallResult> {
  const hooksPath = `${home}/hooks.json`;
  const configPath = `${home}/config.toml`;
  const [hooks, config] = await Promise.all([readCodexHooks(hooksPath), readCodexToml(configPath)]);
  const changes: FileChange[] = [];
  const notes: string[] = [];
  if (hooks.text !== null && hooks.value && _anyRtok(hooks.value)) {
    const rest = _without(hooks.value);
    const after = await originalBackup(hooksPath, rest) ??
      (Object.keys(rest).length === 0 ? null : _render(rest));
    changes.push({ path: hooksPath, before: hooks.text, after });
    const ours = postGroups(hooks.value).findIndex(hasRtok);
    if (ours >= 0 && postGroups(hooks.value).length > ours + 1) {
      notes.push(
        `the PostToolUse hooks after rtok's in ${hooksPath} move up one place: Codex asks to ` +
          "trust them again (its /hooks screen)",
      );
    }
  }
  if (config.text !== null && _findBlock(config.text)) {
    changes.push({ path: configPath, before: config.text, after: removeCodexBlock(config.text) });
  }
  if (changes.length === 0) {
    return { changes, notes: [`no rtok hook in ${hooksPath}: nothing to remove`] };
  }
  if (!opts.dryRun) { for (const c of changes) await _write(c.path, c.before, c.after, notes); }
  notes.push("Codex CLI no longer runs rtok after its shell calls");
  return { changes, notes };
}

async function _install(opts: InstallOptions): Promise<InstallResult> {
  const home = codexHome(opts.env);
  if (opts.uninstall) return await _uninstall(opts, home);
  const hooksPath = `${home}/hooks.json`;
  const configPath = `${home}/config.toml`;
  const [hooks, config] = await Promise.all([readCodexHooks(hooksPath), readCodexToml(configPath)]);
  const changes: FileChange[] = [];
  const notes: string[] = [];

  // hooks.json: rtok's group kept where it is (other hooks' trust keys are positional).
  const group = codexHookGroup(opts.rtok);
  const list = [...postGroups(hooks.value)];
  let index = list.findIndex(_onlyRtok);
  if (index < 0) index = list.push(group) - 1;
  else list[index] = group;
  const value = hooks.value ?? {};
  const next = { ...value, hooks: { ...(value.hooks ?? {}) as object, [CODEX_EVENT]: list } };
  const hooksAfter = hooks.text !== null && canonicalJson(value) === canonicalJson(next)
    ? hooks.text
    : _render(next);
  if (hooksAfter !== hooks.text) {
    changes.push({ path: hooksPath, before: hooks.text, after: hooksAfter });
  }

  // config.toml: the trust, in rtok's block at the end (any older block of rtok's replaced).
  const key = codexTrustKey(realPath(hooksPath), CODEX_EVENT_KEY, index);
  const hash = await codexHookHash(CODEX_EVENT_KEY, group);
  const base = config.text === null ? null : removeCodexBlock(config.text);
  const baseValue = base === config.text ? config.value : _parseToml(base ?? "", configPath);
  const own = trustState(baseValue, key);
  let configAfter: string | null = config.text;
  if (own?.trusted_hash === hash) configAfter = base;
  else if (own) {
    notes.push(
      `not done: ${configPath} already has its own [hooks.state."${key}"], so rtok did not ` +
        "trust its hook there: trust it in Codex's /hooks screen, or Codex skips it",
    );
  } else {
    const created = config.text === null || base === null;
    const candidate = appendCodexBlock(created ? null : base ?? "", key, hash);
    try {
      parseToml(candidate);
      configAfter = candidate;
    } catch {
      notes.push(
        `not done: rtok's trust table would not fit in ${configPath} (its hooks.state is ` +
          "written inline): trust rtok's hook in Codex's /hooks screen, or Codex skips it",
      );
    }
  }
  if (own?.enabled === false) {
    notes.push(`not done: ${configPath} turns rtok's hook off (enabled = false)`);
  }
  if (hooksOff(baseValue)) {
    notes.push(
      `not done: ${configPath} turns Codex's hooks off ([features] hooks = false): rtok's hook ` +
        "runs once they are on",
    );
  }
  if (configAfter !== config.text) {
    changes.push({ path: configPath, before: config.text, after: configAfter });
  }
  if (changes.length === 0) notes.push(`rtok's hook is already installed in ${hooksPath}`);
  else if (!opts.dryRun) {
    for (const c of changes) await _write(c.path, c.before, c.after, notes);
  }
  notes.push(
    `Codex CLI runs "${codexHookCommand(opts.rtok)}" after each shell call, trusted in ` +
      `${configPath} so it runs with no flag: rtok puts its output in place of a command it ` +
      "filters (git log, grep, ls…) or compresses a long one, and keeps the raw bytes for " +
      "rtok expand",
    "not done: rtok does not rewrite Codex's commands before they run (Codex takes a rewrite " +
      "only with permissionDecision allow, and the command would run in Codex's sandbox); it " +
      "filters their output instead",
  );
  return { changes, notes };
}

/** Codex CLI's installer: `PostToolUse` in `hooks.json`, trusted in `config.toml`. */
export const INSTALLER: HostInstaller = { install: _install };
