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
