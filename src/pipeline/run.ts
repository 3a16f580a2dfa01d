/**
 * A command run through the pipeline: what the tool printed goes through its filter (stdout,
 * and stderr for a filter that asks), each cut is delivered (archived, pointed), what to print
 * goes to a sink, and the run is one ledger row. The CLI's sink is the process's streams
 * (`terminal.ts`); an MCP answer's is two buffers (`captured.ts`).
 *
 * @module
 */

import type { Config } from "../core/config.ts";
import type { Ctx, Stage, Surface } from "../core/plugin.ts";
import { quoteArgv } from "../core/shell.ts";
import type { TextClass } from "../core/tokens.ts";
import { decodeText } from "../core/text.ts";
import { type Composed, composeFiltered } from "./compose.ts";
import { deliver, type Keeper, ledgerRow } from "./deliver.ts";
import type { Plan, PlanEnv } from "./plan.ts";

/** What a surface hands the pipeline: the registry, config, context, archive, error line. */
export interface RunEnv extends PlanEnv {
  /** The effective config. */
  readonly config: Config;
  /** The context plugins see, without a store (ledger rows go through the spool). */
  readonly ctx: Ctx;
  /**
   * The archive. A keep that fails says why on stderr, unless the store could not be opened
   * (which said so already).
   */
  readonly keeper: Keeper;
  /** Writes one line on stderr. */
  warn(line: string): void;
  /** Writes the plugin errors caught so far, one line each, and forgets them. */
  reportErrors(): void;
}

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

/** What a run that was not filtered wrote: `bytes` of output as the tool printed them. */
export function passedThrough(
  plan: Plan,
  bytes: number,
  exitCode: number | null,
  passthrough: string,
): Written {
  return {
    rawChars: bytes,
    emitted: bytes,
    stage: plan.shaped ? "shape" : "none",
    lossy: false,
    archiveId: null,
    exitCode,
    passthrough: plan.passthrough ?? passthrough,
  };
}

/**
 * Filters `raw` (stdout) and, for a filter that asks, `stderrRaw`; writes what to print to
 * each stream of `sink`, each cut delivered under its own archive id; returns what was
 * written, both streams counted in one row.
 */
export async function filterAndWrite(
  env: RunEnv,
  argv: readonly string[],
  plan: Plan,
  raw: Uint8Array,
  exitCode: number,
  stderrRaw: Uint8Array | null,
  sink: RunSink,
): Promise<Written> {
  // Both streams are filtered at once: a filter run in a Worker starts one per stream.
  const [out, err] = await Promise.all([
    _decide(env, argv, plan, raw, exitCode, sink),
    stderrRaw === null ? null : _decide(env, argv, plan, stderrRaw, exitCode, sink),
  ]);
  const written = await _emit(env, argv, plan, out, sink, sink.stdout);
  if (err === null) return written;
  return _both(written, await _emit(env, argv, plan, err, sink, sink.stderr));
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
  env: RunEnv,
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
      ? await filter.filterWithin(text, input, env.config.cmd.filterTimeoutMs)
      : filter.filter(text, input);
    out = composeFiltered(filter, text, filtered);
  } catch (e) {
    await env.ctx.ledger.failure({
      surface: sink.surface,
      plugin: plan.plugin,
      family: filter.name,
      command: quoteArgv(argv),
      error: e instanceof Deno.errors.TimedOut
        ? `${e.message}; the raw output went out unfiltered`
        : (e as Error)?.stack?.split("\n").slice(0, 3).join(" | ") ?? String(e),
      fallbackOk: true,
    });
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
  env: RunEnv,
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
  const sent = await deliver(env.keeper, raw, out, {
    command: quoteArgv(argv),
    cwd: sink.cwd,
    exitCode: counted.exitCode,
    family: plan.filter!.name,
  });
  if (sent.whole) {
    await write(raw);
    return { ...counted, passthrough: sent.passthrough };
  }
  await write(new TextEncoder().encode(sent.text));
  return {
    ...counted,
    emitted: sent.text.length,
    stage: plan.shaped ? "shape+filter" : "filter",
    lossy: sent.archiveId !== null,
    archiveId: sent.archiveId,
  };
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
export async function recordRun(
  env: RunEnv,
  argv: readonly string[],
  plan: Plan,
  started: number,
  w: Written,
  sink: Pick<RunSink, "surface" | "cwd">,
): Promise<void> {
  await env.ctx.ledger.record(ledgerRow({
    surface: sink.surface,
    plugin: plan.plugin,
    family: plan.family,
    command: quoteArgv(argv),
    rtokCommand: "rtok " + quoteArgv(argv),
    project: sink.cwd,
    rawChars: w.rawChars,
    emittedChars: w.emitted,
    textClass: w.textClass ?? plan.filter?.textClass ?? "log",
    stage: w.stage,
    lossy: w.lossy,
    archiveId: w.archiveId,
    exitCode: w.exitCode,
    passthrough: w.passthrough,
    started,
  }));
  env.reportErrors();
}
