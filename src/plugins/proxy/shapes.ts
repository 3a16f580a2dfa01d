/**
 * Shape detection for content filters: which kind of tool output a text is, read from the text
 * alone. A tool result inside a model request carries no command line, so the shape decides
 * which command filter sees it, with what arguments and with what exit code.
 *
 * Detection looks at a sample: the first {@linkcode HEAD_LINES} and the last
 * {@linkcode TAIL_LINES} lines, each cut to {@linkcode SAMPLE_LINE_CHARS} chars with colours
 * stripped, so its cost does not grow with the text and no pattern runs over the whole of it.
 * Anything else it needs from the whole text (a failure marker in the middle of a test run) is
 * found with `includes`/`indexOf`, which cannot backtrack.
 *
 * @module
 */

import { stripAnsi } from "../../core/text.ts";

/** Lines read from the start of the text. */
export const HEAD_LINES = 60;
/** Lines read from the end of the text. */
export const TAIL_LINES = 30;
/** Chars of each sampled line that the patterns see. */
export const SAMPLE_LINE_CHARS = 400;

/** What a text is, and how the command filter for it is called. */
export interface Shape {
  /**
   * The shape's name as the ledger records it: the command family whose filter reads it
   * (`"git log"`, `"pytest"`, `"tsc"`…), or `"json"` or `"text"`.
   */
  readonly name: string;
  /** The command filter family that compresses it; `null` for `"json"` and `"text"`. */
  readonly family: string | null;
  /**
   * Arguments that make the filter read the text as it is laid out (`["-H", "-n"]` for grep
   * hits with names and numbers); never a machine format.
   */
  readonly args: readonly string[];
  /** 0 unless the text shows a failure (a failing test, a compiler error). */
  readonly exitCode: number;
}

/** The first and last lines of a text, colour-free and width-capped. */
interface Sample {
  readonly head: readonly string[];
  readonly tail: readonly string[];
  /** The head's non-blank lines. */
  readonly filled: readonly string[];
  /** The tail's last non-blank line, or "". */
  readonly last: string;
}

function _clean(line: string): string {
  const capped = line.length > SAMPLE_LINE_CHARS * 2 ? line.slice(0, SAMPLE_LINE_CHARS * 2) : line;
  return stripAnsi(capped.endsWith("\r") ? capped.slice(0, -1) : capped).slice(
    0,
    SAMPLE_LINE_CHARS,
  );
}

function _sample(text: string): Sample {
  const head: string[] = [];
  let at = 0;
  while (head.length < HEAD_LINES && at < text.length) {
    const nl = text.indexOf("\n", at);
    const end = nl < 0 ? text.length : nl;
    head.push(_clean(text.slice(at, Math.min(end, at + SAMPLE_LINE_CHARS * 2))));
    at = end + 1;
  }
  const tail: string[] = [];
  let end = text.endsWith("\n") ? text.length - 1 : text.length;
  while (tail.length < TAIL_LINES && end > 0) {
    const nl = text.lastIndexOf("\n", end - 1);
    const start = nl + 1;
    tail.unshift(_clean(text.slice(Math.max(start, end - SAMPLE_LINE_CHARS * 2), end)));
    end = nl < 0 ? 0 : nl;
  }
  const filled = head.filter((l) => l.trim() !== "");
  let last = "";
  for (let i = tail.length - 1; i >= 0; i--) {
    if (tail[i].trim() !== "") {
      last = tail[i];
      break;
    }
  }
  return { head, tail, filled, last };
}

/**
 * The exit code a shape gives a run whose text shows it failed: the real code is not in the
 * text, so the filters say "failed" without one.
 */
export const FAILED = -1;

const _shape = (family: string, exitCode = 0, args: readonly string[] = []): Shape => ({
  name: family,
  family,
  args,
  exitCode,
});

const _any = (lines: readonly string[], re: RegExp): boolean => lines.some((l) => re.test(l));
const _share = (lines: readonly string[], test: (l: string) => boolean): number =>
  lines.length === 0 ? 0 : lines.filter(test).length / lines.length;

// The whole text holds a line that starts with `start` (the first line included).
function _hasLine(text: string, start: string): boolean {
  return text.startsWith(start) || text.includes("\n" + start);
}

// ---- test runners ----------------------------------------------------------------------

const PYTEST_START = /^=+ test session starts =+$/;
const PYTEST_SUMMARY =
  /^(=+ )?\d+ (passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?)\b[^=]* in \d+(\.\d+)?s\b/;

