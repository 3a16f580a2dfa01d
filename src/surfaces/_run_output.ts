/**
 * The second half of `rtok <tool>`: filter what the tool printed, write it, keep what was
 * cut, record the run. Loaded while the tool runs, so none of it delays the tool's start.
 *
 * @module
 */

import type { Measurement, Stage, Surface } from "../core/plugin.ts";
import { spoolOverdue } from "../core/spool.ts";
import { quoteArgv } from "../core/shell.ts";
import type { TextClass } from "../core/tokens.ts";
import { decodeText } from "../core/text.ts";
import { type Composed, composeFiltered } from "../plugins/cmd/compose.ts";
import { type Boot, context, drain, openStore, reportPluginErrors } from "./_boot.ts";
import { warn, writeStderr, writeStdout } from "./_io.ts";
import type { Plan } from "./run.ts";

/** What a run wrote, for its ledger row. */
export interface Written {
  /** Chars the tool printed (bytes, for output that was streamed or binary). */
  readonly rawChars: number;
  /** Chars rtok printed. */
  readonly emitted: number;
  /** The stage that acted. */
  readonly stage: Stage;
  /** True when something was cut. */
  readonly lossy: boolean;
  /** Where the raw bytes were kept, when they were. */
  readonly archiveId: string | null;
  /** The tool's exit code; `null` when a signal ended it. */
  readonly exitCode: number | null;
  /** Why the output was not filtered, when it was not. */
  readonly passthrough: string | null;
  /** How the text is counted, when a filter says. */
  readonly textClass?: TextClass;
}

/** Where a run's output goes and what it is recorded as: the CLI's streams, or an MCP answer. */
export interface RunSink {
  /** The surface that ran it. */
  readonly surface: Surface;
  /** The directory it ran in. */
  readonly cwd: string;
  /** Takes what stdout gets. */
  stdout(bytes: Uint8Array): Promise<void>;
  /** Takes what stderr gets. */
  stderr(bytes: Uint8Array): Promise<void>;
}

/** The CLI's sink: the process's own streams, its working directory. */
export function cliSink(): RunSink {
  return { surface: "cli", cwd: safeCwd(), stdout: writeStdout, stderr: writeStderr };
}

/**
 * Filters `raw` (stdout) and, for a filter that asks, `stderrRaw`; writes what to print to
 * each stream of `sink`, archives each cut under its own id; returns what was written, both
 * streams counted in one row.
 */
export async function filterAndWrite(
  b: Boot,
  argv: readonly string[],
  plan: Plan,
  raw: Uint8Array,
  exitCode: number,
  stderrRaw: Uint8Array | null = null,
  sink: RunSink = cliSink(),
): Promise<Written> {
  // Both streams are filtered at once: a filter run in a Worker starts one per stream.
  const [out, err] = await Promise.all([
    _decide(b, argv, plan, raw, exitCode, sink),
    stderrRaw === null ? null : _decide(b, argv, plan, stderrRaw, exitCode, sink),
  ]);
  const written = await _emit(b, argv, plan, out, sink, sink.stdout);
  if (err === null) return written;
  return _both(written, await _emit(b, argv, plan, err, sink, sink.stderr));
}

// What one stream will print: its raw bytes as they were, or a composed output.
type _Decided =
  | { readonly kind: "raw"; readonly raw: Uint8Array; readonly written: Written }
  | {
    readonly kind: "composed";
    readonly raw: Uint8Array;
    readonly out: Composed;
    readonly written: Written;
  };

async function _decide(
  b: Boot,
  argv: readonly string[],
  plan: Plan,
  raw: Uint8Array,
  exitCode: number,
  sink: RunSink,
): Promise<_Decided> {
  const filter = plan.filter!;
  const base = {
    rawChars: raw.byteLength,
    emitted: raw.byteLength,
    stage: (plan.shaped ? "shape" : "none") as Stage,
    lossy: false,
    archiveId: null,
    exitCode,
    passthrough: null,
    textClass: filter.textClass,
  };
  const text = decodeText(raw);
  if (text === null) {
    return { kind: "raw", raw, written: { ...base, passthrough: "binary output" } };
  }
  const counted = { ...base, rawChars: text.length, emitted: text.length };
  const input = { args: plan.filterArgs, shaped: plan.shaped, exitCode };
  let out: Composed;
  try {
    // A filter from a user's or a project's file runs in a Worker, abandoned past its limit.
    const filtered = filter.filterWithin
      ? await filter.filterWithin(text, input, b.config.cmd.filterTimeoutMs)
      : filter.filter(text, input);
    out = composeFiltered(filter, text, filtered);
  } catch (e) {
    await b.registry.failure({
      surface: sink.surface,
      plugin: plan.plugin,
      family: filter.name,
      command: quoteArgv(argv),
      error: e instanceof Deno.errors.TimedOut
        ? `${e.message}; the raw output went out unfiltered`
        : (e as Error)?.stack?.split("\n").slice(0, 3).join(" | ") ?? String(e),
      fallbackOk: true,
    }, context(b, null));
    return {
      kind: "raw",
      raw,
      written: { ...counted, passthrough: "filter failed (see rtok gain --failures)" },
    };
  }
  if (!out.changed) return { kind: "raw", raw, written: counted };
  return { kind: "composed", raw, out, written: counted };
}

