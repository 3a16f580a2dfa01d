import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  addCalls,
  callsSince,
  type Classifier,
  emptyTotals,
  readTranscriptStats,
  throughRtok,
} from "./transcript_stats.ts";
import { pointerLine } from "../core/pointer.ts";
import { estimateChars } from "../core/tokens.ts";

// A classifier over a fixed table, standing for the rewrite rules the surface passes.
const FAMILIES: Record<string, { family: string; filter: string | null }> = {
  "git log": { family: "git log", filter: "git log" },
  "make": { family: "make", filter: null },
  "terraform plan": { family: "terraform plan", filter: null },
  "rtok git log": { family: "git log", filter: null },
  "weird": { family: "weird", filter: "weird" },
};
const SAVINGS: Record<string, number | null> = { "git log": 60, "weird": null };
const classifier: Classifier = {
  command(line) {
    const e = FAMILIES[line] ?? { family: line.split(" ")[0], filter: null };
    return { family: e.family, filterFamily: e.filter, runsRtok: line.startsWith("rtok ") };
  },
  isRtokHook: (c) => c === "rtok hook claude" || c.endsWith("/hook/claude"),
  saving: (f) => SAVINGS[f] ?? null,
};

const use = (
  id: string,
  name: string,
  input: Record<string, unknown>,
  at = "2026-12-04T10:00:00Z",
) =>
  JSON.stringify({
    type: "assistant",
    timestamp: at,
    cwd: "/p",
    sessionId: "s1",
    message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
  });
const result = (id: string, content: unknown) =>
  JSON.stringify({
    type: "user",
    timestamp: "2026-12-04T10:00:01Z",
    cwd: "/p",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] },
  });
const hook = (id: string, command: string, stdout: string) =>
  JSON.stringify({
    type: "attachment",
    attachment: { type: "hook_success", toolUseID: id, command, stdout, hookEvent: "PostToolUse" },
  });
const bash = (id: string, command: string, at?: string) =>
  use(id, "Bash", { command, description: "d" }, at);
const POINTER = pointerLine(["3 older commits"], "abcdef123456");

Deno.test("readTranscriptStats skips and counts lines it cannot read, never throws", async (t) => {
  const cases: { name: string; lines: string[]; bad: number; unknown: number; known: boolean }[] = [
    { name: "not JSON", lines: ["{torn", "plain text"], bad: 2, unknown: 0, known: false },
    {
      name: "JSON not an object",
      lines: ["42", "[1,2]", "null"],
      bad: 0,
      unknown: 3,
      known: false,
    },
    { name: "no type", lines: ['{"kind":"user"}'], bad: 0, unknown: 1, known: false },
    { name: "an unknown type", lines: ['{"type":"fancy"}'], bad: 0, unknown: 1, known: false },
    {
      name: "a message without content",
      lines: ['{"type":"user","message":{}}', '{"type":"assistant"}'],
      bad: 0,
      unknown: 2,
      known: false,
    },
    {
      name: "kinds passed over, blank lines uncounted",
      lines: ['{"type":"queue-operation"}', "", '{"type":"api-request"}', "   "],
      bad: 0,
      unknown: 0,
      known: false,
    },
    {
      name: "a known transcript with a torn last line",
      lines: [bash("a", "make"), result("a", "ok"), '{"type":"user","mess'],
      bad: 1,
      unknown: 0,
      known: true,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const r = readTranscriptStats(c.lines.join("\n"), "file", classifier);
      strictEqual(r.badLines, c.bad);
      strictEqual(r.unknownLines, c.unknown);
      strictEqual(r.known, c.known);
      strictEqual(r.lines, c.lines.filter((l) => l.trim()).length);
    });
  }
});

Deno.test("readTranscriptStats joins calls, results and rtok's hook answers", async (t) => {
  const blob = JSON.stringify({
    type: "api-request-blob",
    message: {
      role: "assistant",
      content: [{ type: "tool_use", id: "x", name: "Bash", input: {} }],
    },
  });
  const text = [
    bash("a", "git log"),
    hook(
      "a",
      "http://127.0.0.1:4000/hook/claude",
      '{"hookSpecificOutput":{"updatedToolOutput":{}}}',
    ),
    result("a", `one\ntwo\n${POINTER}`),
    bash("b", "make"),
    hook("b", "other-hook", '{"hookSpecificOutput":{"updatedToolOutput":{}}}'),
    result("b", [{ type: "text", text: "abc" }, { type: "image", source: {} }, {
      type: "text",
      text: "de",
    }]),
    use("c", "Read", { file_path: "/p/x" }),
    hook(
      "d",
      "rtok hook claude",
      '{"hookSpecificOutput":{"updatedInput":{"command":"rtok git log"}}}',
    ),
    bash("d", "git log"),
    result("d", "short"),
    blob,
    bash("a", "git log"),
  ].join("\n");
  const r = readTranscriptStats(text, "file-name", classifier);
  await t.step("one record per tool_use id, request copies passed over", () => {
    deepStrictEqual(r.calls.map((c) => c.tool), ["Bash", "Bash", "Read", "Bash"]);
    strictEqual(r.session, "s1");
    strictEqual(r.cwd, "/p");
  });
  const cases = [
    { id: 0, chars: 8 + POINTER.length, pointer: true, hooked: true, filtered: true },
    { id: 1, chars: 5, pointer: false, hooked: false, filtered: false },
    { id: 2, chars: 0, pointer: false, hooked: false, filtered: false },
    { id: 3, chars: 5, pointer: false, hooked: true, filtered: true },
  ];
  for (const c of cases) {
    await t.step(`call ${c.id}: chars, pointer, hook`, () => {
      const call = r.calls[c.id];
      strictEqual(call.chars, c.chars);
      strictEqual(call.pointer, c.pointer);
      strictEqual(call.hooked, c.hooked);
      strictEqual(call.hookFiltered, c.filtered);
      strictEqual(throughRtok(call, classifier), c.filtered);
    });
  }
  await t.step("a call without a result is counted unanswered", () => {
    strictEqual(r.calls[2].answered, false);
    strictEqual(r.calls[3].rewrittenTo, "rtok git log");
  });
});

