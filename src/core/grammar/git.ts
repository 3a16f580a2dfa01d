/**
 * git's argument grammar: its global options before the subcommand that take a value, and the
 * diff output options `git diff`, `git log` and `git show` share that print something other
 * than a patch for reading (a name list, a raw or NUL-separated listing, a word diff). Command
 * matching and the git filters read them here.
 *
 * @module
 */

/** git's global options that take the next word as their value (`git -C dir log`). */
export const GIT_GLOBAL_VALUED: ReadonlySet<string> = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--config-env",
  "--exec-path",
  "--list-cmds",
]);

/** Diff output options of every diffing subcommand that print no patch meant for reading. */
export const GIT_DIFF_FORMATS: readonly string[] = [
  "--name-only",
  "--name-status",
  "--raw",
  "--summary",
  "--compact-summary",
  "--dirstat",
  "--dirstat-by-file",
  "--cumulative",
  "--check",
  "-z",
  "--word-diff",
  "--patch-with-stat",
  "--patch-with-raw",
];

/** …and the starts of their `=value` spellings (`-X` is `--dirstat`'s short form). */
export const GIT_DIFF_FORMAT_PREFIXES: readonly string[] = [
  "--dirstat=",
  "--dirstat-by-file=",
  "-X",
  "--word-diff=",
];
