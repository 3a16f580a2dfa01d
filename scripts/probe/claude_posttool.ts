/**
 * Probe: what Claude Code's PostToolUse / PostToolUseFailure hooks receive, and what a
 * PostToolUse hook's `updatedToolOutput` / `updatedMCPToolOutput` answer does to the
 * `tool_result` the model sees. Runs the real, pinned Claude Code (see `tests/_claude.ts`)
 * once per case against a loopback stand-in for the Anthropic API that asks for one
 * scripted tool call, with a temp HOME, a temp project, a hook that logs every event it gets
 * and answers as the case says, and a tiny stdio MCP server (plain JSON-RPC, no SDK).
 *
 * Run from the repository root:
 *
 *     deno run -A scripts/probe/claude_posttool.ts            # every case
 *     deno run -A scripts/probe/claude_posttool.ts read grep  # cases whose name has a word
 *
 * It prints one JSON object: `{ version, cases: [{ name, events, toolResult, siblings,
 * transcript, debug }] }`: the hook's stdin events, the `tool_result` block of the next API
 * request (what the model sees), the messages after it, the transcript's hook attachments
 * and Claude Code's debug-log lines about hooks. Progress goes to stderr. Findings are
 * written up in `scripts/probe/claude_posttool.md`.
 *
 * Claude Code runs with `ENABLE_TOOL_SEARCH=false` (else MCP tools are deferred behind
 * ToolSearch and not in the tool list) and, for Grep and Glob, `--allowedTools Grep,Glob`
 * (else this build leaves both tools out). `PROBE_EXTRA_ENV='{"K":"v"}'` adds environment;
 * `PROBE_KEEP=1` keeps the temp dir (transcripts, debug logs, persisted outputs).
 * Nothing in the repository is touched; the first run installs Claude Code into
 * `~/.cache/rtok-tests` (npm).
 *
 * @module
 */

import {
  assistantReply,
  CLAUDE_CODE_VERSION,
  claudeBinary,
  type Recorded,
  runClaude,
  serveMessages,
  type StandIn,
} from "../../tests/_claude.ts";

/** One scripted session: the tool call the stand-in asks for and how the hook answers. */
interface Case {
  readonly name: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
  /**
   * The body of `(ev) => ({stdout?, stderr?, code?, sleepMs?})`, a JS expression run by the
   * hook for each event it gets; absent: the hook prints nothing and exits 0.
   */
  readonly reply?: string;
  /** The hook's `timeout` in seconds (default 10). */
  readonly timeout?: number;
  /** Extra `claude` arguments (Grep and Glob exist only when the launch names them). */
  readonly args?: readonly string[];
}

/** Grep and Glob are left out of the tool list unless `--allowedTools` names one of them. */
const SEARCH_TOOLS = ["--allowedTools", "Grep,Glob"];

/** A hook answer that replaces the output with `expr` (JS; `r` is the tool_response). */
function upd(expr: string, key = "updatedToolOutput"): string {
  return `ev.hook_event_name !== "PostToolUse" ? {} : (() => { const r = ev.tool_response; ` +
    `return { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", ` +
    `${key}: (${expr}) } }) }; })()`;
}

const P = "__PROJECT__"; // replaced by the project dir

