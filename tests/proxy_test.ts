import { deepStrictEqual, match, ok, rejects, strictEqual } from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { DatabaseSync } from "node:sqlite";
import { CLI, pointerId, rtok, RTOK_PERMS, run, startRtok, tempDir } from "./_helpers.ts";
import { proxyRows, sse, startProxy, startUpstream } from "./_upstream.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url);
const GIT_LOG = Deno.readTextFileSync(new URL("git_log_history/raw.out", FIXTURES));
const PYTEST = Deno.readTextFileSync(new URL("pytest_v_fail/raw.out", FIXTURES));
const SMALL = "total 0\n";

// What the client sent: the SDK's own body, captured on its way out.
function capturing(): { fetch: typeof fetch; bodies: string[] } {
  const bodies: string[] = [];
  return {
    bodies,
    fetch: (input, init) => {
      if (typeof init?.body === "string") bodies.push(init.body);
      return fetch(input, init);
    },
  };
}

// The received body with `compressed` put back to `original`: equal to what the client sent
// when the proxy changed nothing else.
function restore(received: string, pairs: readonly [string, string][]): string {
  let out = received;
  for (const [compressed, original] of pairs) {
    const at = out.indexOf(JSON.stringify(compressed));
    ok(at >= 0, "the compressed text is in the body as a JSON string");
    out = out.slice(0, at) + JSON.stringify(original) +
      out.slice(at + JSON.stringify(compressed).length);
  }
  return out;
}

function anthropicMessages(): Anthropic.MessageParam[] {
  return [
    { role: "user", content: "Look at the history and run the tests." },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Running both." },
        { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "git log" } },
        { type: "tool_use", id: "toolu_2", name: "Bash", input: { command: "pytest -v" } },
        { type: "tool_use", id: "toolu_3", name: "Bash", input: { command: "ls" } },
        { type: "tool_use", id: "toolu_4", name: "Bash", input: { command: "make" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: GIT_LOG },
        { type: "tool_result", tool_use_id: "toolu_2", content: [{ type: "text", text: PYTEST }] },
        { type: "tool_result", tool_use_id: "toolu_3", content: SMALL },
        { type: "tool_result", tool_use_id: "toolu_4", content: GIT_LOG, is_error: true },
      ],
    },
  ];
}

function toolResults(body: string): { id: string; text: string; isError: boolean }[] {
  const out = [];
  for (const m of JSON.parse(body).messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type !== "tool_result") continue;
      const text = typeof b.content === "string"
        ? b.content
        : b.content.map((p: { text: string }) => p.text).join("");
      out.push({ id: b.tool_use_id, text, isError: b.is_error === true });
    }
  }
  return out;
}

