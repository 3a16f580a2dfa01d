/**
 * The verdict on one command line: its rtok form and what the agent's host should do with
 * it, from the plan and the user's own permission rules. A denied command is never rewritten
 * (the host's deny then applies to what the agent wrote); a rewrite is allowed only when the
 * user's rules allow every command in the line, or the command is one the host runs without
 * asking anyway (a read-only listing, log or search, as far as its text shows).
 *
 * @module
 */

import { type BashRules, firstCovering, NO_RULES } from "../claude/permissions.ts";
import { toolName } from "../core/command.ts";
import { familyArgs, gitGlobalsHarmless, planRewrite, type SimpleCommand } from "./plan.ts";
import { rewriteRule } from "./rules.ts";
import { familyOf } from "../core/command.ts";

/** What the host should do: run the rewrite unasked, ask as usual, deny, or no rewrite. */
export type Verdict = "allow" | "ask" | "deny" | "none";

/** A verdict on a line. */
export interface Decision {
  /** The verdict. */
  readonly verdict: Verdict;
  /** The line to run: the rewrite for allow and ask, else the line as given. */
  readonly command: string;
  /** One line saying why. */
  readonly reason: string;
  /** The filter families the rewrite sends output through. */
  readonly families: readonly string[];
}

/** What {@linkcode decide} needs besides the line. */
export interface DecideOptions {
  /** The user's shell-tool rules. */
  readonly rules?: BashRules;
  /** The words that reach rtok (see `rtokInvocation`). */
  readonly rtok?: string;
  /** True when rewriting is off (`RTOK_DISABLED` in the environment). */
  readonly disabled?: boolean;
  /**
   * Claude Code's permission mode for the call. In `plan` mode only a read-only command is
   * allowed unasked: an allow rule does not make a write safe while the agent only plans.
   */
  readonly mode?: string;
}

// The forms a deny or ask rule is checked against: as written, what runs, and what runs named
// by the tool's name, so neither a prefix nor a path slips a command past its rule.
function _forms(c: SimpleCommand): string[] {
  const forms = [c.text];
  if (c.argv.length) {
    forms.push(c.argv.join(" "));
    forms.push([toolName(c.argv[0]), ...c.argv.slice(1)].join(" "));
  }
  return forms;
}

// A path outside the working directory: absolute, from home, or climbing out. Claude Code
// asks before reading one (`ls -la /tmp`), so a rewrite of it must not be allowed unasked.
const OUTSIDE = /(^|=)(\/|~)|(^|[/=])\.\.(\/|$)/;

// A command Claude Code runs without asking, judged conservatively from its text: a bare
// filtered family with only reading arguments, nothing the shell expands, no prefix, no
// redirect, no path outside the working directory.
function _readsOnly(c: SimpleCommand): boolean {
  if (c.prefixed || c.redirected || c.dynamic || c.argv.length === 0) return false;
  if (c.argv[0].includes("/")) return false;
  if (c.argv.slice(1).some((a) => OUTSIDE.test(a))) return false;
  const family = familyOf(c.argv);
  const rule = rewriteRule(family);
  if (!rule) return false;
  if (c.argv[0] === "git" && !gitGlobalsHarmless(c.argv)) return false;
  return rule.readOnly(familyArgs(c.argv));
}

/** The verdict on `line`. */
export function decide(line: string, opts: DecideOptions = {}): Decision {
  const rules = opts.rules ?? NO_RULES;
  const none = (reason: string): Decision => ({
    verdict: "none",
    command: line,
    reason,
    families: [],
  });
  if (opts.disabled) return none("rewriting is off (RTOK_DISABLED is set)");
  const plan = planRewrite(line, opts.rtok ?? "rtok");
  if (plan.kind === "refused") return none(`not rewritten: ${plan.reason}`);
  for (const c of plan.commands) {
    const rule = firstCovering(rules.deny, _forms(c), true);
    if (rule) {
      return {
        verdict: "deny",
        command: line,
        reason: `not rewritten: your rule "${rule.source}" denies "${c.text}"`,
        families: [],
      };
    }
  }
  const families = [...new Set(plan.commands.flatMap((c) => c.family ? [c.family] : []))];
  if (families.length === 0) {
    const why = plan.commands.find((c) => c.skipped)?.skipped ?? "no command";
    return none(`not rewritten: ${why}`);
  }
  // Each family with the saving its fixtures measured, so the user sees what the rewrite buys.
  const named = families.map((f) => {
    const saving = rewriteRule(f)?.saving ?? null;
    return saving === null ? f : `${f} (${saving} % saved on fixtures)`;
  });
  const what = `rtok filters the output of ${named.join(", ")}`;
  for (const c of plan.commands) {
    const rule = firstCovering(rules.ask, _forms(c), true);
    if (rule) {
      return {
        verdict: "ask",
        command: plan.command,
        reason: `${what}; your rule "${rule.source}" asks before "${c.text}"`,
        families,
      };
    }
  }
  const planning = opts.mode === "plan";
  const unallowed = plan.commands.find((c) =>
    (planning || !firstCovering(rules.allow, [c.text], false)) &&
    (plan.background || !_readsOnly(c))
  );
  if (unallowed) {
    return {
      verdict: "ask",
      command: plan.command,
      reason: `${what}; no rule of yours allows "${unallowed.text}", so Claude Code decides`,
      families,
    };
  }
  const byRule = !planning &&
    plan.commands.every((c) => firstCovering(rules.allow, [c.text], false));
  const why = byRule
    ? "allowed by your rules"
    : "each command allowed by your rules or read-only (Claude Code runs those unasked)";
  return { verdict: "allow", command: plan.command, reason: `${what}; ${why}`, families };
}
