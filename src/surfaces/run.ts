/**
 * `rtok <tool> [args…]`: runs the tool as if it ran alone (stdin, stderr, exit code and
 * signals untouched), filters its stdout where a filter exists (and its stderr, for a filter
 * that asks), archives what was cut, and records one ledger row.
 *
 * @module
 */

import type { Plugin } from "../core/plugin.ts";
import { RUN_PLUGINS } from "../plugins/run.ts";
import { quoteArgv } from "../core/shell.ts";
import { readCapped } from "../core/spawn.ts";
import { spoolOverdue } from "../core/spool.ts";
import { type Boot, boot, drain, openStore, runEnv } from "./_boot.ts";
import { warn, writeStderr, writeStdout } from "./_io.ts";
import { lazyImport } from "../core/lazy.ts";
import { catOfOneFile, planRun } from "../pipeline/plan.ts";
import { forwardSignals, type Outcome, startTool } from "../pipeline/execute.ts";
import type { RunSink, Written } from "../pipeline/run.ts";

export type { Outcome };

/**
 * Runs `argv` through its filter and returns how the tool ended. `plugins` defaults to the
 * built-ins a run calls (`RUN_PLUGINS`); a program built on rtok's library passes its own.
 */
export async function main(
  argv: readonly string[],
  plugins: readonly Plugin[] = RUN_PLUGINS,
): Promise<Outcome> {
  const started = performance.now();
  const b = await boot(plugins);
  // `cat` of one regular file is read the way a host's whole-file Read is.
  if (catOfOneFile(argv, b.config.cmd.maxFilterMb * 1024 * 1024)) {
    const { viewForAgent } = await lazyImport<typeof import("./_file_view.ts")>(
      new URL("./_file_view.ts", import.meta.url),
    );
    const answer = await viewForAgent(b, argv[1], {}, {
      surface: "cli",
      family: "cat",
      command: quoteArgv(argv),
    });
    await writeStdout(new TextEncoder().encode(answer.text));
    return { code: 0, signal: null };
  }
  const plan = await planRun(b, argv, undefined, warn);
  const sink = _cliSink();
  // A person at a terminal gets an unfiltered tool's own terminal behaviour (colour, columns).
  const toTerminal = plan.filter === null && Deno.stdout.isTerminal();
  const filterStderr = plan.filter?.filterStderr === true;
  const child = startTool(argv[0], plan.runArgs, toTerminal, filterStderr);
  if (!child.ok) {
    plan.filter?.release?.();
    warn(child.message);
    const { passedThrough, recordRun } = await _pipeline();
    const w = passedThrough(plan, 0, child.code, "command did not start");
    await recordRun(runEnv(b), argv, plan, started, w, sink);
    return { code: child.code, signal: null };
  }
  const stopForwarding = forwardSignals(child.child);
  // While the tool runs, the rest of the pipeline loads, and plugins load what they need.
  const ready = Promise.all([_pipeline(), b.registry.prepare()]);
  const cap = plan.filter ? b.config.cmd.maxFilterMb * 1024 * 1024 : -1;
  // Both pipes are read at once: a tool blocked writing one must not wait on the other.
  const [capture, errCapture] = await Promise.all([
    // A stdout left to the terminal is not piped (and Deno throws on reading its getter).
    toTerminal ? null : readCapped(child.child.stdout, { cap, spill: writeStdout }),
    filterStderr ? readCapped(child.child.stderr, { cap, spill: writeStderr }) : null,
  ]);
  // Stderr held for a filter that will not run (stdout was streamed) goes out as it was.
  const heldStderr = errCapture && !errCapture.spilled ? errCapture.held : null;
  const status = await child.child.status;
  const [{ filterAndWrite, passedThrough, recordRun }] = await ready;
  stopForwarding();
  const env = runEnv(b);
  const exitCode = status.signal ? null : status.code;
  let result: Written;
  if (capture === null || capture.spilled || !plan.filter) {
    result = passedThrough(
      plan,
      capture?.bytes ?? 0,
      exitCode,
      `output over ${b.config.cmd.maxFilterMb} MiB`,
    );
    // A stdout left to the terminal was never seen: that, not the plan, is why.
    if (toTerminal) result = { ...result, passthrough: "stdout is a terminal (not measured)" };
    if (heldStderr) await writeStderr(heldStderr);
  } else {
    const code = exitCode ?? status.code;
    result = await filterAndWrite(env, argv, plan, capture.held, code, heldStderr, sink);
  }
  plan.filter?.release?.();
  await recordRun(env, argv, plan, started, result, sink);
  await _drainIfOverdue(b);
  return { code: status.code, signal: status.signal };
}

// The pipeline's filtering half, loaded while the tool runs so none of it delays the start.
function _pipeline(): Promise<typeof import("../pipeline/run.ts")> {
  return import("../pipeline/run.ts");
}

// The run that finds the spool past its limit drains it, so the spool stays small whatever
// reads the store next.
async function _drainIfOverdue(b: Boot): Promise<void> {
  if (b.home === null || !spoolOverdue(b.home, b.config)) return;
  const store = await openStore(b);
  if (!store) return;
  try {
    await drain(b, store);
  } finally {
    store.close();
  }
}

// The process's own streams, in its working directory (read once: each read is a
// permission-checked system call).
function _cliSink(): RunSink {
  let cwd = "";
  try {
    cwd = Deno.cwd();
  } catch { /* gone: recorded without one */ }
  return { surface: "cli", cwd, stdout: writeStdout, stderr: writeStderr };
}
