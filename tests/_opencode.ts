/**
 * The real OpenCode CLI for end-to-end tests, and a loopback stand-in for an OpenAI
 * Chat Completions API (what OpenCode's `@ai-sdk/openai-compatible` provider speaks) that asks
 * for one shell tool call and records every request. The stand-in also serves as the HTTP
 * proxy OpenCode is given, so anything it would fetch from the internet is recorded and
 * refused on loopback instead.
 *
 * @module
 */

import { npmCli, run } from "./_helpers.ts";
import { HOSTS } from "../src/hosts/hosts.ts";

/** The OpenCode release the end-to-end tests run (the one `scripts/probe/opencode.md` verified). */
export const OPENCODE_VERSION: string = HOSTS.opencode.verifiedVersion;

/** The model id the stand-in's provider offers. */
export const OPENCODE_MODEL = "rtoklab/lab-model";

/**
 * The `opencode` binary, installed from npm into a cache directory on first use (a few
 * seconds; the npm registry must be reachable).
 */
export function opencodeBinary(): Promise<string> {
  return npmCli(
    HOSTS.opencode.name,
    "opencode",
    HOSTS.opencode.npm,
    OPENCODE_VERSION,
    HOSTS.opencode.bin,
  );
}

/** One request the stand-in received. */
export interface Recorded {
  /** The method. */
  readonly method: string;
  /** Path and query (or, for a proxied request, the whole URL asked for). */
  readonly path: string;
  /** The parsed JSON body, or `null`. */
  readonly body: Record<string, unknown> | null;
}

/** A `role: "tool"` message OpenCode sent back. */
export interface ToolMessage {
  /** The call it answers. */
  readonly callId: string;
  /** Its text. */
  readonly text: string;
}

/** The stand-in: where it listens, what it received, and the command it asks for. */
export interface OpenCodeStandIn extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: Recorded[];
  /** The shell command the next tool call asks for. */
  command: string;
  /** The tool messages OpenCode sent since the last `reset()`, one per call id. */
  toolResults(): ToolMessage[];
  /** The requests that were not for the model API (what OpenCode tried to fetch elsewhere). */
  strays(): Recorded[];
  /** Forgets the recorded requests. */
  reset(): void;
}

function _chunk(delta: Record<string, unknown>, finish: string | null): string {
  const c = {
    id: "chatcmpl-rtok",
    object: "chat.completion.chunk",
    created: 1_780_000_000,
    model: "lab-model",
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(c)}\n\n`;
}

function _text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((b) => (b as { text?: string }).text ?? "").join("");
  }
  return "";
}

/**
 * The assistant's streamed reply to a Chat Completions request: one tool call of `tool` with
 * `args`, or, with `null`, a closing "done".
 */
export function chatReply(call: { tool: string; args: unknown } | null): Response {
  const parts = call
    ? [
      _chunk({
        role: "assistant",
        tool_calls: [{
          index: 0,
          id: "call_rtok_1",
          type: "function",
          function: { name: call.tool, arguments: JSON.stringify(call.args) },
        }],
      }, null),
      _chunk({}, "tool_calls"),
    ]
    : [_chunk({ role: "assistant", content: "done" }, null), _chunk({}, "stop")];
  const usage = {
    id: "chatcmpl-rtok",
    object: "chat.completion.chunk",
    created: 1_780_000_000,
    model: "lab-model",
    choices: [],
    usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 },
  };
  return new Response(parts.join("") + `data: ${JSON.stringify(usage)}\n\ndata: [DONE]\n\n`, {
    headers: { "content-type": "text/event-stream" },
  });
}

/** Starts the stand-in on a free loopback port. */
export function startOpenCodeStandIn(): OpenCodeStandIn {
  const requests: Recorded[] = [];
  const state = { command: "git log" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = req.method === "POST"
      ? await req.json().catch(() => null) as Record<string, unknown> | null
      : null;
    // A proxied request names another host; it is recorded and refused.
    const local = url.hostname === "127.0.0.1";
    requests.push({ method: req.method, path: local ? url.pathname + url.search : req.url, body });
    if (!local || url.pathname !== "/v1/chat/completions" || !body) {
      return new Response("not here", { status: 404 });
    }
    const messages = (body.messages ?? []) as { role?: string }[];
    const answered = messages.some((m) => m.role === "tool");
    const tools = (body.tools ?? []) as { function?: { name?: string } }[];
    const shell = tools.map((t) => t.function?.name).find((n) => n === "bash" || n === "shell");
    const args = { command: state.command, description: "Run the command" };
    return chatReply(!answered && shell ? { tool: shell, args } : null);
  });
  const url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return {
    url,
    requests,
    get command() {
      return state.command;
    },
    set command(c: string) {
      state.command = c;
    },
    toolResults() {
      const out = new Map<string, string>();
      for (const r of requests) {
        for (const m of (r.body?.messages ?? []) as Record<string, unknown>[]) {
          if (m.role === "tool") out.set(String(m.tool_call_id), _text(m.content));
        }
      }
      return [...out].map(([callId, text]) => ({ callId, text }));
    },
    strays() {
      return requests.filter((r) => r.path !== "/v1/chat/completions");
    },
    reset() {
      requests.length = 0;
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** OpenCode's own config for the stand-in: one provider, one model, nothing fetched. */
export function labConfig(standIn: { readonly url: string }): Record<string, unknown> {
  return {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    model: OPENCODE_MODEL,
    small_model: OPENCODE_MODEL,
    provider: {
      rtoklab: {
        npm: "@ai-sdk/openai-compatible",
        name: "rtok lab",
        options: { baseURL: `${standIn.url}/v1`, apiKey: "sk-rtok-test" },
        models: { "lab-model": { name: "Lab model", tool_call: true } },
      },
    },
  };
}

/**
 * The environment OpenCode runs in for a test: everything under `root` (HOME, the XDG
 * directories), its update and catalogue fetches off, and every other request sent through
 * the stand-in as a proxy (so none leaves the machine).
 */
export function openCodeEnv(
  root: string,
  standIn: { readonly url: string },
): Record<string, string> {
  return {
    HOME: `${root}/home`,
    XDG_CONFIG_HOME: `${root}/config`,
    XDG_DATA_HOME: `${root}/data`,
    XDG_CACHE_HOME: `${root}/cache`,
    XDG_STATE_HOME: `${root}/state`,
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    HTTP_PROXY: standIn.url,
    HTTPS_PROXY: standIn.url,
    http_proxy: standIn.url,
    https_proxy: standIn.url,
    NO_PROXY: "127.0.0.1",
    no_proxy: "127.0.0.1",
    npm_config_registry: `${standIn.url}/npm/`,
  };
}

/** Runs `opencode run` once in `cwd`; its output and exit code. */
export async function runOpenCode(
  bin: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  const r = await run(bin, ["run", "--model", OPENCODE_MODEL, "Run the command, please."], {
    cwd,
    env,
  });
  return { code: r.code, out: r.out, err: r.err };
}
