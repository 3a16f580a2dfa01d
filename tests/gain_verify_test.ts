import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { defaultConfig } from "../src/core/config.ts";
import { answerClaudeHook, makeHookDeps } from "../src/surfaces/_hook_answer.ts";
import { pointerId, rtok, tempDir } from "./_helpers.ts";

// Ledger rows made by the real hook, and a 2.1 transcript that says what the model received.
Deno.test("rtok gain --verify checks hook rows against the transcript: verified, not applied, unknown", async () => {
  using tmp = tempDir();
  const home = `${tmp.path}/rtok`;
  const project = `${tmp.path}/p`;
  Deno.mkdirSync(project);
  const session = "sess-verify";
  const deps = makeHookDeps({ config: defaultConfig(), home, env: { RTOK_HOME: home } });
  const answer = async (event: Record<string, unknown>) => {
    const r = await answerClaudeHook(
      new TextEncoder().encode(JSON.stringify({
        session_id: session,
        cwd: project,
        hook_event_name: "PostToolUse",
        ...event,
      })),
      deps,
    );
    strictEqual(r.failure, null);
    return JSON.parse(r.answer).hookSpecificOutput;
  };
  const log = Array.from(
    { length: 600 },
    (_, i) => `2026-12-01T10:00:${i % 60}Z INFO job ${i} done`,
  )
    .join("\n");
  const bash = (id: string, text: string) => ({
    tool_name: "Bash",
    tool_use_id: id,
    tool_input: { command: `cat ${id}.log` },
    tool_response: { stdout: text, stderr: "", interrupted: false, isImage: false },
  });
  const applied = await answer(bash("toolu_applied", log));
  const rawLog = log.replace("job 0", "job zero");
  await answer(bash("toolu_raw", rawLog));
  await answer(bash("toolu_missing", log.replace("job 1 ", "job one ")));
  const module = Array.from(
    { length: 300 },
    (_, i) => `export function f${i}(x: number): number {\n  return x + ${i};\n}`,
  ).join("\n") + "\n";
  const read = await answer({
    tool_name: "Read",
    tool_use_id: "toolu_read",
    tool_input: { file_path: `${project}/m.ts` },
    tool_response: {
      type: "text",
      file: {
        filePath: `${project}/m.ts`,
        content: module,
        numLines: 901,
        startLine: 1,
        totalLines: 901,
      },
    },
  });
  ok(pointerId(applied.updatedToolOutput.stdout));
  ok(pointerId(read.additionalContext));
  const line = (o: Record<string, unknown>) =>
    JSON.stringify({ sessionId: session, cwd: project, ...o });
  const result = (id: string, text: string) =>
    line({
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: text }] },
    });
  const transcript = [
    result("toolu_applied", applied.updatedToolOutput.stdout),
    // The host went on with the raw output here.
    result("toolu_raw", rawLog),
    result(
      "toolu_read",
      read.updatedToolOutput.file.content.split("\n").map((l: string, i: number) =>
        `${i + 1}\t${l}`
      ).join("\n"),
    ),
    line({
      type: "attachment",
      attachment: {
        type: "hook_additional_context",
        toolUseID: "toolu_read",
        content: [read.additionalContext],
      },
    }),
  ].join("\n") + "\n";
  Deno.mkdirSync(`${tmp.path}/projects/-p`, { recursive: true });
  Deno.writeTextFileSync(`${tmp.path}/projects/-p/${session}.jsonl`, transcript);
  const r = await rtok(home, [
    "gain",
    "--verify",
    "--transcripts",
    `${tmp.path}/projects`,
    "--format",
    "json",
  ]);
  strictEqual(r.code, 0, r.err);
  const v = JSON.parse(r.out);
  deepStrictEqual(
    [v.rows, v.withTranscript, v.verified, v.notApplied, v.unknown, v.verifiedPct],
    [4, 4, 2, 1, 1, 66.7],
  );
  deepStrictEqual(v.notAppliedRows.map((x: { callId: string }) => x.callId), ["toolu_raw"]);
  const text = await rtok(home, ["gain", "--verify", "--transcripts", `${tmp.path}/projects`]);
  match(text.out, /^share {6}66\.7% verified$/m);
  ok(!text.out.includes("job zero"), "no transcript content printed");
});
