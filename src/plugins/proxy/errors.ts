/**
 * Errors the proxy itself answers with, in the provider's own shape, so a client's SDK
 * reports them as it reports the provider's errors.
 *
 * @module
 */

import type { Provider } from "./routes.ts";

/** A JSON error response in `provider`'s shape. */
export function errorResponse(provider: Provider, status: number, message: string): Response {
  const body = provider === "anthropic"
    ? { type: "error", error: { type: "api_error", message } }
    : { error: { message, type: "server_error", param: null, code: null } };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-rtok-error": "1" },
  });
}
