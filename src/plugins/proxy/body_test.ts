import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { type Api, findToolTexts, spliceBody, type ToolText } from "./body.ts";
import { prng as _rng } from "../../../tests/_prng.ts";
import { randomMessage, referenceFind, serializeRandomly } from "./_body_gen.ts";

// ---- fixtures ----

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

const texts = (found: ToolText[] | null): string[] => (found ?? []).map((t) => t.text);

function assertSpansExact(body: string, found: readonly ToolText[]): void {
  for (const t of found) {
    strictEqual(JSON.parse(body.slice(t.start, t.end)), t.text, `span of ${t.path}`);
  }
}

// ---- which strings qualify ----

Deno.test("findToolTexts() finds exactly the tool-result strings of each API", async (t) => {
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
  ];
  for (const c of cases) {
    await t.step(c.api, () => {
      for (const body of [JSON.stringify(c.body), JSON.stringify(c.body, null, 2)]) {
        const found = findToolTexts(body, c.api);
        ok(found);
        deepStrictEqual(texts(found), c.texts);
        deepStrictEqual(found.map((f) => f.path), c.paths);
        assertSpansExact(body, found);
      }
    });
  }
});

Deno.test("findToolTexts() leaves out errors, images, system, user and model text", () => {
  const found = texts(findToolTexts(JSON.stringify(ANTHROPIC), "anthropic"));
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
  const responses = texts(findToolTexts(JSON.stringify(RESPONSES), "openai-responses"));
  for (const never of ["USER text", "USER input_text", "ARGS", "ASSISTANT text", "INSTRUCTIONS"]) {
    ok(!responses.includes(never), never);
  }
});

Deno.test("findToolTexts() reads a body by the API it is given, not by its look", () => {
  deepStrictEqual(findToolTexts(JSON.stringify(CHAT), "anthropic"), []);
  deepStrictEqual(findToolTexts(JSON.stringify(ANTHROPIC), "openai-responses"), []);
  deepStrictEqual(findToolTexts(JSON.stringify(RESPONSES), "openai-chat"), []);
});

Deno.test("findToolTexts() answers null or [] for what is not a request, and never throws", async (t) => {
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
  ];
  for (const c of cases) {
    await t.step(c.name, () => deepStrictEqual(findToolTexts(c.body, c.api), c.want));
  }
});

// ---- spans and splicing ----

const ODD = `
  {  "model" : "claude-x",  "max_tokens":1.0, "seed": 12345678901234567890, "t": -0.0e+0 ,
  "messages"
  :
  [ { "content" : [ {"content":"a \\/ slash, \\u00e9t\\u00E9, \\ud83d\\ude00 and \\"quotes\\" \\\\",
  "type" :"tool_result" , "tool_use_id":"x"}, {"type":"tool_result","content":"\\\\\\\\","tool_use_id":"y"},
  {"type":"tool_result","content":"héllo wörld 日本 🎉\\n\\ttab","tool_use_id":"z"} ] ,"role":"user"} ]
  , "tail" : [true,false,null,{"x":"}]\\""}]  }
`;

Deno.test("findToolTexts() spans exact strings in odd but valid JSON", () => {
  const found = findToolTexts(ODD, "anthropic");
  ok(found);
  deepStrictEqual(texts(found), [
    'a / slash, été, 😀 and "quotes" \\',
    "\\\\",
    "héllo wörld 日本 🎉\n\ttab",
  ]);
  assertSpansExact(ODD, found);
  for (const f of found) strictEqual(ODD[f.start], '"');
});

Deno.test("spliceBody() with no edits, or the same texts back, returns the body byte for byte", () => {
  for (
    const [body, api] of [[ODD, "anthropic"], [
      JSON.stringify(CHAT, null, 1),
      "openai-chat",
    ]] as const
  ) {
    strictEqual(spliceBody(body, []), body);
    const found = findToolTexts(body, api);
    ok(found && found.length > 0);
    strictEqual(spliceBody(body, found), body);
    strictEqual(spliceBody(body, found.map((f) => ({ ...f, text: f.text }))), body);
  }
});

Deno.test("spliceBody() changes only the edited span and the result parses as expected", () => {
  const found = findToolTexts(ODD, "anthropic");
  ok(found);
  const target = found[1];
  const next = spliceBody(ODD, [{ start: target.start, end: target.end, text: 'new "text"\n' }]);
  strictEqual(next.slice(0, target.start), ODD.slice(0, target.start));
  const newEnd = target.start + JSON.stringify('new "text"\n').length;
  strictEqual(next.slice(newEnd), ODD.slice(target.end));
  const want = JSON.parse(ODD);
  want.messages[0].content[1].content = 'new "text"\n';
  deepStrictEqual(JSON.parse(next), want);
  // The other results are still found where they now are.
  deepStrictEqual(texts(findToolTexts(next, "anthropic")), [
    found[0].text,
    'new "text"\n',
    found[2].text,
  ]);
});

