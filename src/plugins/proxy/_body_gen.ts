/**
 * Random request bodies, a slow reference finder of their tool-result strings, and the byte
 * scanner's answer read back as text, for the tests of `body_bytes.ts`.
 *
 * @module
 */

import { findToolTokens } from "./body_bytes.ts";
import type { Api } from "./routes.ts";

/** A tool-result string of a body read as text: its span (UTF-16 indexes) and value. */
export interface ToolText {
  /** Index of the opening quote. */
  readonly start: number;
  /** Index just past the closing quote. */
  readonly end: number;
  /** The decoded value. */
  readonly text: string;
  /** Where it is: `messages[3].content[0].content`. */
  readonly path: string;
}

const _enc = new TextEncoder();
const _dec = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * `findToolTokens` over `body` encoded as UTF-8, its spans turned back into indexes of `body`
 * and its tokens decoded: what the tests written against text compare.
 */
export function textsOf(body: string, api: Api): ToolText[] | null {
  const bytes = _enc.encode(body);
  const tokens = findToolTokens(bytes, api);
  if (tokens === null) return null;
  return tokens.map((t) => {
    const start = _dec.decode(bytes.subarray(0, t.start)).length;
    const token = _dec.decode(bytes.subarray(t.start, t.end));
    return { start, end: start + token.length, text: JSON.parse(token), path: t.path };
  });
}

/** A generator of numbers in [0, 1). */
export type Rand = () => number;
/** A random element of `xs`. */
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const PIECES = [
  "a",
  "b",
  " ",
  "\n",
  "\t",
  '"',
  "\\",
  "\\\\",
  '\\"',
  "/",
  "é",
  "日本",
  "🎉",
  "\u0001",
  "\u001f",
  "\u2028",
  "}",
  "]",
  "{",
  "[",
  ",",
  ":",
  "tool_result",
  '"content":"',
  "\u007f",
];

/** A short random text of JSON-hostile pieces. */
export function randomText(r: Rand): string {
  let s = "";
  const n = Math.floor(r() * 12);
  for (let k = 0; k < n; k++) s += pick(r, PIECES);
  return s;
}

/**
 * A random value of the shapes the APIs carry, with distractors everywhere; its strings come
 * from `txt`.
 */
export function randomMessage(r: Rand, api: Api, txt: (r: Rand) => string = randomText): unknown {
  const text = () => ({ type: "text", text: txt(r) });
  const noise = () =>
    pick(r, [1.5, -0, 12345678901234567890, true, null, txt(r), [], {}, {
      k: [txt(r)],
    }]);
  if (api === "gemini") {
    const response = () =>
      pick(r, [
        () => ({ output: txt(r) }),
        () => ({ output: txt(r) }),
        () => ({ output: txt(r), exitCode: 0 }),
        () => ({ output: txt(r), error: pick(r, [txt(r), null, false, {}]) }),
        () => ({ error: txt(r) }),
        () => ({ output: noise() }),
        () => ({ result: txt(r), content: txt(r) }),
        noise,
      ])();
    const part = () =>
      pick(r, [
        () => ({
          functionResponse: { id: txt(r), name: "run_shell_command", response: response() },
        }),
        () => ({ functionResponse: { name: "read_file", response: response() } }),
        () => ({
          functionResponse: { name: "f", response: response(), parts: [{ text: txt(r) }] },
        }),
        () => ({ functionCall: { name: "f", args: { output: txt(r) } } }),
        () => ({ text: txt(r), response: { output: txt(r) } }),
        () => ({ functionResponse: noise() }),
        () => ({ functionResponse: { response: noise() } }),
        noise,
      ])();
    return pick(r, [
      () => ({
        role: pick(r, ["user", "model", "function"]),
        parts: Array.from({ length: Math.floor(r() * 5) }, part),
      }),
      () => ({ role: "user", parts: Array.from({ length: 1 + Math.floor(r() * 3) }, part) }),
      () => ({ role: "user", parts: noise() }),
      noise,
    ])();
  }
  if (api === "openai-responses") {
    return pick(r, [
      () => ({ type: "function_call_output", call_id: txt(r), output: txt(r) }),
      () => ({
        type: "function_call_output",
        call_id: "c",
        output: [
          { type: "input_text", text: txt(r) },
          { type: "input_image", image_url: txt(r) },
          { type: pick(r, ["input_text", "output_text", "text"]), text: txt(r) },
        ],
      }),
      () => ({
        type: "function_call",
        call_id: "c",
        arguments: txt(r),
        output: txt(r),
      }),
      () => ({
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: txt(r) }],
      }),
      () => ({ type: "function_call_output", output: noise() }),
      noise,
    ])();
  }
  if (api === "openai-chat") {
    return pick(r, [
      () => ({ role: "tool", tool_call_id: "c", content: txt(r) }),
      () => ({
        role: "tool",
        content: [text(), { type: "image_url", text: txt(r) }, text()],
      }),
      () => ({ role: pick(r, ["user", "assistant", "system"]), content: txt(r) }),
      () => ({ role: "tool", content: noise() }),
      noise,
    ])();
  }
  const result = () => ({
    type: "tool_result",
    tool_use_id: "t",
    ...(r() < 0.3 ? { is_error: pick(r, [true, false, null, "true"]) } : {}),
    content: pick(r, [
      () => txt(r),
      () => [text(), { type: "image", source: { data: txt(r) } }, text(), noise()],
      noise,
    ])(),
  });
  return {
    role: pick(r, ["user", "user", "assistant"]),
    content: pick(r, [
      () => txt(r),
      () =>
        Array.from({ length: Math.floor(r() * 4) }, () => pick(r, [result, result, text, noise])()),
    ])(),
  };
}

