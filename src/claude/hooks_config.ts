/**
 * Claude Code's settings files as data: which hooks rtok installs, how to tell its own hooks
 * and rival rewriters apart from everything else, and edits that touch nothing but those.
 * No I/O: callers read and write the files.
 *
 * @module
 */

import { joinPath } from "../core/paths.ts";
import { HOOK_EVENTS } from "./hook_protocol.ts";

/** A settings file's contents: a JSON object. */
export type Settings = Record<string, unknown>;

/** Seconds Claude Code gives rtok's hook before it gives up on it. */
export const HOOK_TIMEOUT_S = 10;

/** One hook command found in a settings file. */
export interface ListedHook {
  /** The event it runs on. */
  readonly event: string;
  /** Its group's matcher, or `null` when the group has none. */
  readonly matcher: string | null;
  /** For an HTTP hook, the bearer secret its `Authorization` header sends, when it sends one. */
  readonly secret?: string;
  /** The shell command, or for an HTTP hook `POST <url>`. */
  readonly command: string;
  /** For an HTTP hook, its URL. */
  readonly url?: string;
}

/** What {@linkcode installHooks} did. */
export interface InstallResult {
  /** The edited copy. */
  readonly settings: Settings;
  /** Hook entries appended. */
  readonly added: number;
  /** Existing rtok hooks whose command was changed to the new one. */
  readonly updated: number;
}

/** What {@linkcode uninstallHooks} did. */
export interface UninstallResult {
  /** The edited copy. */
  readonly settings: Settings;
  /** rtok hooks removed. */
  readonly removed: number;
}

/** A rival's hook that {@linkcode retireRivals} removed. */
export interface RetiredHook {
  /** The event it was on. */
  readonly event: string;
  /** Its command. */
  readonly command: string;
  /** Which rival it is (`rtk`, `snip`). */
  readonly name: string;
}

/** What {@linkcode retireRivals} did. */
export interface RetireResult {
  /** The edited copy. */
  readonly settings: Settings;
  /** The hooks removed, in file order. */
  readonly retired: RetiredHook[];
}

/** Where Claude Code keeps the settings files rtok reads and edits. */
export interface SettingsPaths {
  /** The user's settings: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`. */
  readonly user: string;
  /** The project's shared settings: `<cwd>/.claude/settings.json`. */
  readonly project: string;
  /** The project's personal settings: `<cwd>/.claude/settings.local.json`. */
  readonly local: string;
}

/** Other tools known to rewrite Bash commands from a PreToolUse hook. */
const _RIVALS: readonly string[] = ["rtk", "snip"];

type _Hook = Record<string, unknown> & { command?: string };
type _Group = Record<string, unknown> & { matcher?: string; hooks: _Hook[] };
type _Table = Record<string, _Group[]>;

/**
 * The settings files' paths from the environment's values. An empty `claudeConfigDir` counts
 * as unset, as an empty variable does for Claude Code. Throws when the user's file has no home.
 */
export function settingsPaths(
  env: { readonly home?: string; readonly claudeConfigDir?: string },
  cwd: string,
): SettingsPaths {
  let userDir: string;
  if (env.claudeConfigDir) userDir = env.claudeConfigDir;
  else if (env.home) userDir = joinPath(env.home, ".claude");
  else throw new Error("Cannot find Claude Code's settings: set HOME or CLAUDE_CONFIG_DIR");
  const projectDir = joinPath(cwd, ".claude");
  return {
    user: joinPath(userDir, "settings.json"),
    project: joinPath(projectDir, "settings.json"),
    local: joinPath(projectDir, "settings.local.json"),
  };
}

/**
 * Parses a settings file's text. An empty file is `{}`. Throws a `SyntaxError` whose one-line
 * message names `path` when the text is not JSON or not a JSON object.
 */
export function parseSettings(text: string, path: string): Settings {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // V8 quotes the offending text, newlines and all; the message must stay one line.
    const reason = (e as Error).message.replace(/\s+/g, " ").slice(0, 160);
    throw new SyntaxError(`"${path}" is not valid JSON (${reason})`);
  }
  if (!_isObject(value)) throw new SyntaxError(`"${path}" does not hold a JSON object`);
  return value;
}

