/**
 * A loopback stand-in for the model APIs that records every request byte for byte, and the
 * proxy started in front of it, for the proxy's tests.
 *
 * @module
 */

import type Anthropic from "@anthropic-ai/sdk";
import { DatabaseSync } from "node:sqlite";
import { type RunningRtok, startRtok } from "./_helpers.ts";

/** One request the stand-in received. */
export interface Received {
  /** Method. */
  readonly method: string;
  /** Path and query. */
  readonly path: string;
  /** Its headers, lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as received. */
  readonly body: Uint8Array;
  /** The body as text. */
  readonly text: string;
}

/** What the stand-in answers: the exact bytes it sent are kept in `sent`. */
export type Answer = (req: Received) => Response | Promise<Response>;

/** The stand-in: its URL, what it received, what it sent. */
export interface Upstream extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Requests, in order. */
  readonly received: Received[];
  /** The bytes of each response body it sent, in order. */
  readonly sent: Uint8Array[];
  /** Set to change how it answers. */
  answer: Answer;
  /** Resolves when a streamed answer was cancelled by its reader. */
  cancelled: PromiseWithResolvers<void>;
}

/** An SSE body from events: `event: <type>` and `data: <json>` per event. */
export function sse(events: readonly Record<string, unknown>[], named = true): string {
  return events.map((e) => `${named ? `event: ${e.type}\n` : ""}data: ${JSON.stringify(e)}\n\n`)
    .join("");
}

/** A stand-in answer per route, with usage in each, streamed when the request asks. */
export const DEFAULT_ANSWER: Answer = (req) => {
  let body;
  try {
    body = JSON.parse(req.text || "{}");
  } catch {
    return Response.json({ type: "error", error: { type: "invalid_request_error" } }, {
      status: 400,
    });
  }
  const model = body.model ?? "stand-in";
  if (req.path.startsWith("/v1/messages/count_tokens")) {
    return Response.json({ input_tokens: 1234 });
  }
  if (req.path.startsWith("/v1/messages")) {
    const usage = {
      input_tokens: 1500,
      output_tokens: 1,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 7000,
    };
    if (!body.stream) {
      return Response.json({
        id: "msg_1",
        type: "message",
        role: "assistant",
        model,
        content: [{ type: "text", text: "done" }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { ...usage, output_tokens: 42 },
      });
    }
    return new Response(
      sse([
        {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage,
          },
        },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "ping" },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "do" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ne" } },
        { type: "content_block_stop", index: 0 },
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 42 },
        },
        { type: "message_stop" },
      ]),
      { headers: { "content-type": "text/event-stream; charset=utf-8" } },
    );
  }
  if (req.path.includes("/chat/completions")) {
    const usage = {
      prompt_tokens: 2000,
      completion_tokens: 17,
      total_tokens: 2017,
      prompt_tokens_details: { cached_tokens: 1024 },
    };
    if (!body.stream) {
      return Response.json({
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model,
        choices: [{
          index: 0,
          message: { role: "assistant", content: "done" },
          finish_reason: "stop",
        }],
        usage,
      });
    }
    const chunk = (delta: unknown, finish: string | null) => ({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const chunks = [
      chunk({ role: "assistant", content: "do" }, null),
      chunk({ content: "ne" }, null),
    ];
    chunks.push(chunk({}, "stop"));
    const text = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") +
      (body.stream_options?.include_usage
        ? `data: ${
          JSON.stringify({
            id: "chatcmpl-1",
            object: "chat.completion.chunk",
            created: 1,
            model,
            choices: [],
            usage,
          })
        }\n\n`
        : "") +
      "data: [DONE]\n\n";
    return new Response(text, { headers: { "content-type": "text/event-stream" } });
  }
  if (req.path.includes("/responses")) {
    const response = {
      id: "resp_1",
      object: "response",
      created_at: 1,
      status: "completed",
      model,
      output: [{
        type: "message",
        id: "msg_1",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "done", annotations: [] }],
      }],
      usage: {
        input_tokens: 3000,
        input_tokens_details: { cached_tokens: 2048 },
        output_tokens: 9,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 3009,
      },
    };
    if (!body.stream) return Response.json(response);
    return new Response(
      sse([
        {
          type: "response.created",
          sequence_number: 0,
          response: { ...response, status: "in_progress", output: [], usage: null },
        },
        {
          type: "response.output_text.delta",
          sequence_number: 1,
          item_id: "msg_1",
          output_index: 0,
          content_index: 0,
          delta: "done",
        },
        { type: "response.completed", sequence_number: 2, response },
      ]),
      { headers: { "content-type": "text/event-stream" } },
    );
  }
  return Response.json({ object: "list", data: [] });
};