const CASES: Case[] = [
  // Read
  { name: "read-whole", tool: "Read", input: { file_path: `${P}/small.txt` } },
  {
    name: "read-whole-replaced",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(`({ ...r, file: { ...r.file, content: "MARKER first\\nMARKER second" } })`),
  },
  {
    name: "read-whole-replaced-numlines-fixed",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(
      `({ ...r, file: { ...r.file, content: "MARKER first\\nMARKER second", numLines: 2 } })`,
    ),
  },
  {
    name: "read-offset",
    tool: "Read",
    input: { file_path: `${P}/small.txt`, offset: 3, limit: 2 },
  },
  {
    name: "read-offset-replaced",
    tool: "Read",
    input: { file_path: `${P}/small.txt`, offset: 3, limit: 2 },
    reply: upd(`({ ...r, file: { ...r.file, content: "MARKER x\\nMARKER y\\nMARKER z" } })`),
  },
  {
    name: "read-offset-replaced-startline100",
    tool: "Read",
    input: { file_path: `${P}/small.txt`, offset: 3, limit: 2 },
    reply: upd(
      `({ ...r, file: { ...r.file, content: "MARKER x\\nMARKER y", startLine: 100, numLines: 7, totalLines: 999 } })`,
    ),
  },
  {
    name: "read-replaced-tabs-and-arrows",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(`({ ...r, file: { ...r.file, content: "7\\tMARKER tab\\n8→MARKER arrow\\n" } })`),
  },
  {
    name: "read-replaced-empty",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(`({ ...r, file: { ...r.file, content: "" } })`),
  },
  {
    name: "read-replaced-empty-totallines1",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(`({ ...r, file: { ...r.file, content: "", numLines: 1, totalLines: 1 } })`),
  },
  {
    name: "read-replaced-empty-numlines0",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(`({ ...r, file: { ...r.file, content: "", numLines: 0 } })`),
  },
  { name: "read-big", tool: "Read", input: { file_path: `${P}/big.txt` } },
  {
    name: "read-big-replaced",
    tool: "Read",
    input: { file_path: `${P}/big.txt` },
    reply: upd(`({ ...r, file: { ...r.file, content: "MARKER big" } })`),
  },
  { name: "read-longline", tool: "Read", input: { file_path: `${P}/long.txt` } },
  {
    name: "read-longline-replaced",
    tool: "Read",
    input: { file_path: `${P}/long.txt` },
    reply: upd(`({ ...r, file: { ...r.file, content: "MARKER " + "y".repeat(2500) } })`),
  },
  { name: "read-verylongline", tool: "Read", input: { file_path: `${P}/verylong.txt` } },
  { name: "read-huge", tool: "Read", input: { file_path: `${P}/huge.txt` } },
  {
    name: "read-huge-replaced",
    tool: "Read",
    input: { file_path: `${P}/huge.txt` },
    reply: upd(`({ ...r, file: { ...r.file, content: "MARKER huge" } })`),
  },
  { name: "read-empty-file", tool: "Read", input: { file_path: `${P}/empty.txt` } },
  {
    name: "read-replaced-no-trailing-newline-startline0",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(`({ ...r, file: { ...r.file, content: "MARKER a\\nMARKER b", startLine: 0 } })`),
  },
  {
    name: "read-replaced-negative-startline",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(
      `({ ...r, file: { ...r.file, content: "NOTE a\\nNOTE b\\nFILE one", startLine: -1 } })`,
    ),
  },
  {
    name: "read-replaced-with-context",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: `ev.hook_event_name !== "PostToolUse" ? {} : (() => { const r = ev.tool_response; ` +
      `return { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", ` +
      `additionalContext: "OUTLINE here", updatedToolOutput: { ...r, file: { ...r.file, content: "HEAD one" } } } }) }; })()`,
  },
  {
    name: "read-replaced-numlines-string",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(`({ ...r, file: { ...r.file, content: "MARKER", numLines: "2" } })`),
  },
  // Read: wrong shapes
  {
    name: "read-wrong-string",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(`"MARKER plain string"`),
  },
  {
    name: "read-wrong-missing-fields",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(`({ type: "text", file: { content: "MARKER partial" } })`),
  },
  {
    name: "read-wrong-extra-field",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(`({ ...r, extra: 1, file: { ...r.file, content: "MARKER extra", bogus: true } })`),
  },
  {
    name: "read-mcp-key",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: upd(
      `({ ...r, file: { ...r.file, content: "MARKER via mcp key" } })`,
      "updatedMCPToolOutput",
    ),
  },
  // Grep
  {
    name: "grep-content",
    tool: "Grep",
    args: SEARCH_TOOLS,
    input: { pattern: "parser", output_mode: "content", "-n": true },
  },
  {
    name: "grep-content-replaced",
    tool: "Grep",
    args: SEARCH_TOOLS,
    input: { pattern: "parser", output_mode: "content", "-n": true },
    reply: upd(`({ ...r, content: "MARKER src/a.ts:1:x", numLines: 1 })`),
  },
  {
    name: "grep-files",
    tool: "Grep",
    args: SEARCH_TOOLS,
    input: { pattern: "parser", output_mode: "files_with_matches" },
  },
  {
    name: "grep-files-replaced",
    tool: "Grep",
    args: SEARCH_TOOLS,
    input: { pattern: "parser", output_mode: "files_with_matches" },
    reply: upd(`({ ...r, filenames: ["MARKER/one.ts"], numFiles: 1 })`),
  },
  {
    name: "grep-count",
    tool: "Grep",
    args: SEARCH_TOOLS,
    input: { pattern: "parser", output_mode: "count" },
  },
  {
    name: "grep-count-replaced",
    tool: "Grep",
    args: SEARCH_TOOLS,
    input: { pattern: "parser", output_mode: "count" },
    reply: upd(`({ ...r, content: "MARKER.ts:42", numMatches: 42, numFiles: 1 })`),
  },
  {
    name: "grep-wrong-string",
    tool: "Grep",
    args: SEARCH_TOOLS,
    input: { pattern: "parser", output_mode: "content", "-n": true },
    reply: upd(`"MARKER grep string"`),
  },
  {
    name: "grep-content-limited",
    tool: "Grep",
    args: SEARCH_TOOLS,
    input: { pattern: "parser", output_mode: "content", "-n": true, head_limit: 1 },
  },
  {
    name: "grep-files-replaced-count-mismatch",
    tool: "Grep",
    args: SEARCH_TOOLS,
    input: { pattern: "parser", output_mode: "files_with_matches" },
    reply: upd(`({ ...r, filenames: ["MARKER/one.ts"], numFiles: 5 })`),
  },
  {
    name: "grep-content-replaced-limit",
    tool: "Grep",
    args: SEARCH_TOOLS,
    input: { pattern: "parser", output_mode: "content", "-n": true },
    reply: upd(`({ ...r, content: "MARKER limited", appliedLimit: 7, appliedOffset: 3 })`),
  },
  // Glob
  { name: "glob", tool: "Glob", args: SEARCH_TOOLS, input: { pattern: "**/*.ts" } },
  {
    name: "glob-replaced",
    tool: "Glob",
    args: SEARCH_TOOLS,
    input: { pattern: "**/*.ts" },
    reply: upd(`({ ...r, filenames: ["MARKER/x.ts"], numFiles: 1 })`),
  },
  {
    name: "glob-replaced-truncated",
    tool: "Glob",
    args: SEARCH_TOOLS,
    input: { pattern: "**/*.ts" },
    reply: upd(`({ ...r, filenames: ["MARKER/x.ts"], numFiles: 1, truncated: true })`),
  },
  // Bash
  { name: "bash", tool: "Bash", input: { command: "echo hello; echo oops >&2; seq 1 3" } },
  {
    name: "bash-replaced",
    tool: "Bash",
    input: { command: "echo hello; echo oops >&2; seq 1 3" },
    reply: upd(`({ ...r, stdout: "MARKER out", stderr: "MARKER err" })`),
  },
  { name: "bash-piped", tool: "Bash", input: { command: "seq 1 30 | grep 2" } },
  {
    name: "bash-piped-replaced",
    tool: "Bash",
    input: { command: "seq 1 30 | grep 2" },
    reply: upd(`({ ...r, stdout: "MARKER piped" })`),
  },
  {
    name: "bash-replaced-empty",
    tool: "Bash",
    input: { command: "echo hello" },
    reply: upd(`({ ...r, stdout: "", stderr: "" })`),
  },
  { name: "bash-large", tool: "Bash", input: { command: "seq 1 20000" } },
  {
    name: "bash-large-replaced",
    tool: "Bash",
    input: { command: "seq 1 20000" },
    reply: upd(`({ ...r, stdout: "MARKER large" })`),
  },
  {
    name: "bash-large-replaced-drop-persisted",
    tool: "Bash",
    input: { command: "seq 1 20000" },
    reply: upd(
      `(() => { const { persistedOutputPath, persistedOutputSize, ...rest } = r; return { ...rest, stdout: "MARKER large" }; })()`,
    ),
  },
  {
    name: "bash-wrong-string",
    tool: "Bash",
    input: { command: "echo hello" },
    reply: upd(`"MARKER bash string"`),
  },
  {
    name: "bash-fail",
    tool: "Bash",
    input: { command: "echo before; ls /nonexistent-rtok; exit 3" },
  },
  {
    name: "bash-fail-answered",
    tool: "Bash",
    input: { command: "echo before; ls /nonexistent-rtok; exit 3" },
    reply: `ev.hook_event_name !== "PostToolUseFailure" ? {} : { stdout: JSON.stringify({ ` +
      `hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "MARKER ctx", ` +
      `updatedToolOutput: { stdout: "MARKER fail", stderr: "", interrupted: false } } }) }`,
  },
  // MCP
  { name: "mcp-text", tool: "mcp__probe__echo_text", input: {} },
  {
    name: "mcp-text-updatedToolOutput-array",
    tool: "mcp__probe__echo_text",
    input: {},
    reply: upd(`[{ type: "text", text: "MARKER mcp array" }]`),
  },
  {
    name: "mcp-text-updatedToolOutput-string",
    tool: "mcp__probe__echo_text",
    input: {},
    reply: upd(`"MARKER mcp string"`),
  },
  {
    name: "mcp-text-updatedMCPToolOutput-array",
    tool: "mcp__probe__echo_text",
    input: {},
    reply: upd(`[{ type: "text", text: "MARKER mcp legacy" }]`, "updatedMCPToolOutput"),
  },
  {
    name: "mcp-text-updatedToolOutput-callresult",
    tool: "mcp__probe__echo_text",
    input: {},
    reply: upd(`({ content: [{ type: "text", text: "MARKER callresult" }] })`),
  },
  {
    name: "mcp-text-updatedToolOutput-number",
    tool: "mcp__probe__echo_text",
    input: {},
    reply: upd(`42`),
  },
  { name: "mcp-json", tool: "mcp__probe__json_text", input: {} },
  {
    name: "mcp-json-replaced",
    tool: "mcp__probe__json_text",
    input: {},
    reply: upd(`[{ type: "text", text: JSON.stringify({ marker: "MARKER json" }) }]`),
  },
  {
    name: "mcp-both-keys",
    tool: "mcp__probe__echo_text",
    input: {},
    reply:
      `ev.hook_event_name !== "PostToolUse" ? {} : { stdout: JSON.stringify({ hookSpecificOutput: ` +
      `{ hookEventName: "PostToolUse", updatedToolOutput: "MARKER new key", ` +
      `updatedMCPToolOutput: [{ type: "text", text: "MARKER legacy key" }] } }) }`,
  },
  {
    name: "mcp-text-updatedMCPToolOutput-string",
    tool: "mcp__probe__echo_text",
    input: {},
    reply: upd(`"MARKER legacy string"`, "updatedMCPToolOutput"),
  },
  { name: "mcp-two-blocks", tool: "mcp__probe__two_blocks", input: {} },
  { name: "mcp-structured", tool: "mcp__probe__structured", input: {} },
  { name: "mcp-error", tool: "mcp__probe__error_tool", input: {} },
  // Breakage
  {
    name: "break-timeout",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    timeout: 2,
    reply:
      `ev.hook_event_name !== "PostToolUse" ? {} : { sleepMs: 5000, stdout: JSON.stringify({ ` +
      `hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "late" } }) }`,
  },
  {
    name: "break-non-json",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: `ev.hook_event_name !== "PostToolUse" ? {} : { stdout: "MARKER not json\\n" }`,
  },
  {
    name: "break-bad-json",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply:
      `ev.hook_event_name !== "PostToolUse" ? {} : { stdout: "{\\"hookSpecificOutput\\": MARKER" }`,
  },
  {
    name: "break-exit1",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: `ev.hook_event_name !== "PostToolUse" ? {} : { stderr: "MARKER stderr exit1", code: 1 }`,
  },
  {
    name: "break-exit2",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: `ev.hook_event_name !== "PostToolUse" ? {} : { stderr: "MARKER stderr exit2", code: 2 }`,
  },
  {
    name: "break-wrong-event-name",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply:
      `ev.hook_event_name !== "PostToolUse" ? {} : { stdout: JSON.stringify({ hookSpecificOutput: ` +
      `{ hookEventName: "PreToolUse", updatedToolOutput: { ...ev.tool_response, file: { ...ev.tool_response.file, content: "MARKER" } } } }) }`,
  },
  {
    name: "break-top-level-field",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply: `ev.hook_event_name !== "PostToolUse" ? {} : { stdout: JSON.stringify({ ` +
      `updatedToolOutput: { ...ev.tool_response, file: { ...ev.tool_response.file, content: "MARKER" } } }) }`,
  },
  {
    name: "additional-context",
    tool: "Read",
    input: { file_path: `${P}/small.txt` },
    reply:
      `ev.hook_event_name !== "PostToolUse" ? {} : { stdout: JSON.stringify({ hookSpecificOutput: ` +
      `{ hookEventName: "PostToolUse", additionalContext: "MARKER context" } }) }`,
  },
];

