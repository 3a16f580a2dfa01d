/**
 * What an agent host is to rtok's hook: a thin adapter that reads the host's hook payloads
 * into one host-neutral event and writes the shared handlers' answers back in the host's own
 * shape. The handlers are the ones `rtok hook claude` uses (the plugins' `preTool` and
 * `postTool`); only the shapes differ. Claude Code's adapter is the native one: its payloads
 * are the plugins' own events. Each host's adapter is `<id>/adapter.ts`, listed in `hosts.ts`.
 *
 * @module
 */

import type { PostToolAnswer, PreToolDecision } from "../core/plugin.ts";
import type { ToolResult } from "../core/tool_result.ts";

/** The hosts rtok knows, by the word `rtok hook <host>` and `rtok init --host` take. */
export type HostId = "claude" | "codex" | "gemini" | "opencode" | "copilot";

/** An option of `rtok init` that only some hosts take. */
export type InitOption = "project" | "mcp" | "replace" | "serve";

/** What rtok knows of one host. */
export interface HostInfo {
  /** The word `rtok hook <id>` takes. */
  readonly id: HostId;
  /** Its name, as a user knows it ("Codex CLI"). */
  readonly name: string;
  /** The CLI on PATH (`codex`). */
  readonly bin: string;
  /** The npm package its CLI ships in, which the end-to-end tests install. */
  readonly npm: string;
  /**
   * The release whose hook format rtok was verified with (its probe in `scripts/probe/`); the
   * end-to-end tests drive this release, and `rtok doctor` compares the installed one with it.
   */
  readonly verifiedVersion: string;
  /** The environment variables that say where its settings live, besides HOME. */
  readonly env: readonly string[];
  /**
   * True where the user's own permission rules are in files rtok reads (Claude Code's
   * settings), so a rewrite may carry an allow those rules give.
   */
  readonly readsRules: boolean;
  /**
   * True where the host sends a call's PostToolUse to the resident server that answered its
   * PreToolUse, so the server may watch a plain read-only call and filter it afterwards.
   */
  readonly watched: boolean;
  /**
   * True where the host stops waiting for a hook's HTTP answer after `rtok serve --timeout`
   * (its hook timeout) and goes on with the raw output: an answer sent later reached no one.
   */
  readonly httpDeadline: boolean;
  /**
   * The options `rtok init` takes for it besides `--dry-run` and `--uninstall`: `project`
   * (`--project`), `mcp` (`--mcp`), `replace` (`--replace`), `serve` (`--no-serve`).
   */
  readonly initOptions: readonly InitOption[];
  /**
   * True where the host runs a command per hook call, so rtok installs its script
   * (`command_hook.ts`), which asks `rtok serve` first.
   */
  readonly commandHook: boolean;
  /** Its hook protocol's module (`<id>/adapter.ts`, exporting `ADAPTER`). */
  readonly adapter: () => URL;
  /** Its installer's module (`<id>/install.ts`, exporting `INSTALLER`). */
  readonly installer: () => URL;
  /** Its doctor's module (`<id>/doctor.ts`, exporting `DOCTOR`). */
  readonly doctor: () => URL;
}

/** The fields every event carries. */
interface _Envelope {
  /** The host's session id, when it says. */
  readonly session: string | null;
  /** The agent's working directory (the hook's own when the host does not say). */
  readonly cwd: string;
  /** The host's id for the tool call, when it says (its post event carries it too). */
  readonly callId?: string;
}

/** One hook event, read host-neutrally. */
export type HostEvent =
  | _Envelope & {
    /** The agent is about to run a shell command. */
    readonly event: "PreToolUse";
    /** The command line. */
    readonly command: string;
    /** The host's own tool input, which a rewrite changes only in its command field. */
    readonly input: Readonly<Record<string, unknown>>;
  }
  | _Envelope & {
    /** A tool call finished. */
    readonly event: "PostToolUse";
    /** The host's tool name, as it sent it. */
    readonly tool: string;
    /** The host's tool input, as it sent it. */
    readonly input: Readonly<Record<string, unknown>>;
    /** The result, host-neutral; `null` for a result rtok leaves alone (an image, say). */
    readonly result: ToolResult | null;
  }
  | _Envelope & {
    /** An event rtok has nothing to say to (a session starting, a tool it does not read). */
    readonly event: "Other";
    /** The host's name for it. */
    readonly name: string;
  };

/**
 * The adapter of the host whose payloads are the plugins' own events (Claude Code's: every
 * hook event rtok's plugins answer, with its permission mode, transcript and tool output in
 * the tool's own shape): `rtok hook <id>` answers them whole, with no mapping.
 */
export interface NativeAdapter {
  /** The host. */
  readonly id: HostId;
  /** Marks the native protocol. */
  readonly native: true;
}

/** A host's hook protocol, mapped onto the plugins' events. */
export interface HostAdapter {
  /** The host (its name and the rest of what rtok knows of it: `HOSTS[id]`). */
  readonly id: HostId;
  /**
   * Reads one event (the hook's stdin). Throws a `TypeError` with a one-line message naming
   * what was wrong for a payload of a shape it does not know; the hook then answers nothing
   * and leaves one failures row.
   */
  readEvent(input: Uint8Array, cwd: string): HostEvent;
  /**
   * The answer to a shell call about to run: the rewrite in the host's shape, or `""` for no
   * opinion. It must never grant what the host would have asked the user about
   * (`d.allow` says only that Claude Code's rules would allow it).
   */
  preToolAnswer(d: PreToolDecision | null, ev: HostEvent & { event: "PreToolUse" }): string;
  /** The answer to a finished call: its replacement output where the host takes one, or `""`. */
  postToolAnswer(a: PostToolAnswer | null, ev: HostEvent & { event: "PostToolUse" }): string;
}

/** Reads `input` as one JSON object, or throws a `TypeError` saying why it is not one. */
export function readJsonObject(input: Uint8Array, host: string): Record<string, unknown> {
  const text = new TextDecoder().decode(input);
  if (text.trim() === "") throw new TypeError(`${host}: the event is empty`);
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (e) {
    throw new TypeError(`${host}: the event is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw new TypeError(`${host}: the event is not a JSON object`);
  }
  return payload as Record<string, unknown>;
}
