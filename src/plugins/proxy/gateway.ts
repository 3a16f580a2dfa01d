/**
 * What a shared gateway needs beyond a laptop's proxy: a token every client sends (compared
 * in constant time), and who each request came from, said without keeping a secret: the
 * team's own caller header, else a salted hash of the provider key.
 *
 * @module
 */

import { joinPath } from "../../core/paths.ts";

/** The header a client sends the gateway token in. */
export const TOKEN_HEADER = "x-rtok-token";

/** The header a team names its callers in (for example through `ANTHROPIC_CUSTOM_HEADERS`). */
export const CALLER_HEADER = "x-rtok-caller";

/** The caller of a request that names none and carries no provider key. */
export const ANONYMOUS = "anonymous";

/** The label value every caller past the bound is counted under. */
export const OTHER_CALLERS = "other";

/** True when `given` is `token`, in time that does not depend on where they first differ. */
export function tokenMatches(given: string | null, token: string): boolean {
  if (given === null || token === "") return false;
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(token);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i];
  return diff === 0;
}

/**
 * The gateway token a request carries: its `x-rtok-token` header, or, for `GET /metrics`
 * only (never forwarded), a bearer token, which is what Prometheus's scrape sends.
 */
export function tokenOf(headers: Headers, pathname: string): string | null {
  const own = headers.get(TOKEN_HEADER);
  if (own !== null) return own.trim();
  if (pathname !== "/metrics") return null;
  const m = /^Bearer\s+(.+)$/i.exec(headers.get("authorization") ?? "");
  return m ? m[1].trim() : null;
}

/** A caller name as the ledger and the labels keep it: `[A-Za-z0-9._@+-]`, 64 chars at most. */
export function cleanCaller(name: string): string {
  return name.trim().replace(/[^A-Za-z0-9._@+-]/g, "_").slice(0, 64);
}

/** The provider key a request carries, in whichever header or query its API uses. */
export function providerKey(headers: Headers, url: URL): string | null {
  const key = headers.get("x-api-key") ?? headers.get("x-goog-api-key");
  if (key) return key;
  const m = /^Bearer\s+(.+)$/i.exec(headers.get("authorization") ?? "");
  if (m) return m[1].trim();
  return url.searchParams.get("key");
}

/**
 * Names a request's caller: `x-rtok-caller` when the team sets it, else `key-` and 12 hex
 * chars of an HMAC of the provider key under this installation's salt (stable here, useless
 * to anyone without the salt), else {@linkcode ANONYMOUS}.
 */
export class CallerNamer {
  readonly #key: Promise<CryptoKey>;

  /** A namer hashing under `salt`. */
  constructor(salt: Uint8Array<ArrayBuffer>) {
    this.#key = crypto.subtle.importKey(
      "raw",
      salt,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
  }

  /** The caller of a request with `headers` to `url`. */
  async callerOf(headers: Headers, url: URL): Promise<string> {
    const named = headers.get(CALLER_HEADER);
    if (named !== null && cleanCaller(named) !== "") return cleanCaller(named);
    const secret = providerKey(headers, url);
    if (!secret) return ANONYMOUS;
    const mac = await crypto.subtle.sign("HMAC", await this.#key, new TextEncoder().encode(secret));
    return `key-${_hex(new Uint8Array(mac)).slice(0, 12)}`;
  }
}

/**
 * This installation's salt, `$RTOK_HOME/proxy_salt` (32 random bytes, mode 0600), made on first
 * use. Several proxies sharing a home share it, so a key hashes alike in each.
 */
export function loadSalt(home: string): Uint8Array<ArrayBuffer> {
  const path = joinPath(home, "proxy_salt");
  try {
    const bytes = Deno.readFileSync(path);
    if (bytes.byteLength >= 16) return bytes;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) {
      throw new Error(
        `Cannot read the caller salt "${path}": ${(e as Error).message}; ` +
          "make it readable, or remove it for a new one",
      );
    }
  }
  const salt = crypto.getRandomValues(new Uint8Array(32));
  try {
    Deno.mkdirSync(home, { recursive: true, mode: 0o700 });
    // `createNew`: of two proxies starting at once, the second reads the first one's salt.
    Deno.writeFileSync(path, salt, { createNew: true, mode: 0o600 });
    return salt;
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return Deno.readFileSync(path);
    throw new Error(
      `Cannot write the caller salt "${path}": ${(e as Error).message}; ` +
        "make rtok's home writable, or set RTOK_HOME to one that is",
    );
  }
}

/**
 * At most `max` callers get a label of their own, the first ones seen; later ones share
 * {@linkcode OTHER_CALLERS}, so a gateway's metrics stay bounded whoever calls it.
 */
export class CallerBound {
  readonly #max: number;
  readonly #seen = new Set<string>();

  /** A bound of `max` callers. */
  constructor(max: number) {
    this.#max = max;
  }

  /** The label `caller` is counted under. */
  label(caller: string): string {
    if (this.#seen.has(caller)) return caller;
    if (this.#seen.size >= this.#max) return OTHER_CALLERS;
    this.#seen.add(caller);
    return caller;
  }
}

function _hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
