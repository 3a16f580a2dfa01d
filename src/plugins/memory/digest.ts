/**
 * The session digest: what a session must not forget when its context is compacted, built
 * from its transcript under a token budget. The user's requests as they wrote them, failing
 * tests by name and build errors by file and line (from each command's latest run), the files
 * changed, the files read with the lines last looked at, the commands run with their outcome,
 * and the archive ids of the largest outputs rtok cut. Deterministic: the same transcript
 * gives the same bytes (no clock, no randomness, ties broken by text).
 *
 * @module
 */

import type { TranscriptEntry } from "../../claude/transcript.ts";
import { findPointers } from "../../core/pointer.ts";
import { estimate, type TextClass } from "../../core/tokens.ts";

/** The default budget, in estimated tokens. */
export const DEFAULT_BUDGET_TOKENS: number = 600;

/** How the digest's tokens are estimated: paths, commands and short lines, like a log. */
export const DIGEST_TEXT_CLASS: TextClass = "log";

/** The digest's first line, by which the agent (and a test) knows it. */
export const DIGEST_HEADER: string =
  "[rtok memory: what this session did before its context was compacted]";

/** What a digest is built with. */
export interface DigestOptions {
  /** The budget, in estimated tokens. */
  readonly budgetTokens: number;
  /** The session's directory: paths under it are shown relative to it. */
  readonly cwd?: string;
  /** The size in bytes of the archived output `id`, when known (ranks the cut outputs). */
  readonly sizeOf?: (id: string) => number | null;
}

/** How many facts of each kind the session had, and how many the digest holds. */
export interface DigestCounts {
  /** User requests. */
  readonly requests: number;
  /** Failing tests. */
  readonly failingTests: number;
  /** Build errors. */
  readonly buildErrors: number;
  /** Files changed. */
  readonly changed: number;
  /** Files read. */
  readonly read: number;
  /** Distinct commands. */
  readonly commands: number;
  /** Cut outputs (archive ids). */
  readonly cuts: number;
}

/** A built digest. */
export interface Digest {
  /** The text injected after compaction (`""` when the session had nothing to keep). */
  readonly text: string;
  /** Its estimated tokens. */
  readonly tokens: number;
  /** The budget it was built under. */
  readonly budgetTokens: number;
  /** Facts the session had. */
  readonly found: DigestCounts;
  /** Facts the digest holds (the rest did not fit). */
  readonly kept: DigestCounts;
}

// One section: a label and its items, most important first.
interface _Section {
  readonly key: keyof DigestCounts;
  readonly label: string;
  readonly items: readonly string[];
  /** One item a line (requests), else all on the label's line. */
  readonly block: boolean;
}

/** Builds the digest of `entries` within `opts.budgetTokens`. */
export function buildDigest(entries: readonly TranscriptEntry[], opts: DigestOptions): Digest {
  const sections = _sections(entries, opts);
  const found = Object.fromEntries(
    sections.map((s) => [s.key, s.items.length]),
  ) as unknown as DigestCounts;
  const budget = Math.max(0, Math.floor(opts.budgetTokens));
  const chosen = _fit(sections, budget);
  const text = _render(sections, chosen);
  const kept = Object.fromEntries(
    sections.map((s, i) => [s.key, chosen[i].length]),
  ) as unknown as DigestCounts;
  return {
    text,
    tokens: estimate(text, DIGEST_TEXT_CLASS),
    budgetTokens: budget,
    found,
    kept,
  };
}

// Picks, per section, the items that fit: each section's first item in turn, then the rest in
// section order. An item that does not fit is passed over; a shorter one after it may fit.
function _fit(sections: readonly _Section[], budget: number): number[][] {
  const chosen: number[][] = sections.map(() => []);
  const fits = () => estimate(_render(sections, chosen), DIGEST_TEXT_CLASS) <= budget;
  const tryAdd = (s: number, i: number) => {
    chosen[s].push(i);
    chosen[s].sort((a, b) => a - b);
    if (!fits()) chosen[s].splice(chosen[s].indexOf(i), 1);
  };
  sections.forEach((s, si) => {
    if (s.items.length) tryAdd(si, 0);
  });
  sections.forEach((s, si) => {
    for (let i = 1; i < s.items.length; i++) tryAdd(si, i);
  });
  return chosen;
}

function _render(sections: readonly _Section[], chosen: readonly number[][]): string {
  const lines: string[] = [];
  sections.forEach((s, si) => {
    const items = chosen[si].map((i) => s.items[i]);
    if (!items.length) return;
    const more = s.items.length - items.length;
    const tail = more ? ` (+${more} more)` : "";
    if (s.block) {
      lines.push(`${s.label}${tail}:`, ...items.map((t) => `- ${t}`));
    } else lines.push(`${s.label}${tail}: ${items.join("; ")}`);
  });
  return lines.length ? [DIGEST_HEADER, ...lines].join("\n") : "";
}

