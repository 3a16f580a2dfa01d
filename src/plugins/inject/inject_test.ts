import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { injectStyle } from "./inject.ts";
import { MARKER, styleText } from "./styles.ts";

const STYLE = styleText("full", "lite")!;

// What the body became, and that everything outside the inserted text is as it was.
function changed(before: string, after: string | null): unknown {
  ok(after !== null, "the body was changed");
  let i = 0;
  while (before[i] === after[i]) i++;
  let j = 0;
  while (j < before.length - i && before.at(-1 - j) === after.at(-1 - j)) j++;
  ok(after.slice(0, i) === before.slice(0, i) && after.endsWith(before.slice(before.length - j)));
  return JSON.parse(after);
}

Deno.test("injectStyle() puts the style into an Anthropic system prompt of each form", async (t) => {
  await t.step("none: a new system string", () => {
    const body = '{"model":"m","messages":[]}';
    deepStrictEqual(changed(body, injectStyle("anthropic", body, STYLE)), {
      system: STYLE,
      model: "m",
      messages: [],
    });
  });
  await t.step("a string: appended after a blank line", () => {
    const body = '{ "system" : "Be kind." , "messages": [ ] }';
    const out = changed(body, injectStyle("anthropic", body, STYLE)) as { system: string };
    strictEqual(out.system, `Be kind.\n\n${STYLE}`);
  });
  await t.step("blocks with cache_control: before the last cached block", () => {
    const body = JSON.stringify({
      system: [
        { type: "text", text: "a", cache_control: { type: "ephemeral" } },
        { type: "text", text: "b", cache_control: { type: "ephemeral" } },
        { type: "text", text: "c" },
      ],
    });
    const out = changed(body, injectStyle("anthropic", body, STYLE)) as {
      system: { text: string }[];
    };
    deepStrictEqual(out.system.map((b) => b.text), ["a", STYLE, "b", "c"]);
  });
  await t.step("blocks without cache_control: last", () => {
    const body = '{"system":[{"type":"text","text":"a"}]}';
    const out = changed(body, injectStyle("anthropic", body, STYLE)) as {
      system: { text: string }[];
    };
    deepStrictEqual(out.system.map((b) => b.text), ["a", STYLE]);
  });
});

Deno.test("injectStyle() never injects twice", () => {
  const body = '{"system":"x","messages":[]}';
  const once = injectStyle("anthropic", body, STYLE)!;
  strictEqual(injectStyle("anthropic", once, STYLE), null);
  ok(STYLE.startsWith(MARKER));
  const chat = '{"messages":[{"role":"user","content":"hi"}]}';
  const c1 = injectStyle("openai-chat", chat, STYLE)!;
  strictEqual(injectStyle("openai-chat", c1, STYLE), null);
  const resp = '{"input":"hi"}';
  const r1 = injectStyle("openai-responses", resp, STYLE)!;
  strictEqual(injectStyle("openai-responses", r1, STYLE), null);
});

Deno.test("injectStyle() uses OpenAI system and developer messages, or adds one", async (t) => {
  await t.step("no system message: a new first message", () => {
    const body = '{"model":"g","messages":[{"role":"user","content":"hi"}]}';
    const out = changed(body, injectStyle("openai-chat", body, STYLE)) as {
      messages: unknown[];
    };
    deepStrictEqual(out.messages, [{ role: "system", content: STYLE }, {
      role: "user",
      content: "hi",
    }]);
  });
  await t.step("a developer message with parts: a new text part", () => {
    const body = JSON.stringify({
      messages: [{ role: "developer", content: [{ type: "text", text: "rules" }] }, {
        role: "user",
        content: "hi",
      }],
    });
    const out = changed(body, injectStyle("openai-chat", body, STYLE)) as {
      messages: { content: unknown }[];
    };
    deepStrictEqual(out.messages[0].content, [{ type: "text", text: "rules" }, {
      type: "text",
      text: STYLE,
    }]);
  });
  await t.step("Responses: appended to instructions, or set", () => {
    const body = '{"instructions":"Be brief.","input":[]}';
    const out = changed(body, injectStyle("openai-responses", body, STYLE)) as {
      instructions: string;
    };
    strictEqual(out.instructions, `Be brief.\n\n${STYLE}`);
    const none = '{"input":[]}';
    deepStrictEqual(changed(none, injectStyle("openai-responses", none, STYLE)), {
      instructions: STYLE,
      input: [],
    });
  });
});

Deno.test("injectStyle() leaves bodies it cannot read alone", () => {
  strictEqual(injectStyle("anthropic", "not json", STYLE), null);
  strictEqual(injectStyle("anthropic", "[1]", STYLE), null);
  strictEqual(injectStyle("openai-chat", '{"messages":"x"}', STYLE), null);
});

Deno.test("styleText() gives each level its own text and keeps the verbatim rule", () => {
  strictEqual(styleText("off", "off"), null);
  const texts = new Set<string>();
  for (const terse of ["off", "lite", "full", "ultra"] as const) {
    for (const code of ["off", "lite", "full", "ultra"] as const) {
      const t = styleText(terse, code);
      if (!t) continue;
      ok(/exactly as written/.test(t) && /language the user writes in/.test(t));
      texts.add(t);
    }
  }
  strictEqual(texts.size, 15);
});
