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
import { spoolOverdue } from "../core/spool.ts";
import { type Boot, boot, drain, openStore, runEnv } from "./_boot.ts";
import { writeStderr, writeStdout } from "./_io.ts";
import { lazyImport } from "../core/lazy.ts";
import { catOfOneFile } from "../pipeline/plan.ts";
import type { Outcome } from "../pipeline/execute.ts";
import type { RunSink } from "../pipeline/run.ts";
import { runAtTerminal } from "../pipeline/terminal.ts";

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
  const outcome = await runAtTerminal(runEnv(b), argv, started, _cliSink());
  await _drainIfOverdue(b);
  return outcome;
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