Deno.test({
  name: "rtok proxy compresses Anthropic tool results and passes every other byte, both ways",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    using tmp = tempDir();
    await using up = startUpstream();
    await using proxy = await startProxy(tmp.path, up.url, ["--verbose"]);
    const cap = capturing();
    const client = new Anthropic({
      apiKey: "sk-ant-secret-123",
      baseURL: proxy.url,
      fetch: cap.fetch,
      maxRetries: 0,
    });
    const params = { model: "claude-test-1", max_tokens: 100, messages: anthropicMessages() };

    await t.step(
      "not streamed: compressed results, the rest as sent, the answer exact",
      async () => {
        const res = await client.messages.create(params).asResponse();
        const bytes = new Uint8Array(await res.arrayBuffer());
        deepStrictEqual(bytes, up.sent.at(-1), "the client gets the stand-in's bytes");
        const got = up.received.at(-1)!;
        strictEqual(got.path, "/v1/messages");
        // The credential arrives as the SDK sent it (`x-api-key`, or a bearer token).
        match(got.headers["x-api-key"] ?? got.headers["authorization"], /sk-ant-secret-123$/);
        const results = toolResults(got.text);
        const [log, tests, small, error] = results;
        ok(log.text.length < GIT_LOG.length / 2, "the git log shrank by half or more");
        match(log.text, /\[rtok: cut .*; raw: rtok expand [0-9a-f]{12}\]$/);
        ok(tests.text.length < PYTEST.length, "the pytest run shrank");
        match(tests.text, /FAILED|failed/);
        strictEqual(small.text, SMALL, "a short result is left alone");
        strictEqual(error.text, GIT_LOG, "an is_error result is left alone");
        strictEqual(
          restore(got.text, [[log.text, GIT_LOG], [tests.text, PYTEST]]),
          cap.bodies.at(-1),
          "every other byte of the body is as the client sent it",
        );
        const [row] = await proxyRows(tmp.path, 1);
        deepStrictEqual(
          {
            provider: row.provider,
            route: row.route,
            model: row.model,
            status: row.status,
            streamed: row.streamed,
            input: row.input_tokens,
            output: row.output_tokens,
            write: row.cache_write_tokens,
            read: row.cache_read_tokens,
            seen: row.results_seen,
            compressed: row.results_compressed,
          },
          {
            provider: "anthropic",
            route: "messages",
            model: "claude-test-1",
            status: 200,
            streamed: 0,
            input: 1500,
            output: 42,
            write: 300,
            read: 7000,
            seen: 3,
            compressed: 2,
          },
        );
        strictEqual(row.chars_seen, GIT_LOG.length + PYTEST.length + SMALL.length);
        strictEqual(
          row.chars_saved,
          GIT_LOG.length + PYTEST.length - log.text.length - tests.text.length,
        );
        // The raw text is one expand away.
        const expanded = await rtok(tmp.path, ["expand", pointerId(log.text)!]);
        strictEqual(expanded.out, GIT_LOG);
      },
    );

    await t.step("streamed: the events arrive as sent and the usage is recorded", async () => {
      const res = await client.messages.create({ ...params, stream: true }).asResponse();
      const bytes = new Uint8Array(await res.arrayBuffer());
      deepStrictEqual(bytes, up.sent.at(-1));
      const row = (await proxyRows(tmp.path, 2))[1];
      deepStrictEqual(
        [
          row.streamed,
          row.input_tokens,
          row.output_tokens,
          row.cache_write_tokens,
          row.cache_read_tokens,
        ],
        [1, 1500, 42, 300, 7000],
      );
      const stream = await client.messages.create({ ...params, stream: true });
      let text = "";
      for await (const ev of stream) {
        if (ev.type === "content_block_delta" && ev.delta.type === "text_delta") {
          text += ev.delta.text;
        }
      }
      strictEqual(text, "done", "the SDK reads the stream through the proxy");
    });

    await t.step("count_tokens compresses the same way", async () => {
      const counted = await client.messages.countTokens({
        model: "claude-test-1",
        messages: params.messages,
      });
      strictEqual(counted.input_tokens, 1234);
      const got = up.received.at(-1)!;
      strictEqual(got.path, "/v1/messages/count_tokens");
      ok(toolResults(got.text)[0].text.length < GIT_LOG.length / 2);
    });

    await t.step("credentials are never stored or logged", async () => {
      const db = await Deno.readFile(`${tmp.path}/rtok.db`);
      const wal = await Deno.readFile(`${tmp.path}/rtok.db-wal`).catch(() => new Uint8Array());
      const all = new TextDecoder().decode(db) + new TextDecoder().decode(wal);
      ok(!all.includes("sk-ant-secret-123"));
      // The caller is a salted hash of the key, never the key.
      match(
        proxy.stderr(),
        /proxy: key-[0-9a-f]{12} anthropic messages 200 claude-test-1 /,
        "requests are logged",
      );
      ok(!proxy.stderr().includes("sk-ant-secret-123"));
    });
  },
});

Deno.test({
  name: "rtok proxy gives every earlier tool result the same bytes in each later request",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    await using proxy = await startProxy(tmp.path, up.url);
    const client = new Anthropic({ apiKey: "k", baseURL: proxy.url, maxRetries: 0 });
    const outputs = [GIT_LOG, PYTEST, GIT_LOG.replaceAll("commit", "commit"), SMALL];
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "go" }];
    for (let turn = 0; turn < 10; turn++) {
      const id = `toolu_${turn}`;
      messages.push({
        role: "assistant",
        content: [{ type: "tool_use", id, name: "Bash", input: { command: `step ${turn}` } }],
      });
      // Each result is different: the turn number leads it.
      const text = `step ${turn}\n${outputs[turn % outputs.length]}`;
      messages.push({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: id, content: text }],
      });
      await client.messages.create({ model: "m", max_tokens: 10, messages });
    }
    strictEqual(up.received.length, 10);
    const seen = new Map<string, string>();
    for (const r of up.received) {
      for (const res of toolResults(r.text)) {
        const before = seen.get(res.id);
        if (before !== undefined) {
          strictEqual(res.text, before, `${res.id} changed between requests`);
        }
        seen.set(res.id, res.text);
      }
    }
    strictEqual(seen.size, 10);
    // And the prefix before the newest message is byte-identical to the previous request's.
    for (let i = 1; i < up.received.length; i++) {
      const prev = JSON.parse(up.received[i - 1].text).messages;
      const cur = JSON.parse(up.received[i].text).messages;
      deepStrictEqual(cur.slice(0, prev.length), prev);
    }
    const compressed = (await proxyRows(tmp.path, 10)).reduce(
      (n, r) => n + r.results_compressed,
      0,
    );
    ok(compressed > 10, "results were compressed, again in each request");
  },
});

