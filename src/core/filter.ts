/**
 * The command-filter contract: what a filter for `rtok <tool> [args…]` provides.
 *
 * A filter is pure: the same arguments and the same raw text give the same bytes, so a
 * prompt-cache prefix stays valid across turns.
 *
 * @module
 */

import type { TextClass } from "./tokens.ts";

/** What the filter is told about the run besides the raw text. */
export interface FilterInput {
  /** The arguments as run (after stage 1), without the tool name or git subcommand. */
  readonly args: readonly string[];
  /** True when stage 1 added arguments (the caller's own arguments did not decide the shape). */
  readonly shaped: boolean;
  /**
   * The tool's exit code; negative when it is not known (a content filter reading text
   * alone), where a failure is then said without a code.
   */
  readonly exitCode: number;
}

/** What a filter returns. */
export interface Filtered {
  /** The filtered text, without the archive pointer line (the runner appends it). */
  readonly text: string;
  /**
   * What was dropped, as short phrases ("3 older commits", "12 context lines"). Empty when the
   * filter only reformatted (every fact still present); non-empty makes the output lossy.
   */
  readonly cut: readonly string[];
}

/** A hand-written filter for one command family. */
export interface CommandFilter {
  /** The family, as the ledger groups it: "git log", "grep", "ls". */
  readonly name: string;
  /** How the filtered text is counted by the token estimator. */
  readonly textClass: TextClass;
  /**
   * True when the output quotes content (commits, diffs, source lines, file names) rather than
   * reporting on a run: its lines that read like errors are data, so the runner does not put
   * them back when the filter cuts them (see `fidelity.ts`).
   */
  readonly quotes?: boolean;
  /**
   * Why these arguments must pass through unfiltered (a machine format the caller chose), or
   * `null` when the filter applies.
   */
  passthrough?(args: readonly string[]): string | null;
  /**
   * Stage 1: the arguments with shaping flags added, or `null` when the caller's own flags
   * already decide the shape (the filter then defers to them).
   */
  shape?(args: readonly string[]): string[] | null;
  /** Stage 2: filter what the tool printed on stdout. */
  filter(raw: string, input: FilterInput): Filtered;
  /**
   * When true, the tool's stderr is captured and filtered by the same `filter` (with the same
   * input), and what is left is written to stderr with its own pointer line and archive id.
   * Absent or false: stderr passes through untouched, as the tool wrote it.
   */
  readonly filterStderr?: boolean;
  /**
   * For a declarative filter chosen by family: whether the command line (argv joined by
   * single spaces, argv[0] reduced to the tool's name) is one its pattern accepts. A family's
   * filter whose pattern does not accept the command line is not used.
   */
  matches?(commandLine: string): boolean;
  /**
   * Stage 2 for a filter whose patterns come from a user's or a project's file: the same
   * result as `filter`, computed off the main thread and abandoned after `limitMs`, when it
   * rejects with `Deno.errors.TimedOut`. A pattern that backtracks catastrophically then
   * cannot hang the command. When present, the runner calls it instead of `filter`.
   */
  filterWithin?(raw: string, input: FilterInput, limitMs: number): Promise<Filtered>;
  /**
   * Frees what the filter holds for one run (the Workers `filterWithin` starts ahead, while the
   * tool runs). The runner calls it once the run is over, whether or not it filtered.
   */
  release?(): void;
}