/**
 * True for a command rtok installed: `rtok hook claude` with rtok by name or by path (quoted
 * or not), or Deno running rtok's `cli.ts` with `hook claude`. Anything more (a second command,
 * a substitution) is not rtok's.
 */
export function isRtokHookCommand(command: string): boolean {
  const trimmed = command.trim();
  if (!trimmed.endsWith(" hook claude")) return false;
  const { words, plain } = _words(trimmed);
  const n = words.length;
  if (!plain || n < 3 || words[n - 2] !== "hook" || words[n - 1] !== "claude") return false;
  const program = _basename(words[0]);
  if (n === 3 && program === "rtok") return true;
  return program === "deno" && words[1] === "run" && n >= 4 && words[n - 3].endsWith("cli.ts");
}

/** Where `rtok init --serve` points the hooks: rtok's resident server. */
export interface ServeTarget {
  /** `http://127.0.0.1:<port>/hook/claude`. */
  readonly url: string;
  /** The bearer secret the hooks send. */
  readonly secret: string;
  /** The SessionStart command that keeps the server running (`rtok serve --ensure`). */
  readonly ensure: string;
}

const _RTOK_URL = /^http:\/\/127\.0\.0\.1:\d+\/hook\/claude$/;

/** True for a hook rtok installed for its resident server: an HTTP POST to its hook path. */
export function isRtokHttpHook(hook: Readonly<Record<string, unknown>>): boolean {
  return hook.type === "http" && typeof hook.url === "string" && _RTOK_URL.test(hook.url);
}

/** True for the command that keeps rtok's server running: rtok's invocation, `serve --ensure`. */
export function isRtokEnsureCommand(command: string): boolean {
  const trimmed = command.trim();
  if (!trimmed.endsWith(" serve --ensure")) return false;
  return isRtokHookCommand(trimmed.slice(0, -" serve --ensure".length) + " hook claude");
}

/** True for a listed hook that is rtok's, on either transport (see {@linkcode listHooks}). */
export function isRtokListed(h: ListedHook): boolean {
  if (h.url !== undefined) return _RTOK_URL.test(h.url);
  return isRtokHookCommand(h.command) || isRtokEnsureCommand(h.command);
}

function _isRtok(hook: Readonly<Record<string, unknown>>): boolean {
  if (isRtokHttpHook(hook)) return true;
  return typeof hook.command === "string" &&
    (isRtokHookCommand(hook.command) || isRtokEnsureCommand(hook.command));
}

/**
 * The name of a known other command-rewriting hook that `command` runs (`rtk`, `snip`), or
 * `null`. A word counts when it, or its basename, is the name or starts with the name and a
 * separator (`rtk-rewrite.sh`), so `rtkit` and `snippet` do not.
 */
export function isRivalRewriter(command: string): string | null {
  if (isRtokHookCommand(command)) return null;
  for (const word of _words(command).words) {
    const base = _basename(word);
    for (const name of _RIVALS) {
      if (base === name || (base.startsWith(name) && /^[-_.]/.test(base.slice(name.length)))) {
        return name;
      }
    }
  }
  return null;
}

/**
 * A copy of `settings` with rtok's hook on every {@linkcode HOOK_EVENTS} event: the command
 * `command`, or with `serve` an HTTP hook to rtok's resident server (and on SessionStart the
 * command that keeps it running). rtok's hooks of the other transport go; an event whose rtok
 * hooks are already as wanted is left as it is, in place. Everything else keeps its place.
 */
