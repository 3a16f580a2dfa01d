/**
 * Which provider and which API a proxied request is for, from its method, path and headers.
 *
 * @module
 */

/** The providers the proxy fronts. */
export type Provider = "anthropic" | "openai";

/** The request formats whose tool results the proxy compresses. */
export type Api = "anthropic" | "openai-chat" | "openai-responses";

/** The route a request took, as the ledger names it. */
export type RouteName = "messages" | "count_tokens" | "chat" | "responses" | "other";

/** Where a request goes and what the proxy may do to it. */
export interface Route {
  /** The upstream it is forwarded to. */
  readonly provider: Provider;
  /** The ledger's name for it. */
  readonly name: RouteName;
  /** The body format to compress, or `null` for a request forwarded as it came. */
  readonly api: Api | null;
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

/**
 * The route for a request. Only a `POST` to a known path is compressed; anything else goes to
 * the provider its headers name (Anthropic's clients send `anthropic-version` or `x-api-key`),
 * else to OpenAI, untouched.
 */
export function routeOf(method: string, pathname: string, headers: Headers): Route {
  if (method === "POST") {
    for (const r of ROUTES) if (r.path.test(pathname)) return r.route;
  }
  const known = ROUTES.find((r) => r.path.test(pathname));
  const provider: Provider = known?.route.provider ??
    (headers.has("anthropic-version") || headers.has("x-api-key") ? "anthropic" : "openai");
  return { provider, name: "other", api: null };
}

/** The upstream URL for `url` (the request as the proxy received it) under `base`. */
export function upstreamUrl(base: string, url: URL): string {
  const root = base.endsWith("/") ? base.slice(0, -1) : base;
  return root + url.pathname + url.search;
}
