/**
 * What the listening surfaces share: a loopback host unless `--allow-remote` says otherwise,
 * and a port in use named in one line.
 *
 * @module
 */

import { warn } from "./_io.ts";

/** The host names and addresses that reach only this machine. */
export const LOOPBACK: RegExp = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/;

/**
 * Throws a `TypeError` when `host` is not a loopback address and `allowRemote` is not set;
 * with it set, warns that anyone who can reach the host can `exposes` (`read the ledger`).
 */
export function checkHost(host: string, allowRemote: boolean, exposes: string): void {
  if (LOOPBACK.test(host)) return;
  if (!allowRemote) {
    throw new TypeError(
      `--host "${host}" is not a loopback address; add --allow-remote to listen on it anyway`,
    );
  }
  warn(`warning: listening on ${host}: anyone who can reach it can ${exposes}`);
}

/** `Deno.serve`, with a port in use turned into one line naming it and what to do. */
export function serveOn(
  options: Deno.ServeTcpOptions,
  handler: Deno.ServeHandler<Deno.NetAddr>,
): Deno.HttpServer<Deno.NetAddr> {
  try {
    return Deno.serve(options, handler);
  } catch (e) {
    if (e instanceof Deno.errors.AddrInUse) {
      throw new Error(
        `port ${options.port} on ${options.hostname} is in use; choose another with --port`,
      );
    }
    throw e;
  }
}

/** `http://host:port`, with an IPv6 address in brackets. */
export function origin(addr: Deno.NetAddr): string {
  const where = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  return `http://${where}:${addr.port}`;
}

/**
 * Waits until `server` has shut down, which SIGINT or SIGTERM asks it to do; `onStop` runs
 * first, once, at the first signal.
 */
export async function untilStopped(
  server: Deno.HttpServer<Deno.NetAddr>,
  onStop?: () => void,
): Promise<void> {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    onStop?.();
    server.shutdown();
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  try {
    await server.finished;
  } finally {
    Deno.removeSignalListener("SIGINT", stop);
    Deno.removeSignalListener("SIGTERM", stop);
  }
}
