/**
 * The second stage of the run pipeline: starting the tool. At a terminal (`rtok <tool>`) it
 * runs as if it ran alone (stdin, the streams a filter does not read, signals, exit code);
 * for an answer (MCP) it runs captured, each stream held up to a cap, killed with its whole
 * process group at a time limit.
 *
 * @module
 */

import { type Captured, runCaptured, type Started, startProcess } from "../core/spawn.ts";

/** How a run ended: an exit code, or the signal that killed the tool. */
export type Outcome = { readonly code: number; readonly signal: Deno.Signal | null };

// `exec` through sh keeps the tool's argv[0] as typed (Deno would pass the resolved path,
// which GNU tools print in their messages: "/usr/bin/ls: cannot access …"), and gives the
// shell's own "not found" (127) and "permission denied" (126); sh is replaced by the tool,
// so signals and exit codes are the tool's.
const SH = "/bin/sh";
const EXEC = 'exec "$0" "$@"';

// Tools whose messages never name their argv[0] start directly, saving the shell's start-up
// on the commands agents run most.
const DIRECT = new Set(["git", "rg", "tree"]);

// Signals a terminal sends to the whole process group (SIGINT, SIGHUP, SIGQUIT) reach the
// tool without our help; a SIGTERM sent to rtok alone is passed on.
const FORWARDED: readonly Deno.Signal[] = ["SIGTERM"];

/** The most bytes a captured run holds of each stream; past it the output is counted. */
export const HOLD_BYTES: number = 16 * 1024 * 1024;

/** The argv that starts `tool` with `args` as if the shell ran it by its name. */
export function toolArgv(tool: string, args: readonly string[]): string[] {
  const viaShell = Deno.build.os !== "windows" && !DIRECT.has(tool);
  return viaShell ? [SH, "-c", EXEC, tool, ...args] : [tool, ...args];
}

/**
 * Starts `tool` with `args` at a terminal: stdin inherited, stdout piped unless it goes to the
 * terminal as it is, stderr piped only for a filter that reads it.
 */
export function startTool(
  tool: string,
  args: readonly string[],
  inheritStdout: boolean,
  pipeStderr: boolean,
): Started {
  const [cmd, ...rest] = toolArgv(tool, args);
  return startProcess(cmd, rest, {
    stdin: "inherit",
    stdout: inheritStdout ? "inherit" : "piped",
    stderr: pipeStderr ? "piped" : "inherit",
  });
}

/** Passes the signals rtok alone receives on to `child`; returns what stops passing them. */
export function forwardSignals(child: Deno.ChildProcess): () => void {
  const handlers = FORWARDED.map((sig) => {
    const handler = () => {
      try {
        child.kill(sig);
      } catch { /* already gone */ }
    };
    Deno.addSignalListener(sig, handler);
    return [sig, handler] as const;
  });
  return () => {
    for (const [sig, handler] of handlers) Deno.removeSignalListener(sig, handler);
  };
}

/** Runs `argv` captured in `cwd`, each stream held up to {@linkcode HOLD_BYTES}. */
export async function runCapped(
  argv: readonly string[],
  cwd: string,
  timeoutMs: number,
): Promise<Captured> {
  return await runCaptured(argv, { cwd, timeoutMs, holdBytes: HOLD_BYTES });
}

/** What a capped stream held, as text, with a line that counts the bytes not kept. */
export function heldText(bytes: Uint8Array, dropped: number): string {
  const t = new TextDecoder().decode(bytes);
  return dropped ? `${t}\n[rtok: ${dropped} more bytes were not kept]\n` : t;
}
