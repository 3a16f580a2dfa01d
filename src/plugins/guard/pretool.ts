/**
 * The guard's PreToolUse answer for a shell call: the rules' finding, checked against the
 * user's own Claude Code rules and composed with the rtok form, plus the false-block path. A
 * rewrite is the final command (the `cmd` plugin's rtok form of the cheaper line, with the
 * verdict the user's rules give it); a reason is a deny whose reason names the cheaper form,
 * so the agent reads it and chooses. When the session's next shell call is the same line
 * again, that intervention was a false block: the line goes through, and the rule stops in
 * that project.
 *
 * @module
 */

import type { Ctx, PreToolDecision, PreToolEvent } from "../../core/plugin.ts";
import { DISABLE_VAR, disables } from "../../core/env.ts";
import { rtokInvocation } from "../../core/self.ts";
import { type BashRules, firstCovering } from "../../claude/permissions.ts";
import { hostRules, NATIVE_HOST, rewriteLine } from "../../rewrite/host.ts";
import { definitionSearch, type Finding, inspectLine } from "./rules.ts";
import { projectRoot } from "../../core/project.ts";
import { lazyImport } from "../../core/lazy.ts";

type _Graph = typeof import("../graph/mod.ts");
let _graph: Promise<_Graph> | null = null;
import { readGuardSettings } from "./settings.ts";
import { noteLast, stoppedRules, stopRule, takeLast } from "./state.ts";

/** One intervention, as deferred to the store (`guard.intervention`). */
export interface InterventionRow {
  /** When, epoch milliseconds. */
  readonly ts: number;
  /** The canonical project directory. */
  readonly project: string;
  /** The agent session, where known. */
  readonly session: string | null;
  /** The rule. */
  readonly rule: string;
  /** The line as the agent wrote it. */
  readonly command: string;
  /** What the guard did. */
  readonly action: "rewrite" | "reason";
}

/** The guard's answer to a `Bash` call, or `null` for none. */
export async function guardShellCall(
  ev: PreToolEvent,
  ctx: Ctx,
): Promise<PreToolDecision | null> {
  const line = ev.input.command;
  if (typeof line !== "string" || !ctx.home) return null;
  const env = ev.env ?? {};
  if (disables(env[DISABLE_VAR])) return null;
  const settings = readGuardSettings(ctx.pluginConfig("guard"));
  const project = _canonical(env.CLAUDE_PROJECT_DIR ?? ev.cwd);
  if (ctx.session) {
    const last = takeLast(ctx.home, ctx.session);
    if (last && _same(last.command, line)) {
      await stopRule(ctx.home, last.project, last.rule);
      ctx.defer("guard.false_block", {
        session: ctx.session,
        command: last.command,
        rule: last.rule,
        project: last.project,
      });
      return null;
    }
  }
  const off = new Set([...settings.off, ...await stoppedRules(ctx.home, project)]);
  const rtok = () =>
    rtokInvocation({
      path: env.PATH ?? "",
      home: env.HOME,
      denoInstallRoot: env.DENO_INSTALL_ROOT,
    });
  const finding =
    (off.has("grep-definition") ? null : await _definition(line, ev.cwd, ctx.home, rtok)) ??
      inspectLine(line, {
        cwd: ev.cwd,
        off,
        readLines: settings.readLines,
        readChars: settings.readChars,
        rtok,
      });
  if (!finding) return null;
  const rules = hostRules(ev.host ?? NATIVE_HOST, env, ev.cwd);
  // What the user's rules name explicitly is theirs: no rewrite, no reason.
  if (rules && _explicitlyAllowed(rules, [finding.command, line])) return null;
  const decision = _decide(finding, line, ev, rules);
  if (!decision) return null;
  const row: InterventionRow = {
    ts: Date.now(),
    project,
    session: ctx.session,
    rule: finding.rule,
    command: line,
    action: finding.action,
  };
  ctx.defer("guard.intervention", { ...row });
  if (ctx.session) {
    noteLast(ctx.home, ctx.session, {
      command: line,
      rule: finding.rule,
      action: finding.action,
      project,
      ts: row.ts,
    });
  }
  return decision;
}

/**
 * `grep-definition`: a search for where a name is defined, in a project whose symbol index
 * holds definitions of that name, gets a reason naming `rtok where NAME` and the size of its
 * answer (one line per definition). No index for the project: no opinion, and no SQLite.
 */
async function _definition(
  line: string,
  cwd: string,
  home: string,
  rtok: () => string,
): Promise<Finding | null> {
  const search = definitionSearch(line, cwd);
  if (!search) return null;
  const root = projectRoot(search.cwd);
  const graph = await (_graph ??= lazyImport<_Graph>(new URL("../graph/mod.ts", import.meta.url)));
  if (!await graph.hasSymbolIndex(home, root)) return null;
  const n = await graph.countDefinitions(home, root, search.name);
  if (!n) return null;
  const lines = n === 1 ? "1 line" : `${n} lines`;
  return {
    rule: "grep-definition",
    action: "reason",
    command: search.command,
    reason: `rtok guard: \`${rtok()} where ${search.name}\` answers in ${lines}: each ` +
      `definition of ${search.name} with its kind, file and line range, from rtok's symbol ` +
      `index of ${root} (\`${rtok()} refs ${search.name}\` lists its uses). To search ` +
      "anyway, run the same command again.",
  };
}

function _decide(
  f: Finding,
  line: string,
  ev: PreToolEvent,
  rules: BashRules | null,
): PreToolDecision | null {
  if (f.action === "reason") {
    // A line the user's rules deny is denied by Claude Code anyway, with their reason.
    if (rules && firstCovering(rules.deny, [f.command, line], true)) return null;
    return { kind: "deny", reason: f.reason };
  }
  const env = ev.env ?? {};
  const host = ev.host ?? NATIVE_HOST;
  const before = rewriteLine(line, env, ev.cwd, ev.mode, host);
  const after = rewriteLine(f.line, env, ev.cwd, ev.mode, host);
  if (before.verdict === "deny" || after.verdict === "deny") return null;
  // Never escalate: a line that ran unasked must stay unasked.
  if (before.verdict === "allow" && after.verdict !== "allow") return null;
  const rtok = after.verdict === "allow" || after.verdict === "ask";
  // A resident server watches a plain read-only call and filters its output on PostToolUse:
  // there the plain cheaper line goes out, so its output is filtered once.
  const command = rtok && !(ev.resident && ev.callId) ? after.command : f.line;
  return {
    kind: "rewrite",
    input: { ...ev.input, command },
    reason: `rtok guard: ${f.why}${rtok ? `; ${after.reason}` : ""}`,
    allow: after.verdict === "allow",
  };
}

// An allow rule naming the command (a bare `Bash` or `Bash(*)` names nothing).
function _explicitlyAllowed(rules: BashRules, forms: readonly string[]): boolean {
  const named = rules.allow.filter((r) => r.kind !== "all");
  return firstCovering(named, forms, false) !== null;
}

function _same(a: string, b: string): boolean {
  return a.trim().replace(/\s+/g, " ") === b.trim().replace(/\s+/g, " ");
}

function _canonical(dir: string): string {
  try {
    return Deno.realPathSync(dir);
  } catch {
    return dir;
  }
}
