/**
 * Running the test cases a filter file carries beside each filter: each input through its
 * filter, the text compared with what was expected (trailing newlines aside; the pointer
 * line is the runner's, never part of it), a failure shown as a unified diff.
 *
 * @module
 */

import { compileFilter } from "./engine.ts";
import type { FilterDef } from "./spec.ts";

/** One failed test case. */
export interface TestFailure {
  /** The filter's name. */
  readonly filter: string;
  /** The file it is in. */
  readonly file: string;
  /** The test's name. */
  readonly test: string;
  /** The test's `[[filter.test]]` line. */
  readonly line: number;
  /** Expected against actual, as a unified diff; or what the filter threw. */
  readonly diff: string;
}

/** What running the tests of some filters found. */
export interface Verified {
  /** How many filters were tested. */
  readonly filters: number;
  /** How many test cases ran. */
  readonly tests: number;
  /** The ones that failed. */
  readonly failures: readonly TestFailure[];
}

/** Runs every embedded test of `defs`. */
export function verifyDefs(defs: readonly FilterDef[]): Verified {
  const failures: TestFailure[] = [];
  let tests = 0;
  for (const def of defs) {
    let filter;
    try {
      filter = compileFilter(def);
    } catch (e) {
      failures.push({
        filter: def.name,
        file: def.file,
        test: "compile",
        line: def.line,
        diff: String(e),
      });
      continue;
    }
    for (const t of def.tests) {
      tests++;
      const fail = (diff: string) =>
        failures.push({ filter: def.name, file: def.file, test: t.name, line: t.line, diff });
      try {
        const got = filter.filter(t.input, { args: [], shaped: false, exitCode: t.exitCode }).text;
        const want = t.expected.replace(/\n+$/, "");
        const actual = got.replace(/\n+$/, "");
        if (actual !== want) fail(unifiedDiff(want, actual));
      } catch (e) {
        fail(`the filter threw: ${(e as Error)?.message ?? e}`);
      }
    }
  }
  return { filters: defs.length, tests, failures };
}

/**
 * A unified diff (`--- expected`, `+++ actual`, `@@` hunks with 3 lines of context) of two
 * texts, line by line.
 */
export function unifiedDiff(expected: string, actual: string, context = 3): string {
  const a = expected === "" ? [] : expected.split("\n");
  const b = actual === "" ? [] : actual.split("\n");
  const ops = _diffLines(a, b);
  const out = ["--- expected", "+++ actual"];
  // Group the edits into hunks, each with up to `context` unchanged lines around it.
  let i = 0;
  while (i < ops.length) {
    if (ops[i].op === " ") {
      i++;
      continue;
    }
    const start = Math.max(0, i - context);
    let end = i;
    // Extend past edits separated by at most 2 × context unchanged lines.
    for (let j = i; j < ops.length; j++) {
      if (ops[j].op !== " ") end = j;
      else if (j - end > 2 * context) break;
    }
    end = Math.min(ops.length - 1, end + context);
    const hunk = ops.slice(start, end + 1);
    const aStart = ops.slice(0, start).filter((o) => o.op !== "+").length;
    const bStart = ops.slice(0, start).filter((o) => o.op !== "-").length;
    const aLen = hunk.filter((o) => o.op !== "+").length;
    const bLen = hunk.filter((o) => o.op !== "-").length;
    out.push(`@@ -${_range(aStart, aLen)} +${_range(bStart, bLen)} @@`);
    for (const o of hunk) out.push(o.op + o.line);
    i = end + 1;
  }
  return out.join("\n") + "\n";
}

function _range(start: number, len: number): string {
  const first = len === 0 ? start : start + 1;
  return len === 1 ? `${first}` : `${first},${len}`;
}

type _Op = { op: " " | "-" | "+"; line: string };

// A longest-common-subsequence diff; test cases are small, and past a size where the table
// would be large the whole texts are shown as removed and added.
function _diffLines(a: readonly string[], b: readonly string[]): _Op[] {
  if (a.length * b.length > 4_000_000) {
    return [
      ...a.map((line) => ({ op: "-" as const, line })),
      ...b.map((line) => ({ op: "+" as const, line })),
    ];
  }
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const ops: _Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ op: " ", line: a[i++] });
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      ops.push({ op: "-", line: a[i++] });
    } else {
      ops.push({ op: "+", line: b[j++] });
    }
  }
  return ops;
}