function _pytest(s: Sample): Shape | null {
  const summary = s.tail.find((l) => PYTEST_SUMMARY.test(l));
  if (!_any(s.head, PYTEST_START) && !summary) return null;
  const failed = (summary !== undefined && /\d+ (failed|errors?)\b/.test(summary)) ||
    _any(s.tail, /^(=+ )?(FAILED|ERROR) |Interrupted: /);
  return _shape("pytest", failed ? FAILED : 0);
}

function _jest(s: Sample): Shape | null {
  const tests = s.tail.filter((l) => /^(Tests|Test Suites):\s+\d/.test(l));
  if (tests.length === 0 || !_any(s.head, /^\s*(PASS|FAIL)\s+\S/)) return null;
  return _shape("jest", tests.some((l) => /\d+ failed/.test(l)) ? FAILED : 0);
}

function _vitest(s: Sample, text: string): Shape | null {
  const started = _any(s.head, /^\s*RUN\s+v\d+\.\d+/);
  const failedBanner = _any(s.head, /^⎯{3,} Failed (Suites|Tests) \d+ ⎯/);
  const files = s.tail.find((l) => /^\s*Test Files\s+\d/.test(l));
  if (!started && !failedBanner && files === undefined) return null;
  const failed = failedBanner || (files !== undefined && /\d+ failed/.test(files)) ||
    text.includes(" FAIL ") || _any(s.tail, /^\s*Tests\s+.*\d+ failed/);
  return _shape("vitest", failed ? FAILED : 0);
}

function _cargoTest(s: Sample, text: string): Shape | null {
  if (!_any(s.head, /^running \d+ tests?$/) || !_hasLine(text, "test result: ")) return null;
  return _shape("cargo test", text.includes("test result: FAILED") ? FAILED : 0);
}

const GO_PACKAGE = /^(ok {2}|FAIL|\? {3})\t\S+\t/;

function _goTest(s: Sample, text: string): Shape | null {
  const started = _any(s.head, GO_PACKAGE) || _any(s.head, /^=== RUN\s+Test/) ||
    _any(s.tail, GO_PACKAGE);
  if (!started) return null;
  const failed = text.includes("--- FAIL") || _hasLine(text, "FAIL\t") || /^FAIL$/.test(s.last);
  return _shape("go test", failed ? FAILED : 0);
}

