/**
 * Reads the provider's token usage from a copy of the response as it passes: Anthropic's
 * `message_start` and `message_delta` events (the delta's counts are cumulative and win), the
 * OpenAI chat usage chunk (sent when the client asked for it), the Responses API's
 * `response.completed`, the `usage` object of a response that was not streamed, and Gemini's
 * `usageMetadata` (in each streamed chunk, the last one that carries it wins; in a JSON
 * response, or the JSON array a stream without `alt=sse` is). The bytes the client gets are
 * never touched here.
 *
 * Counts follow Anthropic's split: `input` is the input not read from the cache, so OpenAI's
 * `prompt_tokens` and Gemini's `promptTokenCount` (which include cached tokens) are reported as
 * `prompt − cached`. Gemini's output is `candidatesTokenCount` plus `thoughtsTokenCount`, the
 * thinking it bills as output (OpenAI's `completion_tokens` include reasoning the same way).
 * Gemini's model is the one the request's path names: the server fills it in, and the
 * response's `modelVersion` is not read.
 *
 * @module
 */

import type { Provider } from "./routes.ts";

/** Real token counts, as the provider reported them; `null` where it reported none. */
export interface Usage {
  /** The model that answered. */
  model: string | null;
  /** Input tokens not read from the prompt cache. */
  input: number | null;
  /** Output tokens. */
  output: number | null;
  /** Input tokens written to the prompt cache. */
  cacheWrite: number | null;
  /** Input tokens read from the prompt cache. */
  cacheRead: number | null;
}

/** No usage seen yet. */
export function emptyUsage(): Usage {
  return { model: null, input: null, output: null, cacheWrite: null, cacheRead: null };
}

/** At most this much of a response that is not streamed is copied to read its usage. */
export const MAX_COPY_BYTES = 8 * 1024 * 1024;

/** Accumulates a response's bytes (or its events) and says what usage it reported. */
export class UsageReader {
  /** What was read so far. */
  readonly usage: Usage = emptyUsage();
  readonly #provider: Provider;
  readonly #sse: boolean;
  readonly #decoder = new TextDecoder();
  #pending = "";
  #data: string[] = [];
  #copy: Uint8Array[] = [];
  #copied = 0;

  /** A reader for a response of `provider`, streamed (`text/event-stream`) or not. */
  constructor(provider: Provider, streamed: boolean) {
    this.#provider = provider;
    this.#sse = streamed;
  }

  /** Takes the next chunk of the response body. Never throws. */
  push(chunk: Uint8Array): void {
    if (!this.#sse) {
      if (this.#copied + chunk.byteLength <= MAX_COPY_BYTES) this.#copy.push(chunk);
      this.#copied += chunk.byteLength;
      return;
    }
    this.#pending += this.#decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = this.#pending.indexOf("\n")) >= 0) {
      let line = this.#pending.slice(0, nl);
      this.#pending = this.#pending.slice(nl + 1);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      this.#line(line);
    }
  }

  /** The body ended: reads what is left and returns the usage. */
  finish(): Usage {
    if (this.#sse) {
      this.#pending += this.#decoder.decode();
      if (this.#pending) this.#line(this.#pending);
      this.#line("");
    } else if (this.#copied <= MAX_COPY_BYTES && this.#copied > 0) {
      const bytes = new Uint8Array(this.#copied);
      let at = 0;
      for (const c of this.#copy) {
        bytes.set(c, at);
        at += c.byteLength;
      }
      this.#copy = [];
      this.#json(this.#decoder.decode(bytes));
    }
    return this.usage;
  }

  #line(line: string): void {
    if (line === "") {
      if (this.#data.length) this.#json(this.#data.join("\n"));
      this.#data = [];
    } else if (line.startsWith("data:")) {
      this.#data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
    }
  }

  // Only events that can carry a model or usage are parsed; text deltas are skipped unread.
  #json(text: string): void {
    const gemini = this.#provider === "gemini";
    const carries = gemini
      ? text.includes('"usageMetadata"')
      : text.includes('"usage"') || text.includes('"model"');
    if (!carries) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    if (gemini && Array.isArray(value)) {
      for (const v of value) if (isObject(v)) this.#gemini(v);
      return;
    }
    if (!isObject(value)) return;
    if (gemini) this.#gemini(value);
    else if (this.#provider === "anthropic") this.#anthropic(value);
    else this.#openai(value);
  }

  // A chunk's `usageMetadata` replaces what an earlier chunk said, whole.
  #gemini(v: Record<string, unknown>): void {
    const u = isObject(v.usageMetadata) ? v.usageMetadata : null;
    if (!u) return;
    const prompt = num(u.promptTokenCount);
    const cached = num(u.cachedContentTokenCount);
    const candidates = num(u.candidatesTokenCount);
    const thoughts = num(u.thoughtsTokenCount);
    this.usage.input = prompt === null ? null : prompt - (cached ?? 0);
    this.usage.cacheRead = cached;
    this.usage.output = candidates === null && thoughts === null
      ? null
      : (candidates ?? 0) + (thoughts ?? 0);
  }

  #anthropic(v: Record<string, unknown>): void {
    const message = isObject(v.message) ? v.message : v;
    if (typeof message.model === "string") this.usage.model = message.model;
    const u = isObject(message.usage) ? message.usage : isObject(v.usage) ? v.usage : null;
    if (!u) return;
    this.#set("input", u.input_tokens);
    this.#set("output", u.output_tokens);
    this.#set("cacheWrite", u.cache_creation_input_tokens);
    this.#set("cacheRead", u.cache_read_input_tokens);
  }

  #openai(v: Record<string, unknown>): void {
    // Responses API events wrap the response: `{type: "response.completed", response: {…}}`.
    const r = isObject(v.response) ? v.response : v;
    if (typeof r.model === "string") this.usage.model = r.model;
    const u = isObject(r.usage) ? r.usage : null;
    if (!u) return;
    const prompt = num(u.prompt_tokens) ?? num(u.input_tokens);
    const details = isObject(u.prompt_tokens_details)
      ? u.prompt_tokens_details
      : isObject(u.input_tokens_details)
      ? u.input_tokens_details
      : null;
    const cached = details ? num(details.cached_tokens) : null;
    if (prompt !== null) this.usage.input = prompt - (cached ?? 0);
    if (cached !== null) this.usage.cacheRead = cached;
    this.#set("output", u.completion_tokens ?? u.output_tokens);
  }

  #set(key: "input" | "output" | "cacheWrite" | "cacheRead", value: unknown): void {
    const n = num(value);
    if (n !== null) this.usage[key] = n;
  }
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
