/**
 * The real Gemini CLI for end-to-end tests, and a loopback stand-in for the Gemini API that
 * asks for one shell tool call and records every request it receives.
 *
 * @module
 */

import { npmCli, run } from "./_helpers.ts";
import { HOSTS } from "../src/hosts/hosts.ts";

/** The Gemini CLI release the end-to-end tests run (the one rtok's hooks were verified with). */
export const GEMINI_CLI_VERSION: string = HOSTS.gemini.verifiedVersion;

/**
 * The `gemini` launcher, installed from npm into a cache directory on first use (a few
 * seconds; the npm registry must be reachable).
 */
export function geminiBinary(): Promise<string> {
  return npmCli(
    HOSTS.gemini.name,
    "gemini-cli",
    HOSTS.gemini.npm,
    GEMINI_CLI_VERSION,
    HOSTS.gemini.bin,
  );
}

/** One request the stand-in received. */
export interface GeminiRequest {
  /** Path and query. */
  readonly path: string;
  /** The parsed JSON body, or `null`. */
  readonly body: Record<string, unknown> | null;
  /** Its headers, lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
}

/** A `functionResponse` part the CLI sent back. */
export interface FunctionResponse {
  /** The function's name. */
  readonly name: string;
  /** Its id, when the CLI sent one. */
  readonly id: string | null;
  /** Its `response` object as sent. */
  readonly response: Record<string, unknown>;
}

/** The stand-in API: where it listens, what it received, the command it asks for. */
export interface GeminiStandIn extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: GeminiRequest[];
  /** The shell command the next tool call asks for. */
  command: string;
  /** The `usageMetadata` each answer reports (at first `promptTokenCount` 12, candidates 6). */
  usage: Record<string, number>;
  /** The shell tool's name, as the requests' `tools` offered it (`null` before any). */
  shellTool(): string | null;
  /** The function responses the CLI sent since the last `reset()`, each once. */
  functionResponses(): FunctionResponse[];
  /** Forgets the recorded requests. */
  reset(): void;
}

type _Part = Record<string, unknown>;

function _parts(body: Record<string, unknown> | null): _Part[] {
  const contents = (body?.contents ?? []) as { parts?: unknown }[];
  return contents.flatMap((c) => Array.isArray(c.parts) ? c.parts as _Part[] : []);
}

function _declarations(body: Record<string, unknown> | null): { name?: string }[] {
  const tools = (body?.tools ?? []) as { functionDeclarations?: unknown }[];
  return tools.flatMap((t) =>
    Array.isArray(t.functionDeclarations) ? t.functionDeclarations as { name?: string }[] : []
  );
}

const _SHELL = "run_shell_command";

function _reply(
  parts: readonly _Part[],
  stream: boolean,
  usageMetadata: Record<string, number>,
): Response {
  const chunk = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata,
    modelVersion: "gemini-2.5-pro",
  };
  if (!stream) return Response.json(chunk);
  return new Response(`data: ${JSON.stringify(chunk)}\r\n\r\n`, {
    headers: { "content-type": "text/event-stream" },
  });
}

/**
 * Starts the stand-in on a free loopback port. A `generateContent` request (streamed or not)
 * that offers the shell tool and carries no `functionResponse` yet gets a `functionCall` of
 * the shell tool with `command`; any other gets a closing "done". `countTokens` gets a count;
 * anything else a 404.
 */
export function startGeminiStandIn(): GeminiStandIn {
  const requests: GeminiRequest[] = [];
  const state: { command: string; usage: Record<string, number> } = {
    command: "git log",
    usage: { promptTokenCount: 12, candidatesTokenCount: 6, totalTokenCount: 18 },
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = req.method === "POST"
      ? await req.json().catch(() => null) as Record<string, unknown> | null
      : null;
    requests.push({
      path: url.pathname + url.search,
      body,
      headers: Object.fromEntries(req.headers),
    });
    if (url.pathname.endsWith(":countTokens")) return Response.json({ totalTokens: 12 });
    const stream = url.pathname.endsWith(":streamGenerateContent");
    if (!stream && !url.pathname.endsWith(":generateContent")) {
      return Response.json({ error: { code: 404, message: "no", status: "NOT_FOUND" } }, {
        status: 404,
      });
    }
    const answered = _parts(body).some((p) => "functionResponse" in p);
    const offered = _declarations(body).some((d) => d.name === _SHELL);
    if (!answered && offered) {
      return _reply(
        [{
          functionCall: {
            name: _SHELL,
            args: { command: state.command, description: "Run the command" },
          },
        }],
        stream,
        state.usage,
      );
    }
    return _reply([{ text: "done" }], stream, state.usage);
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    requests,
    get command() {
      return state.command;
    },
    set command(c: string) {
      state.command = c;
    },
    get usage() {
      return state.usage;
    },
    set usage(u: Record<string, number>) {
      state.usage = u;
    },
    shellTool() {
      for (const r of requests) {
        const d = _declarations(r.body).find((x) => x.name === _SHELL);
        if (d) return _SHELL;
      }
      return null;
    },
    functionResponses() {
      const out: FunctionResponse[] = [];
      const seen = new Set<string>();
      for (const r of requests) {
        for (const p of _parts(r.body)) {
          const f = p.functionResponse as Record<string, unknown> | undefined;
          if (!f) continue;
          const key = JSON.stringify(f);
          if (seen.has(key)) continue;
          seen.add(key);
          out.push({
            name: String(f.name),
            id: typeof f.id === "string" ? f.id : null,
            response: (f.response ?? {}) as Record<string, unknown>,
          });
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
}

/**
 * The environment a headless `gemini` run needs against `standIn`: an API key, the base URL,
 * its home (`GEMINI_CLI_HOME`), no telemetry, update check or other network use.
 */
export function geminiEnv(
  standIn: { readonly url: string },
  geminiHome: string,
): Record<string, string> {
  return {
    GEMINI_API_KEY: "rtok-test-key",
    GOOGLE_GEMINI_BASE_URL: standIn.url,
    GEMINI_CLI_HOME: geminiHome,
    GEMINI_TELEMETRY_ENABLED: "false",
    GEMINI_CLI_NO_RELAUNCH: "true",
    NO_BROWSER: "true",
  };
}

/**
 * The user settings a test starts from: API-key auth, no telemetry, usage statistics or
 * update checks, so nothing leaves loopback; plus `more`.
 */
export function baseSettings(more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    security: { auth: { selectedType: "gemini-api-key" } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    ...more,
  };
}

/** Trusts `folder` for `geminiHome`'s user, as the CLI's trust dialog would record it. */
export function trustFolder(geminiHome: string, folder: string): void {
  Deno.mkdirSync(`${geminiHome}/.gemini`, { recursive: true });
  Deno.writeTextFileSync(
    `${geminiHome}/.gemini/trustedFolders.json`,
    JSON.stringify({ [folder]: "TRUST_FOLDER" }, null, 2),
  );
}

/** Runs `gemini -p` once in `cwd` with `env` on top; `args` go before `-p`. */
export async function runGemini(
  bin: string,
  cwd: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<{ code: number; out: string; err: string }> {
  const r = await run(bin, [...args, "-p", "Run the command, please.", "--output-format", "json"], {
    cwd,
    env,
  });
  return { code: r.code, out: r.out, err: r.err };
}
