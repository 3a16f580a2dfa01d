import { deepStrictEqual, notStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { isUtf8 } from "node:buffer";
import { prng as _rng } from "../../../tests/_prng.ts";
import {
  pick,
  type Rand,
  randomMessage,
  randomText,
  referenceFind,
  serializeRandomly,
  textsOf,
  type ToolText,
} from "./_body_gen.ts";
import {
  COUNTED_BYTES,
  findToolTokens,
  scanToolTokens,
  spliceBytes,
  type ToolToken,
} from "./body_bytes.ts";
import type { Api } from "./routes.ts";

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// What the byte scanner must answer for `body`, from the text one's answer: byte offsets,
// and a count for a token short enough to be counted.
function expected(body: string, want: readonly ToolText[]): ToolToken[] {
  return want.map((w) => {
    const start = enc.encode(body.slice(0, w.start)).length;
    const end = start + enc.encode(body.slice(w.start, w.end)).length;
    return { start, end, units: end - start <= COUNTED_BYTES ? w.text.length : -1, path: w.path };
  });
}

function decodeToken(bytes: Uint8Array, t: ToolToken): string {
  return JSON.parse(dec.decode(bytes.subarray(t.start, t.end)));
}

// A body made of the API's list of random messages, with strings from `txt`.
function randomBody(r: Rand, api: Api, txt?: (r: Rand) => string): string {
  const list = Array.from({ length: Math.floor(r() * 8) }, () => randomMessage(r, api, txt));
  return serializeRandomly(r, {
    model: "m",
    [api === "openai-responses" ? "input" : api === "gemini" ? "contents" : "messages"]: list,
    n: 1e21,
  });
}

// Long texts (most over COUNTED_BYTES once encoded), so the unchecked path is walked too.
const longText = (r: Rand): string => randomText(r).repeat(40 + Math.floor(r() * 200));

const APIS: Api[] = ["anthropic", "openai-chat", "openai-responses", "gemini"];

Deno.test("findToolTokens() agrees with the slow reference on random bodies", () => {
  let nonEmpty = 0, long = 0;
  const perApi = new Map<Api, number>();
  for (let seed = 1; seed <= 1200; seed++) {
    const r = _rng(seed);
    const api = APIS[seed % APIS.length];
    const body = randomBody(r, api, seed % 2 === 0 ? longText : undefined);
    const bytes = enc.encode(body);
    const want = referenceFind(body, api);
    const got = findToolTokens(bytes, api);
    deepStrictEqual(got, expected(body, want), `seed ${seed} (${api}): ${body}`);
    for (let k = 0; k < want.length; k++) strictEqual(decodeToken(bytes, got[k]), want[k].text);
    if (want.length > 0) {
      nonEmpty++;
      perApi.set(api, (perApi.get(api) ?? 0) + 1);
    }
    long += got.filter((t) => t.units < 0).length;
    // Told the end of every other token, the scan takes it, and asks at each token's start.
    const asked: number[] = [];
    const again = findToolTokens(bytes, api, (b, start) => {
      strictEqual(b, bytes);
      asked.push(start);
      const k = got.findIndex((t) => t.start === start);
      return k >= 0 && k % 2 === 0 ? got[k].end : -1;
    });
    deepStrictEqual(again, got, `seed ${seed}, told`);
    ok(got.every((t) => asked.includes(t.start)), `seed ${seed}: not asked`);
    // Each token put back as it was leaves the bytes as they were; a new text lands in its span
    // and nowhere else.
    deepStrictEqual(
      spliceBytes(bytes, got.map((t) => ({ ...t, json: bytes.slice(t.start, t.end) }))),
      bytes,
    );
    if (want.length > 0) {
      const k = Math.floor(r() * want.length);
      const text = `new ${seed} é🎉`;
      const next = spliceBytes(bytes, [{ ...got[k], json: enc.encode(JSON.stringify(text)) }]);
      strictEqual(
        dec.decode(next),
        body.slice(0, want[k].start) + JSON.stringify(text) + body.slice(want[k].end),
      );
    }
  }
  ok(nonEmpty > 600, `only ${nonEmpty} bodies had a tool result`);
  for (const api of APIS) ok((perApi.get(api) ?? 0) > 80, `${api}: ${perApi.get(api)}`);
  ok(long > 400, `only ${long} tokens were long`);
});

// One random change to a valid body: a byte dropped, doubled or inserted.
const HOSTILE = [...'{}[],:"\\ 0-.e+tfnu\t\n', "\u0001", "\u001f", "x", "é"];
function mutate(r: Rand, body: string): string {
  const i = Math.floor(r() * (body.length + 1));
  const what = r();
  if (what < 0.35) return body.slice(0, i) + body.slice(i + 1);
  if (what < 0.5) return body.slice(0, i) + body[i] + body.slice(i);
  return body.slice(0, i) + pick(r, HOSTILE) + body.slice(i);
}

function parsesToObject(body: string): boolean {
  try {
    const v = JSON.parse(body);
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

Deno.test("findToolTokens() tells what is not a JSON object as JSON.parse does, on random damage", () => {
  let rejected = 0, unchecked = 0, stillValid = 0;
  for (let seed = 1; seed <= 4000; seed++) {
    const r = _rng(seed);
    const api = APIS[seed % APIS.length];
    let body = randomBody(r, api, seed % 5 === 0 ? longText : undefined);
    const n = 1 + Math.floor(r() * 3);
    for (let k = 0; k < n; k++) body = mutate(r, body);
    const bytes = enc.encode(body);
    ok(isUtf8(bytes));
    const got = findToolTokens(bytes, api);
    const why = `seed ${seed} (${api}): ${body}`;
    if (parsesToObject(body)) {
      stillValid++;
      deepStrictEqual(got, expected(body, referenceFind(body, api)), why);
      continue;
    }
    if (got === null) {
      rejected++;
      continue;
    }
    // Passed over only where the caller checks: inside a long token, which then does not
    // decode.
    ok(
      got.some((t) => {
        if (t.units >= 0) return false;
        try {
          decodeToken(bytes, t);
          return false;
        } catch {
          return true;
        }
      }),
      why,
    );
    unchecked++;
  }
  ok(rejected > 2000, `only ${rejected} damaged bodies were rejected`);
  ok(unchecked > 10, `only ${unchecked} damaged long tokens were met`);
  ok(stillValid > 100, `only ${stillValid} damaged bodies stayed valid`);
});

Deno.test("findToolTokens() answers null where JSON.parse finds no object, else what the reference finds", async (t) => {
  const cases: { name: string; body: string; api: Api }[] = [
    { name: "empty", body: "", api: "anthropic" },
    { name: "not JSON", body: "messages: []", api: "anthropic" },
    { name: "truncated", body: '{"messages":[{"role":"tool","content":"x"', api: "openai-chat" },
    { name: "trailing garbage", body: '{"messages":[]} x', api: "anthropic" },
    { name: "byte-order mark", body: '\ufeff{"messages":[]}', api: "anthropic" },
    { name: "array", body: '[{"role":"tool","content":"x"}]', api: "openai-chat" },
    { name: "null", body: "null", api: "anthropic" },
    { name: "string", body: '"{}"', api: "anthropic" },
    { name: "number", body: "12", api: "openai-responses" },
    { name: "no messages", body: '{"model":"m"}', api: "anthropic" },
    { name: "messages not an array", body: '{"messages":{"0":{}}}', api: "openai-chat" },
    { name: "messages null", body: '{"messages":null}', api: "anthropic" },
    { name: "input a string", body: '{"input":"hello"}', api: "openai-responses" },
    { name: "odd messages", body: '{"messages":[1,"x",null,[],{}]}', api: "anthropic" },
    {
      name: "content not a list",
      body: '{"messages":[{"role":"user","content":{"type":"tool_result"}}]}',
      api: "anthropic",
    },
    {
      name: "escaped names",
      body:
        '{"m\\u0065ssages":[{"r\\u006fle":"\\u0074ool","\\u0063ontent":"esc"},{"role":"to\\u006fl","content":[{"typ\\u0065":"te\\u0078t","t\\u0065xt":"part"}]}]}',
      api: "openai-chat",
    },
    {
      name: "an escaped type and is_error",
      body:
        '{"messages":[{"role":"user","content":[{"type":"tool\\u005fresult","is_\\u0065rror":true,"content":"no"},{"type":"tool\\u005fresult","content":"yes"}]}]}',
      api: "anthropic",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const want = parsesToObject(c.body) ? referenceFind(c.body, c.api) : null;
      const got = findToolTokens(enc.encode(c.body), c.api);
      deepStrictEqual(got, want && expected(c.body, want));
    });
  }
});

Deno.test("findToolTokens() rejects every kind of malformed JSON, wherever it is", async (t) => {
  const bad = [
    "01",
    "1.",
    ".5",
    "-",
    "1e",
    "1e+",
    "+1",
    "NaN",
    "Infinity",
    "tru",
    "nul",
    "True",
    "'x'",
    '"\\x"',
    '"\\u12G4"',
    '"\\u12"',
    '"tab\there"',
    '"nl\nhere"',
    "[1,]",
    "[,1]",
    "[1 2]",
    '{"a":1,}',
    '{"a" 1}',
    "{,}",
    '{"a":1 "b":2}',
    "{a:1}",
    "[",
    "{",
    '"open',
    "// c\n1",
  ];
  for (const b of bad) {
    await t.step(JSON.stringify(b), () => {
      ok(!parsesToObject(`{"x":${b}}`));
      for (
        const [body, api] of [
          [`{"messages":[],"x":${b}}`, "anthropic"],
          [`{"x":${b},"messages":[]}`, "anthropic"],
          [
            `{"messages":[{"role":"user","content":[{"type":"tool_result","x":${b}}]}]}`,
            "anthropic",
          ],
          [
            `{"messages":[{"role":"tool","content":[{"type":"text","text":"t","x":[${b}]}]}]}`,
            "openai-chat",
          ],
          [`{"input":[{"type":"function_call_output","output":${b}}]}`, "openai-responses"],
        ] as const
      ) strictEqual(findToolTokens(enc.encode(body), api), null, body);
    });
  }
  await t.step("a short tool string with a raw control char", () => {
    const body = '{"messages":[{"role":"tool","content":"a\u0001b"}]}';
    strictEqual(findToolTokens(enc.encode(body), "openai-chat"), null);
  });
  await t.step("a known long token is taken as told, unchecked", () => {
    const token = `"${"a".repeat(COUNTED_BYTES)}\u0001"`;
    const body = `{"messages":[{"role":"tool","content":${token}}]}`;
    const start = body.indexOf('"a');
    const end = start + enc.encode(token).length;
    const asked: number[] = [];
    const got = findToolTokens(enc.encode(body), "openai-chat", (_b, s) => {
      asked.push(s);
      return s === start ? end : -1;
    });
    deepStrictEqual(got, [{ start, end, units: -1, path: "messages[0].content" }]);
    deepStrictEqual(asked, [start]);
  });
  await t.step("a long tool string with one is delimited, unchecked", () => {
    const text = "a".repeat(COUNTED_BYTES) + "\u0001";
    const body = `{"messages":[{"role":"tool","content":"${text}"}]}`;
    const got = findToolTokens(enc.encode(body), "openai-chat");
    ok(got);
    strictEqual(got.length, 1);
    strictEqual(got[0].units, -1);
    throws(() => decodeToken(enc.encode(body), got[0]));
  });
});

Deno.test("findToolTokens() skips any depth of nesting without recursion", () => {
  const depth = 200_000;
  const nested = "[".repeat(depth) + "]".repeat(depth);
  const body = `{"x":${nested},"messages":[{"role":"tool","content":"deep"}],"y":{"a":${nested}}}`;
  const got = findToolTokens(enc.encode(body), "openai-chat");
  ok(got);
  deepStrictEqual(got.map((t) => decodeToken(enc.encode(body), t)), ["deep"]);
  const unbalanced = `{"x":${"[".repeat(depth)}${"]".repeat(depth - 1)},"messages":[]}`;
  strictEqual(findToolTokens(enc.encode(unbalanced), "openai-chat"), null);
});

Deno.test("findToolTokens() counts a token's UTF-16 length through escapes and multi-byte chars", async (t) => {
  const tokens = [
    '"plain"',
    '""',
    '"é日🎉"',
    '"\\n\\t\\"\\\\\\/\\b\\f\\r"',
    '"\\u00e9\\u65E5\\ud83c\\udf89"',
    '"mixed é \\u00e9 🎉 \\ud83c\\udf89 \u2028 \u007f"',
  ];
  for (const token of tokens) {
    await t.step(token, () => {
      const body = `{"messages":[{"role":"tool","content":${token}}]}`;
      const [got] = findToolTokens(enc.encode(body), "openai-chat")!;
      strictEqual(got.units, JSON.parse(token).length);
    });
  }
});

Deno.test("spliceBytes() applies edits given in any order and keeps every other byte", () => {
  const bytes = enc.encode('{"a":"x","b":"é","c":"z"}');
  const out = spliceBytes(bytes, [
    { start: 22, end: 25, json: enc.encode('"Z"') },
    { start: 5, end: 8, json: enc.encode('"longer 🎉"') },
  ]);
  strictEqual(dec.decode(out), '{"a":"longer 🎉","b":"é","c":"Z"}');
  strictEqual(spliceBytes(bytes, []), bytes);
  const same = spliceBytes(bytes, [{ start: 5, end: 8, json: bytes.slice(5, 8) }]);
  deepStrictEqual(same, bytes);
  notStrictEqual(same, bytes);
});

Deno.test("spliceBytes() rejects overlapping, reversed and out-of-range edits", () => {
  const bytes = enc.encode('{"a":"x"}');
  const json = enc.encode('""');
  throws(
    () => spliceBytes(bytes, [{ start: 5, end: 8, json }, { start: 6, end: 7, json }]),
    RangeError,
  );
  throws(() => spliceBytes(bytes, [{ start: 8, end: 5, json }]), RangeError);
  throws(() => spliceBytes(bytes, [{ start: 5, end: 10, json }]), RangeError);
  throws(() => spliceBytes(bytes, [{ start: 1.5, end: 3, json }]), RangeError);
});

// ---- which strings qualify, read back as text ----

const ANTHROPIC = {
  model: "claude-x",
  max_tokens: 1024,
  system: [{ type: "text", text: "SYSTEM text" }],
  messages: [
    { role: "user", content: "USER plain string" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "ASSISTANT text" },
        { type: "tool_use", id: "t1", name: "bash", input: { command: "TOOL_USE input" } },
        { type: "tool_result", tool_use_id: "t0", content: "ASSISTANT-SIDE tool_result" },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "RESULT one" },
        { type: "tool_result", tool_use_id: "t2", is_error: true, content: "ERROR result" },
        {
          type: "tool_result",
          tool_use_id: "t3",
          is_error: false,
          content: [
            { type: "text", text: "RESULT block a" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "IMAGE" } },
            {
              type: "search_result",
              source: "s",
              title: "t",
              content: [{ type: "text", text: "SEARCH text" }],
            },
            { type: "document", source: { type: "text", media_type: "text/plain", data: "DOC" } },
            { type: "text", text: "RESULT block b" },
          ],
        },
        { type: "text", text: "USER text block" },
        { type: "tool_result", tool_use_id: "t4" },
        {
          type: "tool_result",
          tool_use_id: "t5",
          is_error: true,
          content: [{ type: "text", text: "ERROR block" }],
        },
      ],
    },
  ],
};

