/**
 * The holdout of the style injection: a share of sessions gets no style, so `rtok gain` can
 * compare output tokens per request with and without it. A session's arm is a pure function
 * of its key, so every request of a session lands in the same arm, across proxy restarts.
 *
 * @module
 */

import type { ProxyRequest } from "../../core/plugin.ts";

/** The arm a session is in: the style injected, or held out. */
export type StyleArm = "styled" | "holdout";

/** The share of sessions held out when `[plugins.inject] holdout` is not set. */
export const DEFAULT_HOLDOUT = 0.1;

type _Obj = Record<string, unknown>;
const _obj = (v: unknown): v is _Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * What names a request's session: the client's own session or user id where the body carries
 * one (Anthropic `metadata.user_id`, which Claude Code fills per session; OpenAI
 * `prompt_cache_key`, `user`, `metadata.session_id`), else the conversation's first user
 * message, which every later request of it repeats. `null` for a body with neither.
 */
export function sessionKey(api: ProxyRequest["api"], body: string): string | null {
  let b: unknown;
  try {
    b = JSON.parse(body);
  } catch {
    return null;
  }
  if (!_obj(b)) return null;
  const meta = _obj(b.metadata) ? b.metadata : {};
  const ids = api === "anthropic" ? [meta.user_id] : [b.prompt_cache_key, meta.session_id, b.user];
  for (const id of ids) if (typeof id === "string" && id !== "") return `id:${id}`;
  const first = _firstUserText(api === "openai-responses" ? b.input : b.messages);
  return first === null ? null : `first:${first}`;
}

function _firstUserText(messages: unknown): string | null {
  if (typeof messages === "string") return messages;
  if (!Array.isArray(messages)) return null;
  const first = messages.find((m) => _obj(m) && m.role === "user");
  if (!_obj(first)) return null;
  if (typeof first.content === "string") return first.content;
  if (!Array.isArray(first.content)) return null;
  return first.content.map((c) => (_obj(c) && typeof c.text === "string" ? c.text : "")).join(
    "\n",
  );
}

/**
 * The arm of the session named `key` when `share` (0 to 1) of sessions are held out: the
 * key's FNV-1a hash, in ten thousandths, below the share holds out.
 */
export function armOf(key: string, share: number): StyleArm {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h % 10_000) < Math.round(share * 10_000) ? "holdout" : "styled";
}

/** `[plugins.inject] holdout`: a share from 0 to 1, or a `TypeError` saying what is wrong. */
export function holdoutShare(own: Readonly<Record<string, unknown>>): number {
  const v = own.holdout ?? DEFAULT_HOLDOUT;
  if (typeof v !== "number" || !(v >= 0 && v <= 1)) {
    throw new TypeError(
      `config [plugins.inject] holdout = ${JSON.stringify(v)}: expected a share from 0 to 1 ` +
        "(0.1 holds out one session in ten)",
    );
  }
  return v;
}
