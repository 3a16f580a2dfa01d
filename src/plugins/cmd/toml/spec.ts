/**
 * The declarative filter file: `[[filter]]` tables, each an anchored command pattern, a
 * pipeline of steps and its own test cases (`[[filter.test]]`). Parsing validates everything
 * a filter will do before it runs: an unknown key, a step with no kind or two, a regular
 * expression that does not compile or a command pattern not anchored at `^` is an error whose
 * message names the file and the line. The format is documented in `filters/README.md`.
 *
 * This module loads `smol-toml`; it is reached only by dynamic import, so nothing on the
 * hook's path or a run without a filter file loads the npm package.
 *
 * @module
 */

import { parse, TomlError } from "smol-toml";
import { TEXT_CLASSES, type TextClass } from "../../../core/tokens.ts";
import { lineOf, locate, type Locations } from "./locate.ts";
import { isAnchored } from "./regex.ts";

/** One step of a filter's pipeline, as written in the file. */
export type StepDef =
  | { readonly kind: "strip_ansi"; readonly line: number }
  | {
    readonly kind: "replace";
    readonly pattern: string;
    readonly with: string;
    readonly line: number;
  }
  | {
    readonly kind: "short_circuit";
    readonly pattern: string;
    readonly unless: string | null;
    readonly message: string;
    readonly exitCode: number | null;
    readonly line: number;
  }
  | { readonly kind: "strip" | "keep"; readonly patterns: readonly string[]; readonly line: number }
  | { readonly kind: "collapse_repeats"; readonly line: number }
  | { readonly kind: "truncate_lines"; readonly max: number; readonly line: number }
  | {
    readonly kind: "head_tail";
    readonly head: number | null;
    readonly tail: number | null;
    readonly line: number;
  }
  | { readonly kind: "max_lines"; readonly max: number; readonly line: number }
  | { readonly kind: "on_empty"; readonly message: string; readonly line: number };

/** A test case embedded beside its filter. */
export interface FilterTest {
  /** What it checks. */
  readonly name: string;
  /** The tool's output. */
  readonly input: string;
  /** What the filter must print (trailing newlines are not compared). */
  readonly expected: string;
  /** The tool's exit code the filter is told (default 0). */
  readonly exitCode: number;
  /** Its `[[filter.test]]` line. */
  readonly line: number;
}

/** One `[[filter]]`, validated. Plain data: it crosses into a Worker and into a cache file. */
export interface FilterDef {
  /** The family the ledger groups its runs by. */
  readonly name: string;
  /** The command-line pattern, anchored at `^`. */
  readonly match: string;
  /** One line on what it keeps and cuts. */
  readonly description: string;
  /** How its output is counted. */
  readonly textClass: TextClass;
  /** True when the tool's stderr is filtered too. */
  readonly stderr: boolean;
  /**
   * True when the filter is right on a command that reads piped input, so the hook may rewrite
   * it as a pipeline's last stage (`pipe_safe`; used by the built-ins' rewrite rules).
   */
  readonly pipeSafe: boolean;
  /** The pipeline, in order. */
  readonly steps: readonly StepDef[];
  /** Its embedded test cases. */
  readonly tests: readonly FilterTest[];
  /** The file it came from, as errors and `rtok filters` name it. */
  readonly file: string;
  /** Its `[[filter]]` line. */
  readonly line: number;
  /** Its text in the file, from its `[[filter]]` line to the next one. */
  readonly source: string;
}

const FILTER_KEYS = [
  "name",
  "match",
  "description",
  "text_class",
  "stderr",
  "pipe_safe",
  "steps",
  "test",
];
const TEST_KEYS = ["name", "input", "expected", "exit_code"];
// Each step kind and the keys it may carry besides its own.
const STEP_KINDS: Readonly<Record<string, readonly string[]>> = {
  strip_ansi: [],
  replace: ["with"],
  short_circuit: ["unless", "message", "exit_code"],
  strip: [],
  keep: [],
  collapse_repeats: [],
  truncate_lines: [],
  head: ["tail"],
  tail: ["head"],
  max_lines: [],
  on_empty: [],
};
const STEP_KEYS = [...new Set([...Object.keys(STEP_KINDS), ...Object.values(STEP_KINDS).flat()])];
const KIND_NAMES = Object.keys(STEP_KINDS).filter((k) => k !== "tail").map((k) =>
  k === "head" ? "head/tail" : k
);

/**
 * Parses and validates a filter file's `text`; `file` names it in errors. Throws a
 * `SyntaxError` (not TOML) or a `TypeError` (not a valid filter) whose message reads
 * `Cannot read filters "<file>": line N: <problem>`.
 */
