/**
 * `rtok serve`: the Claude Code hook as a resident server on loopback, so a hook call costs a
 * request to a process that is already warm (settings, rules, filters, the content engine,
 * the grammars) instead of a Deno start-up. Claude Code's `"type": "http"` hooks POST the
 * same JSON event the command hook reads on stdin; the answer is the same JSON, from the same
 * handler (`answerAndRecord`). Only requests carrying the secret in `$RTOK_HOME/serve.json`
 * (owner-only; `rtok init` writes it into the hooks' headers) are answered.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { type Config, configPath, defaultConfig, loadConfig, rtokHome } from "../../core/config.ts";
import { rtokEnv } from "../../core/env.ts";
import { selfArgv } from "../../core/self.ts";
import {
  newSecret,
  readServeState,
  serverAnswers,
  serverHealth,
  type ServeState,
  stopServer,
  writeServeState,
} from "../_serve_state.ts";
import { wholeNumber } from "../_flags.ts";
import { HOOK_TIMEOUT_S } from "../../claude/hooks_config.ts";
import type { WarmReport } from "./warm.ts";
import { lazyImport } from "../../core/lazy.ts";

export { readServeState, serverAnswers, type ServeState, serveStatePath } from "../_serve_state.ts";
import {
  answerAndRecord,
  hostAnswerer,
  makeHookDeps,
  MAX_HOOK_INPUT,
  recordHookFailure,
} from "../_hook_answer.ts";
import { HOST_IDS, HOSTS, isHostId } from "../../hosts/hosts.ts";
import { VERSION } from "../_help.ts";
import { print, warn } from "../_io.ts";

/** `rtok serve --help`. */
export const SERVE_HELP = `rtok serve: the Claude Code hook as a resident server on loopback

Usage: rtok serve [--port N] [--idle-minutes M] [--timeout S] [--ensure | --stop]

  POST /hook/claude   one hook event (the JSON Claude Code sends); the answer as
                      rtok hook claude prints it ({} for none)
  POST /hook/opencode one event of rtok's OpenCode plugin (and codex, gemini,
                      copilot: the payload each host's hook gets); the answer as
                      rtok hook <host> prints it
  POST /hook/<host>?as=command
                      the same, its body exactly what rtok hook <host> prints
                      (empty for no answer): what rtok_hook.sh, the command
                      hooks' script, reads
  GET  /health        {"version", "pid", "answered" (events by host), "warm",
                      and once warm "warmMs", "warmFailures"}

Each needs "Authorization: Bearer <secret>", the secret in $RTOK_HOME/serve.json
and, as a curl config, serve.curl (made on first start, owner-only).

  --port N            default: the port in serve.json, else any free one; the
                      port in use is written to serve.json
  --idle-minutes M    exit after M minutes without a request (default 120)
  --timeout S         the hooks' timeout in seconds (default 10, what rtok init
                      installs): an answer that takes longer reaches no host, so
                      its saving is recorded as not delivered
  --ensure            start one, detached, unless one of this version answers
                      (another version's is stopped first), and return once it
                      answers (for a SessionStart hook)
  --stop              stop the server serve.json names, and return once it is gone

A second rtok serve while one answers says so and exits 0. A server exits by itself
once its serve.json is gone (RTOK_HOME removed) or names another process.
`;

// The body, at most MAX_HOOK_INPUT bytes and within `ms`; `null` past either.
async function _body(req: Request, ms: number): Promise<Uint8Array | null> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const timer = setTimeout(() => reader.cancel().catch(() => {}), ms);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > MAX_HOOK_INPUT) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** How long a request body may take to arrive. */
const _BODY_MS = 2_000;

