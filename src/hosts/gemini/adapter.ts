/**
 * The Gemini CLI host's hook protocol (`@google/gemini-cli`, verified with the release `HOSTS`
 * names; see `scripts/probe/gemini.md`). Its hooks live in the user's `settings.json`
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

import type { PostToolAnswer, PreToolDecision } from "../../core/plugin.ts";
import { joinPath } from "../../core/paths.ts";
import { isObject } from "../shared.ts";
import { type HostAdapter, type HostEvent, readJsonObject } from "../host.ts";

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
