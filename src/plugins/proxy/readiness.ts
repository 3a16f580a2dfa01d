/**
 * `GET /readyz`: whether this proxy should get traffic. It should when its upstreams accept a
 * connection and its ledger takes a write, and not once it is shutting down. The answer is
 * kept a few seconds, so a load balancer's checks cost the upstreams almost nothing.
 *
 * @module
 */

import type { Readiness } from "./server.ts";

/** What the checks look at. */
export interface ReadinessProbe {
  /** Upstreams to reach, by name. */
  readonly upstreams: Readonly<Record<string, string>>;
  /** `ok` (or `ok, …` with a remark), or why rows cannot be kept. */
  store(): string;
  /** True once shutdown began. */
  stopping(): boolean;
  /** How long a verdict is kept, milliseconds. */
  readonly keepMs?: number;
  /** How long a connection may take, milliseconds. */
  readonly connectMs?: number;
}

/** The `/readyz` answer, checked at most once per `keepMs`. */
export function readinessChecker(probe: ReadinessProbe): () => Promise<Readiness> {
  const keepMs = probe.keepMs ?? 5000;
  const connectMs = probe.connectMs ?? 2000;
  let last: { at: number; checks: Record<string, string> } | null = null;
  let running: Promise<Record<string, string>> | null = null;
  const check = async (): Promise<Record<string, string>> => {
    const checks: Record<string, string> = { store: _safely(probe.store) };
    const names = Object.keys(probe.upstreams);
    const verdicts = await Promise.all(
      names.map((n) => reachable(probe.upstreams[n], connectMs)),
    );
    names.forEach((n, i) => checks[`upstream_${n}`] = verdicts[i]);
    return checks;
  };
  return async () => {
    if (probe.stopping()) return { ready: false, checks: { shutdown: "in progress" } };
    if (!last || performance.now() - last.at > keepMs) {
      running ??= check().finally(() => running = null);
      last = { at: performance.now(), checks: await running };
    }
    const ready = Object.values(last.checks).every((v) => v === "ok" || v.startsWith("ok, "));
    return { ready, checks: last.checks };
  };
}

/** `ok` when a TCP connection to `url`'s host and port opens within `ms`, else why not. */
export async function reachable(url: string, ms: number): Promise<string> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return `not a URL: ${url}`;
  }
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  const hostname = target.hostname.replace(/^\[|\]$/g, "");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const connecting = Deno.connect({ hostname, port });
  try {
    const conn = await Promise.race([
      connecting,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no connection in ${ms} ms`)), ms);
      }),
    ]);
    conn.close();
    return "ok";
  } catch (e) {
    // A connection that opens after the deadline is closed, not leaked.
    connecting.then((c) => c.close(), () => {});
    return `${target.host} unreachable: ${(e as Error).message}`;
  } finally {
    clearTimeout(timer);
  }
}

function _safely(f: () => string): string {
  try {
    return f();
  } catch (e) {
    return (e as Error).message;
  }
}
