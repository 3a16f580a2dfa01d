/**
 * Which provider and which API a proxied request is for, from its method, path and headers.
 *
 * @module
 */

/** The providers the proxy fronts. */
export type Provider = "anthropic" | "openai" | "gemini";

/** The request formats whose tool results the proxy compresses. */
export type Api = "anthropic" | "openai-chat" | "openai-responses" | "gemini";

/** The route a request took, as the ledger names it. */
export type RouteName =
  | "messages"
  | "count_tokens"
  | "chat"
  | "responses"
  | "generate"
  | "stream_generate"
  | "other";

/** Where a request goes and what the proxy may do to it. */
export interface Route {
  /** The upstream it is forwarded to. */
  readonly provider: Provider;
  /** The ledger's name for it. */
  readonly name: RouteName;
  /** The body format to compress, or `null` for a request forwarded as it came. */
  readonly api: Api | null;
  /** The model the path names (Gemini's `/v1beta/models/{model}:…`); absent for the others. */
  readonly model?: string;
}

// OpenAI clients are pointed at a base URL with or without `/v1`; both reach the same routes.
const ROUTES: readonly { path: RegExp; route: Route }[] = [
  {
    path: /^\/v1\/messages$/,
    route: { provider: "anthropic", name: "messages", api: "anthropic" },
  },
  {
    path: /^\/v1\/messages\/count_tokens$/,
    route: { provider: "anthropic", name: "count_tokens", api: "anthropic" },
  },
  {
    path: /^(?:\/v1)?\/chat\/completions$/,
    route: { provider: "openai", name: "chat", api: "openai-chat" },
  },
  {
    path: /^(?:\/v1)?\/responses$/,
    route: { provider: "openai", name: "responses", api: "openai-responses" },
  },
];

// Gemini's model methods: `/v1beta/models/gemini-2.5-flash:streamGenerateContent` (also `v1`
// and `v1alpha`); the model is the path segment before the colon.
const GEMINI_METHOD = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):([A-Za-z]+)$/;

const GEMINI_ROUTES: Readonly<Record<string, RouteName>> = {
  generateContent: "generate",
  streamGenerateContent: "stream_generate",
  countTokens: "count_tokens",
};

// Any other path of Gemini's API: its versions are not OpenAI's (`/v1beta/…`), or a model
// method on `/v1/models/…:…`.
const GEMINI_PATH = /^\/v1(?:beta|alpha)(?:\/|$)|^\/v1\/models\/[^/]+:/;

/**
 * The route for a request. Only a `POST` to a known path is compressed; anything else goes to
 * the provider its path or headers name (Gemini's paths, or its clients' `x-goog-api-key`
 * header or `key` query parameter; Anthropic's clients send `anthropic-version` or
 * `x-api-key`), else to OpenAI, untouched.
 */
export function routeOf(
  method: string,
  pathname: string,
  headers: Headers,
  query: URLSearchParams = new URLSearchParams(),
): Route {
  const gemini = GEMINI_METHOD.exec(pathname);
  const name = gemini ? GEMINI_ROUTES[gemini[2]] : undefined;
  if (method === "POST") {
    for (const r of ROUTES) if (r.path.test(pathname)) return r.route;
    if (gemini && name) {
      return { provider: "gemini", name, api: "gemini", model: _decoded(gemini[1]) };
    }
  }
  const known = ROUTES.find((r) => r.path.test(pathname));
  const provider: Provider = known?.route.provider ??
    (GEMINI_PATH.test(pathname) || headers.has("x-goog-api-key") || query.has("key")
      ? "gemini"
      : headers.has("anthropic-version") || headers.has("x-api-key")
      ? "anthropic"
      : "openai");
  return { provider, name: "other", api: null };
}

function _decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The upstream URL for `url` (the request as the proxy received it) under `base`. */
export function upstreamUrl(base: string, url: URL): string {
  const root = base.endsWith("/") ? base.slice(0, -1) : base;
  return root + url.pathname + url.search;
}
