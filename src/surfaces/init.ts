/**
 * `rtok init`: installs rtok's hooks into Claude Code's settings, or removes them, touching
 * nothing else in the file and keeping a backup of what it replaced.
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
  type ServeTarget,
  type Settings,
  settingsPaths,
  uninstallHooks,
} from "../claude/hooks_config.ts";
import {
  MCP_SERVER_NAME,
  mcpConfigPaths,
  mcpEntry,
  registerMcp,
  unregisterMcp,
} from "../claude/mcp_config.ts";
import { backupFile, writeAtomic } from "../core/settings_file.ts";
import { HOST_ENV } from "../core/permissions.ts";
import { hookCommand, rtokInvocation, selfArgv } from "../core/self.ts";
import { runCaptured } from "../core/spawn.ts";
import { rtokHome } from "../core/config.ts";
import {
  freePort,
  newSecret,
  readServeState,
  stopServer,
  writeServeState,
} from "./_serve_state.ts";
import { VERSION } from "./_help.ts";
import { print, warn } from "./_io.ts";

const _USAGE = `Usage: rtok init [--project] [--mcp] [--dry-run] [--uninstall] [--replace]
       rtok init --host codex|gemini|opencode|copilot [--dry-run] [--uninstall]

Installs rtok's hook into Claude Code's settings: PreToolUse (Bash), PostToolUse,
SessionStart, UserPromptSubmit, PreCompact and Stop. Every other setting and hook is kept;
the file is backed up first (<file>.rtok-backup-<time>).

  --project    edit ./.claude/settings.json instead of ~/.claude/settings.json
               (or $CLAUDE_CONFIG_DIR/settings.json)
  --mcp        also register rtok's MCP server (rtok mcp) with Claude Code: in
               ~/.claude.json (or $CLAUDE_CONFIG_DIR/.claude.json), with --project
               in ./.mcp.json; --uninstall always removes it too
  --dry-run    show what would change; write nothing
  --uninstall  remove rtok's hooks, and nothing else
  --replace    also remove other tools' command rewriters (rtk, snip), which race with rtok
  --no-serve   command hooks: rtok starts on every hook call. Without it the hooks go
               to rtok's resident server (rtok serve) over loopback HTTP, a SessionStart
               command keeps it running (rtok serve --ensure), and init starts it now
  --host H     install into another agent host instead (codex, gemini, opencode,
               copilot): its own hook files, written its own way; what the host cannot
               do is said in one line each
  --help       this text
`;

interface _Flags {
  host: string | null;
  project: boolean;
  serve: boolean;
  mcp: boolean;
  dryRun: boolean;
  uninstall: boolean;
  replace: boolean;
  help: boolean;
}

/** Runs `rtok init`; returns 0 when the settings are as asked. */
export async function main(args: readonly string[]): Promise<number> {
  const flags = _parseFlags(args);
  if (flags.help) {
    await print(_USAGE);
    return 0;
  }
  if (flags.host !== null && flags.host !== "claude") return await _host(flags.host, flags);
  const code = await _hooks(flags);
  // An uninstall removes everything rtok installed, so no server is left pointing at it.
  if (flags.mcp) await _mcp(flags);
  else if (flags.uninstall) {
    // Unasked for, the MCP entry's removal must not fail an uninstall that already worked.
    try {
      await _mcp(flags);
    } catch (e) {
      warn(`the MCP server registration was left as it was: ${(e as Error).message}`);
    }
  }
  return code;
}

