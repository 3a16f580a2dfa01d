/**
 * The proxy's request-body scanner on 1 MB bodies (as the UTF-8 bytes the proxy holds): many
 * tool results, one huge one, and a long conversation whose bulk is not tool output. The
 * budget is ≤ 5 ms added per 1 MB request; `JSON.parse` of the decoded text is measured beside
 * it, as what a scanner that built the document would at least cost.
 *
 * `deno bench bench/proxy_body_bench.ts` runs the benches; `deno run bench/proxy_body_bench.ts`
 * prints the p50 and p95 of each instead (`Deno.bench` is a no-op under `deno run`).
 *
 * @module
 */

import { findToolTokens, spliceBytes } from "../src/plugins/proxy/body_bytes.ts";
import type { Api } from "../src/plugins/proxy/routes.ts";

const MB = 1024 * 1024;

// Tool output as agents see it: code and log lines with quotes, backslashes, tabs, non-ASCII.
function _output(bytes: number, seed: number): string {
  const lines = [
    'src/app/module.ts:42:    const value = parse("key", options); // "quoted"',
    "\tat Object.<anonymous> (C:\\work\\proj\\index.js:10:5)",
    "error[E0308]: mismatched types — expected `u32`, found `&str`",
    "drwxr-xr-x  2 user group 4096 Jan  1 12:00 résumé-日本",
    '{"name":"pkg","version":"1.2.3","deps":{"a":"^1"}}',
  ];
  let s = "";
  for (let k = seed; s.length < bytes; k++) s += lines[k % lines.length] + "\n";
  return s.slice(0, bytes);
}

function _anthropic(results: number, perResult: number): string {
  const messages: unknown[] = [{ role: "user", content: "Fix the failing build." }];
  for (let k = 0; k < results; k++) {
    messages.push({
      role: "assistant",
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: `t${k}`, name: "Bash", input: { command: `cat file_${k}.ts` } },
      ],
    });
    messages.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `t${k}`, content: _output(perResult, k) }],
    });
  }
  return JSON.stringify({ model: "claude-x", max_tokens: 4096, messages });
}

// Gemini CLI's turns: a shell call, then its output in Gemini CLI's wrapping.
function _gemini(results: number, perResult: number): string {
  const contents: unknown[] = [{ role: "user", parts: [{ text: "Fix the failing build." }] }];
  for (let k = 0; k < results; k++) {
    const id = `run_shell_command_${k}`;
    contents.push({
      role: "model",
      parts: [{ functionCall: { id, name: "run_shell_command", args: { command: `cat f${k}` } } }],
    });
    const output = `<untrusted_context>\nOutput: ${_output(perResult, k)}\n` +
      `Process Group PGID: ${1000 + k}\n</untrusted_context>`;
    contents.push({
      role: "user",
      parts: [{ functionResponse: { id, name: "run_shell_command", response: { output } } }],
    });
  }
  return JSON.stringify({ contents, generationConfig: { temperature: 0 } });
}

function _chatMostlyProse(bytes: number): string {
  const messages: unknown[] = [];
  for (let k = 0; JSON.stringify(messages).length < bytes; k++) {
    messages.push({ role: "user", content: _output(1500, k) });
    messages.push({ role: "assistant", content: _output(1500, k + 1) });
    if (k % 10 === 0) messages.push({ role: "tool", tool_call_id: `c${k}`, content: "ok" });
  }
  return JSON.stringify({ model: "gpt-x", messages });
}

const BODIES: { name: string; body: string; api: Api }[] = [
  { name: "500 results of 2 KB", body: _anthropic(500, 2 * 1024), api: "anthropic" },
  { name: "1 result of 1 MB", body: _anthropic(1, MB), api: "anthropic" },
  {
    name: "pretty-printed, 500 results",
    body: JSON.stringify(JSON.parse(_anthropic(500, 2 * 1024)), null, 2),
    api: "anthropic",
  },
  { name: "chat, mostly not tool output", body: _chatMostlyProse(MB), api: "openai-chat" },
  { name: "Gemini, 500 results of 2 KB", body: _gemini(500, 2 * 1024), api: "gemini" },
];

const enc = new TextEncoder();

for (const { name, body, api } of BODIES) {
  const bytes = enc.encode(body);
  const found = findToolTokens(bytes, api);
  if (!found || found.length === 0) throw new Error(`bench body "${name}" has no tool results`);
  Deno.bench({
    name: `findToolTokens: ${name} (${(bytes.length / MB).toFixed(2)} MB)`,
    group: name,
    baseline: false,
    fn() {
      findToolTokens(bytes, api);
    },
  });
  Deno.bench({
    name: `JSON.parse only: ${name}`,
    group: name,
    baseline: true,
    fn() {
      JSON.parse(body);
    },
  });
  const cut = enc.encode(JSON.stringify("x".repeat(98)));
  const edits = found.map((f) => ({ ...f, json: cut }));
  Deno.bench({
    name: `spliceBytes: ${name}, every result cut to 100 bytes`,
    group: name,
    fn() {
      spliceBytes(bytes, edits);
    },
  });
}

if (import.meta.main) {
  const rounds = 200;
  const quantiles = (f: () => void): [number, number] => {
    for (let k = 0; k < 20; k++) f();
    const times: number[] = [];
    for (let k = 0; k < rounds; k++) {
      const t0 = performance.now();
      f();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return [times[rounds >> 1], times[Math.floor(rounds * 0.95)]];
  };
  for (const { name, body, api } of BODIES) {
    const bytes = enc.encode(body);
    const [p50, p95] = quantiles(() => findToolTokens(bytes, api));
    const [j50] = quantiles(() => JSON.parse(body));
    console.log(
      `${name.padEnd(30)} findToolTokens p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms` +
        ` (JSON.parse alone p50 ${j50.toFixed(2)} ms)`,
    );
  }
}