/** Runs `rtok serve` until it has been idle long enough; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      port: { type: "string" },
      "idle-minutes": { type: "string" },
      timeout: { type: "string" },
      ensure: { type: "boolean" },
      stop: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    await print(SERVE_HELP);
    return 0;
  }
  const idleMs = wholeNumber("--idle-minutes", values["idle-minutes"] ?? "120", 1, 10_080) * 60_000;
  const timeoutMs = _seconds("--timeout", values.timeout ?? String(HOOK_TIMEOUT_S)) * 1000;
  const home = rtokHome();
  const before = readServeState(home);
  // The port the hooks in the settings name: the last one, unless another is asked for.
  const port = wholeNumber("--port", values.port ?? String(before?.port ?? 0), 0, 65535);
  if (values.stop) {
    await print(`${await stopServer(home) ?? "rtok serve: none answering"}\n`);
    return 0;
  }
  if (values.ensure) return await _ensure(home, before, args.filter((a) => a !== "--ensure"));
  if (before && await serverAnswers(before)) {
    await print(`rtok serve: already answering on port ${before.port} (pid ${before.pid})\n`);
    return 0;
  }
  const secret = before?.secret ?? newSecret();
  const env = rtokEnv();
  let config: Config = defaultConfig();
  let configStamp = -1;
  // Settings and filters are re-read by the handlers per event; the config file when it changes.
  const currentConfig = async (): Promise<Config> => {
    let stamp = 0;
    try {
      stamp = Deno.statSync(configPath(home)).mtime?.getTime() ?? 0;
    } catch { /* no config file: the defaults */ }
    if (stamp !== configStamp) {
      configStamp = stamp;
      try {
        config = await loadConfig(home);
      } catch (e) {
        warn(`${(e as Error).message}; using the defaults`);
        config = defaultConfig();
      }
    }
    return config;
  };
  const stop = new AbortController();
  let idle = setTimeout(() => stop.abort(), idleMs);
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => stop.abort(), idleMs);
  };
  // Requests being answered, and when the last one ended: warming waits for a quiet moment.
  let inFlight = 0;
  let lastEnd = 0;
  const idleNow = async (): Promise<void> => {
    while (inFlight > 0 || performance.now() - lastEnd < _QUIET_MS) {
      await new Promise((r) => setTimeout(r, _QUIET_MS));
    }
  };
  let warm: WarmReport | null = null;
  // Hook events answered, by host: what /health reports.
  const answered: Record<string, number> = {};
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port,
    signal: stop.signal,
    onListen() {},
  }, async (req, info) => {
    inFlight++;
    try {
      return await handle(req, info);
    } finally {
      inFlight--;
      lastEnd = performance.now();
    }
  });
  const handle = async (
    req: Request,
    info: Deno.ServeHandlerInfo<Deno.NetAddr>,
  ): Promise<Response> => {
    touch();
    const started = performance.now();
    // Listened to from the start, the signal says when the host hangs up before the answer.
    req.signal.addEventListener("abort", _noop);
    if (req.headers.get("authorization") !== `Bearer ${secret}`) {
      await req.body?.cancel();
      return new Response("rtok serve: the secret is missing or wrong\n", { status: 401 });
    }
    const url = new URL(req.url);
    if (req.method === "GET" && url.pathname === "/health") {
      return Response.json({
        version: VERSION,
        pid: Deno.pid,
        answered,
        warm: warm !== null,
        ...(warm ? { warmMs: Math.round(warm.ms), warmFailures: warm.failures } : {}),
      });
    }
    const host = url.pathname.startsWith("/hook/") ? url.pathname.slice("/hook/".length) : "";
    if (req.method !== "POST" || !isHostId(host)) {
      await req.body?.cancel();
      return new Response(
        `rtok serve: POST /hook/${HOST_IDS.join("|")} or GET /health\n`,
        { status: 404 },
      );
    }
    const hostInfo = HOSTS[host];
    const body = await _body(req, _BODY_MS);
    // Only a host that sends a call's PostToolUse to the same server has its calls watched.
    const deps = makeHookDeps({
      config: await currentConfig(),
      home,
      env,
      resident: hostInfo.watched,
      holdRecords: true,
    });
    // Too big or too slow: no opinion, like an event the command hook could not read.
    if (body === null) {
      await recordHookFailure(
        deps,
        null,
        `hook ${host}`,
        `the event is over ${MAX_HOOK_INPUT} bytes or took over ${_BODY_MS} ms to arrive; not read`,
      );
    }
    const answer = body === null
      ? ""
      : await answerAndRecord(body, deps, await hostAnswerer(host), host);
    answered[host] = (answered[host] ?? 0) + 1;
    // A row counts only when its answer reached the host: recorded once the response is out,
    // not delivered when it could not be sent, when the host hung up, or past the host's hook
    // timeout, when it has gone on with the raw output.
    const late = hostInfo.httpDeadline && performance.now() - started >= timeoutMs;
    const sent = !req.signal.aborted && !late;
    // (Where Deno aborts the signal once a response is out, the older behaviour, it would say
    // nothing after this point.)
    info.completed.then(
      () => deps.release?.(sent),
      () => deps.release?.(false),
    ).catch(() => {/* a row that cannot be spooled is lost with the request, not the server */});
    // The command hooks' script prints the body as it is: the bytes `rtok hook <host>` prints.
    if (url.searchParams.get("as") === "command") {
      return new Response(answer ? `${answer}\n` : "", {
        headers: { "content-type": "text/plain" },
      });
    }
    return new Response(answer || "{}", { headers: { "content-type": "application/json" } });
  };
  const addr = server.addr as Deno.NetAddr;
  writeServeState(home, { port: addr.port, secret, pid: Deno.pid, version: VERSION });
  // A server whose serve.json is gone (its RTOK_HOME removed) or names another process (a new
  // one took over) answers for no one: it goes.
  const watchdog = setInterval(() => {
    if (readServeState(home)?.pid !== Deno.pid) stop.abort();
  }, _WATCH_MS);
  await print(`rtok serve: answering on 127.0.0.1:${addr.port} (pid ${Deno.pid})\n`);
  // Off the request path: what a first event would load, loaded before a host asks.
  const warming = (async () => {
    const { warmUp } = await lazyImport<typeof import("./warm.ts")>(
      new URL("./warm.ts", import.meta.url),
    );
    warm = await warmUp(await currentConfig(), idleNow, stop.signal);
  })().catch((e) => {
    // Nothing warmed: each piece loads on its first event, as without a warm-up.
    warm = { ms: 0, events: 0, failures: [(e as Error).message] };
  });
  await server.finished;
  await warming;
  clearTimeout(idle);
  clearInterval(watchdog);
  return 0;
}

