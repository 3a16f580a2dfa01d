/**
 * `rtok init --host copilot`: rtok's `postToolUse` hook in a file of its own in Copilot's user
 * hooks directory (`$COPILOT_HOME/hooks/rtok.json`); `--uninstall` removes it (and the
 * directory rtok made), or gives back the bytes a file rtok added to had.
 *
 * @module
 */

import { backupFile, writeAtomic } from "../../core/settings_file.ts";
import {
  canonicalJson,
  hostHome,
  hostHookCommand,
  isObject,
  jsonErrorLine,
  originalBackup,
  runsRtokHook,
} from "../shared.ts";
import type { FileChange, HostInstaller, InstallOptions, InstallResult } from "../install.ts";

/** The name of rtok's file in Copilot's user hooks directory. */
export const COPILOT_HOOKS_FILE = "rtok.json";

/** The seconds Copilot gives rtok's hook (its own default). */
export const COPILOT_HOOK_TIMEOUT_SEC = 30;

/** Copilot's home: `$COPILOT_HOME`, else `~/.copilot`. */
export function copilotHome(env: Readonly<Record<string, string | undefined>>): string {
  return hostHome(env, "COPILOT_HOME", ".copilot", "Copilot");
}

/** The hook command rtok installs. */
export function copilotHookCommand(rtok: string): string {
  return hostHookCommand(rtok, "copilot");
}

/** True for a hook entry rtok installed (`… rtok hook copilot`, or Deno running cli.ts). */
export function isRtokCopilotEntry(entry: unknown): boolean {
  if (!isObject(entry) || entry.type !== "command" || typeof entry.bash !== "string") {
    return false;
  }
  return runsRtokHook(entry.bash, "copilot");
}

