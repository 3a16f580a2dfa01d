/**
 * Compiler and linter diagnostics, shared by the build filters (tsc, eslint, biome, ruff, mypy,
 * cargo, go, golangci-lint): each filter parses its tool's text into a `DiagnosticReport`, and
 * `renderReport` writes it the same way for all of them:
 *
 * - lines that are no diagnostic (a crash, a config error) first, verbatim;
 * - then one block per file, in order of first appearance, headed by the file's counts
 *   (`src/a.ts: 6 errors, 1 warning`), one line per diagnostic: `line:col severity code:
 *   message`, its kept notes indented below;
 * - the same diagnostic (severity, code, message and notes) repeated in one file is one line
 *   with its count and every location (`(×3 at 2:1 3:1 7:1)`); repeated in several files, it
 *   is one line under `in several files:` with its count, then its files and locations, one
 *   line per directory written in full (`src/views/: a.ts 2:7, b.ts 2:7`);
 * - the tool's own summary lines last (or one computed line when it printed none:
 *   `tsc: failed, 9 errors in 2 files`), and a `failed` line when the tool failed and nothing
 *   said so.
 *
 * Every error is kept with its code and location. Warnings, notes and infos are shown up to
 * `DIAG_WARNINGS_SHOWN` lines; past that they are counted per code. The severity word is left
 * out of the lines when every diagnostic has the same one (the file headers say it), and advice
 * a tool repeats under every diagnostic of a rule is written under the first one only.
 *
 * @module
 */

import type { Filtered } from "../src/core/filter.ts";
import { failureLine } from "./_text.ts";
import { plural } from "../src/core/text.ts";

/** Lines of warnings (notes, infos) shown before the rest are only counted. */
export const DIAG_WARNINGS_SHOWN: number = 60;
/** Codes named in the count of the warnings not shown. */
export const DIAG_HIDDEN_CODES: number = 8;

/** One diagnostic as the tool reported it. */
export interface Diagnostic {
  /** The file, as the tool printed it; `""` when it names none. */
  readonly file: string;
  /** `line:col`, `line`, or `""` for a whole-file diagnostic. */
  readonly at: string;
  /** `error`, `warning`, `note`, `info`, or `""` when the tool prints none. */
  readonly severity: string;
  /** The rule or error code (`TS2322`, `E0308`, `no-console`), or `""`. */
  readonly code: string;
  /** The message, on one line. */
  readonly message: string;
  /** Lines kept with it: notes, help, labels, message continuations. */
  readonly details: readonly string[];
  /**
   * Advice the tool repeats under every diagnostic of a rule (biome's explanations): shown
   * under the first diagnostic of the code that has it, not again.
   */
  readonly advice?: readonly string[];
}

/** A tool's output read as diagnostics. */
export interface DiagnosticReport {
  /** Every diagnostic, in the order printed. */
  readonly diagnostics: Diagnostic[];
  /** Lines that are not diagnostics and not summary, kept verbatim (blank ones included). */
  readonly general: string[];
  /** The tool's own summary lines (`Found 9 errors in 2 files.`), kept verbatim at the end. */
  readonly summary: string[];
  /** What the parser dropped, counted by singular noun (`source excerpt` → 4). */
  readonly dropped: Map<string, number>;
}

/** An empty report to fill. */
export function newReport(): DiagnosticReport {
  return { diagnostics: [], general: [], summary: [], dropped: new Map() };
}

/** Counts `n` dropped things of one kind (`noun` is singular: `source excerpt`). */
export function drop(report: DiagnosticReport, noun: string, n = 1): void {
  if (n > 0) report.dropped.set(noun, (report.dropped.get(noun) ?? 0) + n);
}

/** How to write one run's report. */
export interface RenderOptions {
  /** The tool, for a computed summary or failure line: `tsc`, `cargo build`. */
  readonly tool: string;
  /** The tool's exit code. */
  readonly exitCode: number;
  /** `error[E0308]` (rustc's way) rather than `error E0308`. */
  readonly bracketCodes?: boolean;
  /** Count the diagnostics even when the tool printed summary lines (they count nothing). */
  readonly alwaysCount?: boolean;
}

const NOUNS: Readonly<Record<string, [string, string]>> = {
  error: ["error", "errors"],
  warning: ["warning", "warnings"],
  note: ["note", "notes"],
  info: ["info", "infos"],
  help: ["help", "helps"],
  "": ["issue", "issues"],
};

