/**
 * `eslint` (its default `stylish` format): problems grouped by file, one line each with
 * location, severity, rule and message, without stylish's column padding; the same problem
 * repeated (`no-console: Unexpected console statement`) is one line with its count and every
 * location, warnings past `DIAG_WARNINGS_SHOWN` lines are counted per rule (see
 * `_diagnostics.ts`). The `✖ N problems` summary and the `--fix` line stay. Any other format
 * the caller chose (`-f json`, `--format compact`…) and `--print-config` pass through.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { type DiagnosticReport, newReport, renderReport } from "./_diagnostics.ts";
import { lastFlag, type OptionSpec, scanOptions } from "./_args.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import { anyLine, FAILED, type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

const SPEC: OptionSpec = {
  shortValued: "cfo",
  longValued: new Set([
    "config",
    "format",
    "output-file",
    "env",
    "ext",
    "global",
    "parser",
    "parser-options",
    "plugin",
    "rule",
    "rulesdir",
    "resolve-plugins-relative-to",
    "ignore-path",
    "ignore-pattern",
    "max-warnings",
    "cache-location",
    "cache-strategy",
    "fix-type",
    "print-config",
    "stats",
    "flag",
    "concurrency",
  ]),
};

/** Why `eslint` arguments ask for an output rtok must not rewrite, or `null`. */
export function eslintPassthrough(args: readonly string[]): string | null {
  const scanned = scanOptions(args, SPEC);
  const format = lastFlag(scanned, ["-f", "--format"]);
  if (format && format.value !== "stylish") {
    return `the caller chose the output format (${format.flag} ${format.value ?? ""})`.trimEnd();
  }
  if (lastFlag(scanned, ["--print-config"])) return "the caller asked for the config (JSON)";
  return null;
}

// `  2:15  warning  Expected '===' and instead saw '=='  eqeqeq`; the rule column is absent for
// parsing errors. Columns are padded with at least two spaces.
const PROBLEM = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.*)$/;
const SUMMARY = /^[✖✔] \d+ problems?\b|^\s+\d+ errors? and \d+ warnings? potentially fixable/;
const RULE = /^(?:@[\w.-]+\/)?[\w.-]+(?:\/[\w.-]+)*$/;

/** Reads eslint's stylish output as diagnostics. */
export function parseEslint(raw: string): DiagnosticReport {
  const report = newReport();
  let file = "";
  for (const line of splitLines(stripAnsi(raw))) {
    const problem = file ? PROBLEM.exec(line) : null;
    if (problem) {
      const columns = problem[4].trimEnd().split(/ {2,}/);
      const rule = columns.length > 1 && RULE.test(columns[columns.length - 1])
        ? columns.pop() as string
        : "";
      const at = problem[1] === "0" ? "" : `${problem[1]}:${problem[2]}`;
      report.diagnostics.push({
        file,
        at,
        severity: problem[3],
        code: rule,
        message: columns.join("  "),
        details: [],
      });
      continue;
    }
    if (SUMMARY.test(line)) {
      report.summary.push(line.trimEnd());
      file = "";
      continue;
    }
    if (line.trim() === "") {
      file = "";
      report.general.push(line);
      continue;
    }
    if (!/^\s/.test(line) && (line.startsWith("/") || /^[A-Za-z]:[\\/]|^\S+\.\w+$/.test(line))) {
      file = line.trimEnd();
      continue;
    }
    report.general.push(line);
  }
  return report;
}

/** Filters eslint's stylish output; see the module doc. */
export function filterEslint(raw: string, input: FilterInput): Filtered {
  return renderReport(parseEslint(raw), { tool: "eslint", exitCode: input.exitCode });
}

/** The `eslint` filter. */
export const eslintFilter: CommandFilter = {
  name: "eslint",
  textClass: "log",
  passthrough: eslintPassthrough,
  filter: filterEslint,
};

// The stylish formatter: `✖ N problems` at the end, or `  3:5  error  …` under a file path.
function _detect(s: Sample): ShapeMatch | null {
  const summary = s.tail.find((l) => /^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)/.test(l));
  const listed = anyLine(s.head, /^\s+\d+:\d+\s+(error|warning)\s+\S/);
  if (summary === undefined && !listed) return null;
  if (summary === undefined && !anyLine(s.head, /^\/\S+$|^\S+\.(m|c)?[jt]sx?$/)) return null;
  const failed = summary === undefined
    ? anyLine(s.head, /^\s+\d+:\d+\s+error\s/)
    : !/\(0 errors?,/.test(summary);
  return shapeMatch(failed ? FAILED : 0);
}

/** The families this module serves. Linters may write (`--fix`) and load plugins: never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "eslint": {
    filter: eslintFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 225, detect: _detect }],
    saving: 77,
  },
};