Deno.test("spliceBody() replaces a text that differs from the old one only at its edges", async (t) => {
  const body = '{"messages":[{"role":"tool","content":"\\u0061b\\/c\\u00e9"}]}';
  const [span] = findToolTexts(body, "openai-chat") ?? [];
  strictEqual(span.text, "ab/cé");
  for (const text of ["ab/cè", "ab/c", "ab/céé", "Ab/cé", "", "ab/cé\u0000"]) {
    await t.step(JSON.stringify(text), () => {
      const next = spliceBody(body, [{ ...span, text }]);
      strictEqual(next, body.slice(0, span.start) + JSON.stringify(text) + body.slice(span.end));
    });
  }
  strictEqual(spliceBody(body, [{ ...span, text: "ab/cé" }]), body);
});

Deno.test("spliceBody() applies several edits given in any order", () => {
  const body = JSON.stringify(RESPONSES);
  const found = findToolTexts(body, "openai-responses");
  ok(found);
  const edits = found.map((f, k) => ({ start: f.start, end: f.end, text: `#${k}` })).reverse();
  const next = JSON.parse(spliceBody(body, edits));
  strictEqual(next.input[3].output, "#0");
  strictEqual(next.input[4].output[0].text, "#1");
  strictEqual(next.input[4].output[3].text, "#2");
  strictEqual(next.input[4].output[1].image_url, "data:image/png;base64,IMAGE");
});

Deno.test("spliceBody() rejects overlapping and out-of-range edits", () => {
  throws(
    () => spliceBody("abcdef", [{ start: 1, end: 4, text: "" }, { start: 3, end: 5, text: "" }]),
    RangeError,
  );
  throws(() => spliceBody("abc", [{ start: 1, end: 9, text: "" }]), RangeError);
  throws(() => spliceBody("abc", [{ start: 2, end: 1, text: "" }]), RangeError);
});

Deno.test("findToolTexts() takes the last of duplicate keys, as JSON.parse does", async (t) => {
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
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const found = findToolTexts(c.body, c.api);
      ok(found);
      deepStrictEqual(texts(found), c.want);
      assertSpansExact(c.body, found);
    });
  }
});

Deno.test("findToolTexts() gives UTF-16 indexes into a body with astral characters before the span", () => {
  const body = JSON.stringify({
    system: "🎉".repeat(50),
    messages: [{ role: "tool", content: "after 🎉 emoji" }],
  });
  const found = findToolTexts(body, "openai-chat");
  ok(found);
  strictEqual(found.length, 1);
  strictEqual(body.slice(found[0].start, found[0].end), '"after 🎉 emoji"');
});

// ---- property test: the scanner against a slow reference ----

Deno.test("findToolTexts() agrees with a slow reference on random bodies", () => {
  const apis: Api[] = ["anthropic", "openai-chat", "openai-responses"];
  let nonEmpty = 0;
  for (let seed = 1; seed <= 600; seed++) {
    const r = _rng(seed);
    const api = apis[seed % 3];
    const list = Array.from({ length: Math.floor(r() * 8) }, () => randomMessage(r, api));
    const value = {
      model: "m",
      [api === "openai-responses" ? "input" : "messages"]: list,
      n: 1e21,
    };
    const body = serializeRandomly(r, value);
    const want = referenceFind(body, api);
    const got = findToolTexts(body, api);
    deepStrictEqual(got, want, `seed ${seed} (${api}): ${body}`);
    if (want.length > 0) nonEmpty++;
    // Replacing every string with its own text leaves the body as it was; a new text lands in
    // its span and nowhere else.
    strictEqual(spliceBody(body, want), body, `seed ${seed}`);
    if (want.length > 0) {
      const k = Math.floor(r() * want.length);
      const next = spliceBody(body, [{ ...want[k], text: `new ${seed}` }]);
      strictEqual(next.slice(0, want[k].start), body.slice(0, want[k].start));
      strictEqual(
        next.slice(want[k].start + JSON.stringify(`new ${seed}`).length),
        body.slice(want[k].end),
      );
      const again = findToolTexts(next, api);
      ok(again);
      strictEqual(again[k].text, `new ${seed}`);
    }
  }
  // The generator must actually produce qualifying strings, or the comparison proves little.
  ok(nonEmpty > 300, `only ${nonEmpty} bodies had a tool result`);
});

Deno.test("spliceBody() writes the canonical encoding, unchecked, for an edit marked changed", () => {
  const body = '{"messages":[{"role":"tool","content":"a\\/b"}]}';
  const [span] = findToolTexts(body, "openai-chat")!;
  strictEqual(spliceBody(body, [{ ...span, text: "a/b" }]), body);
  strictEqual(
    spliceBody(body, [{ ...span, text: "a/b", changed: true }]),
    '{"messages":[{"role":"tool","content":"a/b"}]}',
  );
});
