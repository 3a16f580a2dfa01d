/**
 * A proxied request whose body is held as the bytes the client sent, and decoded to text only
 * when a plugin reads {@linkcode ProxyRequest.body}: a plugin that works on the bytes (the
 * tool-result compressor) then never makes the body a string, a 2 MB allocation for a 1 MB
 * body of non-ASCII text, on the request's path.
 *
 * @module
 */

import type { ProxyRequest } from "../../core/plugin.ts";
import type { Api } from "./routes.ts";

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const UTF8_OUT = new TextEncoder();

/** A {@linkcode ProxyRequest} over a UTF-8 body; `body` and `bytes` always agree. */
export class BodyRequest implements ProxyRequest {
  /** The wire format. */
  readonly api: Api;
  #text: string | null = null;
  #bytes: Uint8Array | null;

  /** A request over `bytes`, which must be valid UTF-8 (else reading `body` throws). */
  constructor(api: Api, bytes: Uint8Array) {
    this.api = api;
    this.#bytes = bytes;
  }

  /** The body as text, decoded on the first read. */
  get body(): string {
    // One of the two is always set.
    return this.#text ??= UTF8.decode(this.#bytes!);
  }

  /** Replaces the body; the bytes are dropped unless the text is the same. */
  set body(text: string) {
    if (text === this.#text) return;
    this.#text = text;
    this.#bytes = null;
  }

  /** The body as UTF-8 while it is held as bytes; `undefined` once a plugin set `body`. */
  get bytes(): Uint8Array | undefined {
    return this.#bytes ?? undefined;
  }

  /** Replaces the body with `bytes` (valid UTF-8); `undefined` keeps it as text. */
  set bytes(bytes: Uint8Array | undefined) {
    if (bytes === undefined) {
      if (this.#bytes) this.#text ??= UTF8.decode(this.#bytes);
      this.#bytes = null;
      return;
    }
    this.#bytes = bytes;
    this.#text = null;
  }

  /** The body to forward: the bytes when held, else the text encoded. */
  encoded(): Uint8Array<ArrayBuffer> {
    const bytes = this.#bytes ??= UTF8_OUT.encode(this.#text!);
    // A body for fetch must not be a view of shared memory.
    return bytes.buffer instanceof ArrayBuffer
      ? bytes as Uint8Array<ArrayBuffer>
      : new Uint8Array(bytes);
  }
}
