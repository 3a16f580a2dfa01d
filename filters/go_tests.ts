/**
 * `go test`, plain and `-v`: a passing run becomes one line with the package counts (and, with
 * `-v`, the test counts): `go test: ok, tests: 56 passed, 2 skipped; packages: 13 ok, 1 no test
 * files`. A failing run keeps every `--- FAIL: TestX` line (subtests included) with the test's
 * output (its `file_test.go:17: message` lines, an example's got/want), each panic with the
 * goroutine frames outside the runtime and testing packages, every `FAIL pkg` line (a build
 * failure included) and the counts, which say `FAILED`.
 *
 * Cut: `=== RUN`/`PAUSE`/`CONT`/`NAME` lines, `--- PASS`/`--- SKIP` lines and the output of the
 * tests they close, `ok pkg` and `? pkg [no test files]` lines (counted; an `ok` line with a
 * coverage figure stays), bare `PASS`/`FAIL` lines, zero durations (`(0.00s)`), the goroutine
 * header, runtime and testing goroutine frames, the argument words and pc offsets of the
 * others, and
 * beyond the caps below: long test output, failures past the first {@link GO_DETAILS_SHOWN}
 * (their `--- FAIL` line stays) and unrecognised lines. Benchmark result lines all stay.
 *
 * Compile errors are printed on stderr, which passes through as it is.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { capLines, Cuts, joinLines, sayFailed } from "./_test_report.ts";
import { splitLines, stripAnsi } from "../src/core/text.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";
import {
  anyLine,
  FAILED,
  hasLineStarting,
  type Sample,
  type ShapeMatch,
  shapeMatch,
} from "../src/core/shape.ts";

/** Failing tests shown with their output; the rest keep only their `--- FAIL` line. */
export const GO_DETAILS_SHOWN = 20;
/** Output lines kept per failing test. */
export const GO_FAILURE_LINES = 20;
/** Goroutine frames kept per panic, outside the runtime and testing packages. */
export const GO_FRAMES_SHOWN = 5;
/** Unrecognised lines kept (output printed outside any test). */
export const GO_OTHER_LINES = 20;

/** Why `go test` arguments ask for an output rtok must not rewrite, or `null`. */
export function goTestPassthrough(args: readonly string[]): string | null {
  for (const arg of args) {
    const flag = arg.replace(/^--?/, "-").replace(/=.*$/, "");
    if (arg === "--" || !arg.startsWith("-")) continue;
    if (flag === "-json" && !/=false$/.test(arg)) return "the caller chose -json";
    if (flag === "-list") return "the caller asked for the test list";
    if (flag === "-h" || flag === "-help") return `the caller asked for ${arg}`;
    if (/^-test\.v=test2json$/.test(arg.replace(/^--/, "-"))) return "the caller chose test2json";
  }
  return null;
}

const RUN = /^=== (RUN|PAUSE|CONT|NAME)\s+(\S+)$/;
const RESULT = /^\s*--- (PASS|FAIL|SKIP): (\S+) \([\d.]+s\)$/;
const PKG_OK = /^ok\s+(\S+)\s+(.*)$/;
const PKG_NONE = /^\?\s+\S+\s+\[no test files\]$/;
const PKG_FAIL = /^FAIL\s+(\S+)(?:\s+(.*))?$/;
const BENCH = /^Benchmark\S*\s+\d+\s/;
const GOROUTINE = /^goroutine \d+ \[.*\]:$/;
// A frame's function line, or its `\t/path/file.go:12 +0x2e` location line.
const FRAME_FUNC = /^(created by )?\S.*$/;
const FRAME_FILE = /^\t\S+:\d+/;
// Frames of the runtime and the testing package: the panic's plumbing, not the test's code.
const PLUMBING = /^(created by )?(testing|runtime)\.|^panic\(/;

/** Counts for the last line. */
interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  pkgOk: number;
  pkgFail: number;
  pkgNone: number;
}

/** Filters go test's report; see the module doc. */
export function filterGoTest(raw: string, input: FilterInput): Filtered {
  const lines = splitLines(stripAnsi(raw));
  const cuts = new Cuts();
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, pkgOk: 0, pkgFail: 0, pkgNone: 0 };
  const out: string[] = [];
  const other: string[] = [];
  // Output of tests whose result is not printed yet (`-v` prints it before the result line).
  const pending = new Map<string, string[]>();
  let owner: string[] | null = null;
  let failureLines = 0;
  let shownFailures = 0;
  const keepFailureLine = (line: string) => {
    if (failureLines++ < GO_FAILURE_LINES && shownFailures <= GO_DETAILS_SHOWN) out.push(line);
    else cuts.add("test output line");
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const run = RUN.exec(line);
    if (run) {
      cuts.add("run line");
      if (run[1] === "PAUSE") continue;
      if (!pending.has(run[2])) pending.set(run[2], []);
      owner = pending.get(run[2]) ?? null;
      continue;
    }
    const result = RESULT.exec(line);
    if (result) {
      const buffered = pending.get(result[2]) ?? [];
      pending.delete(result[2]);
      if (result[1] === "FAIL") {
        counts.failed++;
        shownFailures++;
        failureLines = 0;
        out.push(line.replace(/ \(0\.00s\)$/, ""));
        // `-v` printed these before the result line: indent them under it, as plain mode does.
        const under = `${/^\s*/.exec(line)?.[0] ?? ""}    `;
        for (const kept of buffered) {
          keepFailureLine(/^\s/.test(kept) ? under + kept.trimStart() : kept);
        }
        owner = out;
      } else {
        if (result[1] === "PASS") counts.passed++;
        else counts.skipped++;
        cuts.add("passing test");
        cuts.add("passing test output line", buffered.length);
        owner = null;
      }
      continue;
    }
    if (line.startsWith("panic: ")) {
      i = readPanic(lines, i, out, cuts);
      continue;
    }
    if (readPackageLine(line, counts, out, cuts)) {
      owner = null;
      continue;
    }
    // Bare verdicts repeat the package lines; a separate coverage line repeats the ok line's.
    if (line === "PASS" || line === "FAIL" || /^coverage: /.test(line)) continue;
    if (BENCH.test(line)) out.push(line);
    else if (owner === out) keepFailureLine(line);
    else if (owner) owner.push(line);
    else if (line.trim() !== "") other.push(line);
  }
  out.push(...capLines(other, GO_OTHER_LINES, cuts, "other line"));
  if (lines.length) out.push(countsLine(counts));
  return { text: joinLines(sayFailed(out, "go test", input.exitCode)), cut: cuts.phrases() };
}