Deno.test({
  name: "rtok proxy compresses OpenAI chat tool messages and Responses function_call_output",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    using tmp = tempDir();
    await using up = startUpstream();
    await using proxy = await startProxy(tmp.path, up.url);
    const cap = capturing();
    const client = new OpenAI({
      apiKey: "sk-openai-secret",
      baseURL: `${proxy.url}/v1`,
      fetch: cap.fetch,
      maxRetries: 0,
    });
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: "system", content: "You are terse." },
      { role: "user", content: "history?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "sh", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_1", content: GIT_LOG },
      { role: "tool", tool_call_id: "call_2", content: [{ type: "text", text: PYTEST }] },
    ];

    await t.step("chat, not streamed", async () => {
      const res = await client.chat.completions.create({ model: "gpt-test", messages })
        .asResponse();
      deepStrictEqual(new Uint8Array(await res.arrayBuffer()), up.sent.at(-1));
      const body = JSON.parse(up.received.at(-1)!.text);
      const log = body.messages[3].content as string;
      const tests = body.messages[4].content[0].text as string;
      ok(log.length < GIT_LOG.length / 2);
      ok(tests.length < PYTEST.length);
      strictEqual(
        restore(up.received.at(-1)!.text, [[log, GIT_LOG], [tests, PYTEST]]),
        cap.bodies.at(-1),
      );
      const [row] = await proxyRows(tmp.path, 1);
      deepStrictEqual(
        [
          row.provider,
          row.route,
          row.model,
          row.input_tokens,
          row.output_tokens,
          row.cache_read_tokens,
        ],
        ["openai", "chat", "gpt-test", 2000 - 1024, 17, 1024],
      );
    });

    await t.step("chat, streamed with the usage chunk", async () => {
      const res = await client.chat.completions.create({
        model: "gpt-test",
        messages,
        stream: true,
        stream_options: { include_usage: true },
      }).asResponse();
      deepStrictEqual(new Uint8Array(await res.arrayBuffer()), up.sent.at(-1));
      const row = (await proxyRows(tmp.path, 2))[1];
      deepStrictEqual([row.streamed, row.input_tokens, row.output_tokens], [1, 976, 17]);
    });

    await t.step("responses, streamed and not", async () => {
      const input: OpenAI.Responses.ResponseInput = [
        { role: "user", content: "history?" },
        { type: "function_call", call_id: "c1", name: "sh", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: GIT_LOG },
      ];
      const plain = await client.responses.create({ model: "gpt-r", input });
      strictEqual(plain.output_text, "done");
      const body = JSON.parse(up.received.at(-1)!.text);
      ok(body.input[2].output.length < GIT_LOG.length / 2);
      const res = await client.responses.create({ model: "gpt-r", input, stream: true })
        .asResponse();
      deepStrictEqual(new Uint8Array(await res.arrayBuffer()), up.sent.at(-1));
      const [a, b] = (await proxyRows(tmp.path, 4)).slice(2);
      deepStrictEqual(
        [
          a.route,
          a.input_tokens,
          a.output_tokens,
          a.cache_read_tokens,
          b.streamed,
          b.output_tokens,
        ],
        ["responses", 3000 - 2048, 9, 2048, 1, 9],
      );
    });
  },
});