const HOOK_TS = `
const dir = Deno.env.get("PROBE_DIR");
const text = await new Response(Deno.stdin.readable).text();
let ev = null;
try { ev = JSON.parse(text); } catch { /* logged raw */ }
const n = Date.now() + "-" + Math.random().toString(36).slice(2, 8);
Deno.writeTextFileSync(dir + "/events/" + n + ".json", text);
let out = {};
try {
  const mod = await import("file://" + dir + "/reply.js");
  out = mod.default(ev) ?? {};
} catch (e) { if (!(e instanceof Deno.errors.NotFound) && !String(e).includes("Module not found")) throw e; }
if (out.sleepMs) await new Promise((r) => setTimeout(r, out.sleepMs));
if (out.stdout) Deno.stdout.writeSync(new TextEncoder().encode(out.stdout));
if (out.stderr) Deno.stderr.writeSync(new TextEncoder().encode(out.stderr));
Deno.exit(out.code ?? 0);
`;

const MCP_SERVER = `
const rl = require("readline").createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
const tools = [
  { name: "echo_text", description: "Returns two lines of text.", inputSchema: { type: "object", properties: {} } },
  { name: "json_text", description: "Returns JSON as text.", inputSchema: { type: "object", properties: {} } },
  { name: "two_blocks", description: "Returns two text blocks.", inputSchema: { type: "object", properties: {} } },
  { name: "structured", description: "Returns structuredContent too.", inputSchema: { type: "object", properties: {} } },
  { name: "error_tool", description: "Returns isError.", inputSchema: { type: "object", properties: {} } },
];
const results = {
  echo_text: { content: [{ type: "text", text: "mcp line 1\\nmcp line 2" }] },
  json_text: { content: [{ type: "text", text: JSON.stringify({ items: [{ id: 1, name: "a" }, { id: 2, name: "b" }], total: 2 }, null, 2) }] },
  two_blocks: { content: [{ type: "text", text: "block one" }, { type: "text", text: "block two" }] },
  structured: { content: [{ type: "text", text: "plain text beside structured" }], structuredContent: { n: 1 } },
  error_tool: { content: [{ type: "text", text: "mcp failure text" }], isError: true },
};
rl.on("line", (line) => {
  let m; try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  if (m.method === "initialize") {
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: (m.params && m.params.protocolVersion) || "2024-11-05", capabilities: { tools: {} }, serverInfo: { name: "probe", version: "0.0.1" } } });
  } else if (m.method === "tools/list") {
    send({ jsonrpc: "2.0", id: m.id, result: { tools } });
  } else if (m.method === "tools/call") {
    const r = results[m.params.name];
    if (r) send({ jsonrpc: "2.0", id: m.id, result: r });
    else send({ jsonrpc: "2.0", id: m.id, error: { code: -32602, message: "no such tool" } });
  } else if (m.method === "ping") {
    send({ jsonrpc: "2.0", id: m.id, result: {} });
  } else {
    send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "method not found" } });
  }
});
`;