Deno.test("addCalls tallies through rtok, would-have-filtered and the missed saving", async (t) => {
  const text = [
    bash("a", "git log"),
    result("a", "x".repeat(1000)),
    bash("b", "git log"),
    result("b", "y".repeat(500)),
    bash("c", "make"),
    result("c", "z".repeat(300)),
    hook("c", "rtok hook claude", "{}"),
    bash("d", "terraform plan"),
    result("d", "w".repeat(900)),
    bash("e", "rtok git log"),
    result("e", "v".repeat(40)),
    bash("f", "weird"),
    result("f", "u".repeat(70)),
    use("g", "Grep", { pattern: "q" }),
    result("g", `hit\n${POINTER}`),
  ].join("\n");
  const t1 = emptyTotals();
  addCalls(t1, readTranscriptStats(text, "s", classifier).calls, classifier);
  await t.step("tools, through and not", () => {
    deepStrictEqual(t1.byTool.Bash, { calls: 6, chars: 2810 });
    strictEqual(t1.byTool.Grep.calls, 1);
    deepStrictEqual(t1.through, { calls: 2, chars: 40 + 4 + POINTER.length });
    deepStrictEqual(t1.notThrough, { calls: 5, chars: 2770 });
    deepStrictEqual(t1.hooked, { calls: 1, chars: 300 });
  });
  await t.step("would have filtered: the families with a filter, saving by family", () => {
    strictEqual(t1.wouldFilter.calls, 3);
    strictEqual(t1.wouldFilter.chars, 1570);
    strictEqual(t1.wouldFilter.missedChars, 600 + 300);
    strictEqual(t1.wouldFilter.unmeasured, 1);
    strictEqual(t1.wouldFilter.missedTokens, estimateChars(900, "log"));
    deepStrictEqual(t1.commands.map((c) => [c.command, c.calls, c.chars, c.missedChars]), [
      ["git log", 2, 1500, 900],
      ["weird", 1, 70, 0],
    ]);
  });
  await t.step(
    "families with no filter, costliest first, hooked or not; rtok's own runs not among them",
    () => {
      deepStrictEqual(t1.unfiltered, [
        { family: "terraform plan", calls: 1, chars: 900 },
        { family: "make", calls: 1, chars: 300 },
      ]);
      strictEqual(t1.byFamily["git log"].throughCalls, 1);
      strictEqual(t1.byFamily["git log"].calls, 3);
    },
  );
  await t.step("adding again accumulates", () => {
    addCalls(t1, readTranscriptStats(text, "s", classifier).calls, classifier);
    strictEqual(t1.wouldFilter.missedChars, 1800);
    deepStrictEqual(t1.unfiltered[0], { family: "terraform plan", calls: 2, chars: 1800 });
  });
});

Deno.test("callsSince keeps the calls at or after the time", async (t) => {
  const text = [
    bash("a", "make", "2026-11-01T00:00:00.000Z"),
    bash("b", "make", "2026-12-02T00:00:00.000Z"),
    JSON.stringify({
      type: "assistant",
      timestamp: "2026-12-03T00:00:00.000Z",
      message: { content: [{ type: "tool_use", id: "c", name: "Read", input: {} }] },
    }),
  ].join("\n");
  const read = readTranscriptStats(text, "s", classifier);
  const cases: [string, Date | null, number][] = [
    ["no bound", null, 3],
    ["between", new Date("2026-12-01T00:00:00Z"), 2],
    ["exactly at one", new Date("2026-12-02T00:00:00Z"), 2],
    ["after all", new Date("2026-12-05T00:00:00Z"), 0],
  ];
  for (const [name, since, n] of cases) {
    await t.step(name, () => strictEqual(callsSince(read, since).length, n));
  }
});
