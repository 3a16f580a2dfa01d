/**
 * `rtok doctor`: what is installed (each host's doctor, `src/hosts/<id>/doctor.ts`), whether
 * the hook answers, whether rtok can write its state. One check per line; exit 1 on any FAIL.
 *
 * @module
 */

import { runCaptured } from "../core/spawn.ts";
import { joinPath, parentDir, pathExists } from "../core/paths.ts";
import { isRtokListed, type ListedHook } from "../claude/hooks_config.ts";
import { claudeSettingsFiles, preToolHooks } from "../hosts/claude/doctor.ts";
import { hostEnv } from "../hosts/hosts.ts";
import { rtokHome } from "../core/config.ts";
import { inNpxCache, lastingDenoAdvice, onPath, rtokInvocation } from "../core/self.ts";
import { spoolPath } from "../core/spool.ts";
import { DAMAGED_SUFFIX, Store, storePath } from "../core/store.ts";
import { archiveDir } from "../plugins/archive/archive.ts";
import { print } from "./_io.ts";
import { VERSION } from "./_help.ts";
import { readServeState, type ServeState } from "./_serve_state.ts";

/** How long the installed hook gets to answer the probe. */
const _HOOK_TIMEOUT_MS = 5_000;

const _USAGE = `Usage: rtok doctor

Checks rtok's install: the version and how a shell reaches it, the Deno binary it runs on
(a warning when that sits in npx's cache, which npm may clean), each host's hooks and its
version against the one rtok was verified with (Claude Code's settings: user, project,
project-local, and other hooks that rewrite Bash commands there), whether the hook answers a
PreToolUse probe, and whether the store, archive and spool are writable.
Prints one check per line (ok, warn, FAIL); exits 1 when any check fails.
`;

type _Status = "ok" | "warn" | "FAIL";

interface _Check {
  readonly status: _Status;
  readonly label: string;
  readonly detail: string;
}

/** Runs `rtok doctor`; returns 1 when any check fails. */
export async function main(args: readonly string[]): Promise<number> {
  if (args[0] === "--help" || args[0] === "-h") {
    await print(_USAGE);
    return 0;
  }
  if (args.length > 0) {
    throw new TypeError(`unexpected argument "${args[0]}": rtok doctor takes none`);
  }
  const checks: _Check[] = [];
  const add = (status: _Status, label: string, detail: string) =>
    checks.push({ status, label, detail });
  const cwd = Deno.cwd();

  const invocation = rtokInvocation();
  add(
    "ok",
    "version",
    `rtok ${VERSION} (Deno ${Deno.version.deno}); a shell runs it as ${invocation}`,
  );
  const deno = Deno.execPath();
  if (inNpxCache(deno)) {
    add(
      "warn",
      "deno",
      `Deno ${Deno.version.deno}, binary ${deno}: it lives in npx's cache, which npm may clean, ` +
        `and then rtok stops; for a lasting one, ${lastingDenoAdvice()}`,
    );
  } else add("ok", "deno", `Deno ${Deno.version.deno}, binary ${deno}`);
  const dir = onPath("rtok", Deno.env.get("PATH") ?? "");
  if (dir) add("ok", "path", `rtok is on PATH in ${dir}`);
  else {
    add("warn", "path", `rtok is not on PATH; hooks and rewrites name it by path instead`);
  }

  const env = hostEnv();
  // Each host's doctor: where its hooks are and whether they will run, and its version.
  checks.push(...await _hostChecks(invocation, env, cwd));
  // The hook Claude Code runs before a Bash call, run here on a probe, and the files it is in.
  const { files } = await claudeSettingsFiles(env, cwd);
  const pre = preToolHooks(files);
  if (pre.length === 0) {
    add("FAIL", "installed", "the hook is not installed: run rtok init");
    add("warn", "hook answers", "not run: no PreToolUse hook to run");
  } else {
    const commands = [...new Set(pre.map((p) => p.hook.command))];
    if (commands.length > 1) {
      add(
        "warn",
        "installed",
        `the PreToolUse hook is installed ${commands.length} ways, and each runs: ` +
          `${commands.join(" | ")}; keep one (rtok init --uninstall [--project])`,
      );
    }
    const first = pre[0].hook;
    checks.push(
      first.url === undefined
        ? await _probeHook(first.command, cwd)
        : await _probeUrl(first.url, cwd),
    );
  }

  checks.push(..._stateChecks());
  checks.push(await _serverCheck());
  checks.push(..._serverHooksCheck(files));
  checks.push(...await _commandHookCheck(invocation, checks));

  const width = Math.max(...checks.map((c) => c.label.length));
  const lines = checks.map((c) => `${c.status.padEnd(4)} ${c.label.padEnd(width)}  ${c.detail}`);
  const count = (s: _Status) => checks.filter((c) => c.status === s).length;
  lines.push(`${count("ok")} ok, ${count("warn")} warn, ${count("FAIL")} FAIL`);
  await print(lines.join("\n") + "\n");
  return count("FAIL") > 0 ? 1 : 0;
}

