/**
 * `rtok <tool> [args…]`: runs the tool as if it ran alone (stdin, stderr, exit code and
 * signals untouched), filters its stdout where a filter exists (and its stderr, for a filter
 * that asks), archives what was cut, and records one ledger row.
 *
 * @module
 */

import type { CommandFilter } from "../core/filter.ts";
import type { Plugin } from "../core/plugin.ts";
import { RUN_PLUGINS } from "../plugins/run.ts";
import { familyOf, toolName } from "../core/command.ts";
import { decodeText } from "../core/text.ts";
import { quoteArgv } from "../core/shell.ts";
import { readCapped, type Started, startProcess } from "../core/spawn.ts";
import { type Boot, boot } from "./_boot.ts";
import { readServedRaw, servedRawNote, writeServedRaw } from "../core/served_raw.ts";
import { warn, writeStderr, writeStdout } from "./_io.ts";
import { lazyImport } from "../core/lazy.ts";
import type { Outcome } from "./mod.ts";
import type { Written } from "./_run_output.ts";

export type { Outcome };

// Signals a terminal sends to the whole process group (SIGINT, SIGHUP, SIGQUIT) reach the
// tool without our help; a SIGTERM sent to rtok alone is passed on.
const FORWARDED: readonly Deno.Signal[] = ["SIGTERM"];

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
  const plan = await planRun(b, argv);
  // A person at a terminal gets an unfiltered tool's own terminal behaviour (colour, columns).
  const toTerminal = plan.filter === null && Deno.stdout.isTerminal();
  const filterStderr = plan.filter?.filterStderr === true;
  const child = _spawn(argv[0], plan.runArgs, toTerminal, filterStderr);
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
  const stopForwarding = _forwardSignals(child.child);
  // While the tool runs, the rest of the run's code loads, and plugins load what they need.
  const ready = Promise.all([import("./_run_output.ts"), b.registry.prepare()]);
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
  const [{ drainIfOverdue, filterAndWrite, record }] = await ready;
  stopForwarding();
  const exitCode = status.signal ? null : status.code;
  let result: Written;
  if (capture === null || capture.spilled || !plan.filter) {
    const bytes = capture?.bytes ?? 0;
    result = {
      rawChars: bytes,
      emitted: bytes,
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
    result = await filterAndWrite(b, argv, plan, capture.held, exitCode ?? status.code, heldStderr);
  }
  plan.filter?.release?.();
  await record(b, argv, plan, started, result);
  await drainIfOverdue(b);
  return { code: status.code, signal: status.signal };
}

/**
 * True for `cat FILE` of one operand, no option, a regular UTF-8 file of at most `max` bytes,
 * which rtok reads as a host's whole-file Read (anything else runs cat itself).
 */
export function catOfOneFile(argv: readonly string[], max: number): boolean {
  if (argv.length !== 2 || toolName(argv[0]) !== "cat" || argv[1].startsWith("-")) return false;
  try {
    const info = Deno.statSync(argv[1]);
    if (!info.isFile || info.size > max) return false;
    return decodeText(Deno.readFileSync(argv[1])) !== null;
  } catch {
    return false;
  }
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

/**
 * What a run of `argv` in `cwd` (the process's own when absent) will do: its filter, the
 * arguments stage 1 gives the tool, or why its output passes through.
 */
export async function planRun(b: Boot, argv: readonly string[], cwd?: string): Promise<Plan> {
  const found = await b.registry.commandFilter(argv, cwd);
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
  // A family agents kept fetching again in this project goes out as the tool printed it.
  const raw = b.home ? _servedRaw(b.home, cwd ?? Deno.cwd(), family) : null;
  if (raw) {
    match.filter.release?.();
    return { ...plain, passthrough: `served raw in this project (re-fetch rate ${raw} %)` };
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

// `exec` through sh keeps the tool's argv[0] as typed (Deno would pass the resolved path,
// which GNU tools print in their messages: "/usr/bin/ls: cannot access …"), and gives the
// shell's own "not found" (127) and "permission denied" (126); sh is replaced by the tool,
// so signals and exit codes are the tool's.
const SH = "/bin/sh";
const EXEC = 'exec "$0" "$@"';

// Tools whose messages never name their argv[0] start directly, saving the shell's start-up
// on the commands agents run most.
const DIRECT = new Set(["git", "rg", "tree"]);

// The re-fetch rate `family` is served raw at in `project`, or `null` when it is filtered; the
// first run that serves it raw says so, once.
function _servedRaw(home: string, project: string, family: string): number | null {
  const state = readServedRaw(home);
  const r = state.projects[project]?.[family];
  if (!r) return null;
  if (!r.told) {
    warn(servedRawNote(family, r));
    try {
      writeServedRaw(home, {
        ...state,
        projects: {
          ...state.projects,
          [project]: { ...state.projects[project], [family]: { ...r, told: true } },
        },
      });
    } catch { /* told again next time */ }
  }
  return r.ratePct;
}

/** The argv that starts `tool` with `args` as if the shell ran it by its name. */
export function toolArgv(tool: string, args: readonly string[]): string[] {
  const viaShell = Deno.build.os !== "windows" && !DIRECT.has(tool);
  return viaShell ? [SH, "-c", EXEC, tool, ...args] : [tool, ...args];
}

function _spawn(
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

function _forwardSignals(child: Deno.ChildProcess): () => void {
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