Deno.test({
  name: "rtok proxy forwards bypassed, non-JSON and unknown requests untouched",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    using tmp = tempDir();
    await using up = startUpstream();
    await using proxy = await startProxy(tmp.path, up.url);
    const body = JSON.stringify({ model: "m", max_tokens: 5, messages: anthropicMessages() });

    await t.step("x-rtok: off", async () => {
      const r = await fetch(`${proxy.url}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-rtok": "off", "x-api-key": "k" },
        body,
      });
      await r.body?.cancel();
      strictEqual(up.received.at(-1)!.text, body);
      strictEqual(up.received.at(-1)!.headers["x-rtok"], undefined);
      strictEqual((await proxyRows(tmp.path, 1))[0].note, "bypass (x-rtok: off)");
    });

    await t.step("a body that is not JSON", async () => {
      const junk = "{not json" + "x".repeat(2000);
      const r = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body: junk });
      await r.body?.cancel();
      strictEqual(up.received.at(-1)!.text, junk);
      strictEqual((await proxyRows(tmp.path, 2))[1].note, "not JSON");
    });

    await t.step("another route, with its query", async () => {
      const r = await fetch(`${proxy.url}/v1/models?limit=3`, { headers: { "x-api-key": "k" } });
      deepStrictEqual(await r.json(), { object: "list", data: [] });
      strictEqual(up.received.at(-1)!.path, "/v1/models?limit=3");
      strictEqual(up.received.at(-1)!.method, "GET");
    });
  },
});

Deno.test({
  name: "rtok proxy passes upstream errors through and answers 502 when the upstream is gone",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    using tmp = tempDir();
    await using up = startUpstream();
    await using proxy = await startProxy(tmp.path, up.url, ["--timeout-ms", "1000"]);
    const client = new Anthropic({ apiKey: "k", baseURL: proxy.url, maxRetries: 0 });
    const params = { model: "m", max_tokens: 5, messages: anthropicMessages() };

    await t.step("a 429 with its headers and body", async () => {
      const errBody = '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}';
      up.answer = () =>
        new Response(errBody, {
          status: 429,
          headers: { "content-type": "application/json", "retry-after": "7" },
        });
      const res = await fetch(`${proxy.url}/v1/messages`, {
        method: "POST",
        body: JSON.stringify(params),
      });
      strictEqual(res.status, 429);
      strictEqual(res.headers.get("retry-after"), "7");
      strictEqual(await res.text(), errBody);
    });

    await t.step("an error event in the middle of a stream", async () => {
      const events = sse([
        {
          type: "message_start",
          message: { model: "m", usage: { input_tokens: 5, output_tokens: 1 } },
        },
        { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      ]);
      up.answer = () => new Response(events, { headers: { "content-type": "text/event-stream" } });
      const res = await fetch(`${proxy.url}/v1/messages`, {
        method: "POST",
        body: JSON.stringify({ ...params, stream: true }),
      });
      strictEqual(await res.text(), events);
    });

    await t.step("an upstream that does not answer in time", async () => {
      up.answer = () => new Promise((r) => setTimeout(() => r(Response.json({})), 3000));
      await rejects(client.messages.create(params), (e: unknown) => {
        const err = e as { status?: number; message: string };
        strictEqual(err.status, 502);
        match(
          err.message,
          new RegExp(`upstream ${up.url.replaceAll(".", "\\.")} no answer in 1000 ms`),
        );
        return true;
      });
    });
  },
});

Deno.test({
  name: "rtok proxy answers 502 in each provider's shape when the upstream is unreachable",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    // A port that was just free: nothing listens there.
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const dead = `http://127.0.0.1:${(l.addr as Deno.NetAddr).port}`;
    l.close();
    await using proxy = await startProxy(tmp.path, dead);
    const a = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body: "{}" });
    strictEqual(a.status, 502);
    const ab = await a.json();
    strictEqual(ab.type, "error");
    match(ab.error.message, new RegExp(`upstream ${dead.replaceAll(".", "\\.")} unreachable`));
    const o = await fetch(`${proxy.url}/v1/chat/completions`, { method: "POST", body: "{}" });
    strictEqual(o.status, 502);
    const ob = await o.json();
    strictEqual(ob.error.type, "server_error");
    match(ob.error.message, /unreachable/);
    const logged = await proxyRows(tmp.path, 2);
    deepStrictEqual(logged.map((r) => r.status), [502, 502]);
  },
});