function nounCount(severity: string, n: number): string {
  const [one, many] = NOUNS[severity] ?? [severity, `${severity}s`];
  return plural(n, one, many);
}

/** The diagnostics of one key (same severity, code, message and details), with where. */
interface Group {
  readonly first: Diagnostic;
  /** Locations by file, files in order of first appearance. */
  readonly where: Map<string, string[]>;
  count: number;
}

function keyOf(d: Diagnostic): string {
  return [d.severity, d.code, d.message, ...d.details, "", ...d.advice ?? []].join("\0");
}

/** Severity counts as `6 errors, 1 warning`, errors first. */
function counts(diagnostics: readonly Diagnostic[]): string {
  const bySeverity = new Map<string, number>();
  for (const d of diagnostics) bySeverity.set(d.severity, (bySeverity.get(d.severity) ?? 0) + 1);
  const order = ["error", "warning", ...bySeverity.keys()];
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const severity of order) {
    const n = bySeverity.get(severity);
    if (!n || seen.has(severity)) continue;
    seen.add(severity);
    parts.push(nounCount(severity, n));
  }
  return parts.join(", ");
}

/** True when `text` tells a reader the run failed. */
export function saysFailed(text: string): boolean {
  return /\bfail|\berror\b|\b[1-9]\d* errors\b|\berror\[|\berror TS|\berror:/i.test(text);
}

/** Writes `report` compactly; see the module doc. `cut` names what the parser dropped. */
export function renderReport(report: DiagnosticReport, options: RenderOptions): Filtered {
  const cut = [...report.dropped].map(([noun, n]) => plural(n, noun));
  if (report.diagnostics.length === 0 && cut.length === 0) {
    const lines = [...report.general, ...report.summary];
    return { text: withFailure(lines, options).map((l) => l + "\n").join(""), cut };
  }
  const out: string[] = report.general.filter((line) => line.trim() !== "");
  const writer = new Writer(report.diagnostics, options);
  out.push(...writer.lines());
  if (writer.hiddenCount > 0) cut.push(nounCount("warning", writer.hiddenCount));
  if (report.summary.length === 0 || options.alwaysCount) {
    out.push(...computedSummary(report, options));
  }
  out.push(...report.summary);
  return { text: withFailure(out, options).map((l) => l + "\n").join(""), cut };
}

function computedSummary(report: DiagnosticReport, options: RenderOptions): string[] {
  const files = new Set(report.diagnostics.map((d) => d.file).filter((f) => f !== ""));
  if (report.diagnostics.length === 0) return [];
  const where = files.size > 0 ? ` in ${plural(files.size, "file")}` : "";
  const failed = options.exitCode === 0 ? "" : "failed, ";
  return [`${options.tool}: ${failed}${counts(report.diagnostics)}${where}`];
}

function withFailure(lines: string[], options: RenderOptions): string[] {
  if (options.exitCode === 0 || saysFailed(lines.join("\n"))) return lines;
  return [...lines, failureLine(options.tool, options.exitCode)];
}

/**
 * Files and their locations, one line per directory in order of first appearance, the
 * directory written in full before its files: `src/: a.ts 2:7, b.ts 1:7 3:14`; a directory's
 * only file written whole (`lib/c.ts 9:1`), and files without a directory on one line.
 */
export function whereLines(where: ReadonlyMap<string, readonly string[]>): string[] {
  const byDir = new Map<string, string[]>();
  for (const [file, ats] of where) {
    const dir = file.slice(0, file.lastIndexOf("/") + 1);
    const item = [file.slice(dir.length), ...ats.filter((at) => at !== "")].join(" ");
    const items = byDir.get(dir);
    if (items) items.push(item);
    else byDir.set(dir, [item]);
  }
  return [...byDir].map(([dir, items]) =>
    dir !== "" && items.length > 1 ? `${dir}: ${items.join(", ")}` : dir + items.join(", ")
  );
}

/** Renders the diagnostics of a report: general ones, files, then those in several files. */
class Writer {
  readonly #options: RenderOptions;
  readonly #showSeverity: boolean;
  readonly #groups = new Map<string, Group>();
  readonly #byFile = new Map<string, Diagnostic[]>();
  readonly #printedAdvice = new Set<string>();
  #warningLines = 0;
  readonly #hidden = new Map<string, number>();
  readonly #hiddenGroups = new Set<Group>();
  hiddenCount = 0;

  constructor(diagnostics: readonly Diagnostic[], options: RenderOptions) {
    this.#options = options;
    this.#showSeverity = new Set(diagnostics.map((d) => d.severity)).size > 1;
    for (const d of diagnostics) {
      const key = keyOf(d);
      let group = this.#groups.get(key);
      if (!group) {
        group = { first: d, where: new Map(), count: 0 };
        this.#groups.set(key, group);
      }
      group.count++;
      const ats = group.where.get(d.file);
      if (ats) ats.push(d.at);
      else group.where.set(d.file, [d.at]);
      const inFile = this.#byFile.get(d.file);
      if (inFile) inFile.push(d);
      else this.#byFile.set(d.file, [d]);
    }
  }

  lines(): string[] {
    const out: string[] = [];
    const several = [...this.#groups.values()].filter((g) => this.#inSeveral(g));
    const general = this.#byFile.get("");
    if (general) out.push(...this.#fileLines(general, ""));
    for (const [file, diagnostics] of this.#byFile) {
      if (file === "") continue;
      const own = this.#fileLines(diagnostics, "  ");
      // A file whose every diagnostic is in several files is named under those.
      if (own.length === 0 && !diagnostics.some((d) => this.#hiddenGroups.has(this.#group(d)))) {
        continue;
      }
      const elsewhere = diagnostics.filter((d) => this.#inSeveral(this.#group(d))).length;
      const note = elsewhere > 0 ? ` (${elsewhere} below)` : "";
      out.push(`${file}: ${counts(diagnostics)}${note}`, ...own);
    }
    if (several.length > 0) {
      out.push("in several files:");
      for (const group of several) out.push(...this.#groupLines(group, "  ", true));
    }
    if (this.hiddenCount > 0) out.push(this.#hiddenLine());
    return out;
  }

  #group(d: Diagnostic): Group {
    return this.#groups.get(keyOf(d)) as Group;
  }

  #inSeveral(group: Group): boolean {
    return group.where.size > 1;
  }

  #fileLines(diagnostics: readonly Diagnostic[], indent: string): string[] {
    const out: string[] = [];
    const done = new Set<Group>();
    for (const d of diagnostics) {
      const group = this.#group(d);
      if (done.has(group) || this.#inSeveral(group)) continue;
      done.add(group);
      if (d.severity !== "error" && d.severity !== "" && d.file !== "") {
        if (this.#warningLines >= DIAG_WARNINGS_SHOWN) {
          this.#hiddenGroups.add(group);
          this.hiddenCount += group.count;
          const code = d.code || d.severity;
          this.#hidden.set(code, (this.#hidden.get(code) ?? 0) + group.count);
          continue;
        }
        this.#warningLines++;
      }
      out.push(...this.#groupLines(group, indent, false));
    }
    return out;
  }

  #head(d: Diagnostic): string {
    const severity = this.#showSeverity || d.file === "" ? d.severity : "";
    let head: string;
    if (this.#options.bracketCodes && d.code && severity) head = `${severity}[${d.code}]`;
    else head = [severity, d.code].filter((part) => part !== "").join(" ");
    return head ? `${head}: ${d.message}` : d.message;
  }

  #groupLines(group: Group, indent: string, withFiles: boolean): string[] {
    const d = group.first;
    const head = this.#head(d);
    let line: string;
    const where: string[] = [];
    if (withFiles) {
      line = `${indent}${head} (×${group.count})`;
      where.push(...whereLines(group.where).map((files) => `${indent}  ${files}`));
    } else {
      const ats = group.where.get(d.file) ?? [];
      if (group.count === 1) line = `${indent}${ats[0] ? `${ats[0]} ` : ""}${head}`;
      else line = `${indent}${head} (×${group.count} at ${ats.join(" ")})`;
    }
    const out = [line.trimEnd(), ...where];
    for (const detail of d.details) out.push(`${indent}  ${detail}`);
    for (const advice of d.advice ?? []) {
      const key = `${d.code}\0${advice}`;
      if (this.#printedAdvice.has(key)) continue;
      this.#printedAdvice.add(key);
      out.push(`${indent}  ${advice}`);
    }
    return out;
  }

  #hiddenLine(): string {
    const byCount = [...this.#hidden].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const named = byCount.slice(0, DIAG_HIDDEN_CODES).map(([code, n]) => `${code} ${n}`);
    if (byCount.length > DIAG_HIDDEN_CODES) named.push("…");
    return `not shown: ${nounCount("warning", this.hiddenCount)} (${named.join(", ")})`;
  }
}
