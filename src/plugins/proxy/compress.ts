/**
 * Tool-result compression for one request: find the tool results in the body, compress each
 * with the content filters, archive what was cut, and splice the new text into the body so
 * every other byte goes upstream as the client sent it.
 *
 * A session re-sends its whole history with every request, so the same result is seen again
 * and again; it must become the same bytes each time (or the provider's prompt cache misses).
 * The content filters are deterministic and the archive id is the raw text's hash, so it does;
 * a per-process cache makes the repeat cost one map lookup.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { Ctx, ProxyReport, ProxyRequest, ProxyResult } from "../../core/plugin.ts";
import { estimate } from "../../core/tokens.ts";
import { type ByteEdit, scanToolTokens, spliceBytes } from "./body_bytes.ts";
import { splitToolOutput } from "./gemini_output.ts";
import type { Api } from "./routes.ts";
import { loadContentEngine, withPointer } from "../../content/engine.ts";

/** Texts under this many chars are never compressed, so they are not cached either. */
const MIN_CACHED = 500;

/** The cache keeps results for at most this many bytes of raw tool-result tokens. */
export const CACHE_CHARS = 16 * 1024 * 1024;

type Entry = ProxyResult & { readonly text: string } | null;

// What a tool string token (its exact bytes) became: `json` is the new token, encoded.
interface _TokenEntry {
  readonly token: Uint8Array;
  readonly units: number;
  readonly result: ProxyResult | null;
  readonly json: Uint8Array | null;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const UTF8_OUT = new TextEncoder();

/** Compresses tool results, remembering what each raw token became. */
export class ToolResultCompressor {
  readonly #cacheLimit: number;
  // Tokens by a hash of their first bytes, so one is recognised where it starts, before its
  // end is searched for; a hit is confirmed by comparing the bytes whole, natively. Oldest
  // key first.
  readonly #tokens = new Map<number, _TokenEntry[]>();
  #tokenBytes = 0;

  /** A compressor whose cache holds up to `cacheChars` bytes of raw tokens. */
  constructor(cacheChars: number = CACHE_CHARS) {
    this.#cacheLimit = cacheChars;
  }

  /**
   * Compresses the request's body in place; reports what it saw and saved. It works on the
   * body's UTF-8 bytes: a body held as bytes is never decoded whole, one held as text is
   * encoded once.
   */
  async compress(req: ProxyRequest, ctx: Pick<Ctx, "keepRaw">): Promise<ProxyReport> {
    const held = req.bytes;
    const bytes = held ?? UTF8_OUT.encode(req.body);
    const report = await this.#compressBytes(req.api, bytes, ctx);
    if (!report) {
      return { resultsSeen: 0, charsSeen: 0, charsSaved: 0, results: [], note: "not JSON" };
    }
    if (report.bytes !== bytes) {
      if (held) req.bytes = report.bytes;
      else req.body = UTF8.decode(report.bytes);
    }
    // A Gemini body without its `contents` list is one the proxy cannot read: say so.
    if (req.api === "gemini" && !report.list) return { ...report.report, note: "no contents list" };
    return report.report;
  }

