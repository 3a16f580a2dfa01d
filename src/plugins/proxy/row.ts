/**
 * One proxied request as the ledger, the metrics and the spool keep it: apart from the
 * handler so what reads rows need not import the handler that writes them.
 *
 * @module
 */

import type { ProxyResult } from "../../core/plugin.ts";
import type { Provider, Route } from "./routes.ts";
import type { Usage } from "./usage.ts";

/** One request, as the ledger keeps it. Never content, never credentials. */
export interface ProxyRow {
  /** When it arrived, epoch milliseconds. */
  readonly ts: number;
  /** The upstream. */
  readonly provider: Provider;
  /** The route's ledger name. */
  readonly route: Route["name"];
  /** The upstream's HTTP status, or 502 when it never answered. */
  readonly status: number;
  /** True for a `text/event-stream` response. */
  readonly streamed: boolean;
  /** Arrival to response headers, milliseconds. */
  readonly latencyMs: number;
  /** Arrival to the last byte, milliseconds. */
  readonly durationMs: number;
  /** The usage the provider reported. */
  readonly usage: Usage;
  /** Tool results in the request. */
  readonly resultsSeen: number;
  /** Their chars. */
  readonly charsSeen: number;
  /** Chars compression removed. */
  readonly charsSaved: number;
  /** The results compressed. */
  readonly results: readonly ProxyResult[];
  /** Why the body went untouched, or what cut the response short. */
  readonly note: string | null;
  /** The style arm of the request's session, when the style plugin ran. */
  readonly style: string | null;
  /** Arrival to the forward starting (the body read, the plugins' work), milliseconds. */
  readonly addedMs?: number;
  /** Who sent it: the team's caller name or a salted hash of the provider key, never a key. */
  readonly caller?: string;
}