export function parseFilterFile(text: string, file: string): FilterDef[] {
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const what = e.message.split("\n")[0].replace(/^Invalid TOML document: /, "");
    throw new SyntaxError(`Cannot read filters "${file}": line ${e.line}: ${what}`);
  }
  return new _Reader(text, file).filters(doc);
}

class _Reader {
  private where: Locations | null = null;

  constructor(private readonly text: string, private readonly file: string) {}

  filters(doc: Record<string, unknown>): FilterDef[] {
    for (const key of Object.keys(doc)) {
      if (key !== "filter") this.fail(key, `unknown key "${key}"; expected [[filter]] tables`);
    }
    const list = doc.filter ?? [];
    if (!Array.isArray(list) || !list.every(_isTable)) {
      this.fail("filter", "filter must be an array of tables, each opened by [[filter]]");
    }
    const defs: FilterDef[] = [];
    const seen = new Map<string, number>();
    (list as Record<string, unknown>[]).forEach((t, i) => {
      const def = this.filter(t, `filter[${i}]`, i);
      const first = seen.get(def.name);
      if (first !== undefined) {
        this.fail(
          `filter[${i}].name`,
          `filter "${def.name}" is defined twice (first at line ${first})`,
        );
      }
      seen.set(def.name, def.line);
      defs.push(def);
    });
    const lines = defs.map((d) => d.line);
    const text = this.text.split("\n");
    return defs.map((d, i) => ({
      ...d,
      source: text.slice(d.line - 1, i + 1 < lines.length ? lines[i + 1] - 1 : text.length).join(
        "\n",
      ).trimEnd() + "\n",
    }));
  }

  private filter(t: Record<string, unknown>, at: string, index: number): FilterDef {
    const label = typeof t.name === "string" && t.name
      ? `filter "${t.name}"`
      : `filter #${index + 1}`;
    this.known(t, FILTER_KEYS, at, label);
    const name = this.string(t, "name", at, label, true)!;
    if (!/^[^\s].{0,63}$/.test(name) || /[\n\r]/.test(name)) {
      this.fail(`${at}.name`, `${label}: name must be 1 to 64 characters on one line`);
    }
    const match = this.string(t, "match", at, label, true)!;
    this.regex(match, `${at}.match`, `${label}: match`);
    if (!isAnchored(match)) {
      this.fail(
        `${at}.match`,
        `${label}: match '${match}' is not anchored: it must start with ^ (every alternative)`,
      );
    }
    const textClass = this.string(t, "text_class", at, label, false) ?? "log";
    if (!(TEXT_CLASSES as readonly string[]).includes(textClass)) {
      this.fail(
        `${at}.text_class`,
        `${label}: text_class "${textClass}"; expected one of ${TEXT_CLASSES.join(", ")}`,
      );
    }
    for (const key of ["stderr", "pipe_safe"]) {
      if (t[key] !== undefined && typeof t[key] !== "boolean") {
        this.fail(`${at}.${key}`, `${label}: ${key} must be true or false`);
      }
    }
    const steps = t.steps ?? [];
    if (!Array.isArray(steps)) this.fail(`${at}.steps`, `${label}: steps must be an array`);
    const tests = t.test ?? [];
    if (!Array.isArray(tests)) {
      this.fail(`${at}.test`, `${label}: test must be an array of [[filter.test]] tables`);
    }
    return {
      name,
      match,
      description: this.string(t, "description", at, label, false) ?? "",
      textClass: textClass as TextClass,
      stderr: t.stderr === true,
      pipeSafe: t.pipe_safe === true,
      steps: (steps as unknown[]).map((s, i) => this.step(s, `${at}.steps[${i}]`, label)),
      tests: (tests as unknown[]).map((c, i) => this.test(c, `${at}.test[${i}]`, label, i)),
      file: this.file,
      line: this.line(at) ?? 1,
      source: "",
    };
  }