/** Reads an `ok`, `?` or `FAIL` package line; false when `line` is none of them. */
function readPackageLine(line: string, counts: Counts, out: string[], cuts: Cuts): boolean {
  const ok = PKG_OK.exec(line);
  if (ok) {
    counts.pkgOk++;
    const coverage = /coverage: (?!\[no statements\]).*/.exec(ok[2]);
    if (coverage) out.push(`ok ${ok[1]} ${coverage[0]}`);
    else cuts.add("ok package");
    return true;
  }
  if (PKG_NONE.test(line)) {
    counts.pkgNone++;
    cuts.add("package without tests", 1, "packages without tests");
    return true;
  }
  const fail = PKG_FAIL.exec(line);
  if (fail && line !== "FAIL") {
    counts.pkgFail++;
    out.push(fail[2] ? `FAIL ${fail[1]} ${fail[2].replace(/\s+/g, " ")}` : `FAIL ${fail[1]}`);
    return true;
  }
  return false;
}

/**
 * Keeps a panic's message lines and its goroutine frames outside the runtime and testing
 * packages (at most {@link GO_FRAMES_SHOWN}); returns the index of the panic's last line.
 */
function readPanic(lines: readonly string[], start: number, out: string[], cuts: Cuts): number {
  let i = start;
  while (i < lines.length && (lines[i].startsWith("panic: ") || lines[i].startsWith("\tpanic: "))) {
    out.push(lines[i++]);
  }
  while (i < lines.length && lines[i] === "") i++;
  if (!GOROUTINE.test(lines[i] ?? "")) return i - 1;
  i++;
  let shown = 0;
  while (i < lines.length && FRAME_FUNC.test(lines[i]) && FRAME_FILE.test(lines[i + 1] ?? "")) {
    if (PLUMBING.test(lines[i]) || shown >= GO_FRAMES_SHOWN) cuts.add("runtime frame");
    else {
      // Argument words and the pc offset mean nothing to a reader of the source.
      out.push(lines[i].replace(/\((0x[0-9a-f]+\??(, )?)+\)$/, "(…)"));
      out.push(lines[i + 1].replace(/ \+0x[0-9a-f]+$/, ""));
      shown++;
    }
    i += 2;
  }
  return i - 1;
}

function countsLine(counts: Counts): string {
  const failing = counts.failed > 0 || counts.pkgFail > 0;
  const tests = [
    counts.failed ? `${counts.failed} failed` : "",
    counts.passed ? `${counts.passed} passed` : "",
    counts.skipped ? `${counts.skipped} skipped` : "",
  ].filter((part) => part !== "");
  const packages = [
    counts.pkgFail ? `${counts.pkgFail} failed` : "",
    counts.pkgOk ? `${counts.pkgOk} ok` : "",
    counts.pkgNone ? `${counts.pkgNone} no test files` : "",
  ].filter((part) => part !== "");
  const parts = [
    tests.length ? `tests: ${tests.join(", ")}` : "",
    packages.length ? `packages: ${packages.join(", ")}` : "",
  ].filter((part) => part !== "");
  return `go test: ${failing ? "FAILED" : "ok"}${parts.length ? `, ${parts.join("; ")}` : ""}`;
}

/** The `go test` filter. */
export const goTestFilter: CommandFilter = {
  name: "go test",
  textClass: "log",
  passthrough: goTestPassthrough,
  filter: filterGoTest,
};

const GO_PACKAGE = /^(ok {2}|FAIL|\? {3})\t\S+\t/;

// Package result lines (`ok  \tpkg\t0.1s`) or `=== RUN Test…` lines.
function _detect(s: Sample, text: string): ShapeMatch | null {
  const started = anyLine(s.head, GO_PACKAGE) || anyLine(s.head, /^=== RUN\s+Test/) ||
    anyLine(s.tail, GO_PACKAGE);
  if (!started) return null;
  const failed = text.includes("--- FAIL") || hasLineStarting(text, "FAIL\t") ||
    /^FAIL$/.test(s.last);
  return shapeMatch(failed ? FAILED : 0);
}

/**
 * The families this module serves. Test runners run the project's code and write build
 * caches: never rewritten as read-only.
 */
export const FAMILIES: FamilyDeclarations = {
  "go test": {
    filter: goTestFilter,
    rewrite: NOT_READ_ONLY,
    shapes: [{ rank: 120, detect: _detect }],
    saving: 89,
  },
};
