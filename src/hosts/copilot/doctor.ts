/**
 * `rtok doctor` for Copilot CLI: rtok's `postToolUse` entry in its hooks file, as rtok
 * installs it, and `copilot --version`, through the shared check in `../doctor.ts`.
 *
 * @module
 */

import { installedVersion } from "../shared.ts";
import { type HooksFinding, hostDoctor } from "../doctor.ts";
import type { DoctorOptions, HostDoctor } from "../install.ts";
import {
  COPILOT_HOOKS_FILE,
  copilotHome,
  copilotHookCommand,
  hookEntries,
  isRtokCopilotEntry,
  readCopilotConfig,
} from "./install.ts";

/** The installed Copilot CLI's version from `copilot --version` on PATH, or `null`. */
export function installedCopilotVersion(): Promise<string | null> {
  return installedVersion("copilot", { COPILOT_AUTO_UPDATE: "false", COPILOT_OFFLINE: "true" });
}

async function _hooks(path: string, opts: DoctorOptions): Promise<HooksFinding> {
  let read;
  try {
    read = await readCopilotConfig(path);
  } catch (e) {
    return { configured: true, status: "FAIL", detail: (e as Error).message };
  }
  const configured = read.text !== null;
  const warn = (detail: string): HooksFinding => ({ configured, status: "warn", detail });
  const config = read.config;
  if (config == null) return warn(`not installed (no ${path}); run rtok init --host copilot`);
  const ours = hookEntries(config, "postToolUse").filter(isRtokCopilotEntry);
  const stray = Object.keys((config.hooks ?? {}) as Record<string, unknown>)
    .filter((ev) => ev !== "postToolUse" && hookEntries(config, ev).some(isRtokCopilotEntry));
  const want = copilotHookCommand(opts.rtok);
  const exact = ours.find((e) => (e as Record<string, unknown>).bash === want) as
    | Record<string, unknown>
    | undefined;
  if (ours.length === 0) {
    return warn(`${path} has no rtok postToolUse hook; run rtok init --host copilot`);
  }
  if ((config.version ?? 1) !== 1 || stray.length || !exact || ours.length > 1) {
    const why = (config.version ?? 1) !== 1
      ? `"version" is ${JSON.stringify(config.version)}, not 1`
      : stray.length
      ? `rtok's hook is also under ${stray.join(", ")}, which rtok does not answer`
      : ours.length > 1
      ? "rtok's postToolUse hook is there more than once"
      : `the hook runs "${(ours[0] as Record<string, unknown>).bash}", not "${want}"`;
    return warn(
      `${path} differs from the format rtok installs: ${why}; run rtok init --host copilot again`,
    );
  }
  if (exact.type !== "command" || (exact.timeoutSec ?? 30) !== 30) {
    return warn(`${path}: rtok's entry has unexpected fields; run rtok init --host copilot again`);
  }
  return {
    configured,
    status: "ok",
    detail: `postToolUse runs "${want}" after each bash call (${path})`,
  };
}

/** What the doctor reads besides files: the installed Copilot's version. */
export interface CopilotDoctorDeps {
  /** The installed `copilot --version`, or `null` when none is found. */
  readonly version?: () => Promise<string | null>;
}

/** A doctor whose version probe is `deps.version` (`copilot --version` by default). */
export function copilotDoctor(deps: CopilotDoctorDeps = {}): HostDoctor {
  const version = deps.version ?? installedCopilotVersion;
  return hostDoctor({
    config: (env) => `${copilotHome(env)}/hooks/${COPILOT_HOOKS_FILE}`,
    version: () => version(),
    hooks: _hooks,
  });
}

/** Copilot CLI's doctor. */
export const DOCTOR: HostDoctor = copilotDoctor();
