/**
 * The real GitHub Copilot CLI for end-to-end tests, and a loopback stand-in for the OpenAI
 * Chat Completions API it speaks with a custom provider (`COPILOT_PROVIDER_BASE_URL`): the
 * stand-in asks for one `bash` tool call, then ends, and records every request.
 *
 * @module
 */

import { npmCli, npmCliCache, type Recorded, run } from "./_helpers.ts";
import { HOSTS } from "../src/hosts/hosts.ts";

/** The Copilot CLI release the end-to-end tests run (the one `scripts/probe/copilot.md` verified). */
export const COPILOT_VERSION: string = HOSTS.copilot.verifiedVersion;

/** The cache directory the pinned release is installed into. */
export function copilotCache(): string {
  return npmCliCache("copilot", COPILOT_VERSION);
}

/**
 * The `copilot` launcher, installed from npm into {@linkcode copilotCache} on first use (a few
 * seconds; the npm registry must be reachable).
 */
export function copilotBinary(): Promise<string> {
  return npmCli(
    HOSTS.copilot.name,
    "copilot",
    HOSTS.copilot.npm,
    COPILOT_VERSION,
    HOSTS.copilot.bin,
  );
}

/** One request the stand-in received. */
export type { Recorded };

/** A `tool` message Copilot sent back: the shell result the model sees. */
export interface ToolMessage {
  /** The `tool_call_id` it answers. */
  readonly id: string;
  /** Its text. */
  readonly text: string;
}

/** The stand-in API: where it listens, what it received, and the command it asks for. */
export interface CopilotStandIn extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/v1`, for `COPILOT_PROVIDER_BASE_URL`. */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: Recorded[];
  /** The bash command the next tool call asks for. */
  command: string;
  /** The tool messages Copilot sent since the last `reset()`, one per call id. */
  toolMessages(): ToolMessage[];
  /** Forgets the recorded requests. */
  reset(): void;
}

function _text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((b) => (b as { text?: string }).text ?? "").join("");
  }
  return "";
}

function _chunk(model: unknown, choice: Record<string, unknown> | null, extra = {}): string {
  const body = {
    id: "chatcmpl-rtok",
    object: "chat.completion.chunk",
    created: 1_780_000_000,
    model,
    choices: choice ? [{ index: 0, logprobs: null, ...choice }] : [],
    ...extra,
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** A tool call a reply asks for. */
export interface Call {
  /** The call id. */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /** Its arguments. */
  readonly args: Record<string, unknown>;
}

/**
 * The assistant's reply to the Chat Completions request `body`, streamed when it asked to be:
 * a call of `call`, or, with `null`, a closing "done".
 */
export function chatReply(body: Record<string, unknown>, call: Call | null): Response {
  const usage = { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 };
  const toolCall = call
    ? {
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }
    : null;
  const finish = call ? "tool_calls" : "stop";
  if (!body.stream) {
    return Response.json({
      id: "chatcmpl-rtok",
      object: "chat.completion",
      created: 1_780_000_000,
      model: body.model,
      choices: [{
        index: 0,
        message: {
          role: "assistant",
          content: call ? null : "done",
          ...(toolCall ? { tool_calls: [toolCall] } : {}),
        },
        finish_reason: finish,
      }],
      usage,
    });
  }
  const delta = toolCall
    ? { role: "assistant", content: null, tool_calls: [{ index: 0, ...toolCall }] }
    : { role: "assistant", content: "done" };
  const sse = _chunk(body.model, { delta, finish_reason: null }) +
    _chunk(body.model, { delta: {}, finish_reason: finish }) +
    _chunk(body.model, null, { usage }) +
    "data: [DONE]\n\n";
  return new Response(sse, { headers: { "content-type": "text/event-stream" } });
}

/** Starts the stand-in on a free loopback port. */
export function startCopilotStandIn(): CopilotStandIn {
  const requests: Recorded[] = [];
  const state = { command: "git log" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = req.method === "POST"
      ? await req.json().catch(() => null) as Record<string, unknown> | null
      : null;
    requests.push({ path: url.pathname + url.search, body });
    if (url.pathname !== "/v1/chat/completions" || !body) {
      return Response.json({ error: { message: "not found", type: "not_found" } }, {
        status: 404,
      });
    }
    const messages = (body.messages ?? []) as { role?: string }[];
    const answered = messages.some((m) => m.role === "tool");
    const tools = (body.tools ?? []) as { function?: { name?: string } }[];
    const ask = !answered && tools.some((t) => t.function?.name === "bash");
    const args = { command: state.command, description: "Run the command" };
    return chatReply(body, ask ? { id: "call_rtok_1", name: "bash", args } : null);
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/v1`,
    requests,
    get command() {
      return state.command;
    },
    set command(c: string) {
      state.command = c;
    },
    toolMessages() {
      const out = new Map<string, string>();
      for (const r of requests) {
        for (const m of (r.body?.messages ?? []) as Record<string, unknown>[]) {
          if (m.role !== "tool") continue;
          const id = String(m.tool_call_id ?? "");
          if (!out.has(id)) out.set(id, _text(m.content));
        }
      }
      return [...out].map(([id, text]) => ({ id, text }));
    },
    reset() {
      requests.length = 0;
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** What one `copilot -p` run did. */
export interface CopilotRun {
  /** Its exit code. */
  readonly code: number;
  /** Its stdout. */
  readonly out: string;
  /** Its stderr. */
  readonly err: string;
}

/**
 * The environment a `copilot -p` run needs against `standIn`, on top of `env`: the custom
 * provider, offline (no GitHub, no telemetry, no update check), and the pinned release's
 * unpacked files kept in the cache so each run does not unpack them anew.
 */
export function copilotEnv(
  standIn: { readonly url: string },
  env: Record<string, string>,
): Record<string, string> {
  return {
    COPILOT_PROVIDER_BASE_URL: standIn.url,
    COPILOT_PROVIDER_TYPE: "openai",
    COPILOT_PROVIDER_API_KEY: "sk-rtok-test",
    COPILOT_MODEL: "gpt-rtok",
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PKG_CACHE_HOME: `${copilotCache()}/unpacked`,
    ...env,
  };
}

/** Runs `copilot -p` once in `cwd` against `standIn`, with `args` after the prompt. */
export async function runCopilot(
  bin: string,
  standIn: { readonly url: string },
  cwd: string,
  env: Record<string, string>,
  args: readonly string[] = ["--allow-all-tools"],
): Promise<CopilotRun> {
  const r = await run(bin, ["-p", "Run the command, please.", ...args], {
    cwd,
    env: copilotEnv(standIn, env),
  });
  return { code: r.code, out: r.out, err: r.err };
}