/** Starts the stand-in on a free loopback port. */
export function startUpstream(answer: Answer = DEFAULT_ANSWER): Upstream {
  const received: Received[] = [];
  const sent: Uint8Array[] = [];
  const up: Upstream = {
    url: "",
    received,
    sent,
    answer,
    cancelled: Promise.withResolvers<void>(),
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = new Uint8Array(await req.arrayBuffer());
    const r: Received = {
      method: req.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(req.headers),
      body,
      text: new TextDecoder().decode(body),
    };
    received.push(r);
    const res = await up.answer(r);
    if (!res.body) return res;
    // Record what goes out as it goes, and notice a reader that stops early.
    const chunks: Uint8Array[] = [];
    sent.push(new Uint8Array());
    const slot = sent.length - 1;
    const reader = res.body.getReader();
    const out = new ReadableStream<Uint8Array>({
      async pull(c) {
        const { done, value } = await reader.read();
        if (done) {
          sent[slot] = concat(chunks);
          c.close();
          return;
        }
        chunks.push(value);
        sent[slot] = concat(chunks);
        c.enqueue(value);
      },
      cancel() {
        up.cancelled.resolve();
        return reader.cancel();
      },
    });
    return new Response(out, { status: res.status, headers: res.headers });
  });
  (up as { url: string }).url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return up;
}

/** Bytes of several chunks, in order. */
export function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** `rtok proxy` running as a process in front of `upstream`. */
export type RunningProxy = RunningRtok;

/** Starts `rtok proxy` on a free port with `RTOK_HOME=home`, both upstreams at `upstream`. */
export function startProxy(
  home: string,
  upstream: string,
  extra: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
): Promise<RunningProxy> {
  return startRtok(
    home,
    [
      "proxy",
      "--port",
      "0",
      "--anthropic-upstream",
      upstream,
      "--openai-upstream",
      upstream,
      ...extra,
    ],
    /listening on (http:\/\/\S+)/,
    { env },
  );
}

/**
 * Reads the store of `home` (read-only) until `read` returns a value, for at most 10 s: the
 * proxy writes a request's row after its last byte, in batches, so a test waits for it.
 */
export async function untilLedger<T>(
  home: string,
  read: (db: DatabaseSync) => T | null,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 10_000;
  while (true) {
    try {
      const db = new DatabaseSync(`${home}/rtok.db`, { readOnly: true });
      try {
        const got = read(db);
        if (got !== null) return got;
      } finally {
        db.close();
      }
    } catch { /* not created yet */ }
    if (Date.now() > deadline) throw new Error(`expected ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** One `proxy_requests` row, as the tests read it. */
export interface ProxyRequestRow {
  /** `anthropic`, `openai`, `gemini`. */
  provider: string;
  /** The route's ledger name. */
  route: string;
  /** The model, where the request named one. */
  model: string | null;
  /** The response status. */
  status: number;
  /** 1 when the response was streamed. */
  streamed: number;
  /** Usage, as the provider reported it. */
  input_tokens: number | null;
  /** Output tokens. */
  output_tokens: number | null;
  /** Cache-write tokens. */
  cache_write_tokens: number | null;
  /** Cache-read tokens. */
  cache_read_tokens: number | null;
  /** Tool results looked at. */
  results_seen: number;
  /** Tool results compressed. */
  results_compressed: number;
  /** Their chars. */
  chars_seen: number;
  /** Chars removed. */
  chars_saved: number;
  /** Why the body was left alone, when it was. */
  note: string | null;
}

/** The `proxy_requests` rows of `home` once there are at least `n`, oldest first. */
export function proxyRows(home: string, n: number): Promise<ProxyRequestRow[]> {
  return untilLedger(home, (db) => {
    const all = db.prepare("SELECT * FROM proxy_requests ORDER BY id").all() as unknown[];
    return all.length >= n ? all as ProxyRequestRow[] : null;
  }, `${n} proxy rows`);
}

/** A real `git log` (the `git_log_history` fixture), long enough for the proxy to cut. */
export const GIT_LOG: string = Deno.readTextFileSync(
  new URL("./fixtures/git_log_history/raw.out", import.meta.url),
);

/** One Anthropic conversation whose last turn is a `git log` tool result the proxy compresses. */
export function gitLogTurns(): Anthropic.MessageParam[] {
  return [
    { role: "user", content: "log?" },
    {
      role: "assistant",
      content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "git log" } }],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: GIT_LOG }] },
  ];
}
