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

import type { Ctx, ProxyReport, ProxyRequest, ProxyResult } from "../../core/plugin.ts";
import { estimate } from "../../core/tokens.ts";
import { pointerLine } from "../archive/archive.ts";
import { type BodyEdit, findToolTexts, spliceBody } from "./body.ts";
import { compressContent } from "./content.ts";

/** Texts under this many chars are never compressed, so they are not cached either. */
const MIN_CACHED = 500;

/** The cache keeps results for at most this many chars of raw text. */
export const CACHE_CHARS = 16 * 1024 * 1024;

type Entry = ProxyResult & { readonly text: string } | null;

/** Compresses tool results, remembering what each raw text became. */
export class ToolResultCompressor {
  readonly #cache = new Map<string, Entry>();
  #cachedChars = 0;
  readonly #cacheLimit: number;

  /** A compressor whose cache holds up to `cacheChars` chars of raw text. */
  constructor(cacheChars: number = CACHE_CHARS) {
    this.#cacheLimit = cacheChars;
  }

  /** Compresses `req.body` in place; reports what it saw and saved. */
  async compress(req: ProxyRequest, ctx: Pick<Ctx, "keepRaw">): Promise<ProxyReport> {
    const texts = findToolTexts(req.body, req.api);
    if (texts === null) {
      return { resultsSeen: 0, charsSeen: 0, charsSaved: 0, results: [], note: "not JSON" };
    }
    let charsSeen = 0, charsSaved = 0;
    const results: ProxyResult[] = [];
    const edits: BodyEdit[] = [];
    for (const t of texts) {
      charsSeen += t.text.length;
      const entry = await this.#entry(t.text, req.api, ctx);
      if (!entry) continue;
      // A kept entry is strictly shorter than the text it replaces.
      edits.push({ start: t.start, end: t.end, text: entry.text, changed: true });
      charsSaved += entry.rawChars - entry.emittedChars;
      const { text: _text, ...result } = entry;
      results.push(result);
    }
    if (edits.length) req.body = spliceBody(req.body, edits);
    return { resultsSeen: texts.length, charsSeen, charsSaved, results };
  }

  async #entry(raw: string, api: string, ctx: Pick<Ctx, "keepRaw">): Promise<Entry> {
    if (raw.length < MIN_CACHED) return null;
    const hit = this.#cache.get(raw);
    if (hit !== undefined) {
      // Most recently used goes last, so eviction takes the oldest first.
      this.#cache.delete(raw);
      this.#cache.set(raw, hit);
      return hit;
    }
    const entry = await _compressOne(raw, api, ctx);
    // An archive that could not keep the bytes is not remembered: the next request retries.
    if (entry === undefined) return null;
    this.#remember(raw, entry);
    return entry;
  }

  #remember(raw: string, entry: Entry): void {
    if (raw.length > this.#cacheLimit) return;
    this.#cache.set(raw, entry);
    this.#cachedChars += raw.length;
    for (const key of this.#cache.keys()) {
      if (this.#cachedChars <= this.#cacheLimit) break;
      this.#cache.delete(key);
      this.#cachedChars -= key.length;
    }
  }
}

// One result: its compressed form, `null` when it stays as it is, `undefined` when a lossy
// form could not be archived (then it stays as it is too: nothing is cut that cannot return).
async function _compressOne(
  raw: string,
  api: string,
  ctx: Pick<Ctx, "keepRaw">,
): Promise<Entry | undefined> {
  let c;
  try {
    c = compressContent(raw);
  } catch {
    return null;
  }
  if (!c) return null;
  let text = c.text;
  let archiveId: string | null = null;
  if (c.cut.length) {
    archiveId = await ctx.keepRaw(new TextEncoder().encode(raw), {
      command: `tool result (${api})`,
      cwd: "",
      exitCode: null,
      family: c.shape,
    });
    if (!archiveId) return undefined;
    text = (text.endsWith("\n") ? text : text + "\n") + pointerLine(c.cut, archiveId);
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