// Longest request shown whole; a longer one keeps its start.
const _MAX_REQUEST = 400;
const _MAX_COMMAND = 120;

function _sections(entries: readonly TranscriptEntry[], opts: DigestOptions): _Section[] {
  const calls = new Map<string, { tool: string; input: Readonly<Record<string, unknown>> }>();
  const results = new Map<string, { text: string; isError: boolean }>();
  const requests: string[] = [];
  const order: string[] = [];
  for (const e of entries) {
    if (e.kind === "prompt") {
      const t = e.text.trim();
      const shown = t.length > _MAX_REQUEST ? t.slice(0, _MAX_REQUEST) + "…" : t;
      if (!requests.includes(shown)) requests.push(shown);
    } else if (e.kind === "call") {
      if (!calls.has(e.id)) order.push(e.id);
      calls.set(e.id, { tool: e.tool, input: e.input });
    } else results.set(e.id, { text: e.text, isError: e.isError });
  }
  const rel = (p: string) => _relative(p, opts.cwd);
  // Latest first: what was looked at last matters most.
  const read = new Map<string, string>();
  const changed = new Map<string, { edits: number; written: boolean }>();
  const commands = new Map<string, string>();
  const outcomes = new Map<string, string>();
  const cuts = new Map<string, { size: number; cut: string }>();
  for (const id of order) {
    const { tool, input } = calls.get(id)!;
    const result = results.get(id);
    for (const p of findPointers(result?.text ?? "")) {
      const size = opts.sizeOf?.(p.id) ?? null;
      cuts.set(p.id, { size: size ?? _cutWeight(p.cut), cut: p.cut });
    }
    const path = typeof input.file_path === "string"
      ? input.file_path
      : typeof input.notebook_path === "string"
      ? input.notebook_path
      : null;
    if (tool === "Read" && path) {
      read.delete(rel(path));
      read.set(rel(path), _range(input, result?.text));
    } else if ((tool === "Edit" || tool === "MultiEdit" || tool === "NotebookEdit") && path) {
      const c = changed.get(rel(path)) ?? { edits: 0, written: false };
      changed.set(rel(path), { ...c, edits: c.edits + 1 });
    } else if (tool === "Write" && path) {
      const c = changed.get(rel(path)) ?? { edits: 0, written: false };
      changed.set(rel(path), { ...c, written: true });
    } else if (tool === "Bash" && typeof input.command === "string") {
      const command = input.command.replace(/\s+/g, " ").trim();
      commands.delete(command);
      commands.set(command, _outcome(result));
      outcomes.set(command, result?.text ?? "");
    }
  }
  const tests = new Set<string>();
  const errors = new Set<string>();
  for (const text of outcomes.values()) {
    for (const t of failingTests(text)) tests.add(t);
    for (const e of buildErrors(text)) errors.add(rel(e.file) + ":" + e.line);
  }
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [
    { key: "requests", label: "User requests (as written)", items: requests, block: true },
    { key: "failingTests", label: "Failing tests", items: [...tests].sort(byText), block: false },
    { key: "buildErrors", label: "Build errors", items: [...errors].sort(byText), block: false },
    {
      key: "changed",
      label: "Files changed",
      items: [...changed.entries()].sort(([a], [b]) => byText(a, b)).map(([p, c]) =>
        `${p} (${
          [c.written ? "written" : "", c.edits ? `${c.edits} edit${c.edits > 1 ? "s" : ""}` : ""]
            .filter(Boolean).join(", ")
        })`
      ),
      block: false,
    },
    {
      key: "read",
      label: "Files read (lines last looked at)",
      items: [...read.entries()].reverse().map(([p, r]) => `${p} ${r}`),
      block: false,
    },
    {
      key: "commands",
      label: "Commands (latest first)",
      items: [...commands.entries()].reverse().map(([c, o]) => `\`${_clip(c)}\` ${o}`),
      block: false,
    },
    {
      key: "cuts",
      label: "Largest outputs rtok cut (raw: rtok expand <id>)",
      items: [...cuts.entries()]
        .sort(([a, x], [b, y]) => y.size - x.size || byText(a, b))
        .map(([id, c]) => `${id} (${c.cut})`),
      block: false,
    },
  ];
}

function _clip(command: string): string {
  return command.length > _MAX_COMMAND ? command.slice(0, _MAX_COMMAND) + "…" : command;
}

// A cut without an archived size is ranked by the numbers its description gives (`312 lines`).
function _cutWeight(cut: string): number {
  return (cut.match(/\d+/g) ?? []).reduce((n, d) => n + Number(d), 0);
}

