/**
 * A Claude Code transcript of a session of many tool calls (Reads, Edits, test and build runs,
 * rtok-cut outputs) in the line shapes Claude Code 2.1.332 writes, for the memory benches.
 *
 * @module
 */

import { pointerLine } from "../src/core/pointer.ts";

const SYSTEM = "You are an agent working with the user toward their goals. ".repeat(340);

/** A transcript of `calls` tool calls in the line shapes Claude Code 2.1.332 writes. */
export function sessionTranscript(calls = 500, cwd = "/work/app"): string {
  const lines: string[] = [];
  const meta = { sessionId: "bench", cwd, version: "2.1.332", userType: "external" };
  const user = (content: unknown) =>
    JSON.stringify({ type: "user", message: { role: "user", content }, ...meta });
  const use = (id: string, name: string, input: unknown) =>
    JSON.stringify({
      type: "assistant",
      message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
      ...meta,
    });
  const result = (id: string, text: string, isError = false) =>
    user([{ type: "tool_result", tool_use_id: id, content: text, is_error: isError }]);
  const numbered = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => `${from + i}\tconst value${from + i} = compute(${i});`)
      .join("\n");
  for (let i = 0; i < calls; i++) {
    if (i % 50 === 0) {
      lines.push(user(`Request ${i / 50}: make module ${i % 7} handle empty input.`));
    }
    lines.push(
      JSON.stringify({
        type: "attachment",
        // Claude Code writes the request's system prompt beside each call (about 20 KB).
        attachment: { type: "prompt_snapshot", systemPrompt: [SYSTEM] },
        ...meta,
      }),
    );
    const id = `toolu_${i}`;
    const file = `${cwd}/src/mod_${i % 40}.ts`;
    switch (i % 5) {
      case 0:
        lines.push(use(id, "Read", { file_path: file, offset: i % 200, limit: 60 }));
        lines.push(result(id, numbered(i % 200, 60)));
        break;
      case 1:
        lines.push(use(id, "Edit", { file_path: file, old_string: "a", new_string: "b" }));
        lines.push(result(id, `The file ${file} has been updated.`));
        break;
      case 2: {
        const fails = Array.from(
          { length: 3 },
          (_, k) => `✖ case ${i}-${k} handles empty input (${file}:${k + 3}:1)`,
        );
        lines.push(use(id, "Bash", { command: `node --test test/mod_${i % 9}.test.mjs` }));
        lines.push(result(id, [...fails, "ℹ fail 3", "Exit code 1"].join("\n"), true));
        break;
      }
      case 3:
        lines.push(use(id, "Bash", { command: "deno check src/" }));
        lines.push(
          result(
            id,
            `src/mod_${i % 40}.ts(${i % 90},3): error TS2345: bad argument\nExit code 1`,
            true,
          ),
        );
        break;
      default:
        lines.push(use(id, "Bash", { command: `git log -n ${i}` }));
        lines.push(
          result(
            id,
            numbered(1, 30) + "\n" +
              pointerLine([`${i} older commits`], (i * 7919).toString(16).padStart(12, "0")),
          ),
        );
    }
  }
  return lines.join("\n") + "\n";
}

/**
 * A Claude Code 2.1 session for the replay budget: `calls` tool calls whose results are long
 * enough for rtok's hook to cut (whole Reads of a 400-line module, a 400-line log, grep hits
 * with context, a 100-name Glob, a failing test run), each line with its `toolUseResult`, and
 * the agent's edits and words between them.
 */
export function replayTranscript(calls: number, session: string, cwd = "/work/app"): string {
  const meta = { sessionId: session, cwd, version: "2.1.332", userType: "external" };
  const lines: string[] = [];
  const row = (type: string, message: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ type, message, ...meta, ...extra });
  const module = (n: number) =>
    Array.from({ length: 40 }, (_, f) => [
      `export function settle${n}x${f}(total: number): number {`,
      ...Array.from({ length: 8 }, (_, k) => `  const part${k} = total * ${k} + ${f};`),
      "  return total;",
    ]).flat().join("\n") + "\n";
  const log = Array.from(
    { length: 400 },
    (_, i) => `2026-12-04T09:${String(i % 60).padStart(2, "0")}:00Z INFO handled request ${i}`,
  ).join("\n");
  const hits = Array.from(
    { length: 60 },
    (_, i) =>
      `src/pkg_${i % 9}/mod_${i}.ts-11-const before = ${i};\n` +
      `src/pkg_${i % 9}/mod_${i}.ts:12:  throw new LedgerError${i}(total);\n--`,
  ).join("\n");
  const names = Array.from({ length: 100 }, (_, i) => `${cwd}/src/pkg_${i % 9}/mod_${i}.ts`);
  const test = [
    ...Array.from({ length: 120 }, (_, i) => `✔ case ${i} (0.${i % 9}ms)`),
    "✖ case 120 rounds (2.1ms)",
    "  AssertionError: Expected 3 to equal 4",
    "ℹ tests 121",
    "ℹ fail 1",
  ].join("\n");
  lines.push(row("user", { role: "user", content: "Fix the ledger rounding." }));
  for (let i = 0; i < calls; i++) {
    const id = `toolu_${session}_${i}`;
    let input: Record<string, unknown>;
    let text: string;
    let structured: Record<string, unknown>;
    switch (i % 6) {
      case 0: {
        const path = `${cwd}/src/mod_${i}.ts`;
        const content = module(i);
        const n = content.split("\n").length;
        input = { file_path: path };
        text = content.split("\n").map((l, k) => `${k + 1}\t${l}`).join("\n");
        structured = {
          type: "text",
          file: { filePath: path, content, numLines: n, startLine: 1, totalLines: n },
        };
        break;
      }
      case 1:
        input = { command: "cat logs/server.log" };
        text = log;
        structured = { stdout: log, stderr: "", interrupted: false, isImage: false };
        break;
      case 2:
        input = { pattern: "LedgerError", output_mode: "content", "-C": 1, "-n": true };
        text = hits;
        structured = { mode: "content", numFiles: 0, filenames: [], content: hits, numLines: 180 };
        break;
      case 3:
        input = { pattern: "src/**/*.ts" };
        text = names.join("\n");
        structured = { filenames: names, numFiles: 100, truncated: false, durationMs: 9 };
        break;
      case 4:
        input = { command: "node --test" };
        text = test;
        structured = { stdout: test, stderr: "", interrupted: false, isImage: false };
        break;
      default: {
        const path = `${cwd}/src/mod_${i - 5}.ts`;
        input = { file_path: path, old_string: "  return total;", new_string: "  return fee;" };
        text = `The file ${path} has been updated.`;
        structured = { filePath: path, oldString: "  return total;", newString: "  return fee;" };
      }
    }
    const tool = ["Read", "Bash", "Grep", "Glob", "Bash", "Edit"][i % 6];
    lines.push(row("assistant", {
      id: `msg_${session}_${i}`,
      role: "assistant",
      content: [
        { type: "text", text: `Step ${i}: settle${i - (i % 6)}x3 next.` },
        { type: "tool_use", id, name: tool, input },
      ],
    }));
    lines.push(row(
      "user",
      { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: text }] },
      { toolUseResult: structured },
    ));
  }
  return lines.join("\n") + "\n";
}
