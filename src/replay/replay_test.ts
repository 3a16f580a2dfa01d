import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { groupSessions, transcriptFiles } from "../claude/transcript_files.ts";
import { type HookCall, replaySession } from "./replay.ts";
import { addSession, emptyReplayReport, replayText } from "./report.ts";

const DATA = new URL("./testdata/", import.meta.url).pathname;
const sessions = groupSessions(transcriptFiles(DATA, { missingPaths: 0, unreadable: 0 }));
const session = (id: string) => sessions.find((s) => s.session.startsWith(id))!;
const opts = { since: null, bashFamily: (c: string) => c.split(" ")[0] };

// A hook that keeps a Bash output's first line and points at the rest, and leaves the others.
const firstLine: HookCall = (event) => {
  const r = event.tool_response as Record<string, unknown>;
  if (event.tool_name !== "Bash") return Promise.resolve({});
  const lines = String(r.stdout).split("\n");
  const stdout = `${lines[0]}\n[rtok: cut ${
    lines.length - 1
  } lines; raw: rtok expand 0123456789ab]`;
  return Promise.resolve({ output: { ...r, stdout }, family: "test family", textClass: "log" });
};

Deno.test("replaySession() replays a 2.0 session with its subagent's file, and counts facts", async () => {
  const s = await replaySession(session("2222"), firstLine, opts);
  deepStrictEqual(s.versions, ["2.0.76"]);
  deepStrictEqual(s.calls.map((c) => [c.conversation, c.tool, c.changed, c.skipped !== null]), [
    ["main", "Glob", false, false],
    ["main", "Task", false, false],
    ["main", "Read", false, false],
    ["agent-a2b3c4", "Bash", true, false],
  ]);
  const bash = s.calls[3];
  strictEqual(bash.family, "test family");
  ok(bash.rtokChars < bash.rawChars / 10, `${bash.rtokChars} of ${bash.rawChars}`);
  // case_80_rounding is written by the subagent after the run; the view hid it, no span says where.
  deepStrictEqual(bash.facts, { used: 1, kept: 0, located: 0, unlocated: 1 });
  deepStrictEqual(bash.hidden.map((h) => [h.fact, h.line, h.next.by]), [[
    "case_80_rounding",
    80,
    "text",
  ]]);
  // The Glob listed src/pkg_3/mod_37.ts, which the main conversation read next.
  deepStrictEqual(s.calls[0].facts, { used: 1, kept: 1, located: 0, unlocated: 0 });
});

Deno.test("replaySession() re-sends a result until the next compaction only", async () => {
  const s = await replaySession(session("3333"), firstLine, opts);
  const [grep, read, sub] = s.calls;
  // After the Grep: the Read's request; after the Read: none before the compaction.
  strictEqual(grep.turnsAfter, 1);
  strictEqual(read.turnsAfter, 0);
  strictEqual(sub.conversation, "agent-b7c8");
  strictEqual(sub.turnsAfter, 1);
});

Deno.test("replaySession() counts only calls since a time, but earlier ones still set what was seen", async () => {
  const since = new Date("2026-03-01T08:00:03.000Z");
  const s = await replaySession(session("3333"), firstLine, { ...opts, since });
  deepStrictEqual(s.calls.map((c) => c.tool), ["Read", "Bash"]);
});

Deno.test("addSession() sums per tool and family, and replayText() says what was hidden where", async () => {
  const report = emptyReplayReport([DATA], null, null);
  for (const s of sessions) addSession(report, await replaySession(s, firstLine, opts));
  strictEqual(report.sessions, 3);
  strictEqual(report.files, 5);
  strictEqual(report.totals.calls, 11);
  strictEqual(report.byTool.Bash.calls, 3);
  strictEqual(report.byFamily["test family"].changed, 3);
  // Three Bash outputs cut to their first line, each hiding what the agent wrote next.
  deepStrictEqual(report.worst.map((w) => w.hidden[0].fact).sort(), [
    "case_80_rounding",
    "payment_gateway",
    "payment_gateway",
  ]);
  const text = replayText(report);
  ok(
    text.includes('unlocated "case_80_rounding" at raw line 80: not ok 80 - case_80_rounding'),
    text,
  );
  ok(text.includes("used next by text"), text);
});
