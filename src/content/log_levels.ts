/**
 * Logs read by level: text whose lines carry a severity (`ERROR`, `[warn]`, `level=info`,
 * `{"level":"error"}`, pino's `"level":50`, syslog's `<11>`, glog's `E0102 …`, logcat's
 * ` E `, npm's debug log `12 silly …`…) keeps a count per level, every line at WARN or above whole with its true line
 * number and the lines that continue it (a stack trace, a multi-line message), and its first
 * {@linkcode LOG_HEAD_LINES} and last {@linkcode LOG_TAIL_LINES} lines; the other lines are
 * cut and counted by level.
 *
 * The output opens with one count line, then the kept lines in their order:
 *
 * ```text
 * 4,210 lines: 2 ERROR, 7 WARN, 3,900 INFO, 280 DEBUG, 21 without a level
 * L1: 2024-05-01T10:00:00Z INFO starting
 * …
 * … 1,203 lines cut: 1,150 INFO, 53 DEBUG …
 * L1214: 2024-05-01T10:03:12Z ERROR request failed
 *     at handler (src/app.ts:41:7)
 * ```
 *
 * A line carries its number (`L1214: `) when it has a level or opens a run of kept lines; a
 * line without one continues the numbered line above it, so its number follows. Numbers are
 * 1-based over the input's lines (`\n`-separated; a `\r` before the `\n` is dropped).
 *
 * @module
 */

import type { Filtered } from "../core/filter.ts";
import { estimate } from "../core/tokens.ts";

/** Severity levels as counted, most severe first. */
export type LogLevel =
  | "PANIC"
  | "FATAL"
  | "EMERG"
  | "ALERT"
  | "CRITICAL"
  | "ERROR"
  | "WARN"
  | "NOTICE"
  | "INFO"
  | "DEBUG"
  | "TRACE";

/** Every level, most severe first: the order of the count line and the cut phrases. */
export const LOG_LEVELS: readonly LogLevel[] = [
  "PANIC",
  "FATAL",
  "EMERG",
  "ALERT",
  "CRITICAL",
  "ERROR",
  "WARN",
  "NOTICE",
  "INFO",
  "DEBUG",
  "TRACE",
];

/** Lines kept from the start. */
export const LOG_HEAD_LINES = 10;
/** Lines kept from the end. */
export const LOG_TAIL_LINES = 10;
/** Lines without a level kept after one kept line (a stack trace); the rest are cut. */
export const CONTINUATION_MAX = 60;
/** {@linkcode isLog} reads at most this many lines from the start. */
export const DETECT_LINES = 2_000;

const _KEPT: ReadonlySet<LogLevel> = new Set(LOG_LEVELS.slice(0, LOG_LEVELS.indexOf("WARN") + 1));

const _NAMES: Readonly<Record<string, LogLevel>> = {
  PANIC: "PANIC",
  FATAL: "FATAL",
  EMERG: "EMERG",
  EMERGENCY: "EMERG",
  ALERT: "ALERT",
  CRITICAL: "CRITICAL",
  CRIT: "CRITICAL",
  ERROR: "ERROR",
  ERR: "ERROR",
  SEVERE: "ERROR",
  WARN: "WARN",
  WARNING: "WARN",
  NOTICE: "NOTICE",
  INFO: "INFO",
  INFORMATION: "INFO",
  INFORMATIONAL: "INFO",
  DEBUG: "DEBUG",
  FINE: "DEBUG",
  CONFIG: "DEBUG",
  TRACE: "TRACE",
  FINER: "TRACE",
  FINEST: "TRACE",
  VERBOSE: "TRACE",
};
const _LETTERS: Readonly<Record<string, LogLevel>> = {
  F: "FATAL",
  A: "FATAL",
  E: "ERROR",
  W: "WARN",
  I: "INFO",
  D: "DEBUG",
  V: "TRACE",
};
// pino and bunyan write the level as a number.
const _PINO: Readonly<Record<string, LogLevel>> = {
  "10": "TRACE",
  "20": "DEBUG",
  "30": "INFO",
  "40": "WARN",
  "50": "ERROR",
  "60": "FATAL",
};
// Syslog severity is the priority modulo 8: severities 0 (EMERG) to 7 (DEBUG), in the order
// LOG_LEVELS already has them.
const _SYSLOG: readonly LogLevel[] = LOG_LEVELS.slice(
  LOG_LEVELS.indexOf("EMERG"),
  LOG_LEVELS.indexOf("DEBUG") + 1,
);

