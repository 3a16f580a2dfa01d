/**
 * The resident server's cheaper path for a command that only reads: instead of rewriting
 * `git log` to `rtok git log` (a second Deno start-up, about 100 ms a call), PreToolUse asks
 * the tool for less (the filter's stage-1 flags, through `updatedInput`) and remembers the
 * call; PostToolUse then filters what the tool printed with the same filter, in the server.
 * The agent gets the bytes `rtok git log` would have printed, archived and recorded alike.
 *
 * A call is watched only when its output is sure to come back through PostToolUse: one plain
 * command (no pipe, chain, redirect, prefix or shell-expanded word), of a built-in family
 * that only reads and exits 0 when it prints (a failed call fires PostToolUseFailure, whose
 * output no hook can replace), with no filter file of the user's or the project's that could
 * choose another filter. Everything else is rewritten as before.
 *
 * @module
 */

import type {
  Ctx,
  PostToolAnswer,
  PostToolEvent,
  PreToolDecision,
  PreToolEvent,
} from "../../core/plugin.ts";
import type { CommandFilter } from "../../core/filter.ts";
import { quoteArgv } from "../../core/shell.ts";
import { splitArgv } from "../../core/command.ts";
import { FAMILY_TABLE } from "../../../filters/families.ts";
import type { Decision } from "../../rewrite/decide.ts";
import { FILTER_LOADERS, hasOwnFilterFiles } from "./loaders.ts";
import { composeFiltered } from "../../pipeline/compose.ts";
import { deliver, ledgerRow, type RowFields } from "../../pipeline/deliver.ts";
import { plainCommand } from "../../pipeline/line.ts";
import { servedRawRate } from "../../pipeline/plan.ts";
import { rtokHome } from "../../core/config.ts";

/** Calls remembered between their PreToolUse and PostToolUse, at most. */
export const MAX_WATCHED = 256;

/** How long a remembered call waits for its PostToolUse (a failed call never sends one). */
export const WATCH_TTL_MS: number = 30 * 60_000;

/** A call whose output the server filters in PostToolUse. */
interface _Watch {
  readonly filter: CommandFilter;
  /** The arguments the filter reads (after stage 1). */
  readonly args: readonly string[];
  readonly shaped: boolean;
  /** Why the filter passes this call's output through, or `null`. */
  readonly passthrough: string | null;
  /** The command as the agent wrote it, and as it ran. */
  readonly command: string;
  readonly ran: string;
  /** When the call was made, and until when it waits for its output. */
  readonly at: number;
  readonly until: number;
}

const _watched = new Map<string, _Watch>();

/** How many calls wait for their PostToolUse now (for tests and `rtok doctor`). */
export function watchedCalls(): number {
  return _watched.size;
}

// Families whose output a PostToolUse always carries: built-in code, read-only, exit 0 when
// they print. `git diff --exit-code` and `--quiet` exit 1 on a difference.
function _watchable(family: string, args: readonly string[]): boolean {
  if (!Object.hasOwn(FAMILY_TABLE, family)) return false;
  const e = FAMILY_TABLE[family];
  if (!e.file.endsWith(".ts") || e.readOnly === false || e.failsWithOutput) return false;
  return !args.some((a) => a === "--exit-code" || a === "--quiet");
}

/**
 * The watched form of a shell call the rewrite rules would rewrite as `d`: `undefined` when
 * the call is not one to watch (rewrite it), else the PreToolUse answer (`null` when the
 * command runs as written).
 */
export async function watchShellCall(
  ev: PreToolEvent,
  d: Decision,
): Promise<PreToolDecision | null | undefined> {
  const line = ev.input.command;
  if (!ev.callId || typeof line !== "string" || d.families.length !== 1) return undefined;
  const c = _plainCommand(line, ev.cwd);
  if (!c) return undefined;
  const { family, prefix, args } = c;
  const filter = await FILTER_LOADERS[family]();
  // A format the caller chose runs as written and reaches the agent as it is.
  const passthrough = filter.passthrough?.(args) ?? null;
  const shaped = passthrough ? null : filter.shape?.(args) ?? null;
  const ran = shaped ? quoteArgv([...prefix, ...shaped]) : line;
  _remember(ev.callId, {
    filter,
    args: shaped ?? args,
    shaped: shaped !== null,
    passthrough,
    command: line,
    ran,
    at: Date.now(),
    until: Date.now() + WATCH_TTL_MS,
  });
  if (!shaped) return null;
  return {
    kind: "rewrite",
    input: { ...ev.input, command: ran },
    reason: `rtok: ${d.reason}; rtok asks ${family} for what its filter reads and ` +
      "filters the output when the call returns",
    allow: d.verdict === "allow",
  };
}

