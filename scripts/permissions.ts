/**
 * The permissions rtok is installed, compiled and tested with: one list, used everywhere.
 * Reads anywhere (the agent's working directory), writes anywhere (`RTOK_HOME` is the
 * user's choice), runs any tool (that is the job), and reads only the two environment
 * variables it needs. No network, no FFI.
 *
 * @module
 */

/** The `--allow-*` flags, never `-A`. */
export const RTOK_PERMISSIONS: readonly string[] = [
  "--allow-read",
  "--allow-write",
  "--allow-run",
  "--allow-env=RTOK_HOME,HOME",
];
