/**
 * `rtok init [--host H]`: installs rtok's hooks into a host's settings (Claude Code's unless
 * `--host` names another of `HOSTS`), or removes them, through that host's installer
 * (`src/hosts/<id>/install.ts`), touching nothing else and keeping a backup of what it
 * replaced. This surface parses the flags, gives the installer rtok's resident server (its
 * port and secret, starting or stopping it), and prints the installer's report.
 *
 * @module
 */

import type { ServeTarget } from "../claude/hooks_config.ts";
import { rtokInvocation, selfArgv } from "../core/self.ts";
import { runCaptured } from "../core/spawn.ts";
import { rtokHome } from "../core/config.ts";
import { HOST_IDS, hostEnv, HOSTS, isHostId, loadInstaller, NATIVE_HOST } from "../hosts/hosts.ts";
import type { InitOption } from "../hosts/hosts.ts";
import * as script from "../hosts/command_hook.ts";
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
       rtok init --host ${HOST_IDS.join("|")} [--dry-run] [--uninstall]

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
  --host H     install into that agent host (${HOST_IDS.join(", ")}; claude
               when not given): its own hook files, written its own way; what the host
               cannot do is said in one line each
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
  return await _install(flags.host ?? NATIVE_HOST, flags);
}

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
function _serveTarget(host: string, dryRun: boolean): ServeTarget {
  const ensure = `${rtokInvocation()} serve --ensure`;
  const home = rtokHome();
  let state = readServeState(home);
  if (state === null || !state.port) {
    if (dryRun) return { url: `http://127.0.0.1:<port>/hook/${host}`, secret: "<secret>", ensure };
    state = { port: freePort(), secret: state?.secret ?? newSecret(), pid: 0, version: VERSION };
    writeServeState(home, state);
  }
  return { url: `http://127.0.0.1:${state.port}/hook/${host}`, secret: state.secret, ensure };
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

// A host's installer edits its own files; init says what changed and what could not be.
async function _install(name: string, flags: _Flags): Promise<number> {
  if (!isHostId(name)) {
    throw new TypeError(
      `unknown host "${name}" for rtok init --host; the hosts are: ${HOST_IDS.join(", ")}`,
    );
  }
  const host = HOSTS[name];
  const asked = (["project", "mcp", "replace"] as const).filter((o) => flags[o]);
  if (asked.some((o) => !host.initOptions.includes(o))) {
    const takers = HOST_IDS.filter((id) => asked.every((o) => HOSTS[id].initOptions.includes(o)));
    throw new TypeError(
      `--project, --mcp and --replace are ${takers.map((id) => HOSTS[id].name).join(", ")}'s; ` +
        `rtok init --host ${name} takes --dry-run and --uninstall`,
    );
  }
  const installer = await loadInstaller(name);
  // Only the command hook's script lives in RTOK_HOME.
  const home = host.commandHook ? rtokHome() : "";
  const rtok = rtokInvocation();
  const out: string[] = [];
  // A host that runs a command per call runs rtok's script, which asks the server first.
  if (host.commandHook && !flags.uninstall && !flags.dryRun) {
    if (await script.writeCommandHook(home, rtok)) {
      const path = script.commandHookPath(home);
      out.push(`wrote ${path}: it asks rtok serve first, else runs ${rtok} hook ${name}`);
    }
  }
  const takes = (o: InitOption) => host.initOptions.includes(o);
  const serve = takes("serve") && flags.serve && !flags.uninstall;
  const result = await installer.install({
    rtok: script.hostHookWords(name, home, rtok),
    env: hostEnv(),
    cwd: Deno.cwd(),
    uninstall: flags.uninstall,
    dryRun: flags.dryRun,
    ...(takes("project") ? { project: flags.project } : {}),
    ...(takes("mcp") ? { mcp: flags.mcp } : {}),
    ...(takes("replace") ? { replace: flags.replace } : {}),
    ...(takes("serve")
      ? {
        server: {
          ...(serve ? { target: () => _serveTarget(name, flags.dryRun) } : {}),
          start: _startServer,
          stop: _stopServer,
        },
      }
      : {}),
  });
  if (result.lines) out.push(...result.lines);
  else {
    for (const c of result.changes) {
      const what = c.after === null ? "remove" : c.before === null ? "create" : "change";
      out.push(`${flags.dryRun ? `would ${what}` : `${what}d`} ${c.path}`);
      if (flags.dryRun && c.after !== null) {
        out.push(...c.after.trimEnd().split("\n").map((l) => `  ${l}`));
      }
    }
    if (result.changes.length === 0) out.push("nothing to change");
    out.push(...result.notes);
  }
  if (out.length) await print(out.join("\n") + "\n");
  for (const w of result.warnings ?? []) warn(w);
  if (result.failure) throw result.failure;
  return 0;
}
