import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import type { Ctx, ProxyRequest } from "../../core/plugin.ts";
import { ToolResultCompressor } from "./compress.ts";
import { BodyRequest } from "./request.ts";
import type { Api } from "./routes.ts";

const enc = new TextEncoder();
const FIXTURES = new URL("../../../tests/fixtures/", import.meta.url);
const READ = { read: [FIXTURES] };

// Real tool outputs, long enough to be compressed.
async function outputs(n: number): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(FIXTURES)) if (e.isDirectory) names.push(e.name);
  names.sort();
  const out: string[] = [];
  for (const name of names) {
    const raw = await Deno.readTextFile(new URL(`${name}/raw.out`, FIXTURES)).catch(() => "");
    if (raw.length > 2000) out.push(raw);
    if (out.length === n) break;
  }
  return out;
}

// A keepRaw that counts its calls and can be made to fail.
function archive(): { ctx: Pick<Ctx, "keepRaw">; calls: string[]; fail: boolean } {
  const a = {
    calls: [] as string[],
    fail: false,
    ctx: {
      keepRaw: (raw: Uint8Array) => {
        a.calls.push(new TextDecoder().decode(raw));
        return Promise.resolve(a.fail ? null : `id${raw.length}`);
      },
    },
  };
  return a;
}

// The same text spelled with an escape: the first ASCII letter as \u00XX.
function escaped(text: string): string {
  const json = JSON.stringify(text);
  const k = json.search(/[a-z]/);
  return json.slice(0, k) + "\\u00" + json.charCodeAt(k).toString(16) + json.slice(k + 1);
}

// An Anthropic body carrying `texts` as results, with a short one, an error and the first text
// again under another spelling, in odd but valid JSON.
function anthropicBody(texts: readonly string[]): string {
  const blocks = texts.map((t, i) =>
    `{"type":"tool_result","tool_use_id":"t${i}","content":${JSON.stringify(t)}}`
  );
  blocks.push(`{"type":"tool_result","content":"short é"}`);
  blocks.push(`{"type":"tool_result","is_error":true,"content":${JSON.stringify(texts[0])}}`);
  blocks.push(`{"content": ${escaped(texts[0])} , "type":"tool_result"}`);
  return `{"model":"m", "n": 1.50, "messages":[{"role":"user","content":[ ${
    blocks.join(",\n")
  } ]}]}`;
}

function chatBody(texts: readonly string[]): string {
  return JSON.stringify({
    model: "m",
    messages: [
      ...texts.map((t) => ({ role: "tool", content: t })),
      { role: "tool", content: [{ type: "text", text: texts[1] + " é🎉" }] },
    ],
  });
}

// Compresses `body` through the text path (a plain request) and through the byte path (a
// BodyRequest), `rounds` times each, and asserts the two agree every time.
async function sameBothWays(
  api: Api,
  body: string,
  rounds: number,
  cacheChars?: number,
): Promise<
  { text: ReturnType<typeof archive>; bytes: ReturnType<typeof archive>; results: number }
> {
  const byText = new ToolResultCompressor(cacheChars),
    byBytes = new ToolResultCompressor(cacheChars);
  const text = archive(), bytes = archive();
  let results = 0;
  for (let round = 0; round < rounds; round++) {
    const plain: ProxyRequest = { api, body };
    const want = await byText.compress(plain, text.ctx);
    const req = new BodyRequest(api, enc.encode(body));
    const got = await byBytes.compress(req, bytes.ctx);
    deepStrictEqual(got, want, `round ${round}`);
    ok(req.bytes, "the body stays bytes");
    deepStrictEqual(req.encoded(), enc.encode(plain.body), `round ${round}`);
    results = got.results.length;
  }
  return { text, bytes, results };
}