function _relative(path: string, cwd: string | undefined): string {
  if (!cwd) return path;
  const base = cwd.endsWith("/") ? cwd : cwd + "/";
  return path.startsWith(base) ? path.slice(base.length) : path;
}

// The lines a Read showed: from the result's own line numbers, else from its input.
function _range(input: Readonly<Record<string, unknown>>, text: string | undefined): string {
  const nums: number[] = [];
  if (text) {
    for (const m of text.matchAll(/^\s*(\d+)\t/gm)) nums.push(Number(m[1]));
  }
  const offset = typeof input.offset === "number" ? input.offset : null;
  const limit = typeof input.limit === "number" ? input.limit : null;
  if (nums.length) {
    const whole = offset === null && limit === null && nums[0] === 1;
    return whole
      ? `(whole, ${nums[nums.length - 1]} lines)`
      : `lines ${nums[0]}-${nums[nums.length - 1]}`;
  }
  if (offset === null && limit === null) return "(whole)";
  const from = offset ?? 1;
  return limit === null ? `from line ${from}` : `lines ${from}-${from + limit - 1}`;
}

function _outcome(result: { text: string; isError: boolean } | undefined): string {
  if (!result) return "(no result)";
  const exit = /(?:^|\n)\s*Exit code:? (\d+)/i.exec(result.text);
  if (result.isError) return exit ? `failed (exit ${exit[1]})` : "failed";
  return exit && exit[1] !== "0" ? `failed (exit ${exit[1]})` : "ok";
}

// Test runners' failure lines: TAP and node's spec reporter, Deno, cargo, go, pytest, jest.
const _FAILING: readonly RegExp[] = [
  /^\s*not ok \d+ - (.+?)\s*(?:#.*)?$/,
  /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/,
  /^test (\S+) \.\.\. FAILED$/,
  /^(.+?) \.\.\. FAILED\b/,
  /^(.+?) => \S+:\d+:\d+$/,
  /^\s*--- FAIL: (\S+)/,
  /^FAILED (\S+?)(?: - .*)?$/,
  /^\s*[✕×] (.+?)(?: \(\d+ ?m?s\))?$/,
];

/** The names of the failing tests a test run's output reports, in order, once each. */
export function failingTests(text: string): string[] {
  const out: string[] = [];
  for (const line of _plain(text).split("\n")) {
    if (line.length > 500) continue;
    for (const re of _FAILING) {
      const m = re.exec(line);
      if (!m) continue;
      // A runner (or rtok's filter) may name the test's place after it: the name alone.
      const name = m[1].trim().replace(/ \([^()]*:\d+(?::\d+)?\)$/, "").replace(/^"(.*)"$/, "$1");
      // node's spec reporter closes with a `✖ failing tests:` heading: not a test.
      if (name && !/^failing tests:?$/i.test(name) && !out.includes(name)) out.push(name);
      break;
    }
  }
  return out;
}

/** One build error's place. */
export interface BuildError {
  /** The file, as the compiler named it. */
  readonly file: string;
  /** The line. */
  readonly line: number;
}

// Compilers' error places: `f.c:3:5: error`, tsc's `f.ts(3,5): error`, go's `./f.go:3:5: x`,
// rustc's and Deno's `--> f.rs:3:5` / `at file:///f.ts:3:5` after an error line.
const _PLACE_ERROR = /^(\S+?\.\w+):(\d+)(?::\d+)?: (?:error|fatal error)\b/;
const _TSC = /^(\S+?\.\w+)\((\d+),\d+\): error\b/;
const _GO = /^(\.{0,2}\/?\S+?\.go):(\d+):\d+: /;
const _AFTER = /^\s*(?:-->|at) (?:file:\/\/)?(\S+?\.\w+):(\d+):\d+\s*$/;
const _ERROR_LINE = /^(?:error(?:\[\w+\])?:|.*\[ERROR\]|error TS\d+)/;

/** The build errors an output reports (file and line), in order, once each. */
export function buildErrors(text: string): BuildError[] {
  const out: BuildError[] = [];
  const seen = new Set<string>();
  let afterError = false;
  for (const line of _plain(text).split("\n")) {
    if (line.length > 1000) continue;
    const m = _PLACE_ERROR.exec(line) ?? _TSC.exec(line) ?? _GO.exec(line) ??
      (afterError ? _AFTER.exec(line) : null);
    if (_ERROR_LINE.test(line)) afterError = true;
    else if (line.trim() === "") afterError = false;
    if (!m) continue;
    const key = `${m[1]}:${m[2]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file: m[1], line: Number(m[2]) });
    if (_AFTER.test(line)) afterError = false;
  }
  return out;
}

// Text without terminal colours (a test runner that thought it wrote to a terminal).
// deno-lint-ignore no-control-regex
const _ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

function _plain(text: string): string {
  return text.includes("\x1b") ? text.replace(_ANSI, "") : text;
}