  private step(s: unknown, at: string, filter: string): StepDef {
    const label = `${filter}: ${at.slice(at.lastIndexOf(".") + 1)}`;
    if (!_isTable(s)) {
      this.fail(at, `${label}: a step is an inline table like { strip_ansi = true }`);
    }
    const t = s as Record<string, unknown>;
    for (const key of Object.keys(t)) {
      if (!STEP_KEYS.includes(key)) {
        this.fail(
          `${at}.${key}`,
          `${label}: unknown key "${key}"; expected one of ${STEP_KEYS.join(", ")}`,
        );
      }
    }
    if ("strip" in t && "keep" in t) {
      this.fail(at, `${label}: a step has strip or keep, not both (use two steps)`);
    }
    const kinds = [
      ...new Set(
        Object.keys(t).filter((k) => k in STEP_KINDS).map((k) => k === "tail" ? "head" : k),
      ),
    ];
    if (kinds.length === 0) {
      this.fail(at, `${label}: a step needs one of ${KIND_NAMES.join(", ")}`);
    }
    if (kinds.length > 1) {
      this.fail(at, `${label}: a step does one thing; this one has ${kinds.join(" and ")}`);
    }
    const kind = kinds[0];
    const allowed = new Set([kind, ...STEP_KINDS[kind]]);
    for (const key of Object.keys(t)) {
      if (!allowed.has(key)) {
        this.fail(`${at}.${key}`, `${label}: "${key}" does not belong in a ${kind} step`);
      }
    }
    const line = this.line(at) ?? 1;
    const str = (key: string, required: boolean) => this.string(t, key, at, label, required);
    const int = (key: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
      const v = t[key];
      if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
        this.fail(`${at}.${key}`, `${label}: ${key} must be a whole number ≥ ${min}`);
      }
      return v as number;
    };
    const flag = (key: string) => {
      if (t[key] !== true) {
        this.fail(`${at}.${key}`, `${label}: ${key} must be true (leave the step out to skip it)`);
      }
    };
    switch (kind) {
      case "strip_ansi":
        flag(kind);
        return { kind, line };
      case "collapse_repeats":
        flag(kind);
        return { kind, line };
      case "replace": {
        const pattern = this.regex(str("replace", true)!, `${at}.replace`, `${label}: replace`);
        return { kind, pattern, with: str("with", true)!, line };
      }
      case "short_circuit": {
        const pattern = this.regex(str(kind, true)!, `${at}.${kind}`, `${label}: ${kind}`);
        const unless = str("unless", false);
        if (unless !== null) this.regex(unless, `${at}.unless`, `${label}: unless`);
        const exitCode = t.exit_code === undefined ? null : int("exit_code", 0, 255);
        return { kind, pattern, unless, message: str("message", true)!, exitCode, line };
      }
      case "strip":
      case "keep": {
        const list = t[kind];
        if (
          !Array.isArray(list) || list.length === 0 || !list.every((p) => typeof p === "string")
        ) {
          this.fail(`${at}.${kind}`, `${label}: ${kind} must be a list of patterns, like ['^x']`);
        }
        const patterns = (list as string[]).map((p, i) =>
          this.regex(p, `${at}.${kind}[${i}]`, `${label}: ${kind}`)
        );
        return { kind, patterns, line };
      }
      case "truncate_lines":
        return { kind, max: int(kind, 1), line };
      case "max_lines":
        return { kind, max: int(kind, 1), line };
      case "head":
        return {
          kind: "head_tail",
          head: t.head === undefined ? null : int("head", 0),
          tail: t.tail === undefined ? null : int("tail", 0),
          line,
        };
      default:
        return { kind: "on_empty", message: str("on_empty", true)!, line };
    }
  }

  private test(c: unknown, at: string, filter: string, i: number): FilterTest {
    const label = `${filter}: test ${i + 1}`;
    if (!_isTable(c)) this.fail(at, `${label}: a test is a [[filter.test]] table`);
    const t = c as Record<string, unknown>;
    this.known(t, TEST_KEYS, at, label);
    const v = t.exit_code;
    if (v !== undefined && (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 255)) {
      this.fail(`${at}.exit_code`, `${label}: exit_code must be a whole number from 0 to 255`);
    }
    return {
      name: this.string(t, "name", at, label, false) ?? `test ${i + 1}`,
      input: this.string(t, "input", at, label, true)!,
      expected: this.string(t, "expected", at, label, true)!,
      exitCode: (v as number | undefined) ?? 0,
      line: this.line(at) ?? 1,
    };
  }

  private known(t: Record<string, unknown>, keys: readonly string[], at: string, label: string) {
    for (const key of Object.keys(t)) {
      if (!keys.includes(key)) {
        this.fail(
          `${at}.${key}`,
          `${label}: unknown key "${key}"; expected one of ${keys.join(", ")}`,
        );
      }
    }
  }

  private string(
    t: Record<string, unknown>,
    key: string,
    at: string,
    label: string,
    required: boolean,
  ): string | null {
    const v = t[key];
    if (v === undefined) {
      if (required) this.fail(at, `${label}: missing key "${key}"`);
      return null;
    }
    if (typeof v !== "string") this.fail(`${at}.${key}`, `${label}: ${key} must be a string`);
    return v as string;
  }

  private regex(pattern: string, at: string, label: string): string {
    try {
      new RegExp(pattern);
    } catch (e) {
      this.fail(at, `${label}: ${(e as Error).message}`);
    }
    return pattern;
  }

  private line(path: string): number | null {
    this.where ??= locate(this.text);
    return lineOf(this.where, path);
  }

  private fail(path: string, problem: string): never {
    const line = this.line(path);
    throw new TypeError(
      `Cannot read filters "${this.file}": ${line === null ? "" : `line ${line}: `}${problem}`,
    );
  }
}

function _isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}