Deno.test({
  name:
    "ToolResultCompressor.compress() sends the same bytes and report from a body held as bytes as from its text, request after request",
  permissions: READ,
  async fn(t) {
    const texts = await outputs(6);
    strictEqual(texts.length, 6);
    for (
      const [api, body] of [["anthropic", anthropicBody(texts)], [
        "openai-chat",
        chatBody(texts),
      ]] as const
    ) {
      await t.step(api, async () => {
        const { text, bytes, results } = await sameBothWays(api, body, 3);
        ok(results >= 5, `only ${results} results compressed`);
        // Repeats are cache hits: archived on the first request only. A text spelled two ways
        // is two tokens, archived under the same id twice.
        deepStrictEqual(new Set(bytes.calls), new Set(text.calls));
        ok(bytes.calls.length <= text.calls.length + 1, `${bytes.calls.length} archive calls`);
      });
    }
  },
});

Deno.test({
  name:
    "ToolResultCompressor.compress() gives the same answers with a cache too small to hold them",
  permissions: READ,
  async fn() {
    const texts = await outputs(6);
    // Room for any one result, not for all.
    const limit = Math.max(...texts.map((t) => enc.encode(JSON.stringify(t)).length)) + 10;
    const { bytes } = await sameBothWays("anthropic", anthropicBody(texts), 3, limit);
    // Evicted results are compressed (and archived) again: more calls than the 7 long tokens.
    ok(bytes.calls.length > 7, `${bytes.calls.length} archive calls`);
  },
});

Deno.test({
  name: "ToolResultCompressor.compress() retries a result whose archive failed, from bytes",
  permissions: READ,
  async fn() {
    const [text] = await outputs(1);
    const body = JSON.stringify({ messages: [{ role: "tool", content: text }] });
    const c = new ToolResultCompressor();
    const a = archive();
    a.fail = true;
    const first = new BodyRequest("openai-chat", enc.encode(body));
    const r1 = await c.compress(first, a.ctx);
    strictEqual(r1.results.length, 0);
    deepStrictEqual(first.encoded(), enc.encode(body));
    strictEqual(a.calls.length, 1, "the result needs an archive");
    a.fail = false;
    const second = new BodyRequest("openai-chat", enc.encode(body));
    const r2 = await c.compress(second, a.ctx);
    strictEqual(r2.results.length, 1);
    strictEqual(r2.results[0].archiveId, `id${enc.encode(text).length}`);
    ok(second.encoded().length < enc.encode(body).length);
  },
});

Deno.test("ToolResultCompressor.compress() leaves bytes that are not JSON as they are, archiving nothing", async (t) => {
  const long = "x".repeat(3000);
  const cases = [
    { name: "not JSON at all", body: "messages: []" },
    {
      name: "a raw control char inside a long tool string",
      body:
        `{"messages":[{"role":"tool","content":"${long}"},{"role":"tool","content":"${long}\u0001"}]}`,
    },
    { name: "trailing garbage", body: `{"messages":[{"role":"tool","content":"${long}"}]} x` },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const bytes = enc.encode(c.body);
      const req = new BodyRequest("openai-chat", bytes);
      const a = archive();
      const report = await new ToolResultCompressor().compress(req, a.ctx);
      deepStrictEqual(report, {
        resultsSeen: 0,
        charsSeen: 0,
        charsSaved: 0,
        results: [],
        note: "not JSON",
      });
      strictEqual(req.encoded(), bytes);
      strictEqual(a.calls.length, 0);
    });
  }
});

// ---- Gemini ----

const GIT_LOG_FIXTURE = new URL("git_log_history/", FIXTURES);

// A shell result as Gemini CLI 0.61.0 words it (`status` lines after the output).
const geminiShell = (output: string, status = "Process Group PGID: 4242") =>
  `<untrusted_context>\nOutput: ${output}\n${status}\n</untrusted_context>`;

function geminiBody(outputs: readonly unknown[]): string {
  return JSON.stringify({
    contents: [
      { role: "user", parts: [{ text: "Show me the history." }] },
      {
        role: "model",
        parts: outputs.map((_, i) => ({
          functionCall: { id: `c${i}`, name: "run_shell_command", args: { command: "git log" } },
        })),
      },
      {
        role: "user",
        parts: outputs.map((response, i) => ({
          functionResponse: { id: `c${i}`, name: "run_shell_command", response },
        })),
      },
    ],
    generationConfig: { temperature: 0 },
  });
}

