/**
 * `rtok discover`: what Claude Code's transcripts say rtok saved and missed. It reads the
 * transcripts under `~/.claude/projects` (or `$CLAUDE_CONFIG_DIR/projects`, or the files and
 * directories named), subagents' files under their session, and reports, per project and per
 * session (counted by id), the tool calls by tool and command family, the result chars that went
 * through rtok and those that did not, the calls rtok's hook would have cut and the chars it
 * would have saved (each call replayed through the hook in process, every tool), and the
 * unfiltered families that cost the most. It prints counts, commands and paths, never a
 * transcript's text.
 *
 * @module
 */

import { groupSessions, transcriptFiles } from "../claude/transcript_files.ts";
import { type HookCall, replaySession } from "../replay/replay.ts";
import { dryHook } from "./_dry_hook.ts";
import {
  addCalls,
  callsSince,
  type Classifier,
  emptyTotals,
  type ReplayedCall,
  type SessionRead,
  type Totals,
  TranscriptReader,
} from "../claude/transcript_stats.ts";
import {
  defaultRoot,
  newestMtime,
  parseSince,
  rtokClassifier,
  transcriptArgs,
  underProject,
} from "./_transcripts.ts";
import { print } from "./_io.ts";
import { columns } from "../core/text.ts";

export { defaultRoot, parseSince, rtokClassifier };

/** `rtok discover --help`. */
export const DISCOVER_HELP =
  `rtok discover: what Claude Code's transcripts say rtok saved and missed

Usage: rtok discover [--since 7d|24h|2026-12-01] [--project PATH] [--format text|json] [PATH…]

  PATH        transcripts to read: .jsonl files, a project's directory, or a directory of
              projects (default: ~/.claude/projects, or $CLAUDE_CONFIG_DIR/projects)
  --since     only tool calls made since then: N days (7d), hours (24h), weeks (2w), or a date
  --project   only sessions whose working directory is PATH or below it (default: all)
  --format    text (default) or json

Per project and per session: tool calls by tool and by command family; the chars of tool
results that went through rtok (a pointer line, a command run as rtok, or rtok's hook
replaced the output) and those that did not; the calls rtok's hook would have cut had it
been installed, with the chars it would have saved (each call replayed through the hook in
this process, every tool: rtok replay shows the detail); the families with no filter that
cost the most. A session's subagents (<session>/subagents/*.jsonl, agent-*.jsonl) count
under it.
Lines that are not JSON, lines and files of a shape rtok does not know, and missing paths
are skipped and counted. Only counts, commands and paths are printed, never a transcript.
`;

/** What was skipped, counted. */
export interface Skipped {
  /** Lines that were not JSON objects. */
  badLines: number;
  /** JSON lines of a shape rtok does not know. */
  unknownLines: number;
  /** Files with no line of a known kind (not a Claude Code transcript rtok knows). */
  unknownTranscripts: number;
  /** Paths that did not exist. */
  missingPaths: number;
  /** Files or directories that could not be read. */
  unreadable: number;
}

/** One session's report. */
export interface SessionReport {
  /** The session id. */
  readonly session: string;
  /** Its own transcript (else its first subagent's). */
  readonly path: string;
  /** Every transcript of it: its own, then its subagents'. */
  readonly files: readonly string[];
  /** Its counts. */
  readonly totals: Totals;
}

/** One project's report. */
export interface ProjectReport {
  /** The project's directory (the sessions' `cwd`), or the transcript directory's name. */
  readonly project: string;
  /** Its counts over every session. */
  readonly totals: Totals;
  /** Its sessions, newest first. */
  readonly sessions: SessionReport[];
}

/** The whole report, as `--format json` prints it. */
export interface DiscoverReport {
  /** The paths read. */
  readonly roots: readonly string[];
  /** `--since`, as an ISO time, or `null`. */
  readonly since: string | null;
  /** `--project`, resolved, or `null`. */
  readonly project: string | null;
  /** Transcript files read. */
  files: number;
  /** Non-empty lines read. */
  lines: number;
  /** What was skipped. */
  readonly skipped: Skipped;
  /** Counts over every project. */
  readonly totals: Totals;
  /** Per project, most calls first. */
  readonly projects: ProjectReport[];
}