/** Where a JSON text fails to parse, as a one-line reason naming the line. */
export function jsonErrorReason(text: string, error: Error): string {
  const reason = error.message.replace(/\s+/g, " ").replace(/, \.\.\.".*$/, "").slice(0, 80);
  return `line ${jsonErrorLine(text) ?? 1}: ${reason}`;
}

/** rtok's hooks file: its text and its value (`null`s: absent). */
export interface CopilotHooksFile {
  /** Its text. */
  readonly text: string | null;
  /** Its value. */
  readonly config: Record<string, unknown> | null;
}

/** Reads rtok's hooks file; throws a one-line error for one rtok cannot read or parse. */
export async function readCopilotConfig(path: string): Promise<CopilotHooksFile> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { text: null, config: null };
    throw new Error(`Cannot read "${path}": ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new SyntaxError(
      `Cannot edit "${path}": not valid JSON at ${jsonErrorReason(text, e as Error)}; ` +
        "fix it or move it aside, then run rtok init --host copilot again",
    );
  }
  if (!isObject(value) || (value.hooks !== undefined && !isObject(value.hooks))) {
    throw new SyntaxError(
      `Cannot edit "${path}": line 1: not a Copilot hooks file (an object with a "hooks" ` +
        "object); fix it or move it aside, then run rtok init --host copilot again",
    );
  }
  return { text, config: value };
}

/** The entries of `config` under `event`. */
export function hookEntries(config: Record<string, unknown>, event: string): unknown[] {
  const hooks = config.hooks as Record<string, unknown> | undefined;
  const list = hooks?.[event];
  return Array.isArray(list) ? list : [];
}

/** The content of rtok's hooks file for `rtok`. */
export function copilotHooksConfig(rtok: string): Record<string, unknown> {
  return {
    version: 1,
    hooks: {
      postToolUse: [{
        type: "command",
        bash: copilotHookCommand(rtok),
        timeoutSec: COPILOT_HOOK_TIMEOUT_SEC,
      }],
    },
  };
}

function _render(config: Record<string, unknown>): string {
  return JSON.stringify(config, null, 2) + "\n";
}

// `config` without rtok's entries: events left empty and a hooks object left empty go too.
function _without(config: Record<string, unknown>): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const [event, list] of Object.entries((config.hooks ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(list)) {
      hooks[event] = list;
      continue;
    }
    const kept = list.filter((e) => !isRtokCopilotEntry(e));
    if (kept.length) hooks[event] = kept;
  }
  const out: Record<string, unknown> = { ...config };
  if (Object.keys(hooks).length) out.hooks = hooks;
  else delete out.hooks;
  return out;
}

// Only rtok's own content is left: the file can go.
function _onlyRtok(config: Record<string, unknown>): boolean {
  const rest = _without(config);
  return Object.keys(rest).every((k) => k === "version");
}

async function _isEmptyDir(path: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(path)) return false;
    return true;
  } catch {
    return false;
  }
}

async function _install(opts: InstallOptions): Promise<InstallResult> {
  const home = copilotHome(opts.env);
  const dir = `${home}/hooks`;
  const path = `${dir}/${COPILOT_HOOKS_FILE}`;
  const { text, config } = await readCopilotConfig(path);
  const changes: FileChange[] = [];
  const notes: string[] = [];
  if (opts.uninstall) {
    if (text === null || config === null) {
      return { changes, notes: [`no rtok hooks in ${path}: nothing to remove`] };
    }
    const hooks = (config.hooks ?? {}) as Record<string, unknown>;
    if (!Object.keys(hooks).some((ev) => hookEntries(config, ev).some(isRtokCopilotEntry))) {
      return { changes, notes: [`no rtok hooks in ${path}: nothing to remove`] };
    }
    // A file rtok added to goes back to the bytes it had, when only rtok's entries changed.
    const after = await originalBackup(path, _without(config)) ??
      (_onlyRtok(config) ? null : _render(_without(config)));
    changes.push({ path, before: text, after });
    if (!opts.dryRun) {
      if (after === null) {
        await Deno.remove(path);
        // The hooks directory rtok made goes too, when nothing else is in it.
        if (await _isEmptyDir(dir)) await Deno.remove(dir).catch(() => {});
      } else {
        notes.push(
          `backed up ${path} to ${await backupFile(path, new TextEncoder().encode(text))}`,
        );
        await writeAtomic(path, after);
      }
    }
    notes.push("Copilot CLI no longer runs rtok after its bash calls");
    return { changes, notes };
  }
  const entry = copilotHooksConfig(opts.rtok);
  const wanted = (entry.hooks as Record<string, unknown[]>).postToolUse[0];
  let after: string;
  if (config === null) after = _render(entry);
  else {
    const rest = _without(config);
    const hooks = { ...(rest.hooks ?? {}) as Record<string, unknown> };
    const post = Array.isArray(hooks.postToolUse) ? hooks.postToolUse : [];
    hooks.postToolUse = [...post, wanted];
    after = _render({ ...rest, hooks });
  }
  if (text !== null && canonicalJson(JSON.parse(text)) === canonicalJson(JSON.parse(after))) {
    notes.push(`rtok's hook is already installed in ${path}`);
  } else {
    changes.push({ path, before: text, after });
    if (!opts.dryRun) {
      if (text !== null) {
        notes.push(
          `backed up ${path} to ${await backupFile(path, new TextEncoder().encode(text))}`,
        );
      }
      await writeAtomic(path, after);
    }
  }
  notes.push(
    `Copilot CLI runs "${copilotHookCommand(opts.rtok)}" after each bash call, in every mode: ` +
      "rtok replaces the output of a command it filters (git log, grep, ls…) or compresses a " +
      "long one, and keeps the raw bytes for rtok expand",
    "not done: rtok does not rewrite Copilot's commands before they run (Copilot would check " +
      "its permission rules against the rewritten command, not the agent's); it filters their " +
      "output instead",
  );
  return { changes, notes };
}

/** Copilot CLI's installer. */
export const INSTALLER: HostInstaller = { install: _install };