// One plain command of a watchable family, run in `cwd` with no filter file of its own there.
function _plainCommand(
  line: string,
  cwd: string,
): { family: string; prefix: string[]; args: string[] } | null {
  const c = plainCommand(line);
  if (c === null) return null;
  const { prefix, args } = splitArgv(c.argv);
  if (!_watchable(c.family, args) || hasOwnFilterFiles(cwd)) return null;
  // Served raw in this project: its rtok form says so once, and passes the output through.
  if (_servedRawHere(cwd, c.family)) return null;
  return { family: c.family, prefix, args };
}

/**
 * PostToolUse of a shell call no watch saw (a host whose commands rtok does not rewrite, a
 * server restarted between a call's two hooks): a plain command of a family that only reads,
 * whose output the host reports as a success, is filtered as its rtok form would filter it,
 * without stage 1. `null` for any other call.
 */
export async function filterByCommand(
  ev: PostToolEvent,
  ctx: Ctx,
): Promise<PostToolAnswer | null> {
  const r = ev.result;
  if (r?.kind !== "shell" || !r.command || (r.exitCode ?? 0) !== 0) return null;
  const c = _plainCommand(r.command, ev.cwd);
  if (!c) return null;
  const filter = await FILTER_LOADERS[c.family]();
  const now = Date.now();
  return await _filterOutput(ev, ctx, {
    filter,
    args: c.args,
    shaped: false,
    passthrough: filter.passthrough?.(c.args) ?? null,
    command: r.command,
    ran: r.command,
    at: now,
    until: now,
  });
}

function _servedRawHere(cwd: string, family: string): boolean {
  try {
    return servedRawRate(rtokHome(), cwd, family) !== null;
  } catch {
    return false; // no home: nothing is served raw
  }
}

function _remember(id: string, w: _Watch): void {
  const now = Date.now();
  for (const [k, v] of _watched) if (v.until < now) _watched.delete(k);
  // Oldest first: a Map iterates in insertion order.
  while (_watched.size >= MAX_WATCHED) _watched.delete(_watched.keys().next().value!);
  _watched.set(id, w);
}

/**
 * PostToolUse of a watched call: its stdout through the call's filter, the raw bytes archived
 * when something was cut, one ledger row. `null` for a call not watched; `{ keep: true }`
 * when its output goes to the agent as the tool made it (passed through, nothing saved, or
 * not archivable), so no other plugin cuts it either.
 */
export async function filterWatched(ev: PostToolEvent, ctx: Ctx): Promise<PostToolAnswer | null> {
  const w = ev.callId ? _watched.get(ev.callId) : undefined;
  if (!w) return null;
  _watched.delete(ev.callId!);
  return await _filterOutput(ev, ctx, w);
}

async function _filterOutput(
  ev: PostToolEvent,
  ctx: Ctx,
  w: _Watch,
): Promise<PostToolAnswer | null> {
  const r = ev.result;
  if (r?.kind !== "shell") return null;
  const started = performance.now();
  const row = (emitted: number, more: Partial<RowFields>) =>
    ctx.record(ledgerRow({
      surface: "hook",
      plugin: "cmd",
      family: w.filter.name,
      command: w.command,
      rtokCommand: w.ran,
      project: ev.cwd,
      session: ctx.session,
      rawChars: r.text.length,
      emittedChars: emitted,
      textClass: w.filter.textClass,
      stage: w.shaped ? "shape" : "none",
      exitCode: 0,
      // The call's time, so the ledger counts this very call among those that carry it.
      at: w.at,
      host: ev.host ?? "claude",
      ...(ev.callId ? { callId: ev.callId } : {}),
      started,
      ...more,
    }));
  if (w.passthrough) {
    await row(r.text.length, { passthrough: w.passthrough });
    return { keep: true };
  }
  const out = composeFiltered(
    w.filter,
    r.text,
    w.filter.filter(r.text, { args: w.args, shaped: w.shaped, exitCode: 0 }),
  );
  if (!out.changed) {
    await row(r.text.length, {});
    return { keep: true };
  }
  const sent = await deliver(ctx.archive, r.text, out, {
    command: w.ran,
    cwd: ev.cwd,
    exitCode: 0,
    family: w.filter.name,
  });
  if (sent.whole) {
    await row(r.text.length, { passthrough: sent.passthrough });
    return { keep: true };
  }
  await row(sent.text.length, {
    stage: w.shaped ? "shape+filter" : "filter",
    lossy: out.lossy,
    archiveId: sent.archiveId,
  });
  return { text: sent.text };
}