// Claude Code's MCP server list: rtok's entry added (idempotently) or removed.
async function _mcp(flags: _Flags): Promise<void> {
  const paths = mcpConfigPaths({
    home: Deno.env.get("HOME"),
    claudeConfigDir: Deno.env.get("CLAUDE_CONFIG_DIR"),
  }, Deno.cwd());
  const path = flags.project ? paths.project : paths.user;
  const { settings, bytes } = await _read(path);
  const entry = mcpEntry(rtokInvocation());
  let change;
  try {
    change = flags.uninstall ? unregisterMcp(settings) : registerMcp(settings, entry);
  } catch (e) {
    throw new TypeError(`Cannot edit "${path}": ${(e as Error).message}; ${_FIX}`);
  }
  const what = flags.uninstall
    ? `MCP server "${MCP_SERVER_NAME}"`
    : `MCP server "${MCP_SERVER_NAME}" (${[entry.command, ...entry.args].join(" ")})`;
  if (!change.changed) {
    if (!flags.uninstall) await print(`${what} already registered in ${path}\n`);
    else if (flags.mcp) await print(`no rtok MCP server in ${path}: nothing to remove\n`);
    return;
  }
  const verb = flags.uninstall ? "remove" : "register";
  if (flags.dryRun) {
    await print(`would ${verb} ${what} in ${path}\ndry run: nothing written\n`);
    return;
  }
  const out: string[] = [];
  if (bytes !== null) out.push(`backed up ${path} to ${await backupFile(path, bytes)}`);
  await writeAtomic(path, JSON.stringify(change.config, null, 2) + "\n");
  out.push(flags.uninstall ? `removed ${what} from ${path}` : `registered ${what} in ${path}`);
  if (!flags.uninstall && flags.project) {
    out.push("Claude Code asks each user to approve a project's .mcp.json servers once.");
  }
  await print(out.join("\n") + "\n");
}

// The hooks in Claude Code's settings: installed, replaced or removed.
async function _hooks(flags: _Flags): Promise<number> {
  const paths = settingsPaths({
    home: Deno.env.get("HOME"),
    claudeConfigDir: Deno.env.get("CLAUDE_CONFIG_DIR"),
  }, Deno.cwd());
  const path = flags.project ? paths.project : paths.user;
  const { settings, bytes } = await _read(path);

  const command = hookCommand();
  const serve = flags.serve && !flags.uninstall ? _serveTarget(flags.dryRun) : undefined;
  let after: Settings;
  let retired: RetiredHook[] = [];
  try {
    if (flags.uninstall) {
      after = uninstallHooks(settings).settings;
    } else {
      after = installHooks(settings, command, serve).settings;
      if (flags.replace) ({ settings: after, retired } = retireRivals(after));
    }
  } catch (e) {
    throw new TypeError(`Cannot edit "${path}": ${(e as Error).message}; ${_FIX}`);
  }

  const diff = _diff(listHooks(settings), listHooks(after), retired);
  if (JSON.stringify(after) === JSON.stringify(settings)) {
    await print(
      flags.uninstall
        ? `no rtok hooks in ${path}: nothing to remove\n`
        : `rtok hooks already installed in ${path}\n`,
    );
    return 0;
  }
  if (flags.dryRun) {
    await print(`would change ${path}:\n${diff}dry run: nothing written\n`);
    return 0;
  }

  const out: string[] = [];
  if (bytes !== null) out.push(`backed up ${path} to ${await backupFile(path, bytes)}`);
  await writeAtomic(path, JSON.stringify(after, null, 2) + "\n");
  out.push(diff.trimEnd());
  if (flags.uninstall) {
    out.push(`removed rtok's hooks from ${path}`);
    const stopped = await _stopServer();
    if (stopped) out.push(stopped);
  } else {
    out.push(`installed rtok's hooks in ${path}`);
    out.push(
      serve
        ? `hooks: ${serve.url} (rtok serve); kept running by: ${serve.ensure}`
        : `hook command: ${command}`,
    );
    if (serve) out.push(await _startServer());
    for (const r of retired) {
      out.push(`retired ${r.name}'s hook on ${r.event}: ${r.command} (kept in the backup)`);
    }
  }
  out.push(
    "Claude Code reads hooks when a session starts: restart running sessions for this to apply.",
  );
  await print(out.join("\n") + "\n");
  return 0;
}

const _FIX = "fix it or move it aside, then run rtok init again";

// The server started now, so the hooks answer before the next session starts one.
async function _startServer(): Promise<string> {
  const [program, ...rest] = selfArgv();
  const done = await runCaptured([program, ...rest, "serve", "--ensure"], {
    timeoutMs: 10_000,
    holdBytes: 64 * 1024,
  });
  const state = readServeState(rtokHome());
  if (done.code === 0 && state?.pid) return `rtok serve answers on 127.0.0.1:${state.port}`;
  return `rtok serve did not start (${
    new TextDecoder().decode(done.stderr).trim().split("\n")[0] || `exit ${done.code}`
  }); the next session start tries again, and the tools run unchanged until then`;
}