const CHAT = {
  model: "gpt-x",
  messages: [
    { role: "system", content: "SYSTEM text" },
    { role: "user", content: [{ type: "text", text: "USER text" }] },
    {
      role: "assistant",
      content: "ASSISTANT text",
      tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
    },
    { role: "tool", tool_call_id: "c1", content: "TOOL one" },
    {
      role: "tool",
      tool_call_id: "c2",
      content: [{ type: "text", text: "TOOL part a" }, { type: "text", text: "TOOL part b" }],
    },
    { role: "developer", content: "DEVELOPER text" },
  ],
};

const RESPONSES = {
  model: "gpt-x",
  instructions: "INSTRUCTIONS",
  input: [
    { role: "user", content: "USER text" },
    { type: "message", role: "user", content: [{ type: "input_text", text: "USER input_text" }] },
    { type: "function_call", call_id: "c1", name: "f", arguments: '{"output":"ARGS"}' },
    { type: "function_call_output", call_id: "c1", output: "OUTPUT one" },
    {
      type: "function_call_output",
      call_id: "c2",
      output: [
        { type: "input_text", text: "OUTPUT part a" },
        { type: "input_image", image_url: "data:image/png;base64,IMAGE" },
        { type: "input_file", file_data: "FILE" },
        { type: "input_text", text: "OUTPUT part b" },
      ],
    },
    {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "ASSISTANT text" }],
    },
  ],
};