/** JSON text with random whitespace, random escapes, shuffled keys and decoy duplicate keys. */
export function serializeRandomly(r: Rand, v: unknown): string {
  const ws = () => (r() < 0.7 ? "" : pick(r, [" ", "\n", "\t", "\r\n  ", "   "]));
  if (typeof v === "string") {
    let s = '"';
    for (const ch of v) {
      const code = ch.codePointAt(0)!;
      if (ch === '"' || ch === "\\") s += "\\" + ch;
      else if (code < 0x20) {
        s += r() < 0.5
          ? JSON.stringify(ch).slice(1, -1)
          : "\\u" + code.toString(16).padStart(4, "0");
      } else if (ch === "/" && r() < 0.5) s += "\\/";
      else if (r() < 0.1) {
        for (let k = 0; k < ch.length; k++) {
          const hex = ch.charCodeAt(k).toString(16).padStart(4, "0");
          s += "\\u" + (r() < 0.5 ? hex : hex.toUpperCase());
        }
      } else s += ch;
    }
    return s + '"';
  }
  if (Array.isArray(v)) {
    return "[" + ws() + v.map((x) => ws() + serializeRandomly(r, x) + ws()).join(",") + "]";
  }
  if (typeof v === "object" && v !== null) {
    const entries = Object.entries(v);
    for (let k = entries.length - 1; k > 0; k--) {
      const m = Math.floor(r() * (k + 1));
      [entries[k], entries[m]] = [entries[m], entries[k]];
    }
    const members: string[] = [];
    for (const [k, x] of entries) {
      // A decoy before the real key: JSON.parse, and so the body's meaning, keep the last.
      if (r() < 0.1) {
        members.push(
          ws() + serializeRandomly(r, k) + ws() + ":" + ws() +
            serializeRandomly(
              r,
              pick(r, ["decoy", [{ type: "text", text: "decoy" }], { role: "tool" }]),
            ),
        );
      }
      members.push(
        ws() + serializeRandomly(r, k) + ws() + ":" + ws() + serializeRandomly(r, x) + ws(),
      );
    }
    return "{" + members.join(",") + ws() + "}";
  }
  return JSON.stringify(v);
}

// The reference: a char-by-char JSON parser keeping every value's span, then the rules
// applied to that tree. Slow and plain on purpose.
type _RNode =
  | { kind: "string"; start: number; end: number; value: string }
  | { kind: "array"; items: _RNode[] }
  | { kind: "object"; entries: [string, _RNode][] }
  | { kind: "literal"; value: unknown };

