/**
 * A command run for an answer (MCP's `rtok_run`), through the whole pipeline: planned, run
 * captured with caps and a time limit, its output filtered and delivered into two buffers,
 * one ledger row.
 *
 * @module
 */

import type { Surface } from "../core/plugin.ts";
import { heldText, runCapped, toolArgv } from "./execute.ts";
import { planRun } from "./plan.ts";
import {
  filterAndWrite,
  passedThrough,
  recordRun,
  type RunEnv,
  type RunSink,
  type Written,
} from "./run.ts";

/** The exit code of a command stopped at its time limit (as `timeout(1)` uses). */
export const TIMEOUT_EXIT_CODE = 124;

/** How a captured run ended, its output as text. */
export interface CapturedRun {
  /** Its exit code (128 + n for a signal). */
  readonly code: number;
  /** The signal that ended it, if one did. */
  readonly signal: Deno.Signal | null;
  /** What it printed on stdout, filtered. */
  readonly stdout: string;
  /** What it printed on stderr (filtered, for a filter that reads it). */
  readonly stderr: string;
  /** True when the time limit ended it. */
  readonly timedOut: boolean;
}

/**
 * Runs the tool `argv` in `cwd` captured, its output filtered here as `rtok <tool>` would
 * filter it, recorded as one row of `surface`. A run past its time limit, or whose output
 * overflows the hold cap, goes out as held, with a line counting what was not kept.
 */
export async function runCapturedCommand(
  env: RunEnv,
  argv: readonly string[],
  cwd: string,
  timeoutMs: number,
  surface: Surface,
): Promise<CapturedRun> {
  const started = performance.now();
  const plan = await planRun(env, argv, cwd, env.warn);
  const done = await runCapped(toolArgv(argv[0], plan.runArgs), cwd, timeoutMs);
  const exitCode = done.timedOut ? TIMEOUT_EXIT_CODE : done.code;
  const out: Uint8Array[] = [], err: Uint8Array[] = [];
  const sink: RunSink = {
    surface,
    cwd,
    stdout: (bytes) => Promise.resolve(void out.push(bytes)),
    stderr: (bytes) => Promise.resolve(void err.push(bytes)),
  };
  const whole = done.started && !done.timedOut && done.dropped[0] === 0 &&
    done.dropped[1] === 0 && done.stdout.length <= env.config.cmd.maxFilterMb * 1024 * 1024;
  const filterStderr = plan.filter?.filterStderr === true;
  let written: Written;
  try {
    if (plan.filter && whole) {
      written = await filterAndWrite(
        env,
        argv,
        plan,
        done.stdout,
        exitCode,
        filterStderr ? done.stderr : null,
        sink,
      );
      if (!filterStderr) err.push(done.stderr);
    } else {
      out.push(done.stdout);
      err.push(done.stderr);
      written = passedThrough(
        plan,
        done.stdout.length,
        done.signal ? null : exitCode,
        !done.started
          ? "command did not start"
          : done.timedOut
          ? "timed out"
          : `output over ${env.config.cmd.maxFilterMb} MiB`,
      );
    }
  } finally {
    plan.filter?.release?.();
  }
  await recordRun(env, argv, plan, started, written, sink);
  const text = (parts: Uint8Array[]) => new TextDecoder().decode(_concat(parts));
  return {
    code: done.code,
    signal: done.signal,
    stdout: whole ? text(out) : heldText(done.stdout, done.dropped[0]),
    stderr: whole ? text(err) : heldText(done.stderr, done.dropped[1]),
    timedOut: done.timedOut,
  };
}

function _concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
