/**
 * The environment as rtok reads it: only the variables in its permission list.
 *
 * @module
 */

import { RTOK_ENV } from "./permissions.ts";

/** The variables rtok reads, by name; one that is unset or not granted is `undefined`. */
export type RtokEnv = Readonly<Record<string, string | undefined>>;

/** The live value of `name`; `undefined` when it is unset or not granted. */
export function envVar(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** The live values of the variables rtok reads. */
export function rtokEnv(): RtokEnv {
  const env: Record<string, string | undefined> = {};
  for (const name of RTOK_ENV) env[name] = envVar(name);
  return env;
}

/** Turns rtok's hook work off (rewrites and result compression) when set to anything but empty or `0`. */
export const DISABLE_VAR = "RTOK_DISABLED";

/** True when `value` (of `RTOK_DISABLED`) turns rtok's hook work off. */
export function disables(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0";
}