const GEMINI = {
  systemInstruction: { role: "user", parts: [{ text: "SYSTEM text" }] },
  contents: [
    { role: "user", parts: [{ text: "USER text" }] },
    {
      role: "model",
      parts: [
        { text: "MODEL text" },
        {
          functionCall: {
            id: "c1",
            name: "run_shell_command",
            args: { command: "ARGS", output: "ARGS output" },
          },
        },
      ],
    },
    {
      role: "user",
      parts: [
        {
          functionResponse: {
            id: "c1",
            name: "run_shell_command",
            response: { output: "OUTPUT one" },
          },
        },
        { functionResponse: { id: "c2", name: "read_file", response: { error: "ERROR only" } } },
        {
          functionResponse: {
            id: "c3",
            name: "run_shell_command",
            response: { output: "ERROR output", error: "Command failed" },
          },
        },
        { functionResponse: { id: "c4", name: "f", response: { output: { nested: "NESTED" } } } },
        { functionResponse: { id: "c5", name: "f", response: { result: "RESULT key" } } },
        {
          functionResponse: {
            id: "c6",
            name: "read_file",
            response: { output: "OUTPUT two" },
            parts: [{ inlineData: { mimeType: "image/png", data: "IMAGE" } }],
          },
        },
        { text: "USER text part" },
      ],
    },
  ],
  tools: [{ functionDeclarations: [{ name: "run_shell_command", description: "DECL" }] }],
  generationConfig: { temperature: 0 },
};

