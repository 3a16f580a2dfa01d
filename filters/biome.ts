/**
 * `biome` (`check`, `lint`, `format`, `ci`; its default reporter, printed on stderr):
 * diagnostics grouped by file, one line each with location, category and message
 * (`3:15 lint/suspicious/noDoubleEquals: Using == may be unsafe…`); the advice lines (`i …`,
 * fixes included) stay indented under it, each written once; the source excerpts and the
 * suggested-fix diffs are dropped; the same diagnostic repeated is one line with its count and
 * every location (see `_diagnostics.ts`). The closing lines (`Checked 6 files in 41ms…`,
 * `Found 41 errors.`, `Diagnostics not shown: 25.`, `Some errors were emitted…`) stay. Any
 * other `--reporter` the caller chose passes through.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import {
  type Diagnostic,
  type DiagnosticReport,
  drop,
  newReport,
  renderReport,
} from "./_diagnostics.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import { anyLine, FAILED, type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

/** Why `biome` arguments ask for an output rtok must not rewrite, or `null`. */
export function biomePassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    const reporter = arg.startsWith("--reporter=")
      ? arg.slice("--reporter=".length)
      : arg === "--reporter"
      ? args[i + 1]
      : null;
    if (reporter !== null && reporter !== "default") {
      return `the caller chose the reporter (--reporter ${reporter ?? ""})`.trimEnd();
    }
  }
  return null;
}

// `src/a.js:1:1 lint/style/useConst  FIXABLE  ━━━━`, or `src/a.js format ━━━━` (no position).
const HEADER = /^(.+?) ([a-zA-Z][\w/.-]*)((?:\s+[A-Z]+)*)\s+━{3,}\s*$/;
const POSITION = /^(.*):(\d+):(\d+)$/;
// `check ━━━━`: the closing block, whose message is the run's verdict.
const VERDICT = /^[a-z]+ ━{3,}\s*$/;
const MESSAGE = /^ {2}([×!i✖⚠ℹ]) (.*)$/;
const SEVERITY: Readonly<Record<string, string>> = {
  "×": "error",
  "✖": "error",
  "!": "warning",
  "⚠": "warning",
  "i": "info",
  "ℹ": "info",
};
const SUMMARY =
  /^(Checked|Formatted|Fixed) \d+ files?\b|^Found \d+ (errors?|warnings?|infos?)\b|^The number of diagnostics exceeds|^Diagnostics not shown: |^Skipped \d+ suggested fix/;

interface Open {
  readonly file: string;
  readonly at: string;
  readonly code: string;
  readonly fixable: boolean;
  severity: string;
  message: string;
  readonly details: string[];
  readonly advice: string[];
  excerpts: number;
}

/** Reads biome's default reporter output as diagnostics. */
export function parseBiome(raw: string): DiagnosticReport {
  const report = newReport();
  let open: Open | null = null;
  let verdict = false;
  const close = () => {
    if (!open) return;
    const { file, at, severity, code, details, advice } = open;
    const fixable = open.fixable && !advice.some((d) => /\bfix\b/i.test(d));
    const message = fixable ? `${open.message} (fixable)` : open.message;
    const d: Diagnostic = { file, at, severity, code, message, details, advice };
    report.diagnostics.push(d);
    if (open.excerpts > 0) drop(report, "source excerpt");
    open = null;
  };
  for (const line of splitLines(stripAnsi(raw))) {
    const header = HEADER.exec(line);
    if (header) {
      close();
      verdict = false;
      const position = POSITION.exec(header[1]);
      open = {
        file: position ? position[1] : header[1],
        at: position ? `${position[2]}:${position[3]}` : "",
        code: header[2],
        fixable: header[3].includes("FIXABLE"),
        severity: "",
        message: "",
        details: [],
        advice: [],
        excerpts: 0,
      };
      continue;
    }
    if (VERDICT.test(line)) {
      close();
      verdict = true;
      continue;
    }
    if (line.trim() === "") continue;
    const message = MESSAGE.exec(line);
    if (verdict && message) {
      report.summary.push(message[2]);
      continue;
    }
    if (open && /^\s/.test(line)) {
      readInside(open, line, message);
      continue;
    }
    close();
    verdict = false;
    if (SUMMARY.test(line)) report.summary.push(line.trimEnd());
    else report.general.push(line);
  }
  close();
  return report;
}

function readInside(open: Open, line: string, message: RegExpExecArray | null): void {
  if (line.includes("│")) {
    open.excerpts++;
  } else if (message && open.message === "") {
    open.severity = SEVERITY[message[1]] ?? "";
    open.message = message[2];
  } else if (message) {
    open.advice.push(message[1] === "i" ? message[2] : `${message[1]} ${message[2]}`);
  } else if (open.message === "") {
    open.message = line.trim();
  } else {
    open.advice.push(line.trim());
  }
}

/** Filters biome's output; see the module doc. */
export function filterBiome(raw: string, input: FilterInput): Filtered {
  return renderReport(parseBiome(raw), { tool: "biome", exitCode: input.exitCode });
}

/** The `biome` filter. Biome prints its diagnostics on stderr. */
export const biomeFilter: CommandFilter = {
  name: "biome",
  textClass: "log",
  filterStderr: true,
  passthrough: biomePassthrough,
  filter: filterBiome,
};

// `path:line:col lint/…` diagnostics.
function _detect(s: Sample): ShapeMatch | null {
  if (!anyLine(s.head, /^\S+:\d+:\d+ (lint|format|assist|parse|check)\S* /)) return null;
  return shapeMatch(anyLine(s.tail, /^\s*× /) ? FAILED : 0);
}

/** The families this module serves. Linters may write (`--write`): never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "biome": {
    filter: biomeFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 230, detect: _detect }],
    saving: 87,
  },
};