const _WORDS = Object.keys(_NAMES).join("|");
const _JSON_FIELD =
  /"(?:level|lvl|severity|levelname|loglevel|log\.level|@l|@level)"\s*:\s*(?:"([A-Za-z]+)"|(\d+))/i;
const _LOGFMT = /(?:^|\s)(?:level|lvl|severity|loglevel)=("?)([A-Za-z]+)\1(?=\s|$)/i;
const _SYSLOG_PRI = /^<(\d{1,3})>/;
const _GLOG = /^([IWEF])\d{4} \d\d:\d\d:\d\d\.\d+\s/;
const _LOGCAT = /^\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+\d+\s+\d+\s+([VDIWEFA])\s/;
const _BRACKETED = new RegExp(`[\\[(<]\\s*(${_WORDS})\\s*[\\])>]`, "i");
// Bare words only in capitals, where a level is written, so `an error occurred` is not one.
const _BARE =
  /(?:^|[\s|:,;\-])(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL|CRIT|PANIC|SEVERE)(?=$|[\s|:,;\-\]])/;
// npm's debug log: `12 silly config load`, `40 http fetch GET 200 …`.
const _NPM = /^\d+ (silly|verbose|timing|http|info|notice|warn|error) /;
const _NPM_LEVELS: Readonly<Record<string, LogLevel>> = {
  silly: "TRACE",
  verbose: "DEBUG",
  timing: "DEBUG",
  http: "INFO",
  info: "INFO",
  notice: "NOTICE",
  warn: "WARN",
  error: "ERROR",
};
// `info: listening`, `Error: ENOENT` at the start of a line (winston, Node).
const _LEADING = /^(trace|debug|info|notice|warn|warning|error|fatal|panic|critical)(?=:|\s)/i;

// Where a level is looked for: the start of a line, so a message that mentions `ERROR` late
// does not give its line a second level.
const _HEAD_CHARS = 200;

/** The level `line` carries, or `null` when it carries none. */
export function levelOf(line: string): LogLevel | null {
  const head = line.length > _HEAD_CHARS ? line.slice(0, _HEAD_CHARS) : line;
  if (head.trimStart().startsWith("{")) {
    // A JSON line's level field may follow a long message.
    const m = _JSON_FIELD.exec(line.length > 4_000 ? line.slice(0, 4_000) : line);
    if (m) return m[1] ? _NAMES[m[1].toUpperCase()] ?? null : _PINO[m[2]] ?? null;
  }
  let m = _LOGFMT.exec(head);
  if (m) return _NAMES[m[2].toUpperCase()] ?? null;
  if ((m = _SYSLOG_PRI.exec(head))) return _SYSLOG[Number(m[1]) % 8];
  if ((m = _GLOG.exec(head)) || (m = _LOGCAT.exec(head))) return _LETTERS[m[1]];
  if ((m = _NPM.exec(head))) return _NPM_LEVELS[m[1]];
  const bracketed = _BRACKETED.exec(head);
  const bare = _BARE.exec(head);
  const leading = _LEADING.exec(head);
  let best: [number, string] | null = null;
  for (const [hit, group] of [[bracketed, 1], [bare, 1], [leading, 1]] as const) {
    if (hit && (best === null || hit.index < best[0])) best = [hit.index, hit[group]];
  }
  return best ? _NAMES[best[1].toUpperCase()] ?? null : null;
}

