/**
 * `tsc`: TypeScript's diagnostics grouped by file (`src/a.ts: 6 errors`), one line each with
 * its location, code and message (`2:7 TS2322: Type 'string' is not assignable…`), message
 * chains and related locations kept as indented notes; the same error repeated is one line
 * with its count and every location (see `_diagnostics.ts`). Both of tsc's formats are read:
 * the plain one (`src/a.ts(2,7): error TS2322: …`, what a pipe gets) and `--pretty`, whose
 * source excerpts and per-file table are dropped (the summary line stays). `tsc -b -v`
 * progress lines and anything else tsc prints stay verbatim. When tsc printed no summary, one
 * is computed: `tsc: 9 errors in 2 files`.
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

/** Why `tsc` arguments ask for an output rtok must not rewrite, or `null`. */
export function tscPassthrough(args: readonly string[]): string | null {
  const machine = args.find((a) => a === "--showConfig" || a === "--generateTrace");
  return machine ? `the caller asked for a machine format (${machine})` : null;
}

// `src/a.ts(2,7): error TS2322: message`, the plain format.
const PLAIN = /^(.+?)\((\d+),(\d+)\): (error|warning|message|suggestion) (TS\d+): (.*)$/;
// `src/a.ts:2:7 - error TS2322: message`, the pretty format.
const PRETTY = /^(.+?):(\d+):(\d+) - (error|warning|message|suggestion) (TS\d+): (.*)$/;
// `error TS5023: Unknown compiler option '--x'.`: no file.
const GLOBAL = /^(error|warning|message) (TS\d+): (.*)$/;
// Pretty summary and its per-file table.
const FOUND = /^Found \d+ errors?\b/;
const TABLE_HEAD = /^Errors\s+Files$/;
const TABLE_ROW = /^\s+\d+\s+\S.*$/;
// A pretty excerpt: `12 const x = 1;` (line number then source), or the `~~~` under it.
const EXCERPT_SOURCE = /^\s*\d+ /;
const EXCERPT_MARK = /^\s*~+\s*$/;
// Related information in pretty output: `  src/c.ts:1:44 - The expected type comes from…`
// (TypeScript 7), or `  src/c.ts:1:44` with the message on a later indented line (5.x).
const RELATED = /^ {2}(\S.*?):(\d+):(\d+)(?: - (.*))?$/;

interface Open {
  readonly file: string;
  readonly at: string;
  readonly severity: string;
  readonly code: string;
  readonly message: string;
  readonly details: string[];
  /** Pretty only: a blank line was seen after the header, so indented text is not a chain. */
  pastHeader: boolean;
  excerpts: number;
}

/** Reads tsc's output (plain or pretty) as diagnostics. */
export function parseTsc(raw: string): DiagnosticReport {
  const report = newReport();
  let open: Open | null = null;
  let inTable = false;
  const close = () => {
    if (!open) return;
    const { file, at, severity, code, message, details } = open;
    const d: Diagnostic = { file, at, severity, code, message, details };
    report.diagnostics.push(d);
    if (open.excerpts > 0) drop(report, "source excerpt", 1);
    open = null;
  };
  for (const line of splitLines(stripAnsi(raw))) {
    const plain = PLAIN.exec(line) ?? PRETTY.exec(line);
    if (plain) {
      close();
      open = {
        file: plain[1],
        at: `${plain[2]}:${plain[3]}`,
        severity: plain[4],
        code: plain[5],
        message: plain[6],
        details: [],
        pastHeader: false,
        excerpts: 0,
      };
      continue;
    }
    const global = GLOBAL.exec(line);
    if (global) {
      close();
      open = {
        file: "",
        at: "",
        severity: global[1],
        code: global[2],
        message: global[3],
        details: [],
        pastHeader: false,
        excerpts: 0,
      };
      continue;
    }
    if (FOUND.test(line)) {
      close();
      report.summary.push(line);
      continue;
    }
    if (TABLE_HEAD.test(line)) {
      inTable = true;
      drop(report, "per-file table");
      continue;
    }
    if (inTable && TABLE_ROW.test(line)) continue;
    inTable = false;
    if (open && readInside(open, line)) continue;
    close();
    report.general.push(line);
  }
  close();
  return report;
}

// A line inside an open diagnostic: chain, related location, excerpt or blank. False when it
// belongs to none.
function readInside(open: Open, line: string): boolean {
  if (line.trim() === "") {
    open.pastHeader = true;
    return true;
  }
  if (!open.pastHeader && /^\s+\S/.test(line)) {
    // A message chain: `  The types of 'c.d' are incompatible…`.
    open.details.push(line.trim());
    return true;
  }
  if (!open.pastHeader) return false;
  if (EXCERPT_SOURCE.test(line) || EXCERPT_MARK.test(line)) {
    open.excerpts++;
    return true;
  }
  const related = RELATED.exec(line);
  if (related) {
    const where = related[1] === open.file
      ? `${related[2]}:${related[3]}`
      : `${related[1]}:${related[2]}:${related[3]}`;
    open.details.push(related[4] ? `${where} ${related[4]}` : where);
    return true;
  }
  if (/^ {4}\S/.test(line) && open.details.length > 0) {
    // TypeScript 5's related message, under its location.
    const last = open.details.length - 1;
    open.details[last] = `${open.details[last]} ${line.trim()}`;
    return true;
  }
  return false;
}

/** Filters tsc's output; see the module doc. */
export function filterTsc(raw: string, input: FilterInput): Filtered {
  return renderReport(parseTsc(raw), { tool: "tsc", exitCode: input.exitCode });
}

/** The `tsc` filter. */
export const tscFilter: CommandFilter = {
  name: "tsc",
  textClass: "log",
  passthrough: tscPassthrough,
  filter: filterTsc,
};

// A first line that is a diagnostic, plain (`a.ts(3,5): error TS2322: …`) or pretty.
function _detect(s: Sample): ShapeMatch | null {
  const first = s.filled[0] ?? "";
  const plain = /^\S.*\(\d+,\d+\): (error|warning) TS\d+: /.test(first);
  const pretty = /^\S+:\d+:\d+ - (error|warning) TS\d+: /.test(first);
  if (!plain && !pretty) return null;
  return shapeMatch(anyLine(s.head, /\b(- )?error TS\d+/) ? FAILED : 0);
}

/** The families this module serves. Compilers write build output: never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "tsc": {
    filter: tscFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 200, detect: _detect }],
    saving: 73,
  },
};