export function installHooks(
  settings: Settings,
  command: string,
  serve?: ServeTarget,
): InstallResult {
  const out = structuredClone(settings);
  let table = _table(out);
  if (table === undefined) {
    table = {};
    out.hooks = table;
  }
  let added = 0;
  let updated = 0;
  for (const { event, matcher } of HOOK_EVENTS) {
    if (!Object.hasOwn(table, event)) table[event] = [];
    // Claude Code runs no HTTP hook on SessionStart (seen with 2.1.332: "HTTP hooks are not
    // supported for SessionStart"): there the server is started and the event answered by
    // commands.
    const want: Record<string, unknown>[] = !serve
      ? [{ type: "command", command, timeout: HOOK_TIMEOUT_S }]
      : event === "SessionStart"
      ? [
        { type: "command", command: serve.ensure, timeout: HOOK_TIMEOUT_S },
        { type: "command", command, timeout: HOOK_TIMEOUT_S },
      ]
      : [{
        type: "http",
        url: serve.url,
        headers: { Authorization: `Bearer ${serve.secret}` },
        timeout: HOOK_TIMEOUT_S,
      }];
    const groups = table[event];
    const mine = groups.flatMap((g) => g.hooks.filter((h) => _isRtok(h)));
    const same = mine.length === want.length &&
      mine.every((h, i) => _sameHook(h, want[i]));
    if (same) continue;
    // The first group holding an rtok hook keeps the new ones, in its place; else a new group.
    let home = groups.find((g) => g.hooks.some((h) => _isRtok(h)));
    for (const g of groups) g.hooks = g.hooks.filter((h) => !_isRtok(h));
    if (home) {
      home.hooks.push(...want);
      updated++;
    } else {
      home = matcher === null ? { hooks: want } : { matcher, hooks: want };
      groups.push(home);
      added++;
    }
    table[event] = groups.filter((g) => g.hooks.length > 0);
  }
  return { settings: out, added, updated };
}

// The same rtok hook: transport, target and secret (a timeout of the user's own is kept).
function _sameHook(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>) {
  if (a.type === "http" || b.type === "http") {
    return a.type === b.type && a.url === b.url &&
      JSON.stringify(a.headers ?? null) === JSON.stringify(b.headers ?? null);
  }
  return a.command === b.command;
}

/** A copy of `settings` without rtok's hooks; groups, events and `hooks` emptied by that go. */
export function uninstallHooks(settings: Settings): UninstallResult {
  const { settings: out, removed } = _removeWhere(
    settings,
    (hook) => _isRtok(hook) ? "rtok" : null,
  );
  return { settings: out, removed: removed.length };
}

/**
 * A copy of `settings` without the hooks of known rival rewriters (see
 * {@linkcode isRivalRewriter}), on any event; groups, events and `hooks` emptied by that go.
 */
export function retireRivals(settings: Settings): RetireResult {
  const { settings: out, removed } = _removeWhere(
    settings,
    (hook) => typeof hook.command === "string" ? isRivalRewriter(hook.command) : null,
  );
  return { settings: out, retired: removed };
}

/** Every command and HTTP hook in `settings`, in file order. */
export function listHooks(settings: Settings): ListedHook[] {
  const table = _table(settings);
  const list: ListedHook[] = [];
  if (table === undefined) return list;
  for (const [event, groups] of Object.entries(table)) {
    for (const group of groups) {
      for (const hook of group.hooks) {
        const matcher = group.matcher ?? null;
        if (hook.type === "http" && typeof hook.url === "string") {
          const headers = hook.headers as Record<string, unknown> | undefined;
          const auth = headers && typeof headers === "object"
            ? Object.entries(headers).find(([k]) => k.toLowerCase() === "authorization")?.[1]
            : undefined;
          const secret = typeof auth === "string" ? /^Bearer (\S+)$/.exec(auth)?.[1] : undefined;
          list.push({
            event,
            matcher,
            command: `POST ${hook.url}`,
            url: hook.url,
            ...(secret ? { secret } : {}),
          });
        } else if (typeof hook.command === "string") {
          list.push({ event, matcher, command: hook.command });
        }
      }
    }
  }
  return list;
}

/**
 * True when a PreToolUse group with `matcher` runs for the Bash tool, the way Claude Code
 * matches: absent, empty or `*` match all; names joined by `|` match exactly; anything else
 * is a regular expression tested against the tool name.
 */