// A server answering already: nothing to do. Else one is started detached (its output to
// nowhere, its life its own), and this returns once it answers (at most a few seconds).
async function _ensure(
  home: string,
  state: ServeState | null,
  args: readonly string[],
): Promise<number> {
  const health = state ? await serverHealth(state, 300) : null;
  if (health?.version === VERSION) return 0;
  if (health && typeof health.pid === "number") {
    // Another version's server would answer with its own rules: it makes way for this one.
    try {
      Deno.kill(health.pid, "SIGTERM");
    } catch { /* gone already */ }
    for (let i = 0; i < 40 && await serverAnswers(state!, 100); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const [program, ...rest] = selfArgv();
  const child = new Deno.Command(program, {
    args: [...rest, "serve", ...args],
    // A resident process reaches nothing but loopback: not even Deno's own release check.
    env: { RTOK_HOME: home, DENO_NO_UPDATE_CHECK: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  child.unref();
  // The session's first tool call should find it answering: wait for that, briefly.
  const until = Date.now() + _ENSURE_WAIT_MS;
  while (Date.now() < until) {
    const now = readServeState(home);
    if (now && now.pid === child.pid && await serverAnswers(now, 200)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return 0;
}

function _noop(): void {}

/** How long no request must have been in flight before a warm-up step runs. */
const _QUIET_MS = 25;

/** How often a server checks that serve.json still names it. */
const _WATCH_MS = 1_000;

// A positive number of seconds, decimals allowed (`0.5`).
function _seconds(flag: string, text: string): number {
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(n > 0) || n > 3600) {
    throw new TypeError(`${flag} "${text}": expected a number of seconds above 0, at most 3600`);
  }
  return n;
}

/** How long `--ensure` waits for the server it started to answer. */
const _ENSURE_WAIT_MS = 3_000;
