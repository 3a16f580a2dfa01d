/**
 * The real Codex CLI for end-to-end tests, and a loopback stand-in for the OpenAI Responses API
 * it speaks through a custom provider (`wire_api = "responses"`): the stand-in asks for one
 * `exec_command` call, then ends, and records every request.
 *
 * @module
 */

import { npmCli, npmCliCache, type Recorded, run } from "./_helpers.ts";
import { HOSTS } from "../src/hosts/hosts.ts";

/** The Codex CLI release the end-to-end tests run (the one `scripts/probe/codex.md` verified). */
export const CODEX_VERSION: string = HOSTS.codex.verifiedVersion;

/** The cache directory the pinned release is installed into. */
export function codexCache(): string {
  return npmCliCache("codex", CODEX_VERSION);
}

/**
 * The `codex` launcher, installed from npm into {@linkcode codexCache} on first use (a few
 * seconds; the npm registry must be reachable).
 */
export function codexBinary(): Promise<string> {
  return npmCli(HOSTS.codex.name, "codex", HOSTS.codex.npm, CODEX_VERSION, HOSTS.codex.bin);
}

/** One request the stand-in received. */
export type { Recorded };

/** A `function_call_output` item Codex sent back: the shell result the model sees. */
export interface ToolOutput {
  /** The `call_id` it answers. */
  readonly id: string;
  /** Its text (a content array's text parts joined). */
  readonly text: string;
  /** The item as Codex sent it. */
  readonly item: Record<string, unknown>;
}

/** The stand-in API: where it listens, what it received, and the command it asks for. */
export interface CodexStandIn extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/v1`, for the provider's `base_url`. */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: Recorded[];
  /** The shell command the next tool call asks for. */
  command: string;
  /** The tool outputs Codex sent since the last `reset()`, one per call id. */
  toolOutputs(): ToolOutput[];
  /** The tool names the last `/responses` request offered the model. */
  toolNames(): string[];
  /** Forgets the recorded requests. */
  reset(): void;
}

/** The name of the shell tool the stand-in calls (Codex's unified exec tool). */
export const CODEX_SHELL_TOOL = "exec_command";

function _text(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) {
    return output.map((b) => (b as { text?: string }).text ?? "").join("");
  }
  return "";
}

function _sse(events: readonly Record<string, unknown>[]): string {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
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

/** The streamed Responses reply: a call of `call`, or, with `null`, a closing "done". */
export function responsesReply(n: number, call: Call | null): Response {
  const id = `resp_rtok_${n}`;
  const item = call
    ? {
      type: "function_call",
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.args),
      status: "completed",
    }
    : {
      type: "message",
      id: `msg_rtok_${n}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "done", annotations: [] }],
    };
  const usage = {
    input_tokens: 12,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 6,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 18,
  };
  const body = _sse([
    { type: "response.created", response: { id, status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item },
    { type: "response.output_item.done", output_index: 0, item },
    {
      type: "response.completed",
      response: { id, status: "completed", output: [item], usage },
    },
  ]);
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

/** Starts the stand-in on a free loopback port. */
export function startCodexStandIn(): CodexStandIn {
  const requests: Recorded[] = [];
  const state = { command: "git log", n: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = req.method === "POST"
      ? await req.json().catch(() => null) as Record<string, unknown> | null
      : null;
    requests.push({ path: url.pathname + url.search, body });
    if (url.pathname !== "/v1/responses" || !body) {
      return Response.json({ error: { message: "not found", type: "not_found" } }, {
        status: 404,
      });
    }
    const input = (body.input ?? []) as { type?: string }[];
    const answered = input.some((i) => i.type === "function_call_output");
    const tools = (body.tools ?? []) as { name?: string }[];
    const ask = !answered && tools.some((t) => t.name === CODEX_SHELL_TOOL);
    const args = { cmd: state.command };
    return responsesReply(
      ++state.n,
      ask ? { id: "call_rtok_1", name: CODEX_SHELL_TOOL, args } : null,
    );
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
    toolOutputs() {
      const out = new Map<string, ToolOutput>();
      for (const r of requests) {
        for (const i of (r.body?.input ?? []) as Record<string, unknown>[]) {
          if (i.type !== "function_call_output") continue;
          const id = String(i.call_id ?? "");
          if (!out.has(id)) out.set(id, { id, text: _text(i.output), item: i });
        }
      }
      return [...out.values()];
    },
    toolNames() {
      const last = requests.findLast((r) => r.path.endsWith("/responses"));
      return ((last?.body?.tools ?? []) as { name?: string; type?: string }[])
        .map((t) => t.name ?? t.type ?? "?");
    },
    reset() {
      requests.length = 0;
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** The user's `config.toml` a test starts from: the stand-in as provider, offline. */
export function codexUserConfig(standIn: { readonly url: string }): string {
  return [
    "# my own Codex settings",
    'model = "gpt-rtok"',
    'model_provider = "rtok-standin"',
    "check_for_update_on_startup = false",
    "",
    "[model_providers.rtok-standin]",
    'name = "rtok stand-in"',
    `base_url = "${standIn.url}"`,
    'env_key = "RTOK_STANDIN_KEY"',
    'wire_api = "responses"',
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[feedback]",
    "enabled = false",
    "",
    "[features]",
    "plugins = false",
    "",
  ].join("\n");
}

/** What one `codex exec` run did. */
export interface CodexRun {
  /** Its exit code. */
  readonly code: number;
  /** Its stdout. */
  readonly out: string;
  /** Its stderr. */
  readonly err: string;
}

/** The environment a `codex exec` run needs on top of `env`: the stand-in's key, no color. */
export function codexEnv(env: Record<string, string>): Record<string, string> {
  return { RTOK_STANDIN_KEY: "sk-rtok-test", CODEX_DISABLE_UPDATE_CHECK: "1", ...env };
}

/** Runs `codex exec` once in `cwd` with `args` before the prompt (stdin closed). */
export async function runCodex(
  bin: string,
  cwd: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<CodexRun> {
  const r = await run(bin, ["exec", "--skip-git-repo-check", ...args, "Run the command, please."], {
    cwd,
    env: codexEnv(env),
  });
  return { code: r.code, out: r.out, err: r.err };
}