// The `response` objects of the body's function responses, in order.
function responses(body: string): Record<string, unknown>[] {
  return JSON.parse(body).contents[2].parts.map(
    (p: { functionResponse: { response: Record<string, unknown> } }) => p.functionResponse.response,
  );
}

Deno.test({
  name:
    "ToolResultCompressor.compress() compresses a Gemini function's output inside Gemini CLI's wrapping",
  permissions: READ,
  async fn() {
    const log = (await Deno.readTextFile(new URL("raw.out", GIT_LOG_FIXTURE))).trimEnd();
    const meta = JSON.parse(await Deno.readTextFile(new URL("meta.json", GIT_LOG_FIXTURE)));
    const [plain] = (await outputs(2)).filter((t) => !t.startsWith("commit "));
    const sent = [
      { output: geminiShell(log) },
      { output: geminiShell(log, "Exit Code: 1\nProcess Group PGID: 4243") },
      { output: geminiShell(log), error: "Command failed" },
      { error: geminiShell(log) },
      { output: plain },
    ];
    const body = geminiBody(sent);
    const { bytes, results } = await sameBothWays("gemini", body, 2);
    strictEqual(results, 2, "the shell result and the plain one");
    // The output inside the wrapping was archived, not the wrapping.
    deepStrictEqual(new Set(bytes.calls), new Set([log, plain]));
    const req = new BodyRequest("gemini", enc.encode(body));
    const report = await new ToolResultCompressor().compress(req, archive().ctx);
    deepStrictEqual([report.resultsSeen, report.results.length, report.note], [3, 2, undefined]);
    strictEqual(report.results[0].shape, "git log");
    const got = new TextDecoder().decode(req.encoded());
    const after = responses(got);
    // The failure and the two error responses went as they were.
    deepStrictEqual(after.slice(1, 4), sent.slice(1, 4));
    const out = String(after[0].output);
    ok(out.startsWith("<untrusted_context>\nOutput: "), out.slice(0, 80));
    ok(out.endsWith("\nProcess Group PGID: 4242\n</untrusted_context>"), out.slice(-80));
    ok(out.length < sent[0].output!.length / 2, `${out.length} of ${sent[0].output!.length}`);
    // The pointer ends the output, before Gemini CLI's status line.
    match(out, /\n\[rtok: cut [^\n]+; raw: rtok expand id\d+\]\nProcess Group PGID: 4242\n/);
    for (const fact of meta.facts as string[]) ok(out.includes(fact.trim()), `lost ${fact}`);
    ok(String(after[4].output).length < plain.length);
    // Every other byte is the client's: the originals put back give the body sent.
    let restored = got;
    for (const k of [0, 4]) {
      restored = restored.replace(
        JSON.stringify(after[k].output),
        () => JSON.stringify(sent[k].output),
      );
    }
    strictEqual(restored, body);
  },
});

Deno.test("ToolResultCompressor.compress() forwards a Gemini body it cannot read, and says why", async (t) => {
  const long = "x ".repeat(2000);
  const cases = [
    { name: "not JSON", body: `{"contents":[{"parts":[`, note: "not JSON" },
    { name: "a JSON array", body: `[{"contents":[]}]`, note: "not JSON" },
    {
      name: "no contents list",
      body: JSON.stringify({ generateContentRequest: { contents: [] }, pad: long }),
      note: "no contents list",
    },
    { name: "contents not a list", body: `{"contents":{"parts":[]}}`, note: "no contents list" },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const bytes = enc.encode(c.body);
      const req = new BodyRequest("gemini", bytes);
      const a = archive();
      const report = await new ToolResultCompressor().compress(req, a.ctx);
      deepStrictEqual(report, {
        resultsSeen: 0,
        charsSeen: 0,
        charsSaved: 0,
        results: [],
        note: c.note,
      });
      strictEqual(req.encoded(), bytes);
      strictEqual(a.calls.length, 0);
    });
  }
});
