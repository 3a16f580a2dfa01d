/**
 * The one doctor check every host's doctor feeds: where the host keeps rtok's hooks, the
 * verdict on the entries found there, and the installed CLI's version against the one rtok
 * was verified with (the host's `HOSTS` entry, which `rtok doctor` hands each doctor). It says nothing of a host neither installed nor configured,
 * and two lines (`<host> hooks`, `<host> version`) of any other.
 *
 * @module
 */

import type { DoctorOptions, HostCheck, HostDoctor } from "./install.ts";

/** The verdict on rtok's hook entries in a host's settings. */
export type HooksFinding =
  & {
    /** True when there is anything of rtok's (or a file that could not be read) to report. */
    readonly configured: boolean;
  }
  & (
    | {
      /** `ok`, `warn` or `FAIL`: the `<host> hooks` line. */
      readonly status: HostCheck["status"];
      /** What was found, in one line. */
      readonly detail: string;
    }
    | {
      /** The host's own lines instead (Claude Code's: one per settings file, the rivals). */
      readonly checks: readonly HostCheck[];
    }
  );

/** What a host's doctor supplies. */
export interface DoctorSpec {
  /**
   * Where rtok's hooks live for `env` (a file or a folder). Throws when the host's home cannot
   * be found: then nothing is said of the host.
   */
  config(env: DoctorOptions["env"]): string;
  /** The installed CLI's version, or `null` when none is found. */
  version(opts: DoctorOptions): Promise<string | null>;
  /** The verdict on the hook entries at `path` against those rtok installs. */
  hooks(path: string, opts: DoctorOptions): Promise<HooksFinding>;
  /**
   * A closer look at an installed version that is not the verified one (the host's own
   * reference of its hook format, say); `null` leaves the general warning.
   */
  unverified?(
    installed: string,
    opts: DoctorOptions,
  ): Promise<Pick<HostCheck, "status" | "detail"> | null>;
}

/** The doctor that runs the shared check on `spec`. */
export function hostDoctor(spec: DoctorSpec): HostDoctor {
  return { check: (opts) => checkHost(spec, opts) };
}

/** The shared check: the host's hooks, then its version; nothing for a host not there at all. */
export async function checkHost(spec: DoctorSpec, opts: DoctorOptions): Promise<HostCheck[]> {
  let path: string;
  try {
    path = spec.config(opts.env);
  } catch {
    return [];
  }
  const [installed, hooks] = await Promise.all([spec.version(opts), spec.hooks(path, opts)]);
  if (installed === null && !hooks.configured) return [];
  const { id } = opts.host;
  return [
    ...("checks" in hooks
      ? hooks.checks
      : [{ status: hooks.status, label: `${id} hooks`, detail: hooks.detail }]),
    { label: `${id} version`, ...await _version(spec, opts, installed) },
  ];
}

async function _version(
  spec: DoctorSpec,
  opts: DoctorOptions,
  installed: string | null,
): Promise<Pick<HostCheck, "status" | "detail">> {
  const { name, bin, verifiedVersion } = opts.host;
  if (installed === null) {
    return {
      status: "warn",
      detail: `${bin} was not found on PATH (or did not answer --version): rtok's hook runs ` +
        `only inside ${name}`,
    };
  }
  if (installed === verifiedVersion) {
    return {
      status: "ok",
      detail: `${name} ${installed}, the release rtok's hooks were verified with`,
    };
  }
  return await spec.unverified?.(installed, opts) ?? {
    status: "warn",
    detail: `${name} ${installed}; rtok's hooks were verified with ${verifiedVersion} only: ` +
      "check that a git log's output still comes back filtered",
  };
}