export function matcherMatchesBash(matcher: string | null): boolean {
  if (matcher === null || matcher === "" || matcher === "*") return true;
  if (/^[A-Za-z0-9_|]+$/.test(matcher)) return matcher.split("|").includes("Bash");
  try {
    return new RegExp(matcher).test("Bash");
  } catch {
    return false;
  }
}

/** Removes the command hooks `verdict` names (non-null), keeping the emptiness rules. */
function _removeWhere(
  settings: Settings,
  verdict: (hook: Readonly<Record<string, unknown>>) => string | null,
): { settings: Settings; removed: RetiredHook[] } {
  const out = structuredClone(settings);
  const removed: RetiredHook[] = [];
  const table = _table(out);
  if (table === undefined) return { settings: out, removed };
  let droppedEvent = false;
  for (const event of Object.keys(table)) {
    let touched = false;
    const keptGroups: _Group[] = [];
    for (const group of table[event]) {
      const kept = group.hooks.filter((hook) => {
        const name = verdict(hook);
        if (name === null) return true;
        const said = typeof hook.command === "string" ? hook.command : `POST ${String(hook.url)}`;
        removed.push({ event, command: said, name });
        return false;
      });
      if (kept.length === group.hooks.length) {
        keptGroups.push(group);
        continue;
      }
      touched = true;
      if (kept.length === 0) continue;
      group.hooks = kept;
      keptGroups.push(group);
    }
    if (!touched) continue;
    if (keptGroups.length > 0) {
      table[event] = keptGroups;
    } else {
      delete table[event];
      droppedEvent = true;
    }
  }
  if (droppedEvent && Object.keys(table).length === 0) delete out.hooks;
  return { settings: out, removed };
}

/**
 * The `hooks` table of `settings`, checked all the way down; `undefined` when absent. Throws a
 * `TypeError` naming the key path of the first thing that is not the shape Claude Code reads,
 * so no edit is made to a structure this code does not understand.
 */
function _table(settings: Settings): _Table | undefined {
  if (!_isObject(settings)) throw new TypeError("the settings are not a JSON object");
  if (!Object.hasOwn(settings, "hooks")) return undefined;
  const table = settings.hooks;
  if (!_isObject(table)) throw new TypeError(`"hooks" is not an object`);
  for (const [event, groups] of Object.entries(table)) {
    const at = `hooks.${event}`;
    if (!Array.isArray(groups)) throw new TypeError(`"${at}" is not a list`);
    groups.forEach((group: unknown, i) => {
      const g = `${at}[${i}]`;
      if (!_isObject(group)) throw new TypeError(`"${g}" is not an object`);
      if (Object.hasOwn(group, "matcher") && typeof group.matcher !== "string") {
        throw new TypeError(`"${g}.matcher" is not a string`);
      }
      if (!Array.isArray(group.hooks)) throw new TypeError(`"${g}.hooks" is not a list`);
      group.hooks.forEach((hook: unknown, j) => {
        const h = `${g}.hooks[${j}]`;
        if (!_isObject(hook)) throw new TypeError(`"${h}" is not an object`);
        if (Object.hasOwn(hook, "command") && typeof hook.command !== "string") {
          throw new TypeError(`"${h}.command" is not a string`);
        }
      });
    });
  }
  return table as _Table;
}

function _isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function _basename(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/**
 * A command line's words with quotes removed, split also at shell operators. `plain` is false
 * when the line has an operator or a command substitution, i.e. runs more than one program.
 */
function _words(line: string): { words: string[]; plain: boolean } {
  const words: string[] = [];
  let plain = true;
  let word = "";
  let inWord = false;
  const end = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const close = line.indexOf("'", i + 1);
      const stop = close < 0 ? line.length : close;
      word += line.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) i++;
        else if (line[i] === "`" || (line[i] === "$" && line[i + 1] === "(")) plain = false;
        word += line[i];
      }
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (";&|<>()`\n".includes(c) || (c === "$" && line[i + 1] === "(")) {
      plain = false;
      end();
    } else if (/\s/.test(c)) {
      end();
    } else {
      word += c;
      inWord = true;
    }
  }
  end();
  return { words, plain };
}