const texts = (found: ToolText[] | null): string[] => (found ?? []).map((t) => t.text);

function assertSpansExact(body: string, found: readonly ToolText[]): void {
  for (const t of found) {
    strictEqual(JSON.parse(body.slice(t.start, t.end)), t.text, `span of ${t.path}`);
  }
}

Deno.test("findToolTokens() finds exactly the tool-result strings of each API", async (t) => {
  const cases: { api: Api; body: unknown; texts: string[]; paths: string[] }[] = [
    {
      api: "anthropic",
      body: ANTHROPIC,
      texts: ["RESULT one", "RESULT block a", "RESULT block b"],
      paths: [
        "messages[2].content[0].content",
        "messages[2].content[2].content[0].text",
        "messages[2].content[2].content[4].text",
      ],
    },
    {
      api: "openai-chat",
      body: CHAT,
      texts: ["TOOL one", "TOOL part a", "TOOL part b"],
      paths: ["messages[3].content", "messages[4].content[0].text", "messages[4].content[1].text"],
    },
    {
      api: "openai-responses",
      body: RESPONSES,
      texts: ["OUTPUT one", "OUTPUT part a", "OUTPUT part b"],
      paths: ["input[3].output", "input[4].output[0].text", "input[4].output[3].text"],
    },
    {
      api: "gemini",
      body: GEMINI,
      texts: ["OUTPUT one", "OUTPUT two"],
      paths: [
        "contents[2].parts[0].functionResponse.response.output",
        "contents[2].parts[5].functionResponse.response.output",
      ],
    },
  ];
  for (const c of cases) {
    await t.step(c.api, () => {
      for (const body of [JSON.stringify(c.body), JSON.stringify(c.body, null, 2)]) {
        const found = textsOf(body, c.api);
        ok(found);
        deepStrictEqual(texts(found), c.texts);
        deepStrictEqual(found.map((f) => f.path), c.paths);
        assertSpansExact(body, found);
      }
    });
  }
});

