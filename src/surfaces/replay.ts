/**
 * `rtok replay`: what rtok would have done to the user's own Claude Code sessions. Each tool
 * call of their transcripts is rebuilt as the PostToolUse event Claude Code sends, answered in
 * process by the hook's own handler (dry: nothing is stored, the ledger is not written), and
 * compared with what the model was sent: chars, the requests that re-sent them, and the facts
 * the agent went on to use — kept, hidden but located, hidden without a location.
 *
 * @module
 */

import { groupSessions, type ListProblems, transcriptFiles } from "../claude/transcript_files.ts";
import { replaySession } from "../replay/replay.ts";
import { addSession, emptyReplayReport, type ReplayReport, replayText } from "../replay/report.ts";
import { dryHook } from "./_dry_hook.ts";
import { rtokHome } from "../core/config.ts";
import { joinPath } from "../core/paths.ts";
import { archiveDir } from "../plugins/archive/archive.ts";
import { newestMtime, rtokClassifier, transcriptArgs, underProject } from "./_transcripts.ts";
import { print } from "./_io.ts";

/** `rtok replay --help`. */
export const REPLAY_HELP = `rtok replay: what rtok would have done to your Claude Code sessions

Usage: rtok replay [--since 7d|24h|2026-12-01] [--project PATH] [--format text|json [--calls]]
                   [PATH…]

  PATH        transcripts: .jsonl files, a project's directory, or a directory of projects
              (default: ~/.claude/projects, or $CLAUDE_CONFIG_DIR/projects); a session's
              subagents (<session>/subagents/*.jsonl, agent-*.jsonl) count under it
  --since     only tool calls made since then: N days (7d), hours (24h), weeks (2w), a date
  --project   only sessions whose working directory is PATH or below it
  --format    text (default) or json (its fields: docs/replay.md)
  --calls     with --format json: every call too (tool, what it was on, chars both ways)

Each tool call's PostToolUse event is rebuilt from the transcript and answered by rtok's hook
in this process, as the hook and the server answer it, with your settings. Reported per tool
and per family: calls, the chars the model saw, the chars it would have seen through rtok,
token-turns saved (each saved token times the requests that re-sent it), and the facts the
agent used later (paths, names, numbers it wrote after the result): kept, hidden but located
(the view names the lines that hold them), hidden without a location; then the worst calls,
with the hidden line and where the agent used it next. Nothing is stored; the ledger is not
written; no file content is printed but the hidden lines it reports.
`;

/** Builds the replay report over `roots`. */
export async function replay(
  roots: readonly string[],
  opts: {
    readonly since: Date | null;
    readonly project: string | null;
    readonly calls?: boolean;
  },
): Promise<ReplayReport> {
  const started = performance.now();
  const report = emptyReplayReport(roots, opts.since, opts.project);
  if (opts.calls) report.calls = [];
  const problems: ListProblems = { missingPaths: 0, unreadable: 0 };
  const files = [...new Set(roots.flatMap((r) => transcriptFiles(r, problems)))];
  const classifier = rtokClassifier();
  const bashFamily = (command: string) => classifier.command(command).family;
  const archive = _archiveReader();
  await using hook = await dryHook();
  for (const session of groupSessions(files)) {
    if (opts.since) {
      const paths = [...(session.main ? [session.main] : []), ...session.agents];
      if (newestMtime(paths) < opts.since.getTime()) continue;
    }
    let s;
    try {
      s = await replaySession(session, hook.call, { since: opts.since, bashFamily, archive });
    } catch {
      problems.unreadable++;
      continue;
    }
    if (opts.project && (s.cwd === null || !underProject(s.cwd, opts.project))) continue;
    if (opts.since && s.calls.length === 0) continue;
    addSession(report, s);
  }
  report.skipped.missingPaths += problems.missingPaths;
  report.skipped.unreadable += problems.unreadable;
  report.elapsedMs = Math.round(performance.now() - started);
  return report;
}

// The raw bytes rtok archived under an id, from `$RTOK_HOME/archive` (files named by their
// sha256, the id its first digits); `null` for an id it does not hold.
function _archiveReader(): (id: string) => Uint8Array | null {
  let names: string[] = [];
  let dir = "";
  try {
    dir = archiveDir(rtokHome());
    names = [...Deno.readDirSync(dir)].filter((e) => e.isFile).map((e) => e.name);
  } catch { /* no home or no archive: no recorded call can be replayed from its raw output */ }
  return (id) => {
    const found = names.filter((n) => n.startsWith(id));
    if (found.length !== 1) return null;
    try {
      return Deno.readFileSync(joinPath(dir, found[0]));
    } catch {
      return null;
    }
  };
}

/** Runs `rtok replay`; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const a = transcriptArgs(args, ["calls"]);
  if (a.help) {
    await print(REPLAY_HELP);
    return 0;
  }
  if (a.flags.calls && a.format !== "json") throw new TypeError("--calls needs --format json");
  const report = await replay(a.roots, {
    since: a.since,
    project: a.project,
    calls: a.flags.calls,
  });
  await print(a.format === "json" ? JSON.stringify(report, null, 2) + "\n" : replayText(report));
  return 0;
}
