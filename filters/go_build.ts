/**
 * `go build` and `go vet` (printed on stderr): compile errors and vet findings grouped by file,
 * one line each with location and message (`12:14 undefined: undefinedName`), tab-indented
 * continuation lines (`have (string)` / `want (int)`) kept under it; the same message repeated
 * is one line with its count and every location (see `_diagnostics.ts`). A vet type-check
 * failure keeps its `vet` prefix as its code. The `# package` headers go (each file path
 * already says where), as do `go: downloading …` lines; a header stays before lines that name no
 * file (a link error). `-json` passes through.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { type DiagnosticReport, drop, newReport, renderReport } from "./_diagnostics.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import { FAILED, type Sample, type ShapeMatch, shapeMatch, shareOf } from "../src/core/shape.ts";

/** Why `go build`/`go vet` arguments ask for an output rtok must not rewrite, or `null`. */
export function goPassthrough(args: readonly string[]): string | null {
  for (const arg of args) {
    if (arg === "--") break;
    if (/^--?json(=|$)/.test(arg)) return `the caller asked for JSON (${arg})`;
  }
  return null;
}

// `./main.go:10:14: message`, `vet: ./main.go:10:14: message`; the column may be absent.
const DIAGNOSTIC = /^(vet: )?(.+?\.(?:go|s|c|h|mod|sum|tmpl)):(\d+)(?::(\d+))?: (.*)$/;
const PACKAGE = /^# (\S+)$/;
const PROGRESS = /^go: (downloading|finding|extracting|upgraded|added) /;

/** Reads go build's or go vet's output as diagnostics. */
export function parseGo(raw: string, vet: boolean): DiagnosticReport {
  const report = newReport();
  let pkg: string | null = null;
  let details: string[] | null = null;
  for (const line of splitLines(stripAnsi(raw))) {
    const diagnostic = DIAGNOSTIC.exec(line);
    if (diagnostic) {
      if (pkg !== null) drop(report, "package header");
      pkg = null;
      const [, vetPrefix, file, lineNo, col, message] = diagnostic;
      if (message === "too many errors") {
        // The compiler stopped listing this package's errors: a note, not an error.
        report.summary.push(line);
        details = null;
        continue;
      }
      details = [];
      report.diagnostics.push({
        file,
        at: col ? `${lineNo}:${col}` : lineNo,
        severity: vet && !vetPrefix ? "" : "error",
        code: vetPrefix ? "vet" : "",
        message,
        details,
      });
      continue;
    }
    if (details && line.startsWith("\t")) {
      details.push(line.trim());
      continue;
    }
    details = null;
    const header = PACKAGE.exec(line);
    if (header) {
      if (pkg !== null) drop(report, "package header");
      pkg = line;
      continue;
    }
    if (PROGRESS.test(line)) {
      drop(report, "download line");
      continue;
    }
    if (pkg !== null) report.general.push(pkg);
    pkg = null;
    report.general.push(line);
  }
  if (pkg !== null) report.general.push(pkg);
  return report;
}

function goFilter(name: string, vet: boolean): CommandFilter {
  return {
    name,
    textClass: "log",
    filterStderr: true,
    passthrough: goPassthrough,
    filter: (raw: string, input: FilterInput): Filtered =>
      renderReport(parseGo(raw, vet), { tool: name, exitCode: input.exitCode, alwaysCount: true }),
  };
}

/** The `go build` filter. Go prints its errors on stderr. */
export const goBuildFilter: CommandFilter = goFilter(
  "go build",
  false,
);
/** The `go vet` filter. */
export const goVetFilter: CommandFilter = goFilter(
  "go vet",
  true,
);

// `# pkg` then `file.go:line:` diagnostics, or mostly such lines. Read as `go build`.
function _detect(s: Sample): ShapeMatch | null {
  const located = (l: string) => /^\S+\.go:\d+(:\d+)?: /.test(l);
  const packaged = /^# \S+$/.test(s.filled[0] ?? "") && located(s.filled[1] ?? "");
  if (!packaged && shareOf(s.filled, located) < 0.5) return null;
  return shapeMatch(FAILED);
}

/** The families this module serves. Builds write artifacts and caches: never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "go build": {
    filter: goBuildFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 220, detect: _detect }],
    saving: 61,
  },
  "go vet": { filter: goVetFilter, rewrite: NOT_READ_ONLY, saving: 65 },
};
