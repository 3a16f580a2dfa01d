import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { type ConversationItem, readConversations } from "./transcript_calls.ts";

const DATA = new URL("../replay/testdata/", import.meta.url).pathname;
const read = (path: string, agent: string | null = null) =>
  readConversations(Deno.readTextFileSync(`${DATA}/${path}`), agent);
const kinds = (items: readonly ConversationItem[]) =>
  items.map((i) => i.kind === "call" ? `call ${i.tool}` : i.kind === "result" ? "result" : i.kind);

Deno.test("readConversations() reads a 1.0 session and the sidechain its file holds apart", () => {
  const t = read("v1_0/-home-dev-shop/11111111-1111-4111-8111-111111111111.jsonl");
  deepStrictEqual(t.versions, ["1.0.65"]);
  deepStrictEqual(t.conversations.map((c) => c.key), ["main", "sidechain"]);
  const [main, side] = t.conversations;
  deepStrictEqual(kinds(main.items), [
    "prompt",
    "request",
    "call Read",
    "result",
    "request",
    "call Grep",
    "result",
    "request",
    "say",
    "call Edit",
    "result",
    "request",
    "say",
  ]);
  deepStrictEqual(kinds(side.items), ["request", "call Bash", "result", "request", "say"]);
  const readResult = main.items[3];
  ok(readResult.kind === "result");
  strictEqual(readResult.structured, null, "1.0 wrote no toolUseResult for this Read");
  ok(readResult.text.startsWith("     1→import"));
  strictEqual(main.cwd, "/home/dev/shop");
});

Deno.test("readConversations() gives a subagent's own file its own key, and marks a compaction", () => {
  const agent = read("v2_0/-home-dev-shop/agent-a2b3c4.jsonl", "agent-a2b3c4");
  deepStrictEqual(agent.conversations.map((c) => c.key), ["agent-a2b3c4"]);
  const t = read("v2_1/-home-dev-shop/33333333-3333-4333-8333-333333333333.jsonl");
  ok(kinds(t.conversations[0].items).includes("compact"));
  strictEqual(t.badLines, 1, "the torn last line");
  strictEqual(t.unknownLines, 1, "a line of a kind not known");
  strictEqual(t.known, true);
});

Deno.test("readConversations() counts one request per message, however many lines it spans", () => {
  const line = (type: string, message: Record<string, unknown>) =>
    JSON.stringify({ type, sessionId: "s", message });
  const text = [
    line("assistant", { id: "m1", content: [{ type: "text", text: "one" }] }),
    line("assistant", {
      id: "m1",
      content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }],
    }),
    line("user", { content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] }),
    // A stand-in may reuse an id: a line after the user's still begins a request.
    line("assistant", { id: "m1", content: [{ type: "text", text: "two" }] }),
  ].join("\n");
  const items = readConversations(text).conversations[0].items;
  strictEqual(items.filter((i) => i.kind === "request").length, 2);
});
