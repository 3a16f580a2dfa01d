import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { readTranscript, readTranscriptFile } from "./transcript.ts";

// Lines in the shapes Claude Code 2.1.332 writes (see scripts/probe/claude_compact.md).
const USER = (content: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "user", message: { role: "user", content }, uuid: "u", ...extra });
const ASSISTANT = (content: unknown) =>
  JSON.stringify({ type: "assistant", message: { role: "assistant", content } });

Deno.test("readTranscript: prompts, calls and results in order, Claude Code's own lines passed over", () => {
  const text = [
    JSON.stringify({ type: "queue-operation", operation: "enqueue", content: "x" }),
    JSON.stringify({ type: "attachment", attachment: { type: "hook_success" } }),
    USER("Fix the parser, please."),
    ASSISTANT([{ type: "text", text: "ok" }, {
      type: "tool_use",
      id: "t1",
      name: "Read",
      input: { file_path: "/p/a.ts" },
    }]),
    USER([{ type: "tool_result", tool_use_id: "t1", content: "1\tx" }]),
    USER([{
      type: "tool_result",
      tool_use_id: "t2",
      content: [{ type: "text", text: "boom" }],
      is_error: true,
    }]),
    USER("This session is being continued…", { isCompactSummary: true }),
    USER("<command-name>/compact</command-name>"),
    USER("<local-command-caveat>x</local-command-caveat>", { isMeta: true }),
    JSON.stringify({ type: "system", subtype: "compact_boundary" }),
  ].join("\n");
  const t = readTranscript(text);
  deepStrictEqual(t.entries, [
    { kind: "prompt", text: "Fix the parser, please." },
    { kind: "call", id: "t1", tool: "Read", input: { file_path: "/p/a.ts" } },
    { kind: "result", id: "t1", text: "1\tx", isError: false },
    { kind: "result", id: "t2", text: "boom", isError: true },
  ]);
  deepStrictEqual([t.lines, t.badLines, t.unknownLines], [10, 0, 0]);
});

Deno.test("readTranscript: bad lines and unknown shapes are skipped and counted", async (t) => {
  const cases: { name: string; text: string; bad: number; unknown: number; entries: number }[] = [
    {
      name: "a line that is not JSON",
      text: `{"type":"user"\n${USER("hi")}`,
      bad: 1,
      unknown: 0,
      entries: 1,
    },
    {
      name: "a torn last line",
      text: `${USER("hi")}\n{"type":"assis`,
      bad: 1,
      unknown: 0,
      entries: 1,
    },
    { name: "JSON that is not an object", text: `[1,2]\n"x"\n42`, bad: 0, unknown: 3, entries: 0 },
    {
      name: "an object without a type",
      text: `{"role":"user","content":"hi"}`,
      bad: 0,
      unknown: 1,
      entries: 0,
    },
    {
      name: "a type rtok does not know",
      text: `{"type":"telemetry"}`,
      bad: 0,
      unknown: 1,
      entries: 0,
    },
    {
      name: "a user line without a message",
      text: `{"type":"user","text":"hi"}`,
      bad: 0,
      unknown: 1,
      entries: 0,
    },
    {
      name: "another program's format",
      text: `{"event":"x"}\n{"event":"y"}`,
      bad: 0,
      unknown: 2,
      entries: 0,
    },
    { name: "empty text", text: "", bad: 0, unknown: 0, entries: 0 },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const r = readTranscript(c.text);
      deepStrictEqual([r.badLines, r.unknownLines, r.entries.length], [
        c.bad,
        c.unknown,
        c.entries,
      ]);
    });
  }
});

Deno.test("readTranscriptFile: a missing path or file is a reason, not a throw", async (t) => {
  await t.step("no path", () => {
    const r = readTranscriptFile(undefined);
    strictEqual(r.ok, false);
  });
  await t.step("a file that is not there", () => {
    const r = readTranscriptFile("/nonexistent/rtok/transcript.jsonl");
    strictEqual(r.ok, false);
    strictEqual(!r.ok && r.reason.startsWith("the transcript cannot be read"), true);
  });
  await t.step("a file that is there", () => {
    const dir = Deno.makeTempDirSync();
    try {
      Deno.writeTextFileSync(`${dir}/s.jsonl`, USER("hello") + "\nnot json\n");
      const r = readTranscriptFile(`${dir}/s.jsonl`);
      strictEqual(r.ok, true);
      if (r.ok) deepStrictEqual([r.transcript.entries.length, r.transcript.badLines], [1, 1]);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  });
});