function _lines(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/**
 * True when most of `text`'s lines carry a level: of its first {@linkcode DETECT_LINES}
 * lines that are neither blank nor indented (an indented line continues the one above), at
 * least three and at least 60 % carry one.
 */
export function isLog(text: string): boolean {
  let considered = 0;
  let leveled = 0;
  let seen = 0;
  let start = 0;
  while (start < text.length && seen < DETECT_LINES) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, Math.min(end, start + 4_000));
    start = end + 1;
    seen++;
    if (line.trim() === "" || /^\s/.test(line)) continue;
    considered++;
    if (levelOf(line) !== null) leveled++;
  }
  return leveled >= 3 && leveled * 5 >= considered * 3;
}

function _count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

// `3 INFO, 1 DEBUG, 2 without a level`: counts in severity order, the unleveled last.
function _tally(counts: ReadonlyMap<LogLevel | null, number>): string[] {
  const parts = LOG_LEVELS.filter((l) => counts.get(l)).map((l) =>
    `${_count(counts.get(l)!)} ${l}`
  );
  const none = counts.get(null);
  if (none) parts.push(`${_count(none)} without a level`);
  return parts;
}

function _bump<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/**
 * `text`, a log (see {@linkcode isLog}), with its count per level, every WARN-or-worse line
 * whole with its line number and continuation lines, its first and last lines, and the rest
 * cut and counted by level; `null` when it is not a log, nothing would be cut, or the result
 * is not strictly smaller in chars and estimated tokens.
 */
export function compressLog(text: string): Filtered | null {
  if (!isLog(text)) return null;
  const lines = _lines(text);
  const n = lines.length;
  const levels = lines.map(levelOf);
  const keep = new Uint8Array(n);
  for (let i = 0; i < Math.min(LOG_HEAD_LINES, n); i++) keep[i] = 1;
  for (let i = Math.max(0, n - LOG_TAIL_LINES); i < n; i++) keep[i] = 1;
  for (let i = 0; i < n; i++) {
    const level = levels[i];
    if (level === null || !_KEPT.has(level)) continue;
    keep[i] = 1;
    for (let j = i + 1, k = 0; j < n && levels[j] === null && k < CONTINUATION_MAX; j++, k++) {
      keep[j] = 1;
    }
  }
  const all = new Map<LogLevel | null, number>();
  for (const l of levels) _bump(all, l);
  const out = [`${_count(n)} ${n === 1 ? "line" : "lines"}: ${_tally(all).join(", ")}`];
  const cut = new Map<LogLevel | null, number>();
  let i = 0;
  while (i < n) {
    if (keep[i]) {
      out.push(`L${i + 1}: ${lines[i]}`);
      for (i++; i < n && keep[i]; i++) {
        out.push(levels[i] === null ? lines[i] : `L${i + 1}: ${lines[i]}`);
      }
      continue;
    }
    const gap = new Map<LogLevel | null, number>();
    let dropped = 0;
    for (; i < n && !keep[i]; i++, dropped++) _bump(gap, levels[i]);
    for (const [l, c] of gap) cut.set(l, (cut.get(l) ?? 0) + c);
    out.push(
      `… ${_count(dropped)} ${dropped === 1 ? "line" : "lines"} cut: ${_tally(gap).join(", ")} …`,
    );
  }
  if (cut.size === 0) return null;
  const phrases = LOG_LEVELS.filter((l) => cut.get(l)).map((l) => {
    const c = cut.get(l)!;
    return `${_count(c)} ${l} ${c === 1 ? "line" : "lines"}`;
  });
  const none = cut.get(null);
  if (none) phrases.push(`${_count(none)} ${none === 1 ? "line" : "lines"} without a level`);
  const result = { text: out.join("\n") + "\n", cut: phrases };
  const smaller = result.text.length < text.length &&
    estimate(result.text, "log") < estimate(text, "log");
  return smaller ? result : null;
}