Deno.test({
  name: "rtok proxy cancels the upstream request when the client leaves mid-stream",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    up.answer = () => {
      let n = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          await new Promise((r) => setTimeout(r, 20));
          c.enqueue(new TextEncoder().encode(`event: ping\ndata: {"type":"ping","n":${n++}}\n\n`));
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    };
    await using proxy = await startProxy(tmp.path, up.url);
    const ac = new AbortController();
    const res = await fetch(`${proxy.url}/v1/messages`, {
      method: "POST",
      body: '{"stream":true}',
      signal: ac.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    ac.abort();
    await reader.cancel().catch(() => {});
    const timeout = new Promise((_, reject) =>
      setTimeout(() => reject(new Error("the upstream stream was not cancelled")), 5000)
    );
    await Promise.race([up.cancelled.promise, timeout]);
    strictEqual((await proxyRows(tmp.path, 1))[0].note, "client disconnected");
  },
});

Deno.test("rtok proxy refuses a non-loopback address without --allow-remote and a token", async (t) => {
  using tmp = tempDir();
  const cases: { args: string[]; env: Record<string, string>; err: string }[] = [
    {
      args: ["--host", "0.0.0.0"],
      env: {},
      err: 'rtok: "0.0.0.0" is not a loopback address; add --allow-remote (and set ' +
        "RTOK_PROXY_TOKEN) to serve other machines",
    },
    {
      args: ["--listen", "0.0.0.0:0", "--allow-remote"],
      env: {},
      err: 'rtok: "0.0.0.0" is not a loopback address: set RTOK_PROXY_TOKEN to the token ' +
        "clients send in the x-rtok-token header",
    },
    {
      args: ["--listen", "0.0.0.0", "--allow-remote"],
      env: { RTOK_PROXY_TOKEN: "t" },
      err: 'rtok: --listen "0.0.0.0": expected HOST:PORT, for example 0.0.0.0:8787 or ' +
        "[::1]:8787",
    },
  ];
  for (const c of cases) {
    await t.step(c.args.join(" "), async () => {
      const r = await run(Deno.execPath(), ["run", ...RTOK_PERMS, CLI, "proxy", ...c.args], {
        env: { RTOK_HOME: tmp.path, ...c.env },
      });
      strictEqual(r.code, 1);
      strictEqual(r.err.trim(), c.err);
    });
  }
});

Deno.test({
  name: "rtok proxy with inject on adds the style once, the same way in every request",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await Deno.writeTextFile(
      `${tmp.path}/config.toml`,
      '[plugins.inject]\nenabled = true\nterse = "ultra"\ncode = "off"\nholdout = 0\n',
    );
    await using up = startUpstream();
    await using proxy = await startProxy(tmp.path, up.url);
    const body = JSON.stringify({
      model: "m",
      max_tokens: 5,
      system: [{ type: "text", text: "You help.", cache_control: { type: "ephemeral" } }],
      messages: anthropicMessages(),
    });
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body });
      await r.arrayBuffer();
    }
    const [a, b] = up.received;
    strictEqual(a.text, b.text, "the same request became the same bytes");
    const system = JSON.parse(a.text).system as { text: string; cache_control?: unknown }[];
    strictEqual(system.length, 2);
    match(system[0].text, /^\[rtok style\]\nAnswer in as few words/);
    deepStrictEqual(system[1], JSON.parse(body).system[0]);
    // A request that already has the style is not given it twice.
    const again = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body: a.text });
    await again.arrayBuffer();
    strictEqual(up.received[2].text, a.text);
  },
});

Deno.test({
  name:
    "rtok proxy holds the style out of a share of sessions, records each request's arm, and rtok gain compares them",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    // Half the sessions held out: each session's arm follows from its metadata.user_id.
    await Deno.writeTextFile(
      `${tmp.path}/config.toml`,
      '[plugins.inject]\nenabled = true\nterse = "ultra"\ncode = "off"\nholdout = 0.5\n',
    );
    await using up = startUpstream();
    const sessions = Array.from({ length: 8 }, (_, i) => `user_x_session_${i}`);
    {
      await using proxy = await startProxy(tmp.path, up.url);
      for (const id of sessions) {
        for (let k = 0; k < 2; k++) {
          const r = await fetch(`${proxy.url}/v1/messages`, {
            method: "POST",
            body: JSON.stringify({
              model: "m",
              max_tokens: 5,
              metadata: { user_id: id },
              messages: anthropicMessages(),
            }),
          });
          await r.arrayBuffer();
        }
      }
      await proxyRows(tmp.path, sessions.length * 2);
    }
    const styled = up.received.map((q) => q.text.includes("[rtok style]"));
    for (let i = 0; i < sessions.length; i++) {
      strictEqual(styled[2 * i], styled[2 * i + 1], `both requests of ${sessions[i]} in one arm`);
    }
    const held = styled.filter((s) => !s).length / 2;
    ok(held > 0 && held < sessions.length, `${held} of ${sessions.length} sessions held out`);
    const db = new DatabaseSync(`${tmp.path}/rtok.db`, { readOnly: true });
    try {
      const arms = db.prepare("SELECT style_arm AS arm FROM proxy_requests ORDER BY id").all()
        .map((r) => r.arm);
      deepStrictEqual(arms, styled.map((s) => (s ? "styled" : "holdout")));
    } finally {
      db.close();
    }
    const json = await rtok(tmp.path, ["gain", "--format", "json"]);
    const style = JSON.parse(json.out).proxy.style;
    strictEqual(style.arms[0].requests + style.arms[1].requests, sessions.length * 2);
    match(style.verdict, /^too little data to tell/);
    const text = await rtok(tmp.path, ["gain"]);
    match(text.out, /style holdout · output tokens per request/);
  },
});