  // The body with its results compressed, and the report; `null` when the bytes are not JSON
  // (a long token is checked by decoding it, so one that does not decode says so too).
  async #compressBytes(
    api: Api,
    bytes: Uint8Array,
    ctx: Pick<Ctx, "keepRaw">,
  ): Promise<{ bytes: Uint8Array; report: ProxyReport; list: boolean } | null> {
    const hits = new Map<number, _TokenEntry>();
    const scan = scanToolTokens(bytes, api, (b, start) => {
      const hit = this.#find(b, start);
      if (!hit) return -1;
      hits.set(start, hit);
      return start + hit.token.length;
    });
    if (scan === null) return null;
    const tokens = scan.tokens;
    // Every long token is looked up (and decoded, which checks it, when new) before anything is
    // compressed, so a body that proves not to be JSON leaves no archive behind.
    const entries: (_TokenEntry | string | null)[] = new Array(tokens.length);
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k];
      if (t.units >= 0 && t.units < MIN_CACHED) {
        entries[k] = null;
        continue;
      }
      const hit = hits.get(t.start);
      if (hit) {
        entries[k] = hit;
        continue;
      }
      try {
        entries[k] = JSON.parse(UTF8.decode(bytes.subarray(t.start, t.end)));
      } catch {
        return null;
      }
    }
    let charsSeen = 0, charsSaved = 0;
    const results: ProxyResult[] = [];
    const edits: ByteEdit[] = [];
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k];
      let e = entries[k];
      if (e === null) {
        charsSeen += t.units;
        continue;
      }
      if (typeof e === "string") {
        const raw = e;
        const entry = raw.length < MIN_CACHED ? null : await _compressOne(raw, api, ctx);
        e = {
          token: bytes.slice(t.start, t.end),
          units: raw.length,
          result: entry ? _result(entry) : null,
          json: entry ? UTF8_OUT.encode(JSON.stringify(entry.text)) : null,
        };
        // An archive that could not keep the bytes is not remembered: the next request retries.
        if (entry !== undefined) this.#rememberToken(e);
      }
      charsSeen += e.units;
      if (!e.result || !e.json) continue;
      edits.push({ start: t.start, end: t.end, json: e.json });
      charsSaved += e.result.rawChars - e.result.emittedChars;
      results.push(e.result);
    }
    return {
      bytes: edits.length ? spliceBytes(bytes, edits) : bytes,
      report: { resultsSeen: tokens.length, charsSeen, charsSaved, results },
      list: scan.list,
    };
  }

  // The known token starting at `start` of `bytes`. A valid token ends at its first unescaped
  // quote, so no two known tokens can both match there.
  #find(bytes: Uint8Array, start: number): _TokenEntry | null {
    const key = _prefixKey(bytes, start);
    const bucket = key < 0 ? undefined : this.#tokens.get(key);
    if (!bucket) return null;
    for (const e of bucket) {
      const end = start + e.token.length;
      if (
        end <= bytes.length && bytes[end - 1] === 0x22 &&
        Buffer.compare(e.token, bytes.subarray(start, end)) === 0
      ) {
        // Most recently used goes last, so eviction takes the oldest first.
        this.#tokens.delete(key);
        this.#tokens.set(key, bucket);
        return e;
      }
    }
    return null;
  }

  #rememberToken(e: _TokenEntry): void {
    const key = _prefixKey(e.token, 0);
    // The same result twice in one request is decoded twice, but kept once.
    if (e.token.length > this.#cacheLimit || key < 0 || this.#find(e.token, 0)) return;
    const bucket = this.#tokens.get(key) ?? [];
    bucket.push(e);
    this.#tokens.delete(key);
    this.#tokens.set(key, bucket);
    this.#tokenBytes += e.token.length;
    for (const [k, b] of this.#tokens) {
      if (this.#tokenBytes <= this.#cacheLimit) break;
      this.#tokens.delete(k);
      for (const old of b) this.#tokenBytes -= old.token.length;
    }
  }
}

function _result(entry: NonNullable<Entry>): ProxyResult {
  const { text: _text, ...result } = entry;
  return result;
}

/** Bytes of a token's start its cache key hashes; a cached token is longer (MIN_CACHED). */
const PREFIX = 64;

// The cache key of a token starting at `start`: a hash (FNV-1a) of its first PREFIX bytes, or
// -1 when fewer remain. Tokens that share one are told apart by their bytes.
function _prefixKey(bytes: Uint8Array, start: number): number {
  const end = start + PREFIX;
  if (end > bytes.length) return -1;
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

// One result: its compressed form, `null` when it stays as it is, `undefined` when a lossy
// form could not be archived (then it stays as it is too: nothing is cut that cannot return).
// A Gemini result is compressed inside Gemini CLI's wrapping, which stays as it was; one whose
// status lines report a failure is an error, and stays whole.
async function _compressOne(
  raw: string,
  api: Api,
  ctx: Pick<Ctx, "keepRaw">,
): Promise<Entry | undefined> {
  const parts = api === "gemini" ? splitToolOutput(raw) : null;
  if (parts?.failed) return null;
  const output = parts ? parts.body : raw;
  let c;
  try {
    c = (await loadContentEngine()).compress(output);
  } catch {
    return null;
  }
  if (!c) return null;
  let text = c.text;
  let archiveId: string | null = null;
  if (c.cut.length) {
    archiveId = await ctx.keepRaw(new TextEncoder().encode(output), {
      command: `tool result (${api})`,
      cwd: "",
      exitCode: null,
      family: c.shape,
    });
    if (!archiveId) return undefined;
    text = withPointer(c, archiveId);
  }
  if (parts) {
    // The status lines follow on the next line, as they did.
    if (text.endsWith("\n") && !output.endsWith("\n")) text = text.slice(0, -1);
    text = parts.head + text + parts.tail;
  }
  if (text.length >= raw.length || estimate(text, c.textClass) >= estimate(raw, c.textClass)) {
    return null;
  }
  return {
    shape: c.shape,
    rawChars: raw.length,
    emittedChars: text.length,
    textClass: c.textClass,
    archiveId,
    text,
  };
}
