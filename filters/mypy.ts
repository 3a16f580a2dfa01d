/**
 * `mypy`: errors grouped by file, one line each with line (and column when shown), error code
 * and message (`7 return-value: Incompatible return value type…`); a `note:` on the line of the
 * error before it stays indented under that error (written once when it repeats), other notes
 * are diagnostics of their own; the same error repeated is one line with its count and every
 * location (see `_diagnostics.ts`). `--pretty` output is read too: its wrapped messages are
 * joined and its source excerpts dropped. The closing line (`Found 4 errors in 2 files
 * (checked 2 source files)`, `Success: no issues found…`) stays. `--output json` passes through.
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
import { anyLine, type Sample, type ShapeMatch, shapeMatch } from "../src/core/shape.ts";

/** Why `mypy` arguments ask for an output rtok must not rewrite, or `null`. */
export function mypyPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    const m = /^(-O|--output)(?:=(.*))?$/.exec(arg) ?? /^(-O)(.+)$/.exec(arg);
    if (m) return `the caller chose the output format (${m[1]} ${m[2] ?? args[i + 1] ?? ""})`;
  }
  return null;
}

// `pkg/a.py:7:12: error: message  [code]`; the column, and the end (`:7:13`) with
// `--show-error-end`, are optional; `pkg/a.py: note: In function "f":` has no line.
const HEADER = /^(.+?\.pyi?):(?:(\d+)(?::(\d+))?(?::\d+:\d+)?:)? (error|warning|note): (.*)$/;
const CODE = /^(.*?)\s+\[([\w-]+)\]$/;
const SUMMARY = /^Found \d+ errors? in \d+ files?\b|^Success: no issues found/;

interface Open {
  readonly file: string;
  readonly line: string;
  readonly at: string;
  readonly severity: string;
  message: string;
  readonly details: string[];
  excerpt: boolean;
}

/** Reads mypy's output (plain or `--pretty`) as diagnostics. */
export function parseMypy(raw: string): DiagnosticReport {
  const report = newReport();
  let open: Open | null = null;
  const close = () => {
    if (!open) return;
    const joined = CODE.exec(open.message);
    const d: Diagnostic = {
      file: open.file,
      at: open.at,
      severity: open.severity,
      code: joined ? joined[2] : "",
      message: joined ? joined[1] : open.message,
      details: open.details,
    };
    report.diagnostics.push(d);
    if (open.excerpt) drop(report, "source excerpt");
    open = null;
  };
  const lines = splitLines(stripAnsi(raw));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const header = HEADER.exec(line);
    if (header) {
      const [, file, lineNo = "", col = ""] = header;
      // A note on the line of the open error is part of it.
      if (header[4] === "note" && open && open.file === file && open.line === lineNo && lineNo) {
        open.details.push(header[5]);
        continue;
      }
      close();
      open = {
        file,
        line: lineNo,
        at: col ? `${lineNo}:${col}` : lineNo,
        severity: header[4],
        message: header[5],
        details: [],
        excerpt: false,
      };
      continue;
    }
    if (SUMMARY.test(line)) {
      close();
      report.summary.push(line);
      continue;
    }
    if (open && /^\s+\S/.test(line)) {
      // `--pretty`: the source line and the `^~~~` under it.
      open.excerpt = true;
      continue;
    }
    if (open && !open.excerpt && wrapped(lines, i)) {
      // `--pretty` wraps a long message onto lines of its own.
      if (open.details.length > 0) {
        const last = open.details.length - 1;
        open.details[last] = `${open.details[last]} ${line.trim()}`;
      } else open.message = `${open.message.trimEnd()} ${line.trim()}`;
      continue;
    }
    close();
    report.general.push(line);
  }
  close();
  return report;
}

// True when lines[i] continues a message `--pretty` wrapped: more unindented text up to the
// indented source excerpt that pretty output puts under every located error.
function wrapped(lines: readonly string[], i: number): boolean {
  for (let j = i; j < lines.length; j++) {
    const line = lines[j];
    if (line.trim() === "" || HEADER.test(line) || SUMMARY.test(line)) return false;
    if (/^\s/.test(line)) return j > i;
  }
  return false;
}

/** Filters mypy's output; see the module doc. */
export function filterMypy(raw: string, input: FilterInput): Filtered {
  return renderReport(parseMypy(raw), { tool: "mypy", exitCode: input.exitCode });
}

/** The `mypy` filter. */
export const mypyFilter: CommandFilter = {
  name: "mypy",
  textClass: "log",
  passthrough: mypyPassthrough,
  filter: filterMypy,
};

// `a.py:3: error: …` lines, or mypy's own summary under such lines.
function _detect(s: Sample): ShapeMatch | null {
  const first = s.filled[0] ?? "";
  const line = /^\S+\.pyi?:\d+: (error|note|warning): /.test(first);
  const summary = /^(Found \d+ errors? in \d+ files?|Success: no issues found)/.test(s.last);
  if (!line && !summary) return null;
  if (!line && !anyLine(s.head, /^\S+\.pyi?:\d+: /)) return null;
  return shapeMatch(/^Found \d+ error/.test(s.last) || line && first.includes(": error: ") ? 1 : 0);
}

/** The families this module serves. Type checkers write caches: never read-only. */
export const FAMILIES: FamilyDeclarations = {
  "mypy": {
    filter: mypyFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 205, detect: _detect }],
    saving: 66,
  },
};
