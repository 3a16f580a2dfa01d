/**
 * The real Claude Code for end-to-end tests, and a loopback stand-in for the Anthropic API
 * that asks for one Bash tool call and records every request it receives.
 *
 * @module
 */

import { npmCli, type Recorded, run } from "./_helpers.ts";
import { HOSTS } from "../src/hosts/hosts.ts";

/** The Claude Code release the end-to-end tests run. */
export const CLAUDE_CODE_VERSION: string = HOSTS.claude.verifiedVersion;

/**
 * The `claude` binary, installed from npm into a cache directory on first use (a few
 * seconds; the npm registry must be reachable).
 */
export function claudeBinary(): Promise<string> {
  return npmCli(
    HOSTS.claude.name,
    "claude-code",
    HOSTS.claude.npm,
    CLAUDE_CODE_VERSION,
    HOSTS.claude.bin,
  );
}

/** One request the stand-in received. */
export type { Recorded };

/** A `tool_result` block Claude Code sent back. */
export interface ToolResult {
  /** Its text. */
  readonly text: string;
  /** Whether Claude Code marked it an error. */
  readonly isError: boolean;
}

/** The stand-in API: where it listens, what it received, and the command it asks for. */
export interface StandIn extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: Recorded[];
  /** The Bash command the next tool call asks for. */
  command: string;
  /** The tool results Claude Code sent since the last `reset()`. */
  toolResults(): ToolResult[];
  /** Forgets the recorded requests. */
  reset(): void;
}

function _sse(events: readonly Record<string, unknown>[]): string {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
}

function _text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((b) => (b as { text?: string }).text ?? "").join("");
  }
  return "";
}

/** A tool call the stand-in's reply asks for. */
export interface Call {
  /** The `tool_use` id. */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /** Its input. */
  readonly input: unknown;
}

/**
 * The assistant's reply to the Messages request `body`, streamed when it asked to be: a
 * `tool_use` of `call`, or, with `null`, a closing "done".
 */
export function assistantReply(body: Record<string, unknown>, call: Call | null): Response {
  const block = call
    ? { type: "tool_use", id: call.id, name: call.name, input: {} }
    : { type: "text", text: "" };
  const delta = call
    ? { type: "input_json_delta", partial_json: JSON.stringify(call.input) }
    : { type: "text_delta", text: "done" };
  const stop = call ? "tool_use" : "end_turn";
  if (!body.stream) {
    return Response.json({
      id: "msg_rtok",
      type: "message",
      role: "assistant",
      model: body.model,
      content: [call ? { ...block, input: call.input } : { type: "text", text: "done" }],
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 6 },
    });
  }
  return new Response(
    _sse([
      {
        type: "message_start",
        message: {
          id: "msg_rtok",
          type: "message",
          role: "assistant",
          model: body.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 12, output_tokens: 1 },
        },
      },
      { type: "content_block_start", index: 0, content_block: block },
      { type: "content_block_delta", index: 0, delta },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: 6 },
      },
      { type: "message_stop" },
    ]),
    { headers: { "content-type": "text/event-stream" } },
  );
}

/**
 * A loopback Messages API on a free port: every request is recorded in `requests`; a POST to
 * `/v1/messages` with a JSON body gets `reply(body, recorded)`, anything else a 404.
 */
export function serveMessages(
  requests: Recorded[],
  reply: (body: Record<string, unknown>, rec: Recorded) => Response | Promise<Response>,
): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = req.method === "POST"
      ? await req.json().catch(() => null) as Record<string, unknown> | null
      : null;
    const rec = { path: url.pathname + url.search, body };
    requests.push(rec);
    if (url.pathname !== "/v1/messages" || !body) {
      return Response.json({ type: "error", error: { type: "not_found_error", message: "no" } }, {
        status: 404,
      });
    }
    return await reply(body, rec);
  });
}