// An uninstall leaves no server behind: one that answers is stopped.
async function _stopServer(): Promise<string | null> {
  try {
    return await stopServer(rtokHome());
  } catch {
    return null;
  }
}

// The server the hooks will name: its port and secret kept in serve.json, made now when there
// is none (a dry run makes nothing and shows a placeholder).
function _serveTarget(dryRun: boolean): ServeTarget {
  const ensure = `${rtokInvocation()} serve --ensure`;
  const home = rtokHome();
  let state = readServeState(home);
  if (state === null || !state.port) {
    if (dryRun) return { url: "http://127.0.0.1:<port>/hook/claude", secret: "<secret>", ensure };
    state = { port: freePort(), secret: state?.secret ?? newSecret(), pid: 0, version: VERSION };
    writeServeState(home, state);
  }
  return { url: `http://127.0.0.1:${state.port}/hook/claude`, secret: state.secret, ensure };
}

function _parseFlags(args: readonly string[]): _Flags {
  const flags: _Flags = {
    host: null,
    project: false,
    serve: true,
    mcp: false,
    dryRun: false,
    uninstall: false,
    replace: false,
    help: false,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--host" || arg.startsWith("--host=")) {
      flags.host = arg === "--host" ? args[++i] ?? "" : arg.slice("--host=".length);
      continue;
    }
    if (arg === "--project") flags.project = true;
    else if (arg === "--mcp") flags.mcp = true;
    else if (arg === "--dry-run") flags.dryRun = true;
    else if (arg === "--uninstall") flags.uninstall = true;
    else if (arg === "--replace") flags.replace = true;
    else if (arg === "--serve") flags.serve = true;
    else if (arg === "--no-serve") flags.serve = false;
    else if (arg === "--help" || arg === "-h") flags.help = true;
    else throw new TypeError(`unknown option "${arg}" for rtok init; see rtok init --help`);
  }
  if (flags.uninstall && flags.replace) {
    throw new TypeError(
      "--uninstall and --replace do not go together: --replace installs rtok in the rivals' place",
    );
  }
  return flags;
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

// Another host: its installer edits its own files; init says what changed and what could not be.
async function _host(name: string, flags: _Flags): Promise<number> {
  const { HOST_IDS, isHostId, loadHost } = await import("../hosts/hosts.ts");
  if (!isHostId(name)) {
    throw new TypeError(
      `unknown host "${name}" for rtok init --host; the hosts are: claude, ${HOST_IDS.join(", ")}`,
    );
  }
  if (flags.project || flags.mcp || flags.replace) {
    throw new TypeError(
      `--project, --mcp and --replace are Claude Code's; rtok init --host ${name} takes ` +
        "--dry-run and --uninstall",
    );
  }
  const { INSTALLER } = await loadHost(name);
  const script = await import("../hosts/command_hook.ts");
  const home = rtokHome();
  const rtok = rtokInvocation();
  const out: string[] = [];
  // A host that runs a command per call runs rtok's script, which asks the server first.
  if (script.COMMAND_HOOK_HOSTS.includes(name) && !flags.uninstall && !flags.dryRun) {
    if (await script.writeCommandHook(home, rtok)) {
      const path = script.commandHookPath(home);
      out.push(`wrote ${path}: it asks rtok serve first, else runs ${rtok} hook ${name}`);
    }
  }
  const result = await INSTALLER.install({
    rtok: script.hostHookWords(name, home, rtok),
    env: hostEnv(),
    cwd: Deno.cwd(),
    uninstall: flags.uninstall,
    dryRun: flags.dryRun,
  });
  for (const c of result.changes) {
    const what = c.after === null ? "remove" : c.before === null ? "create" : "change";
    out.push(`${flags.dryRun ? `would ${what}` : `${what}d`} ${c.path}`);
    if (flags.dryRun && c.after !== null) {
      out.push(...c.after.trimEnd().split("\n").map((l) => `  ${l}`));
    }
  }
  if (result.changes.length === 0) out.push("nothing to change");
  out.push(...result.notes);
  await print(out.join("\n") + "\n");
  return 0;
}

/** The environment variables a host installer reads (those rtok may read at all). */
export function hostEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const name of HOST_ENV) env[name] = Deno.env.get(name);
  return env;
}
