/**
 * The resident hook server's state, `$RTOK_HOME/serve.json` (owner-only; the secret also in
 * `serve.curl`, a curl config for the command hooks' script): its port, the bearer
 * secret the hooks carry, its pid and version. `rtok init` makes it before a server runs, so
 * the hooks it writes name a port and a secret the server then uses. Also: asking a server
 * for its health.
 *
 * @module
 */

import { joinPath } from "../core/paths.ts";

/** What `serve.json` holds. */
export interface ServeState {
  /** The port the server listens on (0 before one started). */
  readonly port: number;
  /** The bearer secret requests must carry. */
  readonly secret: string;
  /** The server's process id. */
  readonly pid: number;
  /** The rtok version that wrote it. */
  readonly version: string;
}

/** Where the server's state lives inside `home`. */
export function serveStatePath(home: string): string {
  return joinPath(home, "serve.json");
}

/** The state in `home`, or `null` when there is none or it does not parse. */
export function readServeState(home: string): ServeState | null {
  try {
    const s = JSON.parse(Deno.readTextFileSync(serveStatePath(home)));
    if (typeof s.secret !== "string" || typeof s.port !== "number") return null;
    return s as ServeState;
  } catch {
    return null;
  }
}

/** Writes `state` to `home`'s serve.json, owner-only, atomically. */
export function writeServeState(home: string, state: ServeState): void {
  Deno.mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = serveStatePath(home);
  const tmp = `${path}.${Deno.pid}.tmp`;
  // The secret for curl too (the command hooks' script), so it is never on a command line.
  const curl = joinPath(home, "serve.curl");
  Deno.writeTextFileSync(`${curl}.${Deno.pid}.tmp`, _curlConfig(state.secret), { mode: 0o600 });
  Deno.renameSync(`${curl}.${Deno.pid}.tmp`, curl);
  Deno.writeTextFileSync(tmp, JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
  Deno.renameSync(tmp, path);
}

// A curl config file: the server's secret as the header every request needs.
function _curlConfig(secret: string): string {
  return `# rtok serve's secret, for rtok_hook.sh; owner-only.\nheader = "authorization: Bearer ${secret}"\n`;
}

/** A new bearer secret: 24 random bytes in hex. */
export function newSecret(): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(24)),
    (b) => b.toString(16).padStart(2, "0"),
  )
    .join("");
}

/** A port free on loopback now (the kernel's pick), for a server that starts later. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** What a server says of itself on `/health`. */
export interface ServeHealth {
  /** Its rtok version. */
  readonly version?: string;
  /** Its process id. */
  readonly pid?: number;
  /** Hook events it has answered, by host (`claude`, `codex`…). */
  readonly answered?: Readonly<Record<string, number>>;
  /** Whether it has loaded what a first event needs (its warm-up is over). */
  readonly warm?: boolean;
  /** How long its warm-up took, in milliseconds, once it is over. */
  readonly warmMs?: number;
  /** What its warm-up could not load (each loads on first use instead). */
  readonly warmFailures?: readonly string[];
}

/**
 * What the server on `state`'s port says of itself when asked with `state`'s secret, or `null`
 * when none answers so within `timeoutMs`.
 */
export async function serverHealth(
  state: ServeState,
  timeoutMs = 500,
): Promise<ServeHealth | null> {
  if (!state.port) return null;
  try {
    const r = await fetch(`http://127.0.0.1:${state.port}/health`, {
      headers: { authorization: `Bearer ${state.secret}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!r.ok) {
      await r.body?.cancel();
      return null;
    }
    return await r.json() as ServeHealth;
  } catch {
    return null;
  }
}

/** True when a server answers on `state`'s port with its secret. */
export async function serverAnswers(state: ServeState, timeoutMs = 500): Promise<boolean> {
  return await serverHealth(state, timeoutMs) !== null;
}

/**
 * Stops the server `home`'s serve.json names, when it answers as that process: a message
 * saying so, or `null` when none was running.
 */
export async function stopServer(home: string, waitMs = 3_000): Promise<string | null> {
  const state = readServeState(home);
  if (!state?.pid) return null;
  // Only the server serve.json names, and only while it answers as that process.
  if ((await serverHealth(state))?.pid !== state.pid) return null;
  try {
    Deno.kill(state.pid, "SIGTERM");
  } catch {
    return null;
  }
  const until = Date.now() + waitMs;
  while (Date.now() < until && await serverAnswers(state, 100)) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return `stopped rtok serve (pid ${state.pid})`;
}