/**
 * Runs the installed hook on a PreToolUse probe for `git status`, the way Claude Code runs a
 * command hook (`sh -c`, the event as JSON on stdin).
 */
// The PreToolUse hook on HTTP: the same event, posted with the secret from serve.json.
async function _probeUrl(url: string, cwd: string): Promise<_Check> {
  const label = "hook answers";
  let secret = "";
  try {
    secret = readServeState(rtokHome())?.secret ?? "";
  } catch { /* no home: the request goes without, and says so */ }
  const started = performance.now();
  let text: string;
  try {
    const r = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: _doctorEvent(cwd),
      signal: AbortSignal.timeout(_HOOK_TIMEOUT_MS),
    });
    text = await r.text();
    if (!r.ok) {
      return { status: "FAIL", label, detail: `${url} answers ${r.status}: ${text.trim()}` };
    }
  } catch (e) {
    return {
      status: "FAIL",
      label,
      detail: `${url} does not answer (${(e as Error).message}): tools run unchanged until ` +
        "rtok serve --ensure starts the server (a new session does)",
    };
  }
  const took = `${Math.round(performance.now() - started)} ms`;
  return _judgeAnswer(text, took);
}

// No tool_use_id: no PostToolUse follows, so a resident server must not wait for one (it
// answers such a call with the rtok form, which shows the rules at work).
function _doctorEvent(cwd: string): string {
  return JSON.stringify({
    session_id: "rtok-doctor",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "git status" },
  });
}

async function _probeHook(command: string, cwd: string): Promise<_Check> {
  const label = "hook answers";
  const payload = _doctorEvent(cwd);
  const started = performance.now();
  // A process the hook leaves in the background may hold the pipes open: take what has come
  // by shortly after the hook exits, not wait for that process.
  const done = await runCaptured(["/bin/sh", "-c", command], {
    cwd,
    input: new TextEncoder().encode(payload),
    timeoutMs: _HOOK_TIMEOUT_MS,
    killAfterMs: 0,
    holdBytes: 1024 * 1024,
    readAfterExitMs: 500,
  });
  const took = `${Math.round(performance.now() - started)} ms`;
  if (!done.started) {
    return { status: "FAIL", label, detail: `cannot start /bin/sh: ${_decode(done.stderr)}` };
  }
  if (done.timedOut) {
    return { status: "FAIL", label, detail: `no answer within ${_HOOK_TIMEOUT_MS / 1000} s` };
  }
  const out = _decode(done.stdout);
  const err = _decode(done.stderr);
  if (done.code !== 0) {
    const first = err.split("\n").find((l) => l.trim() !== "")?.trim();
    return {
      status: "FAIL",
      label,
      detail: `exit ${done.code}${first ? `: ${first.slice(0, 200)}` : ""} (${took})`,
    };
  }
  return _judgeAnswer(out, took);
}

// What the hook's answer to the doctor's `git status` event says, on either transport.
function _judgeAnswer(answer: string, took: string): _Check {
  const label = "hook answers";
  const text = answer.trim() === "{}" ? "" : answer.trim();
  if (text === "") {
    return {
      status: "warn",
      label,
      detail: `no rewrite of "git status" (${took}): rewriting is off or a deny rule covers it`,
    };
  }
  let rewritten: unknown;
  try {
    rewritten = JSON.parse(text)?.hookSpecificOutput?.updatedInput?.command;
  } catch { /* reported below with what it printed */ }
  if (
    typeof rewritten === "string" && rewritten.includes("git status") && rewritten !== "git status"
  ) {
    return { status: "ok", label, detail: `"git status" → "${rewritten}" (${took})` };
  }
  return {
    status: "FAIL",
    label,
    detail: `an answer without a rewrite of "git status" (${took}): ${text.slice(0, 200)}`,
  };
}