Deno.test("findToolTokens() leaves out errors, images, system, user and model text", () => {
  const found = texts(textsOf(JSON.stringify(ANTHROPIC), "anthropic"));
  for (
    const never of [
      "ERROR result",
      "ERROR block",
      "IMAGE",
      "SEARCH text",
      "DOC",
      "SYSTEM text",
      "USER plain string",
      "USER text block",
      "ASSISTANT text",
      "TOOL_USE input",
      "ASSISTANT-SIDE tool_result",
    ]
  ) ok(!found.includes(never), never);
  const responses = texts(textsOf(JSON.stringify(RESPONSES), "openai-responses"));
  for (const never of ["USER text", "USER input_text", "ARGS", "ASSISTANT text", "INSTRUCTIONS"]) {
    ok(!responses.includes(never), never);
  }
});

Deno.test("findToolTokens() leaves out Gemini errors, images, call arguments and other keys", () => {
  const found = texts(textsOf(JSON.stringify(GEMINI), "gemini"));
  for (
    const never of [
      "SYSTEM text",
      "USER text",
      "MODEL text",
      "ARGS",
      "ARGS output",
      "ERROR only",
      "ERROR output",
      "Command failed",
      "NESTED",
      "RESULT key",
      "IMAGE",
      "USER text part",
      "DECL",
    ]
  ) ok(!found.includes(never), never);
});

