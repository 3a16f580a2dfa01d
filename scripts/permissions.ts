/**
 * The permission list for scripts, tests and benchmarks: the same one rtok ships with.
 *
 * @module
 */

export { RTOK_ENV, RTOK_PERMISSIONS } from "../src/core/permissions.ts";
