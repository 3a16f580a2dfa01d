/**
 * What a filter family is, declared once by the filter module that serves it: its filter (whose
 * name is the family), whether and how the hook may rewrite its commands, the detectors that
 * recognise its output from text alone, and its measured saving. The family table
 * (`filters/families.ts`) is generated from these declarations (`deno task families`), and
 * the loader index, the rewrite rules and the content detectors are all read from it.
 *
 * @module
 */

import type { CommandFilter } from "./filter.ts";
import type { ShapeDetector } from "./shape.ts";

/**
 * When a family's command only reads, judged from its arguments (after the family's own
 * words): `true` always, `false` never, or a rule over the arguments.
 */
export type ReadOnlySpec =
  | boolean
  | {
    /**
     * It reads unless an argument is one of these options (a long option also with
     * `=value`).
     */
    readonly unless: readonly string[];
    /** …or a cluster of short options (`-nz`) holding one of these letters. */
    readonly unlessShort?: string;
  }
  | {
    /** It reads only when every argument is one of these options… */
    readonly only: readonly string[];
    /** …or starts with one of these (`--sort=`)… */
    readonly onlyPrefixes?: readonly string[];
    /** …or is an operand while one of these options is present (`--list NAME`). */
    readonly operandsWith?: readonly string[];
  };

/** How the hook may rewrite a family's commands. */
export interface RewriteSpec {
  /** True when the filter is right on the last stage of a pipeline (input from a pipe). */
  readonly pipeSafe: boolean;
  /**
   * When the command only reads, as far as its text shows: no flag that writes a file or
   * runs a program. Claude Code runs such commands without asking, so the hook may allow
   * their rtok form unasked.
   */
  readonly readOnly: ReadOnlySpec;
  /**
   * True when the command exits non-zero with output the agent reads (`diff` exits 1 when the
   * files differ). A host cannot replace a failed call's output afterwards (Claude Code's
   * PostToolUseFailure carries only an error string), so such a family is always rewritten to
   * its rtok form, which filters before the host sees anything.
   */
  readonly failsWithOutput?: boolean;
}

/** The rule of a family whose commands build, install, test or reach a service: never unasked. */
export const NOT_READ_ONLY: RewriteSpec = { pipeSafe: false, readOnly: false };

/** One family, as its filter module declares it. */
export interface FamilyDeclaration {
  /** Its filter; the filter's `name` is the family. */
  readonly filter: CommandFilter;
  /** How the hook may rewrite its commands. */
  readonly rewrite: RewriteSpec;
  /** What recognises its output from text alone, for content filters; none when absent. */
  readonly shapes?: readonly ShapeDetector[];
  /**
   * Its median estimated-token saving, in percent, over its golden fixtures whose raw output
   * is over 500 chars; `null` when it has none. Written by `deno task families`, which
   * measures the fixtures; a test holds it to them.
   */
  readonly saving: number | null;
}

/** A filter module's declarations, by family name (the key is its filter's name). */
export type FamilyDeclarations = Readonly<Record<string, FamilyDeclaration>>;

/** What a filter module exports for the family table. */
export interface FilterModule {
  /** The families it serves. */
  readonly FAMILIES: FamilyDeclarations;
}

/** One row of the generated family table. */
export interface FamilyEntry {
  /** The file in `filters/` that declares it (`git_log.ts`, `docker.toml`). */
  readonly file: string;
  /** True when the filter is right on a pipeline's last stage. */
  readonly pipeSafe: boolean;
  /** When its command only reads. */
  readonly readOnly: ReadOnlySpec;
  /** Measured median saving in percent, or `null`. */
  readonly saving: number | null;
  /** Present and true when its command exits non-zero with output the agent reads. */
  readonly failsWithOutput?: true;
  /** True when it declares detectors for output that arrives without its command. */
  readonly detects: boolean;
}

// A long option, also as `--opt=value`; or a short-option cluster holding one of `letters`.
function _isAny(arg: string, options: readonly string[], letters = ""): boolean {
  if (options.some((o) => arg === o || (o.startsWith("--") && arg.startsWith(`${o}=`)))) {
    return true;
  }
  return letters !== "" && /^-[A-Za-z0-9]/.test(arg) &&
    [...arg.slice(1)].some((c) => letters.includes(c));
}

/** True when `args` (after the family's words) only read, by `spec`. */
export function readsOnly(spec: ReadOnlySpec, args: readonly string[]): boolean {
  if (typeof spec === "boolean") return spec;
  if ("unless" in spec) return !args.some((a) => _isAny(a, spec.unless, spec.unlessShort));
  const operands = (spec.operandsWith ?? []).some((o) => args.includes(o));
  return args.every((a) =>
    spec.only.includes(a) ||
    (spec.onlyPrefixes ?? []).some((p) => a.startsWith(p)) ||
    (!a.startsWith("-") && operands)
  );
}