Deno.test("scanToolTokens() tells a body without the API's list from one without results", async (t) => {
  const cases: { name: string; body: string; api: Api; list: boolean | null; n: number }[] = [
    { name: "Gemini contents", body: JSON.stringify(GEMINI), api: "gemini", list: true, n: 2 },
    { name: "empty contents", body: '{"contents":[]}', api: "gemini", list: true, n: 0 },
    { name: "no contents", body: '{"model":"m"}', api: "gemini", list: false, n: 0 },
    { name: "contents a string", body: '{"contents":"hi"}', api: "gemini", list: false, n: 0 },
    {
      name: "a later contents that is not a list",
      body: '{"contents":[{"parts":[{"functionResponse":{"response":{"output":"x"}}}]}],' +
        '"contents":{}}',
      api: "gemini",
      list: false,
      n: 0,
    },
    { name: "Anthropic messages", body: '{"messages":[]}', api: "anthropic", list: true, n: 0 },
    { name: "not JSON", body: '{"contents":[', api: "gemini", list: null, n: 0 },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const got = scanToolTokens(enc.encode(c.body), c.api);
      if (c.list === null) return strictEqual(got, null);
      ok(got);
      strictEqual(got.list, c.list);
      strictEqual(got.tokens.length, c.n);
    });
  }
});