function _refParse(s: string): _RNode {
  let i = 0;
  const ws = () => {
    while (" \t\n\r".includes(s[i]) && i < s.length) i++;
  };
  const str = (): _RNode => {
    const start = i;
    i++;
    let value = "";
    while (s[i] !== '"') {
      if (s[i] === "\\") {
        const e = s[i + 1];
        if (e === "u") {
          value += String.fromCharCode(parseInt(s.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          value += ({ n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" } as Record<string, string>)[e] ??
            e;
          i += 2;
        }
      } else value += s[i++];
    }
    i++;
    return { kind: "string", start, end: i, value };
  };
  const val = (): _RNode => {
    ws();
    const c = s[i];
    if (c === '"') return str();
    if (c === "[") {
      i++;
      const items: _RNode[] = [];
      ws();
      if (s[i] === "]") return i++, { kind: "array", items };
      for (;;) {
        items.push(val());
        ws();
        if (s[i++] === "]") return { kind: "array", items };
      }
    }
    if (c === "{") {
      i++;
      const entries: [string, _RNode][] = [];
      ws();
      if (s[i] === "}") return i++, { kind: "object", entries };
      for (;;) {
        ws();
        const k = str() as { value: string };
        ws();
        i++; // colon
        entries.push([k.value, val()]);
        ws();
        if (s[i++] === "}") return { kind: "object", entries };
      }
    }
    const m = /^-?[0-9.eE+\-]+|^true|^false|^null/.exec(s.slice(i, i + 40))!;
    i += m[0].length;
    return { kind: "literal", value: JSON.parse(m[0]) };
  };
  return val();
}

/** The tool texts of `body` found by the slow reference. */
export function referenceFind(body: string, api: Api): ToolText[] {
  const root = _refParse(body);
  const get = (n: _RNode | undefined, key: string): _RNode | undefined => {
    if (n?.kind !== "object") return undefined;
    let last: _RNode | undefined;
    for (const [k, v] of n.entries) if (k === key) last = v;
    return last;
  };
  const isStr = (n: _RNode | undefined, v: string) => n?.kind === "string" && n.value === v;
  const out: ToolText[] = [];
  const take = (holder: _RNode, path: string, field: string, partType: string) => {
    const v = get(holder, field);
    if (v?.kind === "string") {
      out.push({ start: v.start, end: v.end, text: v.value, path: `${path}.${field}` });
    }
    if (v?.kind === "array") {
      v.items.forEach((p, k) => {
        const t = get(p, "text");
        if (isStr(get(p, "type"), partType) && t?.kind === "string") {
          out.push({
            start: t.start,
            end: t.end,
            text: t.value,
            path: `${path}.${field}[${k}].text`,
          });
        }
      });
    }
  };
  const name = api === "openai-responses" ? "input" : api === "gemini" ? "contents" : "messages";
  const list = get(root, name);
  if (list?.kind !== "array") return out;
  list.items.forEach((m, i) => {
    if (api === "gemini") {
      const parts = get(m, "parts");
      if (parts?.kind !== "array") return;
      parts.items.forEach((p, j) => {
        const response = get(get(p, "functionResponse"), "response");
        if (response?.kind !== "object" || response.entries.some(([k]) => k === "error")) return;
        const output = get(response, "output");
        if (output?.kind === "string") {
          out.push({
            start: output.start,
            end: output.end,
            text: output.value,
            path: `contents[${i}].parts[${j}].functionResponse.response.output`,
          });
        }
      });
    } else if (api === "openai-responses") {
      if (isStr(get(m, "type"), "function_call_output")) {
        take(m, `input[${i}]`, "output", "input_text");
      }
    } else if (api === "openai-chat") {
      if (isStr(get(m, "role"), "tool")) take(m, `messages[${i}]`, "content", "text");
    } else {
      const content = get(m, "content");
      if (!isStr(get(m, "role"), "user") || content?.kind !== "array") return;
      content.items.forEach((b, j) => {
        const err = get(b, "is_error");
        if (
          isStr(get(b, "type"), "tool_result") && !(err?.kind === "literal" && err.value === true)
        ) {
          take(b, `messages[${i}].content[${j}]`, "content", "text");
        }
      });
    }
  });
  return out;
}
