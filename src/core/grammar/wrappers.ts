/**
 * The grammar of the commands that run another command after their own options (`timeout 5`,
 * `time -p`, `nice -n 5`, `nohup`, `command -p`, `exec`): where the wrapped command starts.
 * The rewrite plan and the guard look through them alike.
 *
 * @module
 */

/** A word as the wrappers are read: quoted words are never a wrapper or its option. */
export interface WrapperWord {
  /** The word's value after quote removal. */
  readonly value: string;
  /** True when any part of it was quoted or escaped. */
  readonly quoted: boolean;
}

const _DURATION = /^\d+(\.\d+)?[smhd]?$/;

/**
 * The index of the first word from `from` on past the wrappers, or why the wrappers cannot be
 * looked through (an option not understood, `command -v`, `timeout` without a duration).
 */
export function peelWrappers(words: readonly WrapperWord[], from: number): number | string {
  let k = from;
  const v = (i: number): string | undefined => words[i]?.quoted ? undefined : words[i]?.value;
  while (k < words.length) {
    const w = v(k);
    if (w === "timeout") {
      k++;
      while (v(k)?.startsWith("-")) {
        const opt = v(k)!;
        if (opt === "-s" || opt === "-k") k += 2;
        else if (/^(--signal=|--kill-after=|-s|-k)/.test(opt)) k++;
        else if (["--preserve-status", "--foreground", "-v", "--verbose"].includes(opt)) k++;
        else return `timeout's option "${opt}" is not understood`;
      }
      if (!_DURATION.test(v(k) ?? "")) return "timeout has no duration";
      k++;
    } else if (w === "time") {
      k++;
      if (v(k) === "-p") k++;
    } else if (w === "nice") {
      k++;
      const opt = v(k);
      if (opt === "-n") k += 2;
      else if (opt && /^(-n-?\d+|-\d+|--adjustment=-?\d+)$/.test(opt)) k++;
      else if (opt?.startsWith("-")) return `nice's option "${opt}" is not understood`;
    } else if (w === "nohup") {
      k++;
    } else if (w === "command") {
      k++;
      if (v(k) === "-p") k++;
      else if (v(k)?.startsWith("-")) return "command with an option only looks a command up";
    } else if (w === "exec") {
      k++;
      if (v(k)?.startsWith("-")) return "exec's options are not looked through";
    } else {
      return k;
    }
  }
  return k;
}
