/**
 * The permissions rtok is installed, compiled and tested with: one list, used everywhere.
 * Reads anywhere (the agent's working directory), writes anywhere (`RTOK_HOME` is the
 * user's choice), runs any tool (that is the job), and reads only the environment variables
 * it needs. The network only for `rtok proxy` (every other surface revokes it); no FFI.
 *
 * @module
 */

/** The environment variables that say where the other hosts keep their settings. */
export const HOST_ENV: readonly string[] = [
  "HOME",
  "XDG_CONFIG_HOME",
  "CODEX_HOME",
  "GEMINI_CLI_HOME",
  "COPILOT_HOME",
];

/** The environment variables rtok reads. */
export const RTOK_ENV: readonly string[] = [
  "RTOK_HOME",
  "HOME",
  "PATH",
  "RTOK_DISABLED",
  "CLAUDE_PROJECT_DIR",
  "CLAUDE_CONFIG_DIR",
  "DENO_INSTALL_ROOT",
  // The team gateway's token (`rtok proxy`), and the caller name `rtok metrics --push` sends.
  "RTOK_PROXY_TOKEN",
  "USER",
  ...HOST_ENV.filter((name) => name !== "HOME"),
];

/** The `--allow-*` flags, never `-A`. */
export const RTOK_PERMISSIONS: readonly string[] = [
  "--allow-read",
  "--allow-write",
  "--allow-run",
  "--allow-net",
  `--allow-env=${RTOK_ENV.join(",")}`,
];
