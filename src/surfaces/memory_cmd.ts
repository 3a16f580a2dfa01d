/**
 * `rtok memory`: not built yet (an engineer is building it).
 *
 * @module
 */

/** Runs `rtok memory`. */
export function main(_args: readonly string[]): Promise<number> {
  return Promise.reject(new Error("rtok memory is not built yet"));
}
