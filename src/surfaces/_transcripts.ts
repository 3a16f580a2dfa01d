/**
 * What `rtok discover` and `rtok replay` share: where Claude Code keeps transcripts, how
 * `--since` and `--project` read, and the classifier that names a Bash command's family by
 * rtok's own rewrite rules.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { familyOf, toolName } from "../core/command.ts";
import { joinPath } from "../core/paths.ts";
import { isRtokHookCommand, isRtokHttpHook } from "../claude/hooks_config.ts";
import type { Classifier, CommandView } from "../claude/transcript_stats.ts";
import { planRewrite } from "../rewrite/plan.ts";
import { rewriteRule } from "../rewrite/rules.ts";

/** `--since` read into a time: `7d`, `24h`, `2w` before `now`, or a date / ISO time. */
export function parseSince(text: string, now: Date = new Date()): Date {
  const rel = /^(\d+)([hdw])$/.exec(text);
  if (rel) {
    const hours = Number(rel[1]) * (rel[2] === "h" ? 1 : rel[2] === "d" ? 24 : 24 * 7);
    return new Date(now.getTime() - hours * 3_600_000);
  }
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    const d = new Date(text);
    if (!Number.isNaN(d.getTime())) return d;
  }
  throw new TypeError(`--since "${text}": expected 7d, 24h, 2w or a date like 2026-12-01`);
}

// Commands that set the scene rather than produce the output a family is named for.
const _SCENE = new Set(["cd", "pushd", "popd", "export", "set", "source", ".", "true", "unset"]);

/** The classifier `rtok discover` uses: rtok's own rewrite rules and hook predicates. */
export function rtokClassifier(): Classifier {
  const memo = new Map<string, CommandView>();
  return {
    command(line: string): CommandView {
      let v = memo.get(line);
      if (!v) {
        v = _view(line);
        memo.set(line, v);
      }
      return v;
    },
    isRtokHook(command: string): boolean {
      return isRtokHookCommand(command) || isRtokHttpHook({ type: "http", url: command });
    },
    saving(family: string): number | null {
      return rewriteRule(family)?.saving ?? null;
    },
  };
}

function _view(line: string): CommandView {
  const plan = planRewrite(line);
  if (plan.kind === "refused") {
    // A line the rewrite cannot vouch for: named by its first words, as far as they go.
    const words = line.trim().split(/[\s;&|()]+/).filter((w) => w !== "");
    return {
      family: words.length ? familyOf(words) : "(empty)",
      filterFamily: null,
      runsRtok: false,
    };
  }
  const runs = plan.commands.filter((c) => c.argv.length > 0);
  const runsRtok = runs.some((c) => toolName(c.argv[0]) === "rtok");
  const filterFamily = plan.commands.find((c) => c.family !== null)?.family ?? null;
  const main = runs.find((c) => !_SCENE.has(toolName(c.argv[0]))) ?? runs[runs.length - 1];
  // `rtok git log` is counted under the family rtok runs, `git log`.
  const argv = main && toolName(main.argv[0]) === "rtok" && main.argv.length > 1
    ? main.argv.slice(1)
    : main?.argv;
  const family = filterFamily ?? (argv ? familyOf(argv) : "(empty)");
  return { family, filterFamily, runsRtok };
}

/** True when `cwd` is `project` or below it. */
export function underProject(cwd: string, project: string): boolean {
  return cwd === project || cwd.startsWith(project === "/" ? "/" : `${project}/`);
}

/** `path` made absolute against the working directory, `.` and `..` resolved. */
export function absolutePath(path: string): string {
  const abs = path.startsWith("/") ? path : joinPath(Deno.cwd(), path);
  const parts: string[] = [];
  for (const p of abs.split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") parts.pop();
    else parts.push(p);
  }
  return `/${parts.join("/")}`;
}

/** The default transcript root: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
export function defaultRoot(): string {
  const config = Deno.env.get("CLAUDE_CONFIG_DIR");
  if (config) return joinPath(config, "projects");
  return joinPath(joinPath(Deno.env.get("HOME") ?? "", ".claude"), "projects");
}

/** What `rtok discover` and `rtok replay` are asked: where, since when, which project, how. */
export interface TranscriptArgs {
  /** The transcripts to read (absolute), the projects folder by default. */
  readonly roots: readonly string[];
  /** `--since`, read. */
  readonly since: Date | null;
  /** `--project`, absolute. */
  readonly project: string | null;
  /** `--format`. */
  readonly format: "text" | "json";
  /** `--help`. */
  readonly help: boolean;
  /** The command's own boolean flags, by name. */
  readonly flags: Readonly<Record<string, boolean>>;
}

/** `args` read as both commands read them, with `flags` the command's own boolean flags. */
export function transcriptArgs(
  args: readonly string[],
  flags: readonly string[] = [],
): TranscriptArgs {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      since: { type: "string" },
      project: { type: "string" },
      format: { type: "string", default: "text" },
      help: { type: "boolean", short: "h" },
      ...Object.fromEntries(flags.map((f) => [f, { type: "boolean" as const }])),
    },
    strict: true,
    allowPositionals: true,
  });
  const format = values.format;
  if (format !== "text" && format !== "json") {
    throw new TypeError(`--format "${format}": expected text or json`);
  }
  const v = values as Record<string, unknown>;
  return {
    roots: positionals.length ? positionals.map(absolutePath) : [defaultRoot()],
    since: values.since === undefined ? null : parseSince(values.since),
    project: values.project === undefined ? null : absolutePath(values.project),
    format,
    help: values.help === true,
    flags: Object.fromEntries(flags.map((f) => [f, v[f] === true])),
  };
}

/** The newest modification time of `paths` (epoch ms); a path that cannot be read counts as new. */
export function newestMtime(paths: readonly string[]): number {
  return Math.max(...paths.map((p) => {
    try {
      return Deno.statSync(p).mtime?.getTime() ?? Infinity;
    } catch {
      return Infinity;
    }
  }));
}