// Reads a session's transcripts as streams of lines into one reader, so a large one is never
// held whole; `null` when none could be read.
async function _read(
  paths: readonly string[],
  name: string,
  classifier: Classifier,
  skipped: Skipped,
): Promise<SessionRead | null> {
  const reader = new TranscriptReader(name, classifier);
  let read = 0;
  for (const path of paths) {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) skipped.missingPaths++;
      else skipped.unreadable++;
      continue;
    }
    try {
      const decoder = new TextDecoder();
      let rest = "";
      for await (const chunk of file.readable) {
        const text = rest + decoder.decode(chunk, { stream: true });
        const lines = text.split("\n");
        rest = lines.pop() ?? "";
        for (const l of lines) reader.line(l.endsWith("\r") ? l.slice(0, -1) : l);
      }
      reader.line(rest + decoder.decode());
      read++;
    } catch {
      skipped.unreadable++;
    }
  }
  return read ? reader.finish() : null;
}

/** Builds the report over `roots`. Never throws on a transcript's content. */
export async function discover(
  roots: readonly string[],
  opts: { readonly since: Date | null; readonly project: string | null },
  classifier: Classifier = rtokClassifier(),
  hook: HookCall | null = null,
): Promise<DiscoverReport> {
  const skipped: Skipped = {
    badLines: 0,
    unknownLines: 0,
    unknownTranscripts: 0,
    missingPaths: 0,
    unreadable: 0,
  };
  const report: DiscoverReport = {
    roots,
    since: opts.since?.toISOString() ?? null,
    project: opts.project,
    files: 0,
    lines: 0,
    skipped,
    totals: emptyTotals(),
    projects: [],
  };
  const projects = new Map<string, ProjectReport>();
  const files = [...new Set(roots.flatMap((r) => transcriptFiles(r, skipped)))];
  const bashFamily = (command: string) => classifier.command(command).family;
  for (const group of groupSessions(files)) {
    const paths = [...(group.main ? [group.main] : []), ...group.agents];
    if (opts.since) {
      if (newestMtime(paths) < opts.since.getTime()) continue;
    }
    const read = await _read(paths, group.session, classifier, skipped);
    if (!read) continue;
    report.files += paths.length;
    report.lines += read.lines;
    skipped.badLines += read.badLines;
    skipped.unknownLines += read.unknownLines;
    if (!read.known) {
      skipped.unknownTranscripts += paths.length;
      continue;
    }
    const project = read.cwd ?? group.dir.slice(group.dir.lastIndexOf("/") + 1);
    if (opts.project && !underProject(project, opts.project)) continue;
    const calls = callsSince(read, opts.since);
    if (opts.since && calls.length === 0) continue;
    // What rtok's hook would have made of each call, replayed in process.
    let replayed: Map<string, ReplayedCall> | null = null;
    if (hook) {
      replayed = new Map();
      try {
        const r = await replaySession(group, hook, { since: null, bashFamily });
        for (const c of r.calls) replayed.set(c.id, c);
      } catch {
        skipped.unreadable++;
      }
    }
    const totals = emptyTotals();
    totals.sessions = 1;
    addCalls(totals, calls, classifier, replayed);
    let p = projects.get(project);
    if (!p) {
      p = { project, totals: emptyTotals(), sessions: [] };
      projects.set(project, p);
    }
    p.totals.sessions++;
    addCalls(p.totals, calls, classifier, replayed);
    p.sessions.push({ session: read.session, path: paths[0], files: paths, totals });
    report.totals.sessions++;
    addCalls(report.totals, calls, classifier, replayed);
  }
  report.projects.push(
    ...[...projects.values()].sort((a, b) =>
      b.totals.all.calls - a.totals.all.calls || (a.project < b.project ? -1 : 1)
    ),
  );
  return report;
}

const _n = (n: number): string => n.toLocaleString("en-US");
const _s = (n: number, one: string, many = `${one}s`): string => `${_n(n)} ${n === 1 ? one : many}`;

function _skippedLine(s: Skipped): string {
  const parts = [
    s.badLines ? _s(s.badLines, "line not JSON", "lines not JSON") : "",
    s.unknownLines
      ? _s(s.unknownLines, "line of an unknown shape", "lines of an unknown shape")
      : "",
    s.unknownTranscripts
      ? _s(s.unknownTranscripts, "file of an unknown format", "files of an unknown format")
      : "",
    s.missingPaths ? _s(s.missingPaths, "missing path") : "",
    s.unreadable ? _s(s.unreadable, "unreadable path") : "",
  ].filter((x) => x);
  return `Skipped: ${parts.length ? parts.join(", ") : "nothing"}\n`;
}