Deno.test("findToolTokens() reads a body by the API it is given, not by its look", () => {
  deepStrictEqual(textsOf(JSON.stringify(CHAT), "anthropic"), []);
  deepStrictEqual(textsOf(JSON.stringify(ANTHROPIC), "openai-responses"), []);
  deepStrictEqual(textsOf(JSON.stringify(RESPONSES), "openai-chat"), []);
});

Deno.test("findToolTokens() answers null or [] for what is not a request, and never throws", async (t) => {
  const cases: { name: string; body: string; api: Api; want: null | [] }[] = [
    { name: "empty", body: "", api: "anthropic", want: null },
    { name: "not JSON", body: "messages: []", api: "anthropic", want: null },
    {
      name: "truncated",
      body: '{"messages":[{"role":"tool","content":"x"',
      api: "openai-chat",
      want: null,
    },
    { name: "trailing garbage", body: '{"messages":[]} x', api: "anthropic", want: null },
    { name: "byte-order mark", body: '\ufeff{"messages":[]}', api: "anthropic", want: null },
    { name: "array", body: '[{"role":"tool","content":"x"}]', api: "openai-chat", want: null },
    { name: "null", body: "null", api: "anthropic", want: null },
    { name: "string", body: '"{}"', api: "anthropic", want: null },
    { name: "number", body: "12", api: "openai-responses", want: null },
    { name: "no messages", body: '{"model":"m"}', api: "anthropic", want: [] },
    { name: "messages not an array", body: '{"messages":{"0":{}}}', api: "openai-chat", want: [] },
    { name: "messages null", body: '{"messages":null}', api: "anthropic", want: [] },
    { name: "input a string", body: '{"input":"hello"}', api: "openai-responses", want: [] },
    { name: "odd messages", body: '{"messages":[1,"x",null,[],{}]}', api: "anthropic", want: [] },
    {
      name: "content not a list",
      body: '{"messages":[{"role":"user","content":{"type":"tool_result"}}]}',
      api: "anthropic",
      want: [],
    },
    {
      name: "result content a number",
      body: '{"messages":[{"role":"user","content":[{"type":"tool_result","content":7}]}]}',
      api: "anthropic",
      want: [],
    },
    {
      name: "tool content null",
      body: '{"messages":[{"role":"tool","content":null}]}',
      api: "openai-chat",
      want: [],
    },
    { name: "Gemini array", body: '[{"contents":[]}]', api: "gemini", want: null },
    { name: "no contents", body: '{"model":"m"}', api: "gemini", want: [] },
    { name: "contents not a list", body: '{"contents":{"parts":[]}}', api: "gemini", want: [] },
    { name: "odd contents", body: '{"contents":[1,"x",null,[],{}]}', api: "gemini", want: [] },
    { name: "parts not a list", body: '{"contents":[{"parts":"text"}]}', api: "gemini", want: [] },
    {
      name: "functionResponse not an object",
      body: '{"contents":[{"parts":[{"functionResponse":"x"},{"functionResponse":null}]}]}',
      api: "gemini",
      want: [],
    },
    {
      name: "response a string",
      body: '{"contents":[{"parts":[{"functionResponse":{"response":"out"}}]}]}',
      api: "gemini",
      want: [],
    },
    {
      name: "output null",
      body: '{"contents":[{"parts":[{"functionResponse":{"response":{"output":null}}}]}]}',
      api: "gemini",
      want: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => deepStrictEqual(textsOf(c.body, c.api), c.want));
  }
});

// ---- odd JSON and duplicate keys ----