/** Starts the stand-in on a free loopback port. */
export function startStandIn(): StandIn {
  const requests: Recorded[] = [];
  const state = { command: "git log" };
  const server = serveMessages(requests, (body) => {
    const messages = (body.messages ?? []) as { content: unknown }[];
    const answered = JSON.stringify(messages).includes('"tool_result"');
    const tools = (body.tools ?? []) as { name?: string }[];
    const ask = !answered && tools.some((t) => t.name === "Bash");
    const input = { command: state.command, description: "Run the command" };
    return assistantReply(body, ask ? { id: "toolu_rtok_1", name: "Bash", input } : null);
  });
  const standIn: StandIn = {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    requests,
    get command() {
      return state.command;
    },
    set command(c: string) {
      state.command = c;
    },
    toolResults() {
      const out: ToolResult[] = [];
      const seen = new Set<string>();
      for (const r of requests) {
        for (const m of (r.body?.messages ?? []) as { content: unknown }[]) {
          if (!Array.isArray(m.content)) continue;
          for (const b of m.content as Record<string, unknown>[]) {
            if (b.type !== "tool_result") continue;
            const key = `${b.tool_use_id}`;
            if (seen.has(key)) continue;
            seen.add(key);
            out.push({ text: _text(b.content), isError: b.is_error === true });
          }
        }
      }
      return out;
    },
    reset() {
      requests.length = 0;
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
  return standIn;
}

/** One tool call a scripted session asks for. */
export interface Step {
  /** The tool's name (`Read`, `Grep`, `Glob`, `Bash`). */
  readonly tool: string;
  /** Its input. */
  readonly input: Record<string, unknown>;
}

/** A stand-in that asks for a script of tool calls, one per turn, then ends. */
export interface ScriptedStandIn extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: Recorded[];
  /** The `tool_result` text of each step, by step index, as the last request carried it. */
  results(): string[];
  /**
   * What the session re-sent: over every request, the chars of every tool result and of every
   * hook context Claude Code added beside one.
   */
  resentChars(): number;
  /** The hook contexts Claude Code added, by text. */
  contexts(): string[];
}

function _messages(r: Recorded): { role?: string; content: unknown }[] {
  return (r.body?.messages ?? []) as { role?: string; content: unknown }[];
}

/**
 * Starts a stand-in that asks for `steps` in order, one tool call per response;
 * `beforeStep(i)` runs (and is awaited) just before step `i` is asked for.
 */
export function startScriptedStandIn(
  steps: readonly Step[],
  beforeStep?: (i: number) => void | Promise<void>,
): ScriptedStandIn {
  const requests: Recorded[] = [];
  const blocks = (r: Recorded) =>
    _messages(r).flatMap((m): Record<string, unknown>[] =>
      Array.isArray(m.content)
        ? m.content as Record<string, unknown>[]
        : typeof m.content === "string"
        ? [{ type: "text", text: m.content }]
        : []
    );
  const server = serveMessages(requests, async (body, rec) => {
    const done = blocks(rec).filter((b) => b.type === "tool_result").length;
    const step = done < steps.length && (body.tools as unknown[] ?? []).length ? steps[done] : null;
    if (step && beforeStep) await beforeStep(done);
    return assistantReply(
      body,
      step ? { id: `toolu_rtok_${done + 1}`, name: step.tool, input: step.input } : null,
    );
  });
  const isContext = (text: string) => /^PostToolUse:\S+ hook additional context: /.test(text);
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    requests,
    results() {
      const out: string[] = [];
      for (const r of requests) {
        for (const b of blocks(r)) {
          const m = /^toolu_rtok_(\d+)$/.exec(String(b.tool_use_id ?? ""));
          if (b.type === "tool_result" && m) out[Number(m[1]) - 1] = _text(b.content);
        }
      }
      return out;
    },
    resentChars() {
      let n = 0;
      for (const r of requests.filter((q) => q.path.startsWith("/v1/messages"))) {
        for (const b of blocks(r)) {
          if (b.type === "tool_result") n += _text(b.content).length;
          else if (b.type === "text" && isContext(String(b.text))) n += String(b.text).length;
        }
      }
      return n;
    },
    contexts() {
      const seen = new Set<string>();
      for (const r of requests) {
        for (const b of blocks(r)) {
          if (b.type === "text" && isContext(String(b.text))) seen.add(String(b.text));
        }
      }
      return [...seen];
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/**
 * Runs `claude -p` once in `cwd` against `standIn`, with `env` on top of a clean one and
 * `args` before `-p` (`--allowedTools Grep,Glob`: this release offers those two only when the
 * launch names them).
 */
export async function runClaude(
  bin: string,
  standIn: { readonly url: string },
  cwd: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<{ code: number; result: Record<string, unknown> | null; err: string }> {
  const r = await run(bin, [...args, "-p", "Run the command, please.", "--output-format", "json"], {
    cwd,
    env: {
      ANTHROPIC_BASE_URL: standIn.url,
      ANTHROPIC_API_KEY: "sk-rtok-test",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      ...env,
    },
  });
  let result: Record<string, unknown> | null = null;
  try {
    result = JSON.parse(r.out);
  } catch { /* reported through err */ }
  return { code: r.code, result, err: r.err + (result ? "" : r.out) };
}
