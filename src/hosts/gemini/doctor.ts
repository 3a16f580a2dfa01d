/**
 * `rtok doctor` for Gemini CLI: rtok's `BeforeTool` and `AfterTool` groups in its user
 * settings, as rtok installs them and not turned off, and the installed release (read from
 * its npm package, whose own hooks reference is checked for the facts rtok relies on when the
 * release is not the verified one), through the shared check in `../doctor.ts`.
 *
 * @module
 */

import { joinPath, parentDir } from "../../core/paths.ts";
import { isObject } from "../shared.ts";
import { checkHost, type HooksFinding } from "../doctor.ts";
import type { DoctorOptions, HostDoctor } from "../install.ts";
import { GEMINI_HOOK_EVENTS, geminiSettingsPath } from "./adapter.ts";
import { geminiHookGroup, isRtokGeminiHook, readGeminiSettings } from "./install.ts";

/** The installed `gemini`: its package's version and hooks reference, or `null`. */
export interface InstalledGemini {
  /** Its package's version. */
  readonly version: string;
  /** Its own hooks reference (`bundle/docs/hooks/reference.md`), or `null`. */
  readonly reference: string | null;
}

/** The `gemini` on PATH, read from its npm package (`npm`); `null` when there is none. */
export async function installedGemini(npm: string): Promise<InstalledGemini | null> {
  const path = Deno.env.get("PATH") ?? "";
  for (const dir of path.split(":")) {
    if (!dir) continue;
    let real: string;
    try {
      real = await Deno.realPath(joinPath(dir, "gemini"));
    } catch {
      continue;
    }
    // The npm package: <pkg>/bundle/gemini.js, <pkg>/package.json.
    const pkg = parentDir(parentDir(real));
    try {
      const meta = JSON.parse(await Deno.readTextFile(joinPath(pkg, "package.json")));
      if (meta.name !== npm || typeof meta.version !== "string") continue;
      const reference = await Deno.readTextFile(
        joinPath(pkg, "bundle/docs/hooks/reference.md"),
      ).catch(() => null);
      return { version: meta.version, reference };
    } catch {
      continue;
    }
  }
  return null;
}

/** The hook protocol facts rtok relies on, as Gemini CLI's own hooks reference states them. */
export const GEMINI_FORMAT_MARKERS: readonly string[] = [
  "BeforeTool",
  "AfterTool",
  "hookSpecificOutput.tool_input",
  "tool_input",
  "milliseconds",
];

async function _hooks(path: string, opts: DoctorOptions): Promise<HooksFinding> {
  let settings: Record<string, unknown> | null;
  try {
    settings = (await readGeminiSettings(path)).settings;
  } catch (e) {
    return { configured: true, status: "FAIL", detail: (e as Error).message };
  }
  const groups = (event: string) => {
    const h = isObject(settings?.hooks) ? (settings!.hooks as Record<string, unknown>)[event] : [];
    return (Array.isArray(h) ? h : []).filter((g) =>
      isObject(g) && Array.isArray(g.hooks) && g.hooks.some(isRtokGeminiHook)
    ) as Record<string, unknown>[];
  };
  const ours = GEMINI_HOOK_EVENTS.map((e) => ({ event: e, groups: groups(e) }));
  if (!ours.some((o) => o.groups.length > 0)) {
    return {
      configured: false,
      status: "warn",
      detail: `not installed in ${path}: run rtok init --host gemini`,
    };
  }
  const want = JSON.stringify(geminiHookGroup(opts.rtok));
  const wrong = ours.filter((o) => o.groups.length !== 1 || JSON.stringify(o.groups[0]) !== want);
  const cfg = settings?.hooksConfig;
  if (wrong.length) {
    return {
      configured: true,
      status: "FAIL",
      detail: `${wrong.map((o) => o.event).join(", ")} in ${path} differ from what ` +
        "rtok init --host gemini writes: run it again",
    };
  }
  if (isObject(cfg) && cfg.enabled === false) {
    return {
      configured: true,
      status: "FAIL",
      detail: `installed, but hooksConfig.enabled is false in ${path}: they will not run`,
    };
  }
  return {
    configured: true,
    status: "ok",
    detail: `BeforeTool and AfterTool run ${opts.rtok} hook gemini (${path})`,
  };
}

/** Gemini CLI's doctor, reading the installed release with `installed`. */
export function geminiDoctor(
  installed: (npm: string) => Promise<InstalledGemini | null> = installedGemini,
): HostDoctor {
  return {
    check(opts) {
      // One read of the package serves both the version and, for another release, its reference.
      const found = installed(opts.host.npm);
      return checkHost({
        config: geminiSettingsPath,
        version: async () => (await found)?.version ?? null,
        hooks: _hooks,
        async unverified(version) {
          const reference = (await found)?.reference ?? null;
          const verified = opts.host.verifiedVersion;
          const missing = reference === null
            ? null
            : GEMINI_FORMAT_MARKERS.filter((m) => !reference.includes(m));
          return missing && missing.length
            ? {
              status: "FAIL",
              detail: `${version}: its hooks reference no longer names ${missing.join(", ")}; ` +
                `rtok was verified with ${verified}`,
            }
            : {
              status: "warn",
              detail: `${version}, not the verified ${verified}: the hook format ` +
                (missing ? "reads the same but is unverified" : "could not be checked"),
            };
        },
      }, opts);
    },
  };
}

/** Gemini CLI's doctor. */
export const DOCTOR: HostDoctor = geminiDoctor();
