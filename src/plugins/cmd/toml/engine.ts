/**
 * A declarative filter made runnable: its command pattern compiled, its steps run in order
 * over the output's lines. Pure and deterministic: the same output and exit code give the
 * same text and the same list of what was cut.
 *
 * What counts as cut (the output is then lossy, archived and named on a pointer line): lines
 * dropped by `strip`, `keep`, `head`/`tail`, `max_lines` or a `short_circuit`, repeats folded
 * by `collapse_repeats`, line tails cut by `truncate_lines`. `strip_ansi` and `replace`
 * reformat and cut nothing.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../../../core/filter.ts";
import { toolName } from "../../../core/command.ts";
import type { FilterDef, StepDef } from "./spec.ts";

/** A compiled declarative filter: a command filter that also knows its command pattern. */
export interface TomlFilter extends CommandFilter {
  /** The definition it was compiled from. */
  readonly def: FilterDef;
  /** True when `line` (see {@linkcode commandLine}) is a command this filter is for. */
  matches(line: string): boolean;
}

/** The text a command pattern is matched against: argv joined by spaces, argv[0] by name. */
export function commandLine(argv: readonly string[]): string {
  return argv.length === 0 ? "" : [toolName(argv[0]), ...argv.slice(1)].join(" ");
}

/** Compiles `def` (already validated by `parseFilterFile`). */
export function compileFilter(def: FilterDef): TomlFilter {
  const match = new RegExp(def.match);
  const steps = def.steps.map(_compileStep);
  return {
    name: def.name,
    textClass: def.textClass,
    filterStderr: def.stderr,
    def,
    matches: (line) => match.test(line),
    filter: (raw: string, input: FilterInput): Filtered => _runSteps(steps, raw, input.exitCode),
  };
}

// A step ready to run.
type _Step = (s: _State) => void;

// The pipeline's state: the lines so far, what was cut, whether it ended early.
interface _State {
  lines: string[];
  readonly exitCode: number;
  readonly cut: Map<string, number>;
  done: boolean;
  // True when the output had any text before the steps ran.
  readonly hadText: boolean;
}

// Runs compiled `steps` over `raw`.
function _runSteps(steps: readonly _Step[], raw: string, exitCode: number): Filtered {
  const newline = raw.endsWith("\n");
  const body = newline ? raw.slice(0, -1) : raw;
  const s: _State = {
    lines: body === "" && !newline ? [] : body.split("\n"),
    exitCode,
    cut: new Map(),
    done: false,
    hadText: raw.trim() !== "",
  };
  for (const step of steps) {
    if (s.done) break;
    step(s);
  }
  const text = s.lines.length === 0 ? "" : s.lines.join("\n") + (newline || s.done ? "\n" : "");
  const cut = [...s.cut].filter(([, n]) => n > 0).map(([unit, n]) => _count(n, unit));
  return { text, cut };
}

// "1 line", "12 lines", "3 repeated lines", "2 long-line tails".
function _count(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

function _cut(s: _State, unit: string, n: number): void {
  if (n > 0) s.cut.set(unit, (s.cut.get(unit) ?? 0) + n);
}

// CSI sequences (colours, cursor moves), OSC sequences (titles, hyperlinks), and the other
// two-byte escapes.
// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

function _marker(n: number): string {
  return `… ${n} line${n === 1 ? "" : "s"} cut …`;
}

function _compileStep(step: StepDef): _Step {
  switch (step.kind) {
    case "strip_ansi":
      return (s) => {
        s.lines = s.lines.map((l) => l.includes("\x1b") ? l.replace(ANSI, "") : l);
      };
    case "replace": {
      const re = new RegExp(step.pattern, "g");
      return (s) => {
        // A replacement may hold newlines; later steps see the lines it makes.
        s.lines = s.lines.flatMap((l) => {
          re.lastIndex = 0;
          return re.test(l) ? l.replace(re, step.with).split("\n") : [l];
        });
      };
    }
    case "short_circuit": {
      // The pattern must match the whole output, so nothing it did not foresee is hidden.
      const whole = new RegExp(`^(?:${step.pattern})$`);
      const unless = step.unless === null ? null : new RegExp(step.unless, "m");
      return (s) => {
        if (step.exitCode !== null && s.exitCode !== step.exitCode) return;
        const text = s.lines.join("\n");
        if (!whole.test(text) || (unless !== null && unless.test(text))) return;
        _cut(s, "line", s.lines.length);
        s.lines = step.message.replace(/\n$/, "").split("\n");
        s.done = true;
      };
    }
    case "strip":
    case "keep": {
      const res = step.patterns.map((p) => new RegExp(p));
      const keep = step.kind === "keep";
      return (s) => {
        const before = s.lines.length;
        s.lines = s.lines.filter((l) => res.some((re) => re.test(l)) === keep);
        _cut(s, "line", before - s.lines.length);
      };
    }
    case "collapse_repeats":
      return (s) => {
        const out: string[] = [];
        let folded = 0;
        for (let i = 0; i < s.lines.length;) {
          let j = i + 1;
          while (j < s.lines.length && s.lines[j] === s.lines[i]) j++;
          out.push(j - i > 1 ? `${s.lines[i]} (×${j - i})` : s.lines[i]);
          folded += j - i - 1;
          i = j;
        }
        s.lines = out;
        _cut(s, "repeated line", folded);
      };
    case "truncate_lines":
      return (s) => {
        let cut = 0;
        s.lines = s.lines.map((l) => {
          if (l.length <= step.max) return l;
          cut++;
          // Never split a surrogate pair: an emoji cut in half is not text.
          const end = _isHighSurrogate(l.charCodeAt(step.max - 1)) ? step.max - 1 : step.max;
          return l.slice(0, end) + "…";
        });
        _cut(s, "long-line tail", cut);
      };
    case "head_tail": {
      const head = step.head ?? 0;
      const tail = step.tail ?? 0;
      return (s) => {
        const n = s.lines.length;
        // One line is never swapped for a marker line: that saves nothing, and filtering the
        // filtered text again must not cut more.
        if (n <= head + tail + 1) return;
        const dropped = n - head - tail;
        s.lines = [...s.lines.slice(0, head), _marker(dropped), ...s.lines.slice(n - tail)];
        _cut(s, "line", dropped);
      };
    }
    case "max_lines":
      return (s) => {
        const n = s.lines.length;
        if (n <= step.max + 1) return;
        s.lines = [...s.lines.slice(0, step.max), _marker(n - step.max)];
        _cut(s, "line", n - step.max);
      };
    case "on_empty":
      return (s) => {
        // An output that was empty from the start is left empty: nothing was removed.
        if (!s.hadText || s.lines.some((l) => l.trim() !== "")) return;
        s.lines = step.message.replace(/\n$/, "").split("\n");
        s.done = true;
      };
  }
}

function _isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