async function _emit(
  b: Boot,
  argv: readonly string[],
  plan: Plan,
  d: _Decided,
  sink: RunSink,
  write: (bytes: Uint8Array) => Promise<void>,
): Promise<Written> {
  if (d.kind === "raw") {
    await write(d.raw);
    return d.written;
  }
  const { out, raw, written: counted } = d;
  const print = (text: string) => write(new TextEncoder().encode(text));
  const stage: Stage = plan.shaped ? "shape+filter" : "filter";
  if (!out.lossy) {
    const emitted = out.text("");
    await print(emitted);
    return { ...counted, emitted: emitted.length, stage };
  }
  // Only a cut needs the store (for the archive's index), so only a cut opens it.
  const store = await openStore(b);
  const kept = store === null ? null : await b.registry.keepRaw(raw, {
    command: quoteArgv(argv),
    cwd: sink.cwd,
    exitCode: counted.exitCode,
    family: plan.filter!.name,
  }, context(b, store));
  store?.close();
  if (kept === null) {
    // Without the archive nothing may be cut; a missing store already said why in one line.
    const why = b.registry.errors.splice(0).map((e) => (e.error as Error)?.message ?? e.error);
    if (store !== null) {
      const reason = why.length > 0
        ? why.join("; ")
        : "no enabled plugin keeps raw output: enable the archive plugin";
      warn(`the raw output could not be archived (${reason}), so it is printed whole`);
    }
    await write(raw);
    return { ...counted, passthrough: "the raw output could not be archived" };
  }
  const emitted = out.text(kept);
  await print(emitted);
  return { ...counted, emitted: emitted.length, stage, lossy: true, archiveId: kept };
}

// One ledger row for both streams: sizes added, the stage and archive id of the one that was
// filtered (stdout's when both were), stdout's passthrough reason.
function _both(out: Written, err: Written): Written {
  const filtered = (w: Written) => w.stage === "filter" || w.stage === "shape+filter";
  return {
    ...out,
    rawChars: out.rawChars + err.rawChars,
    emitted: out.emitted + err.emitted,
    stage: filtered(out) || !filtered(err) ? out.stage : err.stage,
    lossy: out.lossy || err.lossy,
    archiveId: out.archiveId ?? err.archiveId,
    passthrough: filtered(err) ? null : out.passthrough,
  };
}

/** Records the run's ledger row (through the spool). */
export async function record(
  b: Boot,
  argv: readonly string[],
  plan: Plan,
  started: number,
  w: Written,
  sink: Pick<RunSink, "surface" | "cwd"> = cliSink(),
): Promise<void> {
  const ctx = context(b, null);
  const m: Measurement = {
    surface: sink.surface,
    plugin: plan.plugin,
    family: plan.family,
    command: quoteArgv(argv),
    rtokCommand: "rtok " + quoteArgv(argv),
    project: sink.cwd,
    session: null,
    turn: null,
    rawChars: w.rawChars,
    emittedChars: w.emitted,
    textClass: w.textClass ?? plan.filter?.textClass ?? "log",
    stage: w.stage,
    lossy: w.lossy,
    archiveId: w.archiveId,
    exitCode: w.exitCode,
    elapsedMs: performance.now() - started,
    passthrough: w.passthrough,
  };
  await ctx.record(m);
  reportPluginErrors(b);
}

// The run that finds the spool past its limit drains it, so the spool stays small whatever
// reads the store next.
export async function drainIfOverdue(b: Boot): Promise<void> {
  if (b.home === null || !spoolOverdue(b.home, b.config)) return;
  const store = await openStore(b);
  if (!store) return;
  try {
    await drain(b, store);
  } finally {
    store.close();
  }
}

// The working directory, read once (each read is a permission-checked system call).
let cwd: string | undefined;
function safeCwd(): string {
  if (cwd === undefined) {
    try {
      cwd = Deno.cwd();
    } catch {
      cwd = "";
    }
  }
  return cwd;
}
