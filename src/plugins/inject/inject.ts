/**
 * Adds a style text to a request's system prompt, spliced into the body so every other byte
 * stays as the client sent it: appended to a system string, as a text block before the last
 * `cache_control` block of a system array (or last, when none has one), or as a new system
 * prompt when there is none. A prompt that already carries the style's marker is left alone.
 *
 * @module
 */

import { elements, member, members, skipWs, type Span } from "../../core/json_spans.ts";
import type { ProxyRequest } from "../../core/plugin.ts";
import { MARKER } from "./styles.ts";

type Api = ProxyRequest["api"];

interface Insert {
  readonly at: number;
  readonly end: number;
  readonly text: string;
}

/** `body` with `text` in its system prompt, or `null` when it is not a request to change. */
export function injectStyle(api: Api, body: string, text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!_isObject(parsed)) return null;
  const open = skipWs(body, 0);
  const top = members(body, open);
  let edit: Insert | null;
  if (api === "anthropic") edit = _anthropic(body, open, top, parsed, text);
  else if (api === "openai-chat") edit = _chat(body, top, parsed, text);
  else edit = _responses(open, top, parsed, text);
  if (!edit) return null;
  return body.slice(0, edit.at) + edit.text + body.slice(edit.end);
}

function _anthropic(
  body: string,
  open: number,
  top: ReturnType<typeof members>,
  parsed: Record<string, unknown>,
  text: string,
): Insert | null {
  const system = parsed.system;
  const span = member(top, "system");
  if (system === undefined || system === null || !span) {
    if (span) return { at: span.start, end: span.end, text: JSON.stringify(text) };
    return _newMember(open, top, "system", text);
  }
  if (JSON.stringify(system).includes(MARKER)) return null;
  if (typeof system === "string") return _append(span, system, text);
  if (!Array.isArray(system)) return null;
  const block = JSON.stringify({ type: "text", text });
  const items = elements(body, span.start);
  let last = -1;
  system.forEach((b, i) => {
    if (_isObject(b) && b.cache_control !== undefined) last = i;
  });
  if (last >= 0) return { at: items[last].start, end: items[last].start, text: block + "," };
  return _pushElement(span, items, block);
}

function _chat(
  body: string,
  top: ReturnType<typeof members>,
  parsed: Record<string, unknown>,
  text: string,
): Insert | null {
  const messages = parsed.messages;
  const span = member(top, "messages");
  if (!Array.isArray(messages) || !span) return null;
  if (JSON.stringify(messages).includes(MARKER)) return null;
  const items = elements(body, span.start);
  const i = messages.findIndex((m) =>
    _isObject(m) && (m.role === "system" || m.role === "developer")
  );
  if (i < 0) {
    const message = JSON.stringify({ role: "system", content: text });
    const at = items.length ? items[0].start : span.start + 1;
    return { at, end: at, text: items.length ? message + "," : message };
  }
  const m = messages[i] as Record<string, unknown>;
  const content = member(members(body, items[i].start), "content");
  if (!content) return null;
  if (typeof m.content === "string") return _append(content, m.content, text);
  if (!Array.isArray(m.content)) return null;
  const part = JSON.stringify({ type: "text", text });
  return _pushElement(content, elements(body, content.start), part);
}

function _responses(
  open: number,
  top: ReturnType<typeof members>,
  parsed: Record<string, unknown>,
  text: string,
): Insert | null {
  const instructions = parsed.instructions;
  const span = member(top, "instructions");
  if (typeof instructions === "string" && span) {
    if (instructions.includes(MARKER)) return null;
    return _append(span, instructions, text);
  }
  if (span) return { at: span.start, end: span.end, text: JSON.stringify(text) };
  return _newMember(open, top, "instructions", text);
}

function _append(span: Span, existing: string, text: string): Insert {
  const joined = existing ? `${existing}\n\n${text}` : text;
  return { at: span.start, end: span.end, text: JSON.stringify(joined) };
}

function _newMember(
  open: number,
  top: readonly Span[],
  key: string,
  text: string,
): Insert {
  const pair = `${JSON.stringify(key)}:${JSON.stringify(text)}`;
  const at = open + 1;
  return { at, end: at, text: top.length ? pair + "," : pair };
}

function _pushElement(array: Span, items: readonly Span[], value: string): Insert {
  if (items.length === 0) {
    const at = array.start + 1;
    return { at, end: at, text: value };
  }
  const at = items[items.length - 1].end;
  return { at, end: at, text: "," + value };
}

function _isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