// Every store moved aside, named, so the user knows it is there and what it holds.
function _damagedStores(path: string): _Check[] {
  const dir = parentDir(path);
  const prefix = path.slice(dir.length).replace(/^\/+/, "") + DAMAGED_SUFFIX;
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].map((e) => e.name)
      .filter((n) => n.startsWith(prefix) && !n.endsWith("-wal") && !n.endsWith("-shm"));
  } catch {
    return [];
  }
  return names.sort().map((name) => ({
    status: "warn",
    label: "store",
    detail: `"${joinPath(dir, name)}" was moved aside because it was not a database; ` +
      "it holds the runs recorded before then: keep it to recover them, or delete it",
  }));
}

// The resident hook server: not in use, answering (with its version and a round trip), stale,
// or down (its HTTP hooks then fail open: the tools run unchanged).
async function _serverCheck(): Promise<_Check> {
  const label = "serve";
  let home: string;
  try {
    home = rtokHome();
  } catch {
    return { status: "ok", label, detail: "not in use (no RTOK_HOME)" };
  }
  const { serverHealth } = await import("./_serve_state.ts");
  const state = readServeState(home);
  if (state === null) return { status: "ok", label, detail: "not in use (no serve.json)" };
  const where = `127.0.0.1:${state.port}`;
  const started = performance.now();
  const health = await serverHealth(state, 1000);
  const took = `${(performance.now() - started).toFixed(1)} ms`;
  if (health === null) {
    return {
      status: "warn",
      label,
      detail: `no server answers on ${where}: hooks pointed at it let tools run unchanged; ` +
        "start one with rtok serve --ensure",
    };
  }
  if (health.version !== VERSION) {
    return {
      status: "warn",
      label,
      detail: `${where} (pid ${health.pid}) runs rtok ${health.version}, not ${VERSION}: ` +
        "rtok serve --ensure stops it and starts this version",
    };
  }
  return {
    status: "ok",
    label,
    detail: `rtok serve answers on ${where} (pid ${health.pid}, rtok ${health.version}, ${took})`,
  };
}

// rtok's HTTP hooks in each settings file against serve.json: a port or a secret that no longer
// matches sends every hook to no server (the tools run unchanged).
function _serverHooksCheck(
  files: readonly { readonly path: string; readonly hooks: readonly ListedHook[] | null }[],
): _Check[] {
  const label = "serve hooks";
  let state: ServeState | null = null;
  try {
    state = readServeState(rtokHome());
  } catch { /* no home: nothing to compare */ }
  const out: _Check[] = [];
  for (const f of files) {
    const hooks = (f.hooks ?? []).filter((h) => h.url !== undefined && isRtokListed(h));
    if (hooks.length === 0) continue;
    if (state === null) {
      out.push({
        status: "warn",
        label,
        detail:
          `${f.path}: rtok's hooks name a server, but there is no serve.json: rtok init again`,
      });
      continue;
    }
    const ports = [...new Set(hooks.map((h) => Number(new URL(h.url!).port)))];
    const wrongPort = ports.filter((p) => p !== state!.port);
    const wrongSecret = hooks.some((h) => h.secret !== state!.secret);
    if (wrongPort.length) {
      out.push({
        status: "warn",
        label,
        detail: `${f.path}: rtok's hooks name port ${
          wrongPort.join(", ")
        }, the server ${state.port}: rtok init again`,
      });
    }
    if (wrongSecret) {
      out.push({
        status: "warn",
        label,
        detail: `${f.path}: rtok's hooks send a secret the server does not take: rtok init again`,
      });
    }
    if (!wrongPort.length && !wrongSecret) {
      out.push({ status: "ok", label, detail: `${f.path}: port and secret match serve.json` });
    }
  }
  return out;
}

