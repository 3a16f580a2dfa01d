/**
 * The memory plugin's PreCompact work, loaded only when a compaction comes: read the
 * transcript, build the digest, keep it in the hook's file and defer its store row.
 *
 * @module
 */

import { readTranscriptFile } from "../../claude/transcript.ts";
import { joinPath } from "../../core/paths.ts";
import type { Ctx, SessionEvent } from "../../core/plugin.ts";
import { buildDigest, DEFAULT_BUDGET_TOKENS, type Digest } from "./digest.ts";
import { removeDigestFile, writeDigestFile } from "./digest_file.ts";

/** The spool kind of a digest's store row. */
export const DIGEST_KIND: string = "memory.digest";

/** `[plugins.memory] budget_tokens`, or the default when absent or not a whole number ≥ 1. */
export function budgetTokens(config: Readonly<Record<string, unknown>>): number {
  const b = config.budget_tokens;
  return typeof b === "number" && Number.isInteger(b) && b >= 1 ? b : DEFAULT_BUDGET_TOKENS;
}

/**
 * Builds and keeps the digest of the compacting session. The old digest goes first, so a
 * digest that cannot be built leaves nothing to inject: the session goes on as without rtok.
 * Returns the digest, or `null` (with the reason deferred to the store) when there is none.
 */
export function keepDigest(ev: SessionEvent, ctx: Ctx): Digest | null {
  const session = ctx.session;
  if (!session || !ctx.home) return null;
  removeDigestFile(ctx.home, session);
  const project = _canonical(ev.cwd ?? Deno.cwd());
  const read = readTranscriptFile(ev.transcriptPath);
  const base = { session, project, trigger: ev.trigger ?? null };
  if (!read.ok) {
    ctx.defer(DIGEST_KIND, { ...base, text: "", tokens: 0, note: read.reason });
    return null;
  }
  const t = read.transcript;
  const digest = buildDigest(t.entries, {
    budgetTokens: budgetTokens(ctx.pluginConfig("memory")),
    cwd: ev.cwd,
    sizeOf: _archiveSizes(ctx.home),
  });
  const counts = { lines: t.lines, badLines: t.badLines, unknownLines: t.unknownLines };
  const note = t.lines > 0 && t.entries.length === 0
    ? "the transcript holds nothing rtok can read"
    : null;
  if (digest.text) {
    writeDigestFile(ctx.home, {
      ...base,
      builtAt: Date.now(),
      text: digest.text,
      tokens: digest.tokens,
    });
  }
  ctx.defer(DIGEST_KIND, {
    ...base,
    text: digest.text,
    tokens: digest.tokens,
    note,
    ...counts,
    found: digest.found,
    kept: digest.kept,
  });
  return digest;
}

function _canonical(dir: string): string {
  try {
    return Deno.realPathSync(dir);
  } catch {
    return dir;
  }
}

// The archived outputs' sizes by id (the file's name is the full sha256; an id, its start),
// listed once when first asked.
function _archiveSizes(home: string): (id: string) => number | null {
  let names: string[] | null = null;
  return (id) => {
    const dir = joinPath(home, "archive");
    if (names === null) {
      try {
        names = [...Deno.readDirSync(dir)].filter((e) => e.isFile).map((e) => e.name).sort();
      } catch {
        names = [];
      }
    }
    const name = names.find((n) => n.startsWith(id));
    if (!name) return null;
    try {
      return Deno.statSync(joinPath(dir, name)).size;
    } catch {
      return null;
    }
  };
}
