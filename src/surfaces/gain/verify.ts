/**
 * `rtok gain --verify`: the hook's ledger rows checked against what Claude Code's transcripts
 * say the model received for each tool call. A row is *verified* when its archive id (the
 * pointer line's `rtok expand <id>`) is in the call's result or in the hook context beside it,
 * *not applied* when the result holds the raw output the archive keeps under that id, and
 * *unknown* when the session's transcript has no such call. Rows of lossless rewrites (no
 * archive id) and rows with no call id (older ones) cannot be checked, and are counted apart.
 * Only counts and ids are printed, never transcript content.
 *
 * @module
 */

import {
  groupSessions,
  type ListProblems,
  transcriptFiles,
} from "../../claude/transcript_files.ts";
import { readConversations } from "../../claude/transcript_calls.ts";
import type { HookRow } from "../../plugins/measure/gain.ts";

/** What checking came to. */
export interface VerifyReport {
  /** Where transcripts were looked for. */
  readonly transcripts: string;
  /** Hook rows with a call id, in the scope. */
  rows: number;
  /** Of them, rows of sessions whose transcript was found. */
  withTranscript: number;
  /** Their pointer id is in what the model received. */
  verified: number;
  /** The model received the raw output instead. */
  notApplied: number;
  /** The call is not in its session's transcript. */
  unknown: number;
  /** Rows of lossless rewrites (no archive id): not checkable this way. */
  lossless: number;
  /** Hook rows with no call id (recorded before rtok kept one). */
  untied: number;
  /** verified ÷ (verified + not applied), in percent; `null` with none of either. */
  verifiedPct: number | null;
  /** Per family: [verified, not applied, unknown]. */
  readonly byFamily: Record<string, [number, number, number]>;
  /** The first not-applied rows: session, call id, family, archive id. */
  readonly notAppliedRows: { session: string; callId: string; family: string; archiveId: string }[];
}

/** What the model received for one call, as the transcript has it. */
interface _Received {
  readonly text: string;
  readonly context: string | null;
}

/**
 * Checks `rows` against the transcripts under `root`; `raw(id)` gives the archived raw text
 * (or `null`) for the not-applied test.
 */
export async function verifyHookRows(
  rows: readonly HookRow[],
  untied: number,
  root: string,
  raw: (id: string) => Promise<string | null>,
): Promise<VerifyReport> {
  const report: VerifyReport = {
    transcripts: root,
    rows: rows.length,
    withTranscript: 0,
    verified: 0,
    notApplied: 0,
    unknown: 0,
    lossless: 0,
    untied,
    verifiedPct: null,
    byFamily: {},
    notAppliedRows: [],
  };
  const problems: ListProblems = { missingPaths: 0, unreadable: 0 };
  const sessions = new Map(
    groupSessions(transcriptFiles(root, problems)).map((s) => [s.session, s]),
  );
  const bySession = new Map<string, HookRow[]>();
  for (const r of rows) bySession.set(r.session, [...(bySession.get(r.session) ?? []), r]);
  for (const [session, list] of bySession) {
    const files = sessions.get(session);
    if (!files) continue;
    const received = new Map<string, _Received>();
    for (const path of [...(files.main ? [files.main] : []), ...files.agents]) {
      let text: string;
      try {
        text = await Deno.readTextFile(path);
      } catch {
        continue;
      }
      for (const c of readConversations(text).conversations) {
        for (const it of c.items) {
          if (it.kind === "result") {
            received.set(it.id, { text: it.text, context: c.contexts.get(it.id) ?? null });
          }
        }
      }
    }
    for (const row of list) {
      report.withTranscript++;
      const fam = report.byFamily[row.family] ??= [0, 0, 0];
      if (row.archiveId === null) {
        report.lossless++;
        continue;
      }
      const got = received.get(row.callId);
      if (!got) {
        report.unknown++;
        fam[2]++;
        continue;
      }
      const pointer = `rtok expand ${row.archiveId}`;
      if (got.text.includes(pointer) || (got.context?.includes(pointer) ?? false)) {
        report.verified++;
        fam[0]++;
        continue;
      }
      const original = await raw(row.archiveId);
      if (original !== null && _holds(got.text, original)) {
        report.notApplied++;
        fam[1]++;
        if (report.notAppliedRows.length < 10) {
          report.notAppliedRows.push({
            session,
            callId: row.callId,
            family: row.family,
            archiveId: row.archiveId,
          });
        }
      } else {
        report.unknown++;
        fam[2]++;
      }
    }
  }
  const decided = report.verified + report.notApplied;
  report.verifiedPct = decided ? Math.round((report.verified / decided) * 1000) / 10 : null;
  return report;
}

// True when the text the model received is the raw output (numbered by the host, or cut to
// a preview): its first lines are there, each as its own line.
function _holds(received: string, raw: string): boolean {
  const lines = raw.split("\n").filter((l) => l.trim() !== "").slice(0, 5);
  if (lines.length === 0) return false;
  const got = new Set(received.split("\n").map((l) => l.replace(/^\s*\d+(?:→|\t)/, "")));
  return lines.every((l) => got.has(l));
}

/** The report as text. */
export function verifyText(r: VerifyReport): string {
  const lines = [
    `rtok gain --verify · hook rows against Claude Code's transcripts (${r.transcripts})`,
    "",
    `rows       ${r.rows} hook rows with a call id; ${r.withTranscript} of sessions whose transcript exists`,
    `verified   ${r.verified}: the transcript shows the model got rtok's view (its pointer id)`,
    `not applied ${r.notApplied}: the transcript shows the raw output instead`,
    `unknown    ${r.unknown}: the call or its archived output is not found`,
    `unchecked  ${r.lossless} lossless rewrites (no archive id); ${r.untied} rows with no call id`,
    `share      ${r.verifiedPct === null ? "–" : `${r.verifiedPct.toFixed(1)}% verified`}`,
  ];
  const fams = Object.entries(r.byFamily).filter(([, v]) => v[0] + v[1] + v[2] > 0);
  if (fams.length) {
    const rows = [
      ["family", "verified", "not applied", "unknown"],
      ...fams.map(([f, v]) => [f, ...v.map(String)]),
    ];
    const widths = rows[0].map((_, i) => Math.max(...rows.map((x) => x[i].length)));
    lines.push("");
    for (const row of rows) {
      lines.push(
        row.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  "),
      );
    }
  }
  for (const x of r.notAppliedRows) {
    lines.push(`not applied: session ${x.session}, call ${x.callId} (${x.family}, ${x.archiveId})`);
  }
  return lines.join("\n") + "\n";
}