/** The store takes a write; `$RTOK_HOME`, the archive and the spool are writable. */
function _stateChecks(): _Check[] {
  let home: string;
  try {
    home = rtokHome();
  } catch (e) {
    return [{ status: "FAIL", label: "home", detail: (e as Error).message }];
  }
  const checks: _Check[] = [];
  const path = storePath(home);
  try {
    const store = Store.open(path, { heal: true });
    try {
      store.write(() => {});
    } finally {
      store.close();
    }
    const healed = store.healed === null ? "" : " (a new one: the old was not a database)";
    checks.push({
      status: "ok",
      label: "store",
      detail: `${path} opens and takes a write${healed}`,
    });
  } catch (e) {
    checks.push({ status: "FAIL", label: "store", detail: (e as Error).message });
  }
  checks.push(..._damagedStores(path));
  const fix = "make it writable, or set RTOK_HOME to a directory that is";
  const homeOk = _canCreate(home);
  checks.push(
    homeOk === null
      ? { status: "ok", label: "home", detail: `${home} is writable` }
      : { status: "FAIL", label: "home", detail: `${home} is not writable (${homeOk}); ${fix}` },
  );
  const archive = archiveDir(home);
  if (pathExists(archive, true)) {
    const problem = _canCreate(archive);
    checks.push(
      problem === null ? { status: "ok", label: "archive", detail: `${archive} is writable` } : {
        status: "FAIL",
        label: "archive",
        detail: `${archive} is not writable (${problem}); ${fix}`,
      },
    );
  } else if (homeOk === null) {
    checks.push({ status: "ok", label: "archive", detail: `${archive} (made on the first cut)` });
  }
  const spool = spoolPath(home);
  if (pathExists(spool, true)) {
    try {
      Deno.openSync(spool, { append: true }).close();
      checks.push({ status: "ok", label: "spool", detail: `${spool} is writable` });
    } catch (e) {
      const problem = (e as Error).message;
      checks.push({
        status: "FAIL",
        label: "spool",
        detail: `${spool} is not writable (${problem}); ${fix}`,
      });
    }
  }
  return checks;
}

/** Appends what `stream` yields to `into` until it ends or fails. */
function _decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** `null` when a file can be made and removed in `dir`, else why not. */
function _canCreate(dir: string): string | null {
  try {
    const tmp = Deno.makeTempFileSync({ dir, prefix: ".rtok-doctor-" });
    Deno.removeSync(tmp);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

// Each host's doctor says whether its hooks are in place and will run there, and whether the
// installed host speaks the hook format rtok was verified with; a host whose checks cannot run
// says so in one line.
async function _hostChecks(
  rtok: string,
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<_Check[]> {
  const { HOST_IDS, HOSTS, loadDoctor } = await import("../hosts/hosts.ts");
  const script = await import("../hosts/command_hook.ts");
  // Only the command hook's script lives in RTOK_HOME.
  let home = "";
  const checks: _Check[] = [];
  for (const id of HOST_IDS) {
    try {
      if (HOSTS[id].commandHook) home ||= rtokHome();
      const doctor = await loadDoctor(id);
      const words = script.hostHookWords(id, home, rtok);
      checks.push(...await doctor.check({ rtok: words, env, cwd, host: HOSTS[id] }));
    } catch (e) {
      checks.push({ status: "warn", label: id, detail: `not checked: ${(e as Error).message}` });
    }
  }
  return checks;
}

// The script the command hooks run: there, and written for this rtok.
async function _commandHookCheck(rtok: string, checks: readonly _Check[]): Promise<_Check[]> {
  const script = await import("../hosts/command_hook.ts");
  let home: string;
  try {
    home = rtokHome();
  } catch {
    return [];
  }
  const path = script.commandHookPath(home);
  let text: string | null = null;
  try {
    text = await Deno.readTextFile(path);
  } catch { /* not there */ }
  const used = checks.some((c) => c.status === "ok" && c.detail.includes(script.COMMAND_HOOK_FILE));
  const label = "command hook script";
  if (text === null && used) {
    return [{
      status: "FAIL",
      label,
      detail: `${path} is missing, and hooks run it; run rtok init --host <host> again`,
    }];
  }
  if (text !== null && text !== script.commandHookSource(rtok)) {
    return [{
      status: "warn",
      label,
      detail: `${path} was written for another rtok install; run rtok init --host <host> again`,
    }];
  }
  if (text !== null) {
    return [{
      status: "ok",
      label,
      detail: `${path} asks rtok serve first, else runs ${rtok} hook <host>`,
    }];
  }
  return [];
}
