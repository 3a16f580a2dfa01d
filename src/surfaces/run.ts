/**
 * `rtok <tool> [args…]`: runs the tool as if it ran alone (stdin, stderr, exit code and
 * signals untouched), filters its stdout where a filter exists (and its stderr, for a filter
 * that asks), archives what was cut, and records one ledger row.
 *
 * @module
 */

import type { CommandFilter } from "../core/filter.ts";
import type { Plugin } from "../core/plugin.ts";
import { BUILTIN_PLUGINS } from "../plugins/mod.ts";
import { familyOf } from "../plugins/cmd/match.ts";
import { type Boot, boot } from "./_boot.ts";
import { warn, writeStderr, writeStdout } from "./_io.ts";
import type { Outcome } from "./mod.ts";
import type { Written } from "./_run_output.ts";

export type { Outcome };

// Signals a terminal sends to the whole process group (SIGINT, SIGHUP, SIGQUIT) reach the
// tool without our help; a SIGTERM sent to rtok alone is passed on.
const FORWARDED: readonly Deno.Signal[] = ["SIGTERM"];

/**
 * Runs `argv` through its filter and returns how the tool ended. `plugins` defaults to the
 * built-ins; a program built on rtok's library passes its own.
 */
export async function main(
  argv: readonly string[],
  plugins: readonly Plugin[] = BUILTIN_PLUGINS,
): Promise<Outcome> {
  const started = performance.now();
  const b = await boot(plugins);
  const plan = await planRun(b, argv);
  // A person at a terminal gets an unfiltered tool's own terminal behaviour (colour, columns).
  const toTerminal = plan.filter === null && Deno.stdout.isTerminal();
  const filterStderr = plan.filter?.filterStderr === true;
  const child = spawn(argv[0], plan.runArgs, toTerminal, filterStderr);
  if (!child.ok) {
    plan.filter?.release?.();
    warn(child.message);
    const { record } = await import("./_run_output.ts");
    await record(b, argv, plan, started, {
      rawChars: 0,
      emitted: 0,
      stage: "none",
      lossy: false,
      archiveId: null,
      exitCode: child.code,
      passthrough: plan.passthrough ?? "command did not start",
    });
    return { code: child.code, signal: null };
  }
  const stopForwarding = forwardSignals(child.process);
  // While the tool runs, the rest of the run's code loads, and plugins load what they need.
  const ready = Promise.all([import("./_run_output.ts"), b.registry.prepare()]);
  const cap = plan.filter ? b.config.cmd.maxFilterMb : -1;
  // Both pipes are read at once: a tool blocked writing one must not wait on the other.
  const [capture, errCapture] = await Promise.all([
    // A stdout left to the terminal is not piped (and Deno throws on reading its getter).
    collect(toTerminal ? null : child.process.stdout, cap, writeStdout),
    filterStderr ? collect(child.process.stderr, cap, writeStderr) : null,
  ]);
  // Stderr held for a filter that will not run (stdout was streamed) goes out as it was.
  const heldStderr = errCapture && !errCapture.streamed ? errCapture.raw : null;
  const status = await child.process.status;
  const [{ drainIfOverdue, filterAndWrite, record }] = await ready;
  stopForwarding();
  const exitCode = status.signal ? null : status.code;
  let result: Written;
  if (capture.streamed || !plan.filter) {
    result = {
      rawChars: capture.bytes,
      emitted: capture.bytes,
      stage: plan.shaped ? "shape" : "none",
      lossy: false,
      archiveId: null,
      exitCode,
      passthrough: toTerminal
        ? "stdout is a terminal (not measured)"
        : plan.passthrough ?? `output over ${b.config.cmd.maxFilterMb} MiB`,
    };
    if (heldStderr) await writeStderr(heldStderr);
  } else {
    result = await filterAndWrite(b, argv, plan, capture.raw, exitCode ?? status.code, heldStderr);
  }
  plan.filter?.release?.();
  await record(b, argv, plan, started, result);
  await drainIfOverdue(b);
  return { code: status.code, signal: status.signal };
}

/** What a run will do, decided before the tool starts. */
export interface Plan {
  readonly filter: CommandFilter | null;
  /** The plugin whose filter it is ("cmd" for built-ins and passthroughs). */
  readonly plugin: string;
  /** What the filter receives as its args (after stage 1). */
  readonly filterArgs: readonly string[];
  /** The tool's arguments as run. */
  readonly runArgs: readonly string[];
  readonly shaped: boolean;
  readonly passthrough: string | null;
  readonly family: string;
}

