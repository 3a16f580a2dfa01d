/**
 * A stand-in for the Anthropic API, run as its own process by the gateway load bench
 * (`gateway_load.ts`), so the CPU it spends is not counted against the clients' process.
 *
 * `POST /v1/messages` answers with a message unique to the request: its id is the request's
 * `model` (the bench gives each request its own), echoed in the answer with words built from
 * it. A body with `"stream":true` is answered with an SSE stream of 20 events, each its own
 * chunk, without delay; any other body with one JSON message. Both carry usage. A request
 * with the header `x-stand-in-delay-ms: N` is answered N ms after its body arrived, as a
 * model takes its time before the first byte. Every answer's
 * bytes are kept by id; `GET /sent` returns them all (a JSON object, id → text) so the bench
 * compares what each client received with what was sent. `GET /reset` forgets them.
 *
 * It prints `stand-in listening on http://127.0.0.1:PORT` on stdout once it listens.
 *
 * @module
 */

const ENC = new TextEncoder();

// Read from the head of the body only: the bench puts `model` and `stream` first, and a
// 100 KB body is never parsed whole here.
const MODEL = /"model"\s*:\s*"([^"\\]{1,200})"/;
const STREAM = /"stream"\s*:\s*true/;

function _words(id: string, n: number): string[] {
  // Deterministic per id, different between ids; some chars are not ASCII, so a client that
  // splits or re-encodes a multi-byte char would not give back the same bytes.
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  const words = ["réponse", "gateway", "naïve", "tokens", "—", "cache", "ünd", "result"];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    h = Math.imul(h ^ i, 16777619) >>> 0;
    out.push(`${words[h % words.length]} ${id}:${i} `);
  }
  return out;
}

function _usage(id: string) {
  return {
    input_tokens: 1000 + id.length,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 20_000,
  };
}

function _event(e: Record<string, unknown>): string {
  return `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
}

function _streamed(id: string): string[] {
  const deltas = _words(id, 15);
  const events = [
    _event({
      type: "message_start",
      message: {
        id: `msg_${id}`,
        type: "message",
        role: "assistant",
        model: id,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ..._usage(id), output_tokens: 1 },
      },
    }),
    _event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    ...deltas.map((text) =>
      _event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })
    ),
    _event({ type: "content_block_stop", index: 0 }),
    _event({
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: deltas.length },
    }),
    _event({ type: "message_stop" }),
  ];
  return events;
}

function _whole(id: string): string {
  const words = _words(id, 15);
  return JSON.stringify({
    id: `msg_${id}`,
    type: "message",
    role: "assistant",
    model: id,
    content: [{ type: "text", text: words.join("") }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { ..._usage(id), output_tokens: words.length },
  });
}

if (import.meta.main) {
  const sent = new Map<string, string>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: (addr) => console.log(`stand-in listening on http://127.0.0.1:${addr.port}`),
  }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "GET" && path === "/sent") return Response.json(Object.fromEntries(sent));
    if (req.method === "GET" && path === "/reset") {
      sent.clear();
      return new Response("ok");
    }
    if (req.method !== "POST" || path !== "/v1/messages") {
      return new Response("not here", { status: 404 });
    }
    const body = await req.text();
    const head = body.slice(0, 512);
    const id = MODEL.exec(head)?.[1];
    if (!id) return Response.json({ type: "error" }, { status: 400 });
    if (sent.has(id)) return Response.json({ type: "error", duplicate: id }, { status: 409 });
    const delay = Number(req.headers.get("x-stand-in-delay-ms") ?? 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (!STREAM.test(head)) {
      const text = _whole(id);
      sent.set(id, text);
      return new Response(text, { headers: { "content-type": "application/json" } });
    }
    const events = _streamed(id);
    sent.set(id, events.join(""));
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (i < events.length) c.enqueue(ENC.encode(events[i++]));
        else c.close();
      },
    }, { highWaterMark: 0 });
    return new Response(stream, {
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
    });
  });
  Deno.addSignalListener("SIGTERM", () => server.shutdown());
  await server.finished;
}
