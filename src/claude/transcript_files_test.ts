import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  groupSessions,
  isAgentTranscript,
  type ListProblems,
  transcriptFiles,
} from "./transcript_files.ts";

const DATA = new URL("../replay/testdata/", import.meta.url).pathname;
const rel = (p: string) => p.slice(DATA.length);

Deno.test("transcriptFiles() finds sessions and subagents of every layout, not saved outputs", () => {
  const problems: ListProblems = { missingPaths: 0, unreadable: 0 };
  deepStrictEqual(transcriptFiles(DATA, problems).map(rel), [
    "v1_0/-home-dev-shop/11111111-1111-4111-8111-111111111111.jsonl",
    "v2_0/-home-dev-shop/22222222-2222-4222-8222-222222222222.jsonl",
    "v2_0/-home-dev-shop/agent-a2b3c4.jsonl",
    // A session's folder sorts before its file; the saved output in tool-results/ is no transcript.
    "v2_1/-home-dev-shop/33333333-3333-4333-8333-333333333333/subagents/agent-b7c8.jsonl",
    "v2_1/-home-dev-shop/33333333-3333-4333-8333-333333333333.jsonl",
  ]);
  deepStrictEqual(problems, { missingPaths: 0, unreadable: 0 });
  strictEqual(transcriptFiles(`${DATA}/nowhere`, problems).length, 0);
  strictEqual(problems.missingPaths, 1);
});

Deno.test("groupSessions() counts a session once by its id, its subagents' files under it", () => {
  const files = transcriptFiles(DATA, { missingPaths: 0, unreadable: 0 });
  const sessions = groupSessions(files);
  deepStrictEqual(
    sessions.map((s) => [s.session, s.main && rel(s.main), s.agents.map(rel)]),
    [
      [
        "11111111-1111-4111-8111-111111111111",
        "v1_0/-home-dev-shop/11111111-1111-4111-8111-111111111111.jsonl",
        [],
      ],
      [
        "22222222-2222-4222-8222-222222222222",
        "v2_0/-home-dev-shop/22222222-2222-4222-8222-222222222222.jsonl",
        [
          "v2_0/-home-dev-shop/agent-a2b3c4.jsonl",
        ],
      ],
      [
        "33333333-3333-4333-8333-333333333333",
        "v2_1/-home-dev-shop/33333333-3333-4333-8333-333333333333.jsonl",
        [
          "v2_1/-home-dev-shop/33333333-3333-4333-8333-333333333333/subagents/agent-b7c8.jsonl",
        ],
      ],
    ],
  );
  // A subagent named on its own still belongs to its session.
  const lone = groupSessions(files.filter((f) => f.includes("subagents")));
  deepStrictEqual(lone.map((s) => [s.session, s.main]), [[
    "33333333-3333-4333-8333-333333333333",
    null,
  ]]);
});

Deno.test("isAgentTranscript() knows both subagent layouts", () => {
  strictEqual(isAgentTranscript("/p/proj/agent-1.jsonl"), true);
  strictEqual(isAgentTranscript("/p/proj/s/subagents/x.jsonl"), true);
  strictEqual(isAgentTranscript("/p/proj/s.jsonl"), false);
});
