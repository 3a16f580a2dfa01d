/**
 * `rtok discover`: not built yet (an engineer is building it).
 *
 * @module
 */

/** Runs `rtok discover`. */
export function main(_args: readonly string[]): Promise<number> {
  return Promise.reject(new Error("rtok discover is not built yet"));
}
