/**
 * `rtok doctor` for Codex CLI: rtok's `PostToolUse` group in `hooks.json`, as rtok installs it
 * and trusted in `config.toml` with the hash Codex checks, and `codex --version` (through the
 * shared check in `../doctor.ts`).
 *
 * @module
 */

import { canonicalJson, installedVersion } from "../shared.ts";
import { type DoctorSpec, type HooksFinding, hostDoctor } from "../doctor.ts";
import type { DoctorOptions, HostDoctor } from "../install.ts";
import {
  CODEX_EVENT,
  CODEX_EVENT_KEY,
  CODEX_HOOK_MATCHER,
  codexHome,
  codexHookCommand,
  codexHookGroup,
  codexHookHash,
  codexTrustKey,
  hasRtok,
  hooksOff,
  isRtokCodexHandler,
  postGroups,
  readCodexHooks,
  readCodexToml,
  realPath,
  trustState,
} from "./install.ts";

/** The installed Codex CLI's version from `codex --version` on PATH, or `null`. */
export function installedCodexVersion(): Promise<string | null> {
  return installedVersion("codex");
}

// What differs in `group` from the group rtok installs, or `null` when nothing does.
function _formatDiff(group: Record<string, unknown>, rtok: string): string | null {
  const want = codexHookGroup(rtok);
  const handlers = (group.hooks ?? []) as unknown[];
  const mine = handlers.find(isRtokCodexHandler) as Record<string, unknown>;
  if (group.matcher !== CODEX_HOOK_MATCHER) {
    return `its matcher is ${JSON.stringify(group.matcher ?? null)}, not "${CODEX_HOOK_MATCHER}"`;
  }
  if (handlers.length !== 1) return "its group holds other handlers too";
  if (mine.command !== codexHookCommand(rtok)) {
    return `the hook runs "${mine.command}", not "${codexHookCommand(rtok)}"`;
  }
  if (canonicalJson(group) !== canonicalJson(want)) {
    return "its handler has fields rtok does not write";
  }
  return null;
}

async function _hooks(home: string, opts: DoctorOptions): Promise<HooksFinding> {
  const hooksPath = `${home}/hooks.json`;
  const configPath = `${home}/config.toml`;
  const fix = "run rtok init --host codex";
  let hooks, config;
  try {
    [hooks, config] = await Promise.all([readCodexHooks(hooksPath), readCodexToml(configPath)]);
  } catch (e) {
    return { configured: true, status: "FAIL", detail: (e as Error).message };
  }
  const configured = hooks.text !== null || config.text !== null;
  const warn = (detail: string): HooksFinding => ({ configured, status: "warn", detail });
  const value = hooks.value;
  const groups = postGroups(value);
  const index = groups.findIndex(hasRtok);
  const stray = Object.keys((value?.hooks ?? {}) as Record<string, unknown>)
    .filter((ev) =>
      ev !== CODEX_EVENT && (value!.hooks as Record<string, unknown[]>)[ev].some(hasRtok)
    );
  if (index < 0 && stray.length === 0) {
    return warn(`not installed (no rtok hook in ${hooksPath}); ${fix}`);
  }
  if (index < 0 || stray.length || groups.filter(hasRtok).length > 1) {
    const why = index < 0
      ? `rtok's hook is under ${stray.join(", ")}, not ${CODEX_EVENT}`
      : stray.length
      ? `rtok's hook is also under ${stray.join(", ")}, which rtok does not answer`
      : `rtok's hook is under ${CODEX_EVENT} more than once`;
    return warn(`${hooksPath} differs from the format rtok installs: ${why}; ${fix} again`);
  }
  const group = groups[index] as Record<string, unknown>;
  const diff = _formatDiff(group, opts.rtok);
  const key = codexTrustKey(realPath(hooksPath), CODEX_EVENT_KEY, index);
  const state = trustState(config.value, key);
  const hash = await codexHookHash(CODEX_EVENT_KEY, group);
  if (diff) {
    return warn(`${hooksPath} differs from the format rtok installs: ${diff}; ${fix} again`);
  }
  if (hooksOff(config.value)) {
    return warn(
      `${configPath} turns Codex's hooks off ([features] hooks = false): rtok's hook does not run`,
    );
  }
  if (state?.enabled === false) {
    return warn(`${configPath} turns rtok's hook off (enabled = false)`);
  }
  if (!state || typeof state.trusted_hash !== "string") {
    return warn(`rtok's hook is not trusted in ${configPath}: Codex skips it; ${fix} again`);
  }
  if (state.trusted_hash !== hash) {
    return warn(
      `rtok's hook changed since it was trusted in ${configPath}: Codex skips it; ${fix} again`,
    );
  }
  return {
    configured,
    status: "ok",
    detail: `PostToolUse runs "${
      codexHookCommand(opts.rtok)
    }" after each shell call, trusted (${hooksPath})`,
  };
}

/** What the doctor reads besides files: the installed Codex's version. */
export interface CodexDoctorDeps {
  /** The installed `codex --version`, or `null` when none is found. */
  readonly version?: () => Promise<string | null>;
}

/** What Codex's doctor supplies to the shared check, its version probe `deps.version`. */
export function codexDoctorSpec(deps: CodexDoctorDeps = {}): DoctorSpec {
  const version = deps.version ?? installedCodexVersion;
  return { config: codexHome, version: () => version(), hooks: _hooks };
}

/** A doctor whose version probe is `deps.version` (`codex --version` by default). */
export function codexDoctor(deps: CodexDoctorDeps = {}): HostDoctor {
  return hostDoctor(codexDoctorSpec(deps));
}

/** Codex CLI's doctor. */
export const DOCTOR: HostDoctor = codexDoctor();
