import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import {
  BadHookEvent,
  contextAnswer,
  HOOK_EVENTS,
  MAX_HOOK_INPUT,
  preToolAnswer,
  readHookEvent,
  sessionOf,
} from "./hook_protocol.ts";

const enc = (v: unknown) => new TextEncoder().encode(typeof v === "string" ? v : JSON.stringify(v));

Deno.test("readHookEvent() reads every event rtok serves into what the plugins see", async (t) => {
  const base = { session_id: "s1", cwd: "/p" };
  await t.step("PreToolUse", () => {
    deepStrictEqual(
      readHookEvent(
        enc({
          ...base,
          hook_event_name: "PreToolUse",
          tool_name: "Bash",
          tool_input: { command: "ls" },
          permission_mode: "plan",
        }),
        "/x",
      ),
      {
        session: "s1",
        cwd: "/p",
        event: "PreToolUse",
        tool: "Bash",
        input: { command: "ls" },
        mode: "plan",
      },
    );
  });
  await t.step("PostToolUse keeps the tool's own output shape", () => {
    const output = { stdout: "a", stderr: "", interrupted: false };
    const ev = readHookEvent(
      enc({
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: {},
        tool_response: output,
      }),
      "/x",
    );
    deepStrictEqual(ev, {
      session: "s1",
      cwd: "/p",
      event: "PostToolUse",
      tool: "Bash",
      input: {},
      output,
    });
  });
  await t.step("UserPromptSubmit, and the hook's cwd when the event names none", () => {
    deepStrictEqual(
      readHookEvent(enc({ hook_event_name: "UserPromptSubmit", prompt: "hi" }), "/x"),
      { session: null, cwd: "/x", event: "UserPromptSubmit", prompt: "hi" },
    );
  });
  await t.step("every listed event is read", () => {
    for (const { event } of HOOK_EVENTS) {
      const ev = readHookEvent(
        enc({ hook_event_name: event, tool_name: "Bash", tool_input: {} }),
        "/x",
      );
      strictEqual(ev.event, event);
    }
  });
});

Deno.test("readHookEvent() says in one line what is wrong with a bad event", async (t) => {
  const cases: [string, Uint8Array, RegExp][] = [
    ["empty", enc("  \n"), /^the event is empty$/],
    ["not JSON", enc("{"), /^the event is not valid JSON: /],
    ["not an object", enc([1]), /^the event is not a JSON object$/],
    ["no event name", enc({}), /^the event has no "hook_event_name"$/],
    [
      "an unknown event",
      enc({ hook_event_name: "Nope" }),
      /^unknown event "Nope"; rtok serves PreToolUse, PostToolUse, /,
    ],
    [
      "a PreToolUse without its tool",
      enc({ hook_event_name: "PreToolUse", tool_input: {} }),
      /^the PreToolUse event has no "tool_name" string$/,
    ],
    [
      "a PostToolUse without its input",
      enc({ hook_event_name: "PostToolUse", tool_name: "Read" }),
      /^the PostToolUse event has no "tool_input" object$/,
    ],
    ["too big", new Uint8Array(MAX_HOOK_INPUT + 1), /^the event is over \d+ bytes; not read$/],
  ];
  for (const [name, input, message] of cases) {
    await t.step(name, () => {
      throws(() => readHookEvent(input, "/x"), (e: Error) => {
        strictEqual(e instanceof BadHookEvent, true);
        strictEqual(e.message.includes("\n"), false);
        return message.test(e.message);
      });
    });
  }
});

Deno.test("preToolAnswer() writes a rewrite, an allowed rewrite, a deny, or nothing", () => {
  strictEqual(preToolAnswer(null), "");
  deepStrictEqual(
    JSON.parse(preToolAnswer({ kind: "deny", reason: "no" })),
    {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "no",
      },
    },
  );
  const rewrite = { kind: "rewrite" as const, input: { command: "rtok ls" }, reason: "r" };
  deepStrictEqual(JSON.parse(preToolAnswer({ ...rewrite, allow: true })).hookSpecificOutput, {
    hookEventName: "PreToolUse",
    permissionDecision: "allow",
    permissionDecisionReason: "r",
    updatedInput: { command: "rtok ls" },
  });
  strictEqual(
    "permissionDecision" in JSON.parse(preToolAnswer({ ...rewrite, allow: false }))
      .hookSpecificOutput,
    false,
    "an asked rewrite leaves the decision to Claude Code",
  );
});

Deno.test("contextAnswer() adds context on the event it answers", () => {
  deepStrictEqual(JSON.parse(contextAnswer("SessionStart", "be brief")), {
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "be brief" },
  });
});

Deno.test("sessionOf() finds the session id without parsing the event", () => {
  strictEqual(sessionOf(enc('{"session_id": "abc", "x": {')), "abc");
  strictEqual(sessionOf(enc("not json")), null);
});