async function planRun(b: Boot, argv: readonly string[]): Promise<Plan> {
  const found = await b.registry.commandFilter(argv);
  const match = found?.match;
  const family = match?.filter.name ?? familyOf(argv);
  const plain = {
    filter: null,
    plugin: found?.plugin ?? "cmd",
    filterArgs: [],
    runArgs: argv.slice(1),
    shaped: false,
    family,
  };
  if (!match) return { ...plain, passthrough: "no filter" };
  const reason = match.filter.passthrough?.(match.args) ?? null;
  if (reason) {
    match.filter.release?.();
    return { ...plain, passthrough: reason };
  }
  const shaped = match.filter.shape?.(match.args) ?? null;
  const filterArgs = shaped ?? match.args;
  return {
    filter: match.filter,
    plugin: found!.plugin,
    filterArgs,
    runArgs: [...match.prefix.slice(1), ...filterArgs],
    shaped: shaped !== null,
    passthrough: null,
    family,
  };
}

type Spawned =
  | { ok: true; process: Deno.ChildProcess }
  | { ok: false; code: number; message: string };

// `exec` through sh keeps the tool's argv[0] as typed (Deno would pass the resolved path,
// which GNU tools print in their messages: "/usr/bin/ls: cannot access …"), and gives the
// shell's own "not found" (127) and "permission denied" (126); sh is replaced by the tool,
// so signals and exit codes are the tool's.
const SH = "/bin/sh";
const EXEC = 'exec "$0" "$@"';

// Tools whose messages never name their argv[0] start directly, saving the shell's start-up
// on the commands agents run most.
const DIRECT = new Set(["git", "rg", "tree"]);

function spawn(
  tool: string,
  args: readonly string[],
  inheritStdout: boolean,
  pipeStderr: boolean,
): Spawned {
  const viaShell = Deno.build.os !== "windows" && !DIRECT.has(tool);
  try {
    const process = new Deno.Command(viaShell ? SH : tool, {
      args: viaShell ? ["-c", EXEC, tool, ...args] : [...args],
      stdin: "inherit",
      stdout: inheritStdout ? "inherit" : "piped",
      stderr: pipeStderr ? "piped" : "inherit",
    }).spawn();
    return { ok: true, process };
  } catch (e) {
    const what = viaShell ? SH : tool;
    if (e instanceof Deno.errors.NotFound) {
      return { ok: false, code: 127, message: `${what}: command not found` };
    }
    return { ok: false, code: 126, message: `${what}: cannot run: ${(e as Error).message}` };
  }
}

function forwardSignals(child: Deno.ChildProcess): () => void {
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

interface Capture {
  /** The whole output, when it was held (never when streamed). */
  readonly raw: Uint8Array;
  /** Bytes the tool printed. */
  readonly bytes: number;
  /** True when the output went straight out, unfiltered. */
  readonly streamed: boolean;
}

/**
 * Reads one of the tool's outputs. With `capMb` ≥ 0 it is held for the filter until it
 * passes the cap; from then on, and always with `capMb` < 0, it streams straight out through
 * `write`, so memory stays bounded whatever the size.
 */
async function collect(
  stream: ReadableStream<Uint8Array<ArrayBuffer>> | null,
  capMb: number,
  write: (bytes: Uint8Array) => Promise<void>,
): Promise<Capture> {
  if (stream === null) return { raw: new Uint8Array(), bytes: 0, streamed: true };
  const cap = capMb * 1024 * 1024;
  let held: Uint8Array[] = [];
  let bytes = 0;
  let streamed = capMb < 0;
  // A reader loop, not `for await`: the async iterator costs a millisecond per run.
  const reader = stream.getReader();
  for (;;) {
    const { value: chunk, done } = await reader.read();
    if (done) break;
    bytes += chunk.byteLength;
    if (streamed) {
      await write(chunk);
      continue;
    }
    held.push(chunk);
    if (bytes > cap) {
      streamed = true;
      for (const c of held) await write(c);
      held = [];
    }
  }
  return { raw: streamed ? new Uint8Array() : concat(held, bytes), bytes, streamed };
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const all = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.byteLength;
  }
  return all;
}