const ODD = `
  {  "model" : "claude-x",  "max_tokens":1.0, "seed": 12345678901234567890, "t": -0.0e+0 ,
  "messages"
  :
  [ { "content" : [ {"content":"a \\/ slash, \\u00e9t\\u00E9, \\ud83d\\ude00 and \\"quotes\\" \\\\",
  "type" :"tool_result" , "tool_use_id":"x"}, {"type":"tool_result","content":"\\\\\\\\","tool_use_id":"y"},
  {"type":"tool_result","content":"héllo wörld 日本 🎉\\n\\ttab","tool_use_id":"z"} ] ,"role":"user"} ]
  , "tail" : [true,false,null,{"x":"}]\\""}]  }
`;

Deno.test("findToolTokens() spans exact strings in odd but valid JSON", () => {
  const found = textsOf(ODD, "anthropic");
  ok(found);
  deepStrictEqual(texts(found), [
    'a / slash, été, 😀 and "quotes" \\',
    "\\\\",
    "héllo wörld 日本 🎉\n\ttab",
  ]);
  assertSpansExact(ODD, found);
  for (const f of found) strictEqual(ODD[f.start], '"');
});

Deno.test("findToolTokens() takes the last of duplicate keys, as JSON.parse does", async (t) => {
  const cases: { name: string; body: string; api: Api; want: string[] }[] = [
    {
      name: "duplicate content",
      body: '{"messages":[{"role":"tool","content":"first","content":"second"}]}',
      api: "openai-chat",
      want: ["second"],
    },
    {
      name: "duplicate role turns a tool message into a user one",
      body: '{"messages":[{"role":"tool","content":"x","role":"user"}]}',
      api: "openai-chat",
      want: [],
    },
    {
      name: "duplicate messages array",
      body:
        '{"messages":[{"role":"tool","content":"old"},{"role":"tool","content":"old2"}],"messages":[{"role":"tool","content":"new"}]}',
      api: "openai-chat",
      want: ["new"],
    },
    {
      name: "earlier duplicate holds a list, the last a string",
      body:
        '{"input":[{"type":"function_call_output","output":[{"type":"input_text","text":"old"}],"output":"new"}]}',
      api: "openai-responses",
      want: ["new"],
    },
    {
      name: "escaped key names",
      body: '{"m\\u0065ssages":[{"r\\u006fle":"tool","\\u0063ontent":"esc"}]}',
      api: "openai-chat",
      want: ["esc"],
    },
    {
      name: "duplicate Gemini output",
      body:
        '{"contents":[{"parts":[{"functionResponse":{"response":{"output":"old","output":"new"}}}]}]}',
      api: "gemini",
      want: ["new"],
    },
    {
      name: "an error before the output still makes it an error",
      body:
        '{"contents":[{"parts":[{"functionResponse":{"response":{"error":"e","output":"out"}}}]}]}',
      api: "gemini",
      want: [],
    },
    {
      name: "duplicate response: the last has no error",
      body:
        '{"contents":[{"parts":[{"functionResponse":{"response":{"error":"e","output":"a"},"response":{"output":"b"}}}]}]}',
      api: "gemini",
      want: ["b"],
    },
    {
      name: "duplicate functionResponse and parts",
      body:
        '{"contents":[{"parts":[{"functionResponse":{"response":{"output":"a"}}}],"parts":[{"functionResponse":{"response":{"output":"b"}},"functionResponse":{"response":{"output":"c"}}}]}]}',
      api: "gemini",
      want: ["c"],
    },
    {
      name: "escaped Gemini names",
      body:
        '{"c\\u006fntents":[{"p\\u0061rts":[{"functi\\u006fnResponse":{"r\\u0065sponse":{"\\u006futput":"esc","\\u0065rror":1}}},{"functionResponse":{"response":{"o\\u0075tput":"ok"}}}]}]}',
      api: "gemini",
      want: ["ok"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const found = textsOf(c.body, c.api);
      ok(found);
      deepStrictEqual(texts(found), c.want);
      assertSpansExact(c.body, found);
    });
  }
});