Deno.test({
  name: "rtok gain shows the proxy's real usage apart from the estimates",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    {
      await using proxy = await startProxy(tmp.path, up.url);
      const client = new Anthropic({ apiKey: "k", baseURL: proxy.url, maxRetries: 0 });
      await client.messages.create({
        model: "claude-g",
        max_tokens: 5,
        messages: anthropicMessages(),
      });
      await client.messages.create({
        model: "claude-g",
        max_tokens: 5,
        messages: anthropicMessages(),
        stream: true,
      }).then(async (s) => {
        for await (const _ of s) { /* read it all */ }
      });
      await proxyRows(tmp.path, 2);
    }
    const json = await rtok(tmp.path, ["gain", "--format", "json"]);
    strictEqual(json.code, 0, json.err);
    const g = JSON.parse(json.out);
    strictEqual(g.estimated, true);
    strictEqual(g.proxy.real, true);
    strictEqual(g.proxy.requests, 2);
    strictEqual(g.proxy.resultsCompressed, 4);
    deepStrictEqual(g.proxy.models, [{
      provider: "anthropic",
      model: "claude-g",
      requests: 2,
      inputTokens: 3000,
      outputTokens: 84,
      cacheWriteTokens: 600,
      cacheReadTokens: 14000,
    }]);
    ok(g.proxy.estimatedTokensSaved > 0);
    const text = await rtok(tmp.path, ["gain"]);
    match(text.out, /proxy · all projects · tokens as the providers reported them/);
    match(text.out, /anthropic\s+claude-g\s+2\s+3\.0K\s+84\s+600\s+14\.0K/);
  },
});

Deno.test({
  name: "rtok proxy listens off loopback with --allow-remote and a token, and asks for it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    await using up = startUpstream();
    await using proxy = await startRtok(
      tmp.path,
      [
        "proxy",
        "--listen",
        "0.0.0.0:0",
        "--allow-remote",
        "--anthropic-upstream",
        up.url,
        "--openai-upstream",
        up.url,
      ],
      /listening on (http:\/\/\S+)/,
      { env: { RTOK_PROXY_TOKEN: "team-token" } },
    );
    match(proxy.stderr(), /listening on 0\.0\.0\.0: requests need the gateway token/);
    const port = new URL(proxy.url).port;
    const denied = await fetch(`http://127.0.0.1:${port}/v1/models`);
    strictEqual(denied.status, 401);
    match(await denied.text(), /^\{.*missing or wrong gateway token.*\}$/);
    strictEqual(up.received.length, 0, "the provider never sees a request without the token");
    const r = await fetch(`http://127.0.0.1:${port}/v1/models`, {
      headers: { "x-rtok-token": "team-token", "x-rtok-caller": "ci" },
    });
    deepStrictEqual(await r.json(), { object: "list", data: [] });
    deepStrictEqual(
      Object.keys(up.received[0].headers).filter((k) => k.startsWith("x-rtok")),
      [],
      "the gateway's headers are not forwarded",
    );
  },
});

Deno.test("rtok proxy on a port in use says so in one line naming it, exit 1", async () => {
  using tmp = tempDir();
  using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (taken.addr as Deno.NetAddr).port;
  const r = await rtok(tmp.path, ["proxy", "--port", String(port)]);
  strictEqual(r.code, 1);
  strictEqual(r.err, `rtok: port ${port} on 127.0.0.1 is in use; choose another with --port\n`);
});
