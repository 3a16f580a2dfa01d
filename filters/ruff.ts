/**
 * `ruff` (`ruff check` in its `full`, `concise` and `grouped` formats; `ruff format`):
 * violations grouped by file, one line each with location, rule code and message
 * (`1:8 F401: [*] `os` imported but unused`), ruff's `help:` lines kept under it, the source
 * excerpts and fix diffs of the full format dropped; the same violation repeated is one line
 * with its count and every location (see `_diagnostics.ts`). The closing lines (`Found 9
 * errors.`, `[*] 5 fixable…`, `All checks passed!`) and anything else ruff prints (`ruff
 * format`'s `Would reformat: …`) stay. Machine formats (`--output-format json`…) and diffs
 * (`--diff`) pass through.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { type DiagnosticReport, drop, newReport, renderReport } from "./_diagnostics.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import { anyLine, FAILED, type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

const HUMAN_FORMATS = new Set(["full", "concise", "grouped", "text"]);

/** Why `ruff` arguments ask for an output rtok must not rewrite, or `null`. */
export function ruffPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    if (arg === "--diff") return "the caller asked for a diff (--diff)";
    const m = /^--(output-format|format)(?:=(.*))?$/.exec(arg);
    if (!m) continue;
    const format = m[2] ?? args[i + 1] ?? "";
    if (!HUMAN_FORMATS.has(format)) {
      return `the caller chose the output format (--${m[1]} ${format})`;
    }
  }
  return null;
}

// A rule code (`F401`, `UP035`) or a named error (`invalid-syntax:`), then `[*]` when fixable.
const CODE = String.raw`([A-Z]+[0-9]+|[a-z][a-z0-9-]*:|SyntaxError:)`;
const FULL_HEAD = new RegExp(String.raw`^${CODE} (.*)$`);
const ARROW = /^\s*--> (.+?):(\d+):(\d+)\s*$/;
const CONCISE = new RegExp(String.raw`^(.+?):(\d+):(\d+): ${CODE} (.*)$`);
const GROUPED_FILE = /^(\S.*):$/;
const GROUPED = new RegExp(String.raw`^\s+(\d+):(\d+)\s+${CODE} (.*)$`);
const SUMMARY =
  /^Found \d+ errors?\b|^\[\*\] \d+ fixable|^No fixes available|^All checks passed!|^\d+ files? (would be )?(reformatted|left unchanged|already formatted)|^\d+ files? (would be )?reformatted|^Fixed \d+ errors?/;

function codeOf(code: string): string {
  return code.endsWith(":") ? code.slice(0, -1) : code;
}

/** Reads ruff's output as diagnostics. */
export function parseRuff(raw: string): DiagnosticReport {
  const report = newReport();
  const lines = splitLines(stripAnsi(raw));
  let details: string[] | null = null;
  let excerpt = false;
  let groupedFile = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const head = FULL_HEAD.exec(line);
    const arrow = head ? ARROW.exec(lines[i + 1] ?? "") : null;
    if (head && arrow) {
      details = [];
      excerpt = false;
      report.diagnostics.push({
        file: arrow[1],
        at: `${arrow[2]}:${arrow[3]}`,
        severity: "error",
        code: codeOf(head[1]),
        message: head[2],
        details,
      });
      i++;
      continue;
    }
    if (details) {
      if (line.trim() === "") {
        if (excerpt) drop(report, "source excerpt");
        details = null;
        continue;
      }
      if (/^(help|note|info|warning): /.test(line) || /^\s*= (help|note): /.test(line)) {
        details.push(line.trim().replace(/^= /, ""));
      } else {
        excerpt = true;
      }
      continue;
    }
    const concise = CONCISE.exec(line);
    if (concise) {
      report.diagnostics.push({
        file: concise[1],
        at: `${concise[2]}:${concise[3]}`,
        severity: "error",
        code: codeOf(concise[4]),
        message: concise[5],
        details: [],
      });
      continue;
    }
    const grouped = groupedFile ? GROUPED.exec(line) : null;
    if (grouped) {
      report.diagnostics.push({
        file: groupedFile,
        at: `${grouped[1]}:${grouped[2]}`,
        severity: "error",
        code: codeOf(grouped[3]),
        message: grouped[4],
        details: [],
      });
      continue;
    }
    const file = GROUPED_FILE.exec(line);
    if (file && /^\s+\d+:\d+\s/.test(lines[i + 1] ?? "")) {
      groupedFile = file[1];
      continue;
    }
    if (line.trim() === "") groupedFile = "";
    if (SUMMARY.test(line)) report.summary.push(line);
    else report.general.push(line);
  }
  if (details && excerpt) drop(report, "source excerpt");
  return report;
}

/** Filters ruff's output; see the module doc. */
export function filterRuff(raw: string, input: FilterInput): Filtered {
  return renderReport(parseRuff(raw), { tool: "ruff", exitCode: input.exitCode });
}

/** The `ruff` filter. */
export const ruffFilter: CommandFilter = {
  name: "ruff",
  textClass: "log",
  passthrough: ruffPassthrough,
  filter: filterRuff,
};

// Rule codes (`F401 …`) with `--> path:line:col` pointers or ruff's summary.
function _detect(s: Sample): ShapeMatch | null {
  const coded = anyLine(s.head, /^[A-Z]{1,4}\d{3,4} (\[\*\] )?\S/);
  const pointed = anyLine(s.head, /^\s*--> \S+:\d+:\d+$/);
  const summary = anyLine(s.tail, /^(Found \d+ errors?\.|All checks passed!)$/);
  if (!(coded && pointed) && !(coded && summary)) return null;
  return shapeMatch(anyLine(s.tail, /^Found \d+ error/) ? FAILED : 0);
}

/** The families this module serves. Linters may write (`--fix`) and cache: never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "ruff": {
    filter: ruffFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 210, detect: _detect }],
    saving: 82,
  },
};