function _totalsText(t: Totals): string {
  let out = "";
  const tools = Object.entries(t.byTool).sort((a, b) => b[1].chars - a[1].chars);
  if (tools.length) {
    out += columns([
      ["tool", "calls", "chars"],
      ...tools.map(([k, v]) => [k, _n(v.calls), _n(v.chars)]),
    ], "  ");
  }
  const fams = Object.entries(t.byFamily).sort((a, b) => b[1].chars - a[1].chars);
  if (fams.length) {
    out += columns([
      ["Bash family", "calls", "chars", "filter", "through rtok"],
      ...fams.map((
        [k, v],
      ) => [k, _n(v.calls), _n(v.chars), v.filtered ? "yes" : "no", _n(v.throughCalls)]),
    ], "  ");
  }
  out += columns([
    ["results", "calls", "chars"],
    ["through rtok", _n(t.through.calls), _n(t.through.chars)],
    ["not through rtok", _n(t.notThrough.calls), _n(t.notThrough.chars)],
    ["seen by rtok's hook", _n(t.hooked.calls), _n(t.hooked.chars)],
    ["rtok would have cut", _n(t.wouldFilter.calls), _n(t.wouldFilter.chars)],
  ], "  ");
  const w = t.wouldFilter;
  if (w.calls) {
    out += `  missed saving (replayed through rtok's hook): ${_n(w.missedChars)} chars,` +
      ` ~${_n(w.missedTokens)} tokens` +
      (w.unmeasured ? `; ${_s(w.unmeasured, "call")} of a family with no measured saving` : "") +
      "\n";
    out += "  calls rtok would have cut:\n";
    out += columns(
      [
        ["call", "family", "calls", "chars", "saved"],
        ...t.commands.slice(0, 10).map((c) => [
          c.command.replace(/\s+/g, " ").slice(0, 80),
          c.family,
          _n(c.calls),
          _n(c.chars),
          _n(c.missedChars),
        ]),
      ],
      "    ",
    );
  }
  if (t.unfiltered.length) {
    out += "  costliest families with no filter:\n";
    out += columns(
      [
        ["family", "calls", "chars"],
        ...t.unfiltered.slice(0, 10).map((u) => [u.family, _n(u.calls), _n(u.chars)]),
      ],
      "    ",
    );
  }
  return out;
}

/** The report as text. */
export function discoverText(r: DiscoverReport): string {
  const t = r.totals;
  let out = `rtok discover: ${_s(t.sessions, "session")}, ${_s(t.all.calls, "tool call")} in ` +
    `${_s(r.projects.length, "project")} (${_s(r.files, "transcript")}, ${
      _s(r.lines, "line")
    } read` +
    ` under ${r.roots.join(", ")})\n`;
  out += _skippedLine(r.skipped);
  if (r.since) out += `Since ${r.since}\n`;
  if (t.sessions === 0) return out;
  out += `\nAll projects\n${_totalsText(t)}`;
  for (const p of r.projects) {
    out += `\nProject ${p.project}: ${_s(p.totals.sessions, "session")}\n${_totalsText(p.totals)}`;
    for (const s of p.sessions) {
      const x = s.totals;
      out += `  session ${s.session}: ${_s(x.all.calls, "call")}, ` +
        `${_n(x.through.calls)} through rtok (${_n(x.through.chars)} chars), ` +
        `${_n(x.notThrough.calls)} not (${_n(x.notThrough.chars)} chars), ` +
        `${_n(x.wouldFilter.calls)} rtok would have cut (${
          _n(x.wouldFilter.missedChars)
        } chars saved)` +
        `\n    ${s.path}\n`;
    }
  }
  return out;
}

/** Runs `rtok discover`; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const a = transcriptArgs(args);
  if (a.help) {
    await print(DISCOVER_HELP);
    return 0;
  }
  await using hook = await dryHook();
  const report = await discover(
    a.roots,
    { since: a.since, project: a.project },
    rtokClassifier(),
    hook.call,
  );
  await print(a.format === "json" ? JSON.stringify(report, null, 2) + "\n" : discoverText(report));
  return 0;
}
