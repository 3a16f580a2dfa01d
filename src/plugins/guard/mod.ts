/**
 * The `guard` plugin: on PreToolUse, a shell command that wastes the agent's context gets a
 * cheaper form (a rewrite where it gives the same facts) or a reason naming one. Each
 * intervention is a ledger row; one the agent overrides by re-issuing the same command is a
 * false block, and the rule stops in that project. See README.md.
 *
 * @module
 */

import type { Ctx, Plugin, PreToolDecision, PreToolEvent } from "../../core/plugin.ts";
import type { SpoolEntry } from "../../core/spool.ts";
import type { Store } from "../../core/store.ts";
import { lazyImport } from "../../core/lazy.ts";
import { clearLast } from "./state.ts";
import { manifest } from "./manifest.ts";

type _Pretool = typeof import("./pretool.ts");
let _pretool: Promise<_Pretool> | null = null;

/** Longest command text an intervention row keeps; longer ones are cut with an ellipsis. */
export const MAX_GUARD_COMMAND_CHARS = 500;

const _INSERT = `INSERT INTO interventions (ts, project, session, rule, command, action)
  VALUES (?, ?, ?, ?, ?, ?)`;

// The session's newest intervention of this rule on this command.
const _FALSE_BLOCK = `UPDATE interventions SET false_block = 1 WHERE id = (
  SELECT id FROM interventions WHERE session = ? AND rule = ? AND command = ?
  ORDER BY ts DESC, id DESC LIMIT 1)`;

// A line naming none of the tools the rules look at: no rule can act on it.
const _TOOLS =
  /(?:^|[\s;&|(/])(?:cat|e?grep|fgrep|rg|find|tree|cp|mv|rm|ln|mkdir|rmdir|chmod|chown|chgrp|rsync|tar)(?:\s|$)/;

/**
 * The guard's PreToolUse: only `Bash` calls. Its rules load only for a line naming a tool they
 * look at; any other line just clears the session's last intervention (it was not re-issued).
 */
export async function guardPreTool(ev: PreToolEvent, ctx: Ctx): Promise<PreToolDecision | null> {
  if (ev.tool !== "Bash") return null;
  const line = ev.input.command;
  if (typeof line !== "string") return null;
  if (!_TOOLS.test(line)) {
    if (ctx.session && ctx.home) clearLast(ctx.home, ctx.session);
    return null;
  }
  const m = await (_pretool ??= lazyImport<_Pretool>(new URL("./pretool.ts", import.meta.url)));
  return await m.guardShellCall(ev, ctx);
}

/** Applies the guard's deferred writes: interventions, then false blocks, in spool order. */
export function ingestGuard(entries: readonly SpoolEntry[], store: Store): void {
  const insert = store.db.prepare(_INSERT);
  const mark = store.db.prepare(_FALSE_BLOCK);
  for (const e of entries) {
    const d = e.data as Record<string, unknown>;
    const text = (k: string) => typeof d[k] === "string" ? d[k] as string : null;
    if (e.kind === "guard.intervention") {
      const action = text("action");
      if (action !== "rewrite" && action !== "reason") continue;
      insert.run(
        typeof d.ts === "number" ? d.ts : e.ts,
        text("project") ?? "",
        text("session"),
        text("rule") ?? "",
        _clip(text("command") ?? ""),
        action,
      );
    } else if (e.kind === "guard.false_block") {
      mark.run(text("session") ?? "", text("rule") ?? "", _clip(text("command") ?? ""));
    }
  }
}

function _clip(s: string): string {
  return s.length > MAX_GUARD_COMMAND_CHARS ? s.slice(0, MAX_GUARD_COMMAND_CHARS - 1) + "…" : s;
}

/** The `guard` plugin. */
export const guardPlugin: Plugin = {
  manifest,
  preTool: guardPreTool,
  ingest(entries: readonly SpoolEntry[], store: Store): void {
    ingestGuard(entries, store);
  },
};
