/**
 * `golangci-lint` (`run`, its default text format): issues grouped by file, one line each with
 * location, linter and message (`12:2 errcheck: Error return value of `f.Close` is not
 * checked`); the source line and `^` marker printed under each issue are dropped; the same issue
 * repeated is one line with its count and every location (see `_diagnostics.ts`). The closing
 * count (`53 issues:` and its `* errcheck: 34` lines, `0 issues.`) and anything else it prints
 * stay. Any other output format the caller chose passes through.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { type DiagnosticReport, drop, newReport, renderReport } from "./_diagnostics.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";

const TEXT_FORMATS = new Set(["colored-line-number", "line-number", "tab", "colored-tab", "text"]);

/** Why `golangci-lint` arguments ask for an output rtok must not rewrite, or `null`. */
export function golangciPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    // v1: `--out-format json`; v2: `--output.json.path stdout`.
    const v1 = /^--out-format(?:=(.*))?$/.exec(arg);
    if (v1) {
      const format = v1[1] ?? args[i + 1] ?? "";
      if (!format.split(",").every((f) => TEXT_FORMATS.has(f))) {
        return `the caller chose the output format (--out-format ${format})`;
      }
    }
    const v2 = /^--output\.([\w-]+)\.path\b/.exec(arg);
    if (v2 && v2[1] !== "text") return `the caller chose the output format (${arg})`;
  }
  return null;
}

// `pkg/a.go:12:2: message (linter)`; the column may be absent.
const ISSUE = /^(.+?\.go):(\d+)(?::(\d+))?: (.*) \(([\w-]+)\)$/;
const COUNT = /^\d+ issues?[.:]$|^\* [\w-]+: \d+$/;

/** Reads golangci-lint's text output as diagnostics. */
export function parseGolangci(raw: string): DiagnosticReport {
  const report = newReport();
  let inIssue = false;
  let excerpt = false;
  const endIssue = () => {
    if (inIssue && excerpt) drop(report, "source excerpt");
    inIssue = false;
    excerpt = false;
  };
  for (const line of splitLines(stripAnsi(raw))) {
    const issue = ISSUE.exec(line);
    if (issue) {
      endIssue();
      inIssue = true;
      const [, file, lineNo, col, message, linter] = issue;
      report.diagnostics.push({
        file,
        at: col ? `${lineNo}:${col}` : lineNo,
        severity: "",
        code: linter,
        message,
        details: [],
      });
      continue;
    }
    if (COUNT.test(line)) {
      endIssue();
      report.summary.push(line);
      continue;
    }
    // Under an issue, until the `^` marker: the source line(s) it points at.
    if (inIssue && line.trim() !== "" && !/^level=/.test(line)) {
      excerpt = true;
      if (/^\s*\^\s*$/.test(line)) endIssue();
      continue;
    }
    endIssue();
    report.general.push(line);
  }
  endIssue();
  return report;
}

/** Filters golangci-lint's output; see the module doc. */
export function filterGolangci(raw: string, input: FilterInput): Filtered {
  return renderReport(parseGolangci(raw), { tool: "golangci-lint", exitCode: input.exitCode });
}

/** The `golangci-lint` filter. */
export const golangciLintFilter: CommandFilter = {
  name: "golangci-lint",
  textClass: "log",
  passthrough: golangciPassthrough,
  filter: filterGolangci,
};

/**
 * The families this module serves. Linters may write (`--fix`) and run the project's build: never rewritten as read-only.
 */
export const FAMILIES: FamilyDeclarations = {
  "golangci-lint": { filter: golangciLintFilter, rewrite: NOT_READ_ONLY, saving: null },
};
