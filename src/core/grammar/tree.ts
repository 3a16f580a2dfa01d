/**
 * The argument grammar of `tree`: which options take a value, which print a format of the
 * caller's choosing, and which already decide what the listing leaves out or how deep it goes.
 * The tree filter and the guard read it here.
 *
 * @module
 */

import type { OptionSpec } from "./options.ts";

/** tree's options that take a value (`-L 2`, `-I 'a|b'`, `--charset=ascii`). */
export const TREE: OptionSpec = {
  shortValued: "LPIoHT",
  longValued: new Set([
    "charset",
    "filelimit",
    "timefmt",
    "sort",
    "gitfile",
    "infofile",
    "hintro",
    "houtro",
  ]),
};

/** Machine formats, and line graphics drawn with escapes or code page 437. */
export const TREE_FORMAT: readonly string[] = ["-J", "-X", "-H", "-A", "-S", "--help", "--version"];

/** Options by which the caller chose what to leave out or how deep to go. */
export const TREE_SCOPE: readonly string[] = ["-I", "-L", "--gitignore"];

/** Short options that write files: `-o FILE`, and `-R` (an index file per level with `-H`). */
export const TREE_WRITES_SHORT: string = "oR";
