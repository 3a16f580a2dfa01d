/**
 * `rtok init` for Claude Code: rtok's hooks in its settings (the user's, or with `project`
 * the project's), kept idempotent, every other setting and hook kept and the file backed up
 * first; with `mcp`, rtok's MCP server in its server list; with `replace`, the rival
 * rewriters' hooks retired. The settings data (which hooks, whose they are) is
 * `src/claude/hooks_config.ts` and `src/claude/mcp_config.ts`; this module reads and writes
 * the files and words what changed.
 *
 * @module
 */

import {
  installHooks,
  type ListedHook,
  listHooks,
  parseSettings,
  type RetiredHook,
  retireRivals,
  type Settings,
  settingsPaths,
  uninstallHooks,
} from "../../claude/hooks_config.ts";
import {
  MCP_SERVER_NAME,
  mcpConfigPaths,
  mcpEntry,
  registerMcp,
  unregisterMcp,
} from "../../claude/mcp_config.ts";
import { backupFile, writeAtomic } from "../../core/settings_file.ts";
import { hostHookCommand } from "../shared.ts";
import type { HostInstaller, InstallOptions, InstallResult } from "../install.ts";

const _FIX = "fix it or move it aside, then run rtok init again";

// rtok's hooks (and with `mcp` its MCP server) installed or removed; an uninstall removes the
// MCP entry too, and a failure there only warns.
async function _install(opts: InstallOptions): Promise<InstallResult> {
  const lines = await _hooks(opts);
  // An uninstall removes everything rtok installed, so no server is left pointing at it.
  if (opts.mcp) {
    try {
      lines.push(...await _mcp(opts));
    } catch (e) {
      return { changes: [], notes: [], lines, failure: e as Error };
    }
  } else if (opts.uninstall) {
    // Unasked for, the MCP entry's removal must not fail an uninstall that already worked.
    try {
      lines.push(...await _mcp(opts));
    } catch (e) {
      return {
        changes: [],
        notes: [],
        lines,
        warnings: [
          `the MCP server registration was left as it was: ${(e as Error).message}`,
        ],
      };
    }
  }
  return { changes: [], notes: [], lines };
}

// Claude Code's MCP server list: rtok's entry added (idempotently) or removed.
async function _mcp(opts: InstallOptions): Promise<string[]> {
  const paths = mcpConfigPaths({
    home: opts.env.HOME,
    claudeConfigDir: opts.env.CLAUDE_CONFIG_DIR,
  }, opts.cwd);
  const path = opts.project ? paths.project : paths.user;
  const { settings, bytes } = await _read(path);
  const entry = mcpEntry(opts.rtok);
  let change;
  try {
    change = opts.uninstall ? unregisterMcp(settings) : registerMcp(settings, entry);
  } catch (e) {
    throw new TypeError(`Cannot edit "${path}": ${(e as Error).message}; ${_FIX}`);
  }
  const what = opts.uninstall
    ? `MCP server "${MCP_SERVER_NAME}"`
    : `MCP server "${MCP_SERVER_NAME}" (${[entry.command, ...entry.args].join(" ")})`;
  if (!change.changed) {
    if (!opts.uninstall) return [`${what} already registered in ${path}`];
    if (opts.mcp) return [`no rtok MCP server in ${path}: nothing to remove`];
    return [];
  }
  const verb = opts.uninstall ? "remove" : "register";
  if (opts.dryRun) return [`would ${verb} ${what} in ${path}`, "dry run: nothing written"];
  const out: string[] = [];
  if (bytes !== null) out.push(`backed up ${path} to ${await backupFile(path, bytes)}`);
  await writeAtomic(path, JSON.stringify(change.config, null, 2) + "\n");
  out.push(opts.uninstall ? `removed ${what} from ${path}` : `registered ${what} in ${path}`);
  if (!opts.uninstall && opts.project) {
    out.push("Claude Code asks each user to approve a project's .mcp.json servers once.");
  }
  return out;
}

