/**
 * Errors the proxy itself answers with, in the provider's own shape, so a client's SDK
 * reports them as it reports the provider's errors.
 *
 * @module
 */

import type { Provider } from "./routes.ts";

/** A JSON error response in `provider`'s shape. */
export function errorResponse(provider: Provider, status: number, message: string): Response {
  const denied = status === 401;
  const body = provider === "anthropic"
    ? { type: "error", error: { type: denied ? "authentication_error" : "api_error", message } }
    : provider === "gemini"
    ? { error: { code: status, message, status: denied ? "UNAUTHENTICATED" : "UNAVAILABLE" } }
    : {
      error: {
        message,
        type: denied ? "invalid_request_error" : "server_error",
        param: null,
        code: null,
      },
    };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-rtok-error": "1" },
  });
}

// A credential in a URL's query (Gemini's `?key=`), as an error message might quote the URL.
const _QUERY_KEY = /([?&](?:key|api_key|access_token)=)[^&#\s)"']+/gi;

/** `text` with the value of every `key=` (and `api_key=`, `access_token=`) query parameter cut. */
export function withoutQueryKeys(text: string): string {
  return text.replace(_QUERY_KEY, "$1…");
}
