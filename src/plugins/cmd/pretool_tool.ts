/**
 * The name of Claude Code's shell tool, apart from the rewrite rules so the plugin can test
 * for it without loading them.
 *
 * @module
 */

/** Claude Code's shell tool. */
export const SHELL_TOOL = "Bash";
