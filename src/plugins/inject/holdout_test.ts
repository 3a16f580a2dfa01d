import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { armOf, DEFAULT_HOLDOUT, holdoutShare, sessionKey } from "./holdout.ts";

Deno.test("sessionKey() names a session by the client's id, else by its first user message", async (t) => {
  const cases: [string, Parameters<typeof sessionKey>[0], unknown, string | null][] = [
    [
      "Anthropic metadata.user_id",
      "anthropic",
      { metadata: { user_id: "user_1_session_abc" }, messages: [{ role: "user", content: "hi" }] },
      "id:user_1_session_abc",
    ],
    [
      "Anthropic without metadata: the first user text block",
      "anthropic",
      {
        messages: [
          { role: "user", content: [{ type: "text", text: "fix the parser" }] },
          { role: "assistant", content: "ok" },
          { role: "user", content: "next" },
        ],
      },
      "first:fix the parser",
    ],
    [
      "OpenAI chat prompt_cache_key",
      "openai-chat",
      { prompt_cache_key: "k9", user: "u", messages: [{ role: "user", content: "x" }] },
      "id:k9",
    ],
    ["OpenAI chat user", "openai-chat", { user: "u7", messages: [] }, "id:u7"],
    [
      "OpenAI responses input string",
      "openai-responses",
      { input: "write tests" },
      "first:write tests",
    ],
    ["nothing to go by", "openai-chat", { messages: [{ role: "system", content: "s" }] }, null],
  ];
  for (const [name, api, body, want] of cases) {
    await t.step(name, () => strictEqual(sessionKey(api, JSON.stringify(body)), want));
  }
  await t.step("not JSON", () => strictEqual(sessionKey("anthropic", "{"), null));
});

Deno.test("armOf() keeps a key's arm in every process and holds out about the share asked", () => {
  // A key's bucket is fixed (77 of 10,000 for "id:a"), not drawn: a session that comes back in
  // a new process, or after an upgrade, lands in the arm it had.
  deepStrictEqual(["id:a", "id:b", "id:c"].map((k) => armOf(k, 0.5)), [
    "holdout",
    "styled",
    "holdout",
  ]);
  strictEqual(armOf("id:a", 0.0077), "styled");
  strictEqual(armOf("id:a", 0.0078), "holdout");
  let held = 0;
  for (let i = 0; i < 10_000; i++) if (armOf(`id:session-${i}`, 0.1) === "holdout") held++;
  ok(held > 900 && held < 1100, `${held} of 10,000 held out at 0.1`);
  for (let i = 0; i < 200; i++) {
    strictEqual(armOf(`k${i}`, 0), "styled");
    strictEqual(armOf(`k${i}`, 1), "holdout");
  }
});

Deno.test("holdoutShare() reads [plugins.inject] holdout, 0.1 by default, and refuses a bad one", () => {
  strictEqual(holdoutShare({}), DEFAULT_HOLDOUT);
  strictEqual(holdoutShare({ holdout: 0 }), 0);
  strictEqual(holdoutShare({ holdout: 0.25 }), 0.25);
  for (const bad of [-0.1, 1.5, "10%", true]) {
    throws(
      () => holdoutShare({ holdout: bad }),
      /\[plugins\.inject\] holdout = .*: expected a share from 0 to 1/,
    );
  }
});
