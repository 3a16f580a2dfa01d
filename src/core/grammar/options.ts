/**
 * Reading a tool's arguments the way the tool does (getopt rules), so that a flag is told from
 * a flag's value and an operand from both. Filters, the guard and the rewrite read arguments
 * through this one scanner, each tool's options given by its grammar in this folder.
 *
 * @module
 */

/** Which options of a tool take a value, so that a value is never read as a flag. */
export interface OptionSpec {
  /** Short option letters that take a value: `"efABC"` for grep. */
  readonly shortValued: string;
  /** Long option names, without `--`, that take a value (`--context 3` or `--context=3`). */
  readonly longValued: ReadonlySet<string>;
}

/** One option as the tool reads it. */
export interface ScannedOption {
  /** The flag written alone: `-n`, `--line-number`. */
  readonly flag: string;
  /** Its value, when it takes one (`undefined` when the value is missing). */
  readonly value?: string;
}

/** Arguments split the way the tool reads them. */
export interface ScannedArgs {
  /** Options in order, short bundles split (`-rn` → `-r`, `-n`). */
  readonly options: readonly ScannedOption[];
  /** Everything else in order: patterns and paths. */
  readonly operands: readonly string[];
  /** Where each operand stands in the arguments (same order as `operands`). */
  readonly operandAt: readonly number[];
}

/**
 * Splits arguments into options and operands the way getopt does: short bundles, attached or
 * separate values, options after operands, and `--` ending the options.
 */
export function scanOptions(args: readonly string[], spec: OptionSpec): ScannedArgs {
  const options: ScannedOption[] = [];
  const operands: string[] = [];
  const operandAt: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      for (let k = i + 1; k < args.length; k++) {
        operands.push(args[k]);
        operandAt.push(k);
      }
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      if (eq > 0) options.push({ flag: arg.slice(0, eq), value: arg.slice(eq + 1) });
      else if (spec.longValued.has(arg.slice(2))) options.push({ flag: arg, value: args[++i] });
      else options.push({ flag: arg });
    } else if (arg.length > 1 && arg.startsWith("-")) {
      i = _scanBundle(args, i, spec, options);
    } else {
      operands.push(arg);
      operandAt.push(i);
    }
  }
  return { options, operands, operandAt };
}

// Returns the index of the last argument the bundle consumed.
function _scanBundle(
  args: readonly string[],
  i: number,
  spec: OptionSpec,
  options: ScannedOption[],
): number {
  const arg = args[i];
  for (let j = 1; j < arg.length; j++) {
    const flag = `-${arg[j]}`;
    if (!spec.shortValued.includes(arg[j])) {
      options.push({ flag });
      continue;
    }
    const attached = arg.slice(j + 1);
    if (attached) {
      options.push({ flag, value: attached });
      return i;
    }
    options.push({ flag, value: args[i + 1] });
    return i + 1;
  }
  return i;
}

/** The last of `flags` the caller gave, or `undefined`. */
export function lastFlag(
  scanned: ScannedArgs,
  flags: readonly string[],
): ScannedOption | undefined {
  return scanned.options.findLast((option) => flags.includes(option.flag));
}
