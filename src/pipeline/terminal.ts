/**
 * A command run at a terminal (`rtok <tool>`), through the whole pipeline: planned, started as
 * if it ran alone (stdin, the streams its filter does not read, signals, exit code), its output
 * read up to the filter's cap (past it, streamed out as it comes), then delivered and recorded.
 * Only planning and starting load before the tool starts; the rest loads while it runs.
 *
 * @module
 */

import { readCapped } from "../core/spawn.ts";
import { forwardSignals, type Outcome, startTool } from "./execute.ts";
import { planRun } from "./plan.ts";
import type { RunEnv, RunSink, Written } from "./run.ts";

/** Runs `argv` (begun at `started`, `performance.now()`) to `sink`; how the tool ended. */
export async function runAtTerminal(
  env: RunEnv,
  argv: readonly string[],
  started: number,
  sink: RunSink,
): Promise<Outcome> {
  const plan = await planRun(env, argv, undefined, env.warn);
  // A person at a terminal gets an unfiltered tool's own terminal behaviour (colour, columns).
  const toTerminal = plan.filter === null && Deno.stdout.isTerminal();
  const filterStderr = plan.filter?.filterStderr === true;
  const child = startTool(argv[0], plan.runArgs, toTerminal, filterStderr);
  if (!child.ok) {
    plan.filter?.release?.();
    env.warn(child.message);
    const { passedThrough, recordRun } = await _deliverStage();
    const w = passedThrough(plan, 0, child.code, "command did not start");
    await recordRun(env, argv, plan, started, w, sink);
    return { code: child.code, signal: null };
  }
  const stopForwarding = forwardSignals(child.child);
  // While the tool runs, the rest of the pipeline loads, and plugins load what they need.
  const ready = Promise.all([_deliverStage(), env.registry.prepare()]);
  const maxMb = env.config.cmd.maxFilterMb;
  const cap = plan.filter ? maxMb * 1024 * 1024 : -1;
  // Both pipes are read at once: a tool blocked writing one must not wait on the other.
  const [capture, errCapture] = await Promise.all([
    // A stdout left to the terminal is not piped (and Deno throws on reading its getter).
    toTerminal ? null : readCapped(child.child.stdout, { cap, spill: sink.stdout }),
    filterStderr ? readCapped(child.child.stderr, { cap, spill: sink.stderr }) : null,
  ]);
  // Stderr held for a filter that will not run (stdout was streamed) goes out as it was.
  const heldStderr = errCapture && !errCapture.spilled ? errCapture.held : null;
  const status = await child.child.status;
  const [{ filterAndWrite, passedThrough, recordRun }] = await ready;
  stopForwarding();
  const exitCode = status.signal ? null : status.code;
  let result: Written;
  if (capture === null || capture.spilled || !plan.filter) {
    result = passedThrough(plan, capture?.bytes ?? 0, exitCode, `output over ${maxMb} MiB`);
    // A stdout left to the terminal was never seen: that, not the plan, is why.
    if (toTerminal) result = { ...result, passthrough: "stdout is a terminal (not measured)" };
    if (heldStderr) await sink.stderr(heldStderr);
  } else {
    const code = exitCode ?? status.code;
    result = await filterAndWrite(env, argv, plan, capture.held, code, heldStderr, sink);
  }
  plan.filter?.release?.();
  await recordRun(env, argv, plan, started, result, sink);
  return { code: status.code, signal: status.signal };
}

// The filtering and delivering half, loaded while the tool runs so none of it delays the start.
function _deliverStage(): Promise<typeof import("./run.ts")> {
  return import("./run.ts");
}