const TOOL_ID = "toolu_probe_1";

/** A stand-in like `tests/_claude.ts`'s, but it asks for any tool with any input. */
function startScriptedStandIn(): StandIn & { call: { name: string; input: unknown } } {
  const requests: Recorded[] = [];
  const call = { name: "Bash", input: {} as unknown };
  const server = serveMessages(requests, (body) => {
    const answered = JSON.stringify(body.messages ?? []).includes('"tool_result"');
    const tools = (body.tools ?? []) as { name?: string }[];
    const ask = !answered && tools.some((t) => t.name === call.name);
    return assistantReply(body, ask ? { id: TOOL_ID, name: call.name, input: call.input } : null);
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    requests,
    call,
    command: "",
    toolResults: () => [],
    reset() {
      requests.length = 0;
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** The user message that carries our tool_result, from the first request that has it. */
function findToolResult(requests: readonly Recorded[]): {
  toolResult: Record<string, unknown> | null;
  siblings: unknown[];
  toolsOffered: string[];
} {
  let toolsOffered: string[] = [];
  for (const r of requests) {
    const tools = (r.body?.tools ?? []) as { name?: string }[];
    if (tools.length && toolsOffered.length === 0) toolsOffered = tools.map((t) => t.name ?? "");
    const messages = (r.body?.messages ?? []) as { role: string; content: unknown }[];
    for (const [i, m] of messages.entries()) {
      if (!Array.isArray(m.content)) continue;
      const blocks = m.content as Record<string, unknown>[];
      const tr = blocks.find((b) => b.type === "tool_result" && b.tool_use_id === TOOL_ID);
      if (!tr) continue;
      // Everything else in this message and any user messages after it.
      const siblings: unknown[] = blocks.filter((b) => b !== tr);
      for (const later of messages.slice(i + 1)) siblings.push(later);
      return { toolResult: tr, siblings, toolsOffered };
    }
  }
  return { toolResult: null, siblings: [], toolsOffered };
}

function writeProject(dir: string): void {
  Deno.mkdirSync(`${dir}/src`, { recursive: true });
  Deno.writeTextFileSync(
    `${dir}/small.txt`,
    "alpha one\nbeta two\ngamma three\ndelta four\nepsilon five\nzeta six\n",
  );
  Deno.writeTextFileSync(
    `${dir}/big.txt`,
    Array.from({ length: 2500 }, (_, i) => `line ${i + 1} of big`).join("\n") + "\n",
  );
  Deno.writeTextFileSync(`${dir}/long.txt`, `short first\n${"x".repeat(3000)}END\nshort third\n`);
  Deno.writeTextFileSync(
    `${dir}/src/a.ts`,
    "import { parser } from './b.ts';\nconst x = 1;\nparser(x);\n",
  );
  Deno.writeTextFileSync(
    `${dir}/src/b.ts`,
    "export function parser(n: number) {\n  return n;\n}\n",
  );
  Deno.writeTextFileSync(`${dir}/src/c.ts`, "// no match here\n");
  Deno.writeTextFileSync(`${dir}/verylong.txt`, `first\n${"v".repeat(50000)}END\nlast\n`);
  Deno.writeTextFileSync(
    `${dir}/huge.txt`,
    Array.from({ length: 60000 }, (_, i) => `huge line ${i + 1} with some filler words`).join(
      "\n",
    ) +
      "\n",
  );
  Deno.writeTextFileSync(`${dir}/empty.txt`, "");
}

async function main(): Promise<void> {
  const filters = Deno.args;
  const claude = await claudeBinary();
  const tmp = Deno.makeTempDirSync({ prefix: "rtok-probe-" });
  const home = `${tmp}/home`;
  const project = `${tmp}/project`;
  const probe = `${tmp}/probe`;
  Deno.mkdirSync(`${home}/.claude`, { recursive: true });
  Deno.mkdirSync(`${probe}/events`, { recursive: true });
  writeProject(project);
  Deno.writeTextFileSync(`${probe}/hook.ts`, HOOK_TS);
  Deno.writeTextFileSync(`${probe}/mcp_server.cjs`, MCP_SERVER);
  Deno.writeTextFileSync(
    `${home}/.claude.json`,
    JSON.stringify({
      hasCompletedOnboarding: true,
      mcpServers: { probe: { type: "stdio", command: "node", args: [`${probe}/mcp_server.cjs`] } },
    }),
  );
  const hookCommand = `${Deno.execPath()} run -A --quiet --no-config ${probe}/hook.ts`;
  const writeSettings = (timeout: number) =>
    Deno.writeTextFileSync(
      `${home}/.claude/settings.json`,
      JSON.stringify(
        {
          permissions: { allow: ["Bash", "Read", "Grep", "Glob", "mcp__probe"] },
          hooks: {
            PostToolUse: [{ hooks: [{ type: "command", command: hookCommand, timeout }] }],
            PostToolUseFailure: [{ hooks: [{ type: "command", command: hookCommand, timeout }] }],
          },
        },
        null,
        2,
      ),
    );

  await using api = startScriptedStandIn();
  const out: Record<string, unknown>[] = [];
  for (const c of CASES) {
    if (filters.length && !filters.some((f) => c.name.includes(f))) continue;
    writeSettings(c.timeout ?? 10);
    for (const e of Deno.readDirSync(`${probe}/events`)) {
      Deno.removeSync(`${probe}/events/${e.name}`);
    }
    try {
      Deno.removeSync(`${probe}/reply.js`);
    } catch { /* none */ }
    if (c.reply) {
      Deno.writeTextFileSync(`${probe}/reply.js`, `export default (ev) => (${c.reply});\n`);
    }
    const debugDir = `${tmp}/debug-${c.name}`;
    Deno.mkdirSync(debugDir);
    const input = JSON.parse(JSON.stringify(c.input).replaceAll(P, project));
    api.call.name = c.tool;
    api.call.input = input;
    api.reset();
    const started = Date.now();
    const env = {
      HOME: home,
      PROBE_DIR: probe,
      CLAUDE_CODE_DEBUG_LOGS_DIR: debugDir,
      CLAUDE_CODE_DEBUG_LOG_LEVEL: "debug",
      DEBUG: "1",
      DENO_DIR: `${Deno.env.get("HOME")}/.cache/deno`,
      // MCP tools in the first request's tool list, not deferred behind ToolSearch.
      MCP_CONNECTION_NONBLOCKING: "false",
      ENABLE_TOOL_SEARCH: "false",
      ...JSON.parse(Deno.env.get("PROBE_EXTRA_ENV") ?? "{}"),
    };
    const r = await runClaude(claude, api, project, env, c.args ?? []);
    const events = [...Deno.readDirSync(`${probe}/events`)].map((e) => e.name).sort().map((n) => {
      const text = Deno.readTextFileSync(`${probe}/events/${n}`);
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    });
    const debug: string[] = [];
    for (const e of Deno.readDirSync(debugDir)) {
      if (!e.isFile) continue;
      for (const line of Deno.readTextFileSync(`${debugDir}/${e.name}`).split("\n")) {
        if (
          /PostToolUse|hook|Hook/.test(line) &&
          !/hooks module|telemetry|native host|checkForNewResponses|Checking first line|Initial response is not async/
            .test(line)
        ) {
          debug.push(line.slice(0, 600));
        }
      }
    }
    const found = findToolResult(api.requests);
    // The transcript's attachment entries (hook errors, hook context) and tool_use_result.
    const transcript: unknown[] = [];
    const sessionFile = events.find((e) => typeof e === "object")?.transcript_path as
      | string
      | undefined;
    if (sessionFile) {
      try {
        for (const line of Deno.readTextFileSync(sessionFile).split("\n")) {
          if (!line.trim()) continue;
          const row = JSON.parse(line);
          if (row.type === "attachment" && /hook/.test(String(row.attachment?.type))) {
            transcript.push({ attachment: row.attachment });
          } else if (row.toolUseResult !== undefined) {
            transcript.push({ toolUseResult: row.toolUseResult });
          }
        }
      } catch (e) {
        transcript.push(String(e));
      }
    }
    out.push({
      name: c.name,
      tool: c.tool,
      input,
      reply: c.reply ?? null,
      ms: Date.now() - started,
      exit: r.code,
      resultIsError: r.result?.is_error ?? null,
      err: r.result ? "" : r.err.slice(0, 2000),
      events,
      toolResult: found.toolResult,
      siblings: found.siblings,
      toolsOffered: found.toolResult ? undefined : found.toolsOffered,
      transcript,
      debug,
    });
    console.error(`${c.name}: exit ${r.code}, ${events.length} events, ${Date.now() - started}ms`);
  }
  console.log(JSON.stringify({ version: CLAUDE_CODE_VERSION, tmp, cases: out }, null, 2));
  if (Deno.env.get("PROBE_KEEP") !== "1") Deno.removeSync(tmp, { recursive: true });
}

if (import.meta.main) await main();