function _nodeTest(s: Sample, text: string): Shape | null {
  const tap = /^TAP version \d+$/.test(s.filled[0] ?? "") && _any(s.tail, /^# (pass|fail) \d+$/);
  const spec = _hasLine(text, "ℹ tests ") && _hasLine(text, "ℹ fail ");
  if (!tap && !spec) return null;
  const failed = tap
    ? _any(s.tail, /^# fail [1-9]/)
    : !_hasLine(text, "ℹ fail 0\n") && !text.endsWith("ℹ fail 0");
  return _shape("node --test", failed ? FAILED : 0);
}

function _denoTest(s: Sample): Shape | null {
  const started = _any(s.head, /^running \d+ tests? from /);
  const summary = s.tail.find((l) => /^(ok|FAILED) \| \d+ passed/.test(l));
  const checked = /^Check \S/.test(s.filled[0] ?? "") && _any(s.tail, /^error: /);
  if (!started && summary === undefined && !checked) return null;
  const failed = checked || (summary !== undefined && summary.startsWith("FAILED"));
  return _shape("deno test", failed ? FAILED : 0);
}

function _lineAt(text: string, index: number): string {
  const start = text.lastIndexOf("\n", index) + 1;
  const end = text.indexOf("\n", index);
  return _clean(text.slice(start, end < 0 ? text.length : end));
}

function _mocha(_s: Sample, text: string): Shape | null {
  const at = text.indexOf(" passing (");
  if (at < 0 || !/^\s+\d+ passing \(\d+(ms|s|m)\)$/.test(_lineAt(text, at))) return null;
  const failing = text.indexOf(" failing\n", at);
  const failed = failing >= 0 && /^\s+\d+ failing$/.test(_lineAt(text, failing));
  return _shape("mocha", failed ? FAILED : 0);
}

function _rspec(_s: Sample, text: string): Shape | null {
  let at = text.indexOf(" examples, ");
  if (at < 0) at = text.indexOf(" example, ");
  if (at < 0) return null;
  const line = _lineAt(text, at);
  const m = /^\d+ examples?, (\d+) failures?/.exec(line);
  if (!m) return null;
  return _shape("rspec", m[1] === "0" ? 0 : FAILED);
}

function _phpunit(s: Sample): Shape | null {
  if (!_any(s.head, /^PHPUnit \d+\.\d+/)) return null;
  return _shape("phpunit", _any(s.tail, /^(FAILURES|ERRORS)!$/) ? FAILED : 0);
}

// ---- compilers and linters -------------------------------------------------------------

function _tsc(s: Sample): Shape | null {
  const first = s.filled[0] ?? "";
  const plain = /^\S.*\(\d+,\d+\): (error|warning) TS\d+: /.test(first);
  const pretty = /^\S+:\d+:\d+ - (error|warning) TS\d+: /.test(first);
  if (!plain && !pretty) return null;
  return _shape("tsc", _any(s.head, /\b(- )?error TS\d+/) ? FAILED : 0);
}

function _mypy(s: Sample): Shape | null {
  const first = s.filled[0] ?? "";
  const line = /^\S+\.pyi?:\d+: (error|note|warning): /.test(first);
  const summary = /^(Found \d+ errors? in \d+ files?|Success: no issues found)/.test(s.last);
  if (!line && !summary) return null;
  if (!line && !_any(s.head, /^\S+\.pyi?:\d+: /)) return null;
  return _shape(
    "mypy",
    /^Found \d+ error/.test(s.last) || line && first.includes(": error: ") ? 1 : 0,
  );
}

function _ruff(s: Sample): Shape | null {
  const coded = _any(s.head, /^[A-Z]{1,4}\d{3,4} (\[\*\] )?\S/);
  const pointed = _any(s.head, /^\s*--> \S+:\d+:\d+$/);
  const summary = _any(s.tail, /^(Found \d+ errors?\.|All checks passed!)$/);
  if (!(coded && pointed) && !(coded && summary)) return null;
  return _shape("ruff", _any(s.tail, /^Found \d+ error/) ? FAILED : 0);
}

function _cargoBuild(s: Sample, text: string): Shape | null {
  const progress = _any(s.head, /^\s+(Compiling|Checking|Finished|Fresh) \S+ v\d/);
  const diagnostic = _any(s.head, /^(error|warning)(\[[A-Za-z]*\d*\])?: /) &&
    _any(s.head, /^\s*--> \S+:\d+:\d+$/);
  if (!progress && !diagnostic) return null;
  return _shape("cargo build", _hasLine(text, "error") ? FAILED : 0);
}

function _goBuild(s: Sample): Shape | null {
  const located = (l: string) => /^\S+\.go:\d+(:\d+)?: /.test(l);
  const packaged = /^# \S+$/.test(s.filled[0] ?? "") && located(s.filled[1] ?? "");
  if (!packaged && _share(s.filled, located) < 0.5) return null;
  return _shape("go build", FAILED);
}

function _eslint(s: Sample): Shape | null {
  const summary = s.tail.find((l) => /^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)/.test(l));
  const listed = _any(s.head, /^\s+\d+:\d+\s+(error|warning)\s+\S/);
  if (summary === undefined && !listed) return null;
  if (summary === undefined && !_any(s.head, /^\/\S+$|^\S+\.(m|c)?[jt]sx?$/)) return null;
  const failed = summary === undefined
    ? _any(s.head, /^\s+\d+:\d+\s+error\s/)
    : !/\(0 errors?,/.test(summary);
  return _shape("eslint", failed ? FAILED : 0);
}

function _biome(s: Sample): Shape | null {
  const diagnostic = _any(s.head, /^\S+:\d+:\d+ (lint|format|assist|parse|check)\S* /);
  if (!diagnostic) return null;
  return _shape("biome", _any(s.tail, /^\s*× /) ? FAILED : 0);
}

// ---- git and files ---------------------------------------------------------------------

function _gitLog(s: Sample, text: string): Shape | null {
  const [first = "", second = ""] = s.filled;
  // An annotated tag's `git show` opens with the tag, then its tagger.
  if (/^tag \S+$/.test(first) && second.startsWith("Tagger: ")) return _shape("git show");
  if (!/^commit [0-9a-f]{40}( \(.*\))?$/.test(first)) return null;
  if (!_any(s.head, /^(Author|Merge): /)) return null;
  return _shape(_hasLine(text, "diff --git ") ? "git show" : "git log");
}

function _diff(s: Sample): Shape | null {
  const [a = "", b = "", c = ""] = s.filled;
  if (/^diff --git \S/.test(a)) return _shape("git diff");
  const unified = (x: string, y: string) => /^--- \S/.test(x) && /^\+\+\+ \S/.test(y);
  if (unified(a, b) || (/^diff (-\S+ )*\S+ \S+$/.test(a) && unified(b, c))) {
    return _shape("diff");
  }
  return null;
}

function _gitStatus(s: Sample): Shape | null {
  const first = s.filled[0] ?? "";
  if (
    !/^(On branch \S+$|HEAD detached (at|from) \S+$|Not currently on any branch\.$)/.test(first)
  ) {
    return null;
  }
  return _shape("git status");
}

function _tree(s: Sample): Shape | null {
  if (!/^\d+ director(y|ies)(, \d+ files?)?$/.test(s.last)) return null;
  if (!s.head.some((l) => l.includes("├── ") || l.includes("└── "))) return null;
  return _shape("tree");
}

const MODE = /^[-bcdlpsDC?][-rwxsStTlL]{9}[.+@]?\s/;

function _lsLong(s: Sample): Shape | null {
  const [a = "", b = "", c = ""] = s.filled;
  const total = (l: string) => /^total \d+(\.\d+)?[KMGTPE]?$/.test(l);
  if (total(a) && MODE.test(b)) return _shape("ls", 0, ["-l"]);
  if (a.endsWith(":") && total(b) && MODE.test(c)) return _shape("ls", 0, ["-l", "-R"]);
  return null;
}

type HitKind = "fileNum" | "num" | "file" | "sep" | "none";

// `path:12:text` and `path-12-text` (context) first: a bare `path:` would also match them.
function _hitKind(l: string): HitKind {
  if (l === "--") return "sep";
  if (/^[^\s:]+:\d+:/.test(l) || /^[^\s:]+-\d+-/.test(l)) return "fileNum";
  if (/^\d+[:-]/.test(l)) return "num";
  const m = /^([^\s:]+):/.exec(l);
  if (m && (m[1].includes("/") || /\.\w{1,10}$/.test(m[1]))) return "file";
  return "none";
}

function _grep(s: Sample): Shape | null {
  const lines = s.filled;
  if (lines.length < 3) return null;
  const kinds = lines.map(_hitKind);
  const count = (k: HitKind) => kinds.filter((x) => x === k).length;
  const seps = count("sep");
  const context = seps > 0 || lines.some((l) => /^[^\s:]+-\d+-/.test(l) || /^\d+-/.test(l));
  const flags = (names: boolean, numbers: boolean) => [
    ...(names ? ["-H"] : []),
    ...(numbers ? ["-n"] : []),
    ...(context ? ["-C", "1"] : []),
  ];
  const enough = (k: HitKind) => count(k) > 0 && (count(k) + seps) / lines.length >= 0.8;
  if (enough("fileNum")) return _shape("grep", 0, flags(true, true));
  if (enough("num") && lines.some((l) => /^\d+:/.test(l))) {
    return _shape("grep", 0, flags(false, true));
  }
  if (count("file") / lines.length >= 0.8) return _shape("grep", 0, ["-H"]);
  return null;
}

// A path has no run of spaces and at most a couple of single ones; prose has many.
function _pathLike(l: string): boolean {
  if (l.length > 300 || /^\s/.test(l) || l.includes("\t") || l.includes(": ")) return false;
  let spaces = 0;
  for (const ch of l) if (ch === " " && ++spaces > 2) return false;
  return true;
}

function _listing(s: Sample): Shape | null {
  const lines = s.filled;
  if (lines.length < 5 || _share(lines, _pathLike) < 0.9) return null;
  const slashed = _share(lines, (l) => l.includes("/"));
  if (slashed >= 0.8) return _shape("find");
  if (slashed === 0 && _share(lines, (l) => !l.includes(" ")) >= 0.9) return _shape("ls");
  return null;
}

function _json(text: string): Shape | null {
  const start = text.search(/\S/);
  if (start < 0 || (text[start] !== "{" && text[start] !== "[")) return null;
  const end = text.trimEnd();
  const close = end[end.length - 1];
  if (close !== "}" && close !== "]") return null;
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  return { name: "json", family: null, args: [], exitCode: 0 };
}

// Order matters where shapes overlap: test runners and compilers print `path:line:` lines
// that would also read as grep hits, and a `git show` starts like a `git log`.
const DETECTORS: readonly ((s: Sample, text: string) => Shape | null)[] = [
  _pytest,
  _jest,
  _vitest,
  _cargoTest,
  _goTest,
  _nodeTest,
  _denoTest,
  _phpunit,
  _mocha,
  _rspec,
  _tsc,
  _mypy,
  _ruff,
  _cargoBuild,
  _goBuild,
  _eslint,
  _biome,
  _gitLog,
  _diff,
  _gitStatus,
  _tree,
  _lsLong,
  _grep,
  _listing,
];

/**
 * The shape of `text`, read from its first and last lines: the command family whose filter
 * fits it (with the arguments and exit code that filter should be told), `"json"` when the whole
 * text parses as a JSON object or array, else `"text"`. `null` for blank text.
 */
export function detectShape(text: string): Shape | null {
  if (text.trim() === "") return null;
  const json = _json(text);
  if (json) return json;
  const sample = _sample(text);
  for (const detect of DETECTORS) {
    const shape = detect(sample, text);
    if (shape) return shape;
  }
  return { name: "text", family: null, args: [], exitCode: 0 };
}