// The hooks in Claude Code's settings: installed, replaced or removed.
async function _hooks(opts: InstallOptions): Promise<string[]> {
  const paths = settingsPaths({
    home: opts.env.HOME,
    claudeConfigDir: opts.env.CLAUDE_CONFIG_DIR,
  }, opts.cwd);
  const path = opts.project ? paths.project : paths.user;
  const { settings, bytes } = await _read(path);

  const command = hostHookCommand(opts.rtok, "claude");
  const serve = opts.uninstall ? undefined : opts.server?.target?.();
  let after: Settings;
  let retired: RetiredHook[] = [];
  try {
    if (opts.uninstall) {
      after = uninstallHooks(settings).settings;
    } else {
      after = installHooks(settings, command, serve).settings;
      if (opts.replace) ({ settings: after, retired } = retireRivals(after));
    }
  } catch (e) {
    throw new TypeError(`Cannot edit "${path}": ${(e as Error).message}; ${_FIX}`);
  }

  const diff = _diff(listHooks(settings), listHooks(after), retired);
  if (JSON.stringify(after) === JSON.stringify(settings)) {
    return [
      opts.uninstall
        ? `no rtok hooks in ${path}: nothing to remove`
        : `rtok hooks already installed in ${path}`,
    ];
  }
  if (opts.dryRun) return [`would change ${path}:\n${diff}dry run: nothing written`];

  const out: string[] = [];
  if (bytes !== null) out.push(`backed up ${path} to ${await backupFile(path, bytes)}`);
  await writeAtomic(path, JSON.stringify(after, null, 2) + "\n");
  out.push(diff.trimEnd());
  if (opts.uninstall) {
    out.push(`removed rtok's hooks from ${path}`);
    const stopped = await opts.server?.stop();
    if (stopped) out.push(stopped);
  } else {
    out.push(`installed rtok's hooks in ${path}`);
    out.push(
      serve
        ? `hooks: ${serve.url} (rtok serve); kept running by: ${serve.ensure}`
        : `hook command: ${command}`,
    );
    if (serve && opts.server) out.push(await opts.server.start());
    for (const r of retired) {
      out.push(`retired ${r.name}'s hook on ${r.event}: ${r.command} (kept in the backup)`);
    }
  }
  out.push(
    "Claude Code reads hooks when a session starts: restart running sessions for this to apply.",
  );
  return out;
}

/** The file's settings and raw bytes (`null` when absent: start from `{}`). */
async function _read(path: string): Promise<{ settings: Settings; bytes: Uint8Array | null }> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { settings: {}, bytes: null };
    throw new Error(`Cannot read "${path}": ${(e as Error).message}`);
  }
  try {
    return { settings: parseSettings(new TextDecoder().decode(bytes), path), bytes };
  } catch (e) {
    const reason = (e as Error).message.replace(`"${path}" `, "it ");
    throw new SyntaxError(`Cannot edit "${path}": ${reason}; ${_FIX}`);
  }
}

/** `+`/`-` lines for the hooks that differ, one per hook, removals first. */
function _diff(
  before: readonly ListedHook[],
  after: readonly ListedHook[],
  retired: readonly RetiredHook[],
): string {
  const key = (h: ListedHook) => `${h.event}\u0000${h.matcher}\u0000${h.command}`;
  const remaining = new Map<string, number>();
  for (const h of after) remaining.set(key(h), (remaining.get(key(h)) ?? 0) + 1);
  const lines: string[] = [];
  const existing = new Map<string, number>();
  for (const h of before) {
    const k = key(h);
    const left = remaining.get(k) ?? 0;
    if (left > 0) {
      remaining.set(k, left - 1);
      existing.set(k, (existing.get(k) ?? 0) + 1);
      continue;
    }
    const rival = retired.find((r) => r.event === h.event && r.command === h.command);
    lines.push(`- ${_line(h)}${rival ? `   (${rival.name})` : ""}`);
  }
  for (const h of after) {
    const k = key(h);
    const had = existing.get(k) ?? 0;
    if (had > 0) existing.set(k, had - 1);
    else lines.push(`+ ${_line(h)}`);
  }
  return lines.map((l) => l + "\n").join("");
}

function _line(h: ListedHook): string {
  return `${h.event}${h.matcher === null ? "" : ` [${h.matcher}]`} ${h.command}`;
}

/** Claude Code's installer. */
export const INSTALLER: HostInstaller = { install: _install };
