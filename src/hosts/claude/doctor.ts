/**
 * `rtok doctor` for Claude Code: its three settings files (the user's, the project's, the
 * project-local one), which of rtok's hook events each holds, and the other PreToolUse hooks on
 * Bash that race with rtok's (rival rewriters by name), and `claude --version` against the
 * verified release (the shared check in `../doctor.ts`). Whether the installed hook answers is
 * the doctor surface's check, over the files {@linkcode claudeSettingsFiles} reads.
 *
 * @module
 */

import { HOOK_EVENTS } from "../../claude/hook_protocol.ts";
import {
  isRivalRewriter,
  isRtokListed,
  type ListedHook,
  listHooks,
  matcherMatchesBash,
  parseSettings,
  settingsPaths,
} from "../../claude/hooks_config.ts";
import { hostDoctor } from "../doctor.ts";
import type { DoctorOptions, HostCheck, HostDoctor } from "../install.ts";
import { installedVersion } from "../shared.ts";

/** One settings file as the doctor read it. */
export interface SettingsFile {
  /** `user settings`, `project settings` or `local settings`. */
  readonly label: string;
  /** Its path. */
  readonly path: string;
  /** The hooks it holds; `null` when the file is absent or unreadable. */
  readonly hooks: ListedHook[] | null;
  /** What to report before its hooks: absent, unreadable, hooks disabled. */
  readonly notes: readonly HostCheck[];
}

/** The settings files, read; a `settings` FAIL when their places cannot be found. */
export async function claudeSettingsFiles(
  env: DoctorOptions["env"],
  cwd: string,
): Promise<{ files: SettingsFile[]; failure: HostCheck | null }> {
  let paths;
  try {
    paths = settingsPaths({ home: env.HOME, claudeConfigDir: env.CLAUDE_CONFIG_DIR }, cwd);
  } catch (e) {
    return {
      files: [],
      failure: { status: "FAIL", label: "settings", detail: (e as Error).message },
    };
  }
  const wanted = [
    { label: "user settings", path: paths.user },
    { label: "project settings", path: paths.project },
    { label: "local settings", path: paths.local },
  ];
  const files: SettingsFile[] = [];
  const seen = new Set<string>();
  for (const { label, path } of wanted) {
    // In the home directory, the project's settings file is the user's: report it once.
    if (seen.has(path)) continue;
    seen.add(path);
    const note = (status: HostCheck["status"], detail: string) => [{ status, label, detail }];
    let text: string;
    try {
      text = await Deno.readTextFile(path);
    } catch (e) {
      files.push({
        label,
        path,
        hooks: null,
        notes: e instanceof Deno.errors.NotFound
          ? note("ok", `${path}: absent`)
          : note("FAIL", `Cannot read "${path}": ${(e as Error).message}`),
      });
      continue;
    }
    try {
      const settings = parseSettings(text, path);
      const hooks = listHooks(settings);
      files.push({
        label,
        path,
        hooks,
        notes: settings.disableAllHooks === true
          ? note("warn", `${path}: disableAllHooks is true, so Claude Code runs no hooks`)
          : [],
      });
    } catch (e) {
      const detail = `${(e as Error).message}; fix it, then run rtok doctor again`;
      files.push({ label, path, hooks: null, notes: note("FAIL", detail) });
    }
  }
  return { files, failure: null };
}

/** Each file's notes, then which of rtok's hook events it holds and which it lacks. */
export function settingsChecks(files: readonly SettingsFile[]): HostCheck[] {
  const checks: HostCheck[] = [];
  const add = (status: HostCheck["status"], label: string, detail: string) =>
    checks.push({ status, label, detail });
  const installedIn = files.filter((f) => f.hooks?.some((h) => isRtokListed(h)));
  for (const f of files) {
    checks.push(...f.notes);
    const hooks = f.hooks;
    if (hooks === null) continue;
    const events = HOOK_EVENTS.map((e) => e.event).filter((event) =>
      hooks.some((h) => h.event === event && isRtokListed(h))
    );
    if (events.length === 0) {
      if (installedIn.length > 0) {
        add("ok", f.label, `${f.path}: no rtok hooks (installed in ${installedIn[0].path})`);
      } else add("warn", f.label, `${f.path}: not installed (run rtok init)`);
      continue;
    }
    const missing = HOOK_EVENTS.map((e) => e.event).filter((e) => !events.includes(e));
    add("ok", f.label, `${f.path}: rtok hooks on ${events.join(", ")}`);
    if (missing.length > 0) {
      add("warn", f.label, `${f.path}: no rtok hook on ${missing.join(", ")} (run rtok init)`);
    }
  }
  return checks;
}

/** Other PreToolUse hooks that run for Bash, known rewriters by name. */
export function rivalChecks(files: readonly SettingsFile[]): HostCheck[] {
  const checks: HostCheck[] = [];
  for (const f of files) {
    for (const h of f.hooks ?? []) {
      if (h.event !== "PreToolUse" || !matcherMatchesBash(h.matcher)) continue;
      if (isRtokListed(h)) continue;
      const name = isRivalRewriter(h.command);
      const retire = f.label === "user settings"
        ? "run rtok init --replace to retire it"
        : f.label === "project settings"
        ? "run rtok init --project --replace to retire it"
        : "remove it from that file (rtok init edits settings.json only)";
      checks.push({
        status: "warn",
        label: "rivals",
        detail: name
          ? `${name} also rewrites Bash commands on PreToolUse in ${f.path}; hooks run in ` +
            `parallel and the last rewrite wins — ${retire}`
          : `another PreToolUse hook on Bash (${h.command}) — if it rewrites commands it ` +
            `races with rtok`,
      });
    }
  }
  if (checks.length === 0) {
    checks.push({ status: "ok", label: "rivals", detail: "no other PreToolUse hook on Bash" });
  }
  return checks;
}

/** rtok's PreToolUse hooks on Bash, in the files' order: the ones the doctor probes. */
export function preToolHooks(
  files: readonly SettingsFile[],
): { file: SettingsFile; hook: ListedHook }[] {
  return files.flatMap((f) =>
    (f.hooks ?? []).filter((h) =>
      h.event === "PreToolUse" && matcherMatchesBash(h.matcher) && isRtokListed(h)
    ).map((h) => ({ file: f, hook: h }))
  );
}

/** The installed Claude Code's version from `claude --version` on PATH, or `null`. */
export function installedClaudeVersion(): Promise<string | null> {
  return installedVersion("claude");
}

/** What the doctor reads besides files: the installed Claude Code's version. */
export interface ClaudeDoctorDeps {
  /** The installed `claude --version`, or `null` when none is found. */
  readonly version?: () => Promise<string | null>;
}

/**
 * Claude Code's doctor: its settings files and the rivals in them (always reported: it is the
 * host `rtok init` installs into by default), and its version, through the shared check.
 */
export function claudeDoctor(deps: ClaudeDoctorDeps = {}): HostDoctor {
  const version = deps.version ?? installedClaudeVersion;
  return hostDoctor({
    // The three files are found again below: a home that cannot be found is a FAIL there.
    config: () => "",
    version: () => version(),
    async hooks(_path, opts) {
      const { files, failure } = await claudeSettingsFiles(opts.env, opts.cwd);
      const checks = failure ? [failure] : settingsChecks(files);
      return { configured: true, checks: [...checks, ...rivalChecks(files)] };
    },
  });
}

/** Claude Code's doctor. */
export const DOCTOR: HostDoctor = claudeDoctor();
