/**
 * The argument grammar of `find`: its options before the paths, the paths, then an expression
 * of primaries, some taking values (`-name -delete` looks for files named `-delete`). Says
 * which primaries are actions, which print in a format of the caller's choosing, and which
 * write files or run programs. The find filter, the guard and the rewrite's read-only rule all
 * read it here.
 *
 * @module
 */

/** What an action does besides deciding truth: prints, prints in its own format, writes… */
export type FindEffect = "prints" | "format" | "writes" | "runs" | "quits";

/** find's actions: with one in the expression, find prints nothing by itself. */
export const FIND_ACTIONS: Readonly<Record<string, FindEffect>> = {
  "-print": "prints",
  "-print0": "format",
  "-printf": "format",
  "-ls": "format",
  "-exec": "runs",
  "-execdir": "runs",
  "-ok": "runs",
  "-okdir": "runs",
  "-delete": "writes",
  "-fprint": "writes",
  "-fprint0": "writes",
  "-fprintf": "writes",
  "-fls": "writes",
  "-quit": "quits",
};

/** Options that print help or the version instead of searching. */
export const FIND_INFO: readonly string[] = ["-help", "--help", "-version", "--version"];

/** The actions that write a file or run a program: a find with one is more than a read. */
export const FIND_MUTATING: readonly string[] = Object.keys(FIND_ACTIONS).filter((name) =>
  FIND_ACTIONS[name] === "writes" || FIND_ACTIONS[name] === "runs"
);

/** Global options, which belong at the start of the expression, with how many values each takes. */
export const FIND_GLOBALS: Readonly<Record<string, number>> = {
  "-maxdepth": 1,
  "-mindepth": 1,
  "-regextype": 1,
  "-depth": 0,
  "-d": 0,
  "-xdev": 0,
  "-mount": 0,
  "-noleaf": 0,
  "-ignore_readdir_race": 0,
  "-noignore_readdir_race": 0,
  "-daystart": 0,
  "-follow": 0,
  "-warn": 0,
  "-nowarn": 0,
};

// Primaries whose next word is a value, the globals and the `-exec` family aside.
const _ONE_VALUE = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-lname",
  "-ilname",
  "-type",
  "-xtype",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-perm",
  "-size",
  "-links",
  "-inum",
  "-samefile",
  "-newer",
  "-anewer",
  "-cnewer",
  "-mtime",
  "-atime",
  "-ctime",
  "-mmin",
  "-amin",
  "-cmin",
  "-used",
  "-fstype",
  "-context",
  "-files0-from",
  "-printf",
  "-fprint",
  "-fprint0",
  "-fls",
]);

// Options before the paths: `-H`, `-L`, `-P`, `-D debugopts`, `-Olevel`.
const _LEAD = /^-[HLP]$|^-D|^-O\d/;

/** One primary of a find expression (an operator such as `(` or `-o` included). */
export interface FindPrimary {
  /** The primary as written: `-name`, `-exec`, `(`. */
  readonly name: string;
  /** Where it stands in the arguments. */
  readonly at: number;
  /** How many words after it are its values. */
  readonly values: number;
}

/** A find command's arguments read by its grammar. */
export interface FindArgs {
  /** Where the paths start in the arguments (past `-H`, `-L`, `-P`, `-D`, `-O`). */
  readonly pathsFrom: number;
  /** Where the expression starts: the paths are the arguments between. */
  readonly exprFrom: number;
  /** The expression's primaries in order, values skipped. */
  readonly primaries: readonly FindPrimary[];
}

// How many words after the primary at `i` are its values.
function _arity(args: readonly string[], i: number): number {
  const name = args[i];
  if (name === "-exec" || name === "-execdir" || name === "-ok" || name === "-okdir") {
    for (let k = i + 1; k < args.length; k++) {
      if (args[k] === ";" || (args[k] === "+" && args[k - 1] === "{}")) return k - i;
    }
    return args.length - 1 - i;
  }
  if (name === "-fprintf") return 2;
  if (Object.hasOwn(FIND_GLOBALS, name)) return FIND_GLOBALS[name];
  return _ONE_VALUE.has(name) || /^-newer[aBcmt][aBcmt]$/.test(name) ? 1 : 0;
}

/** Reads a find command's arguments (after `find`). */
export function readFind(args: readonly string[]): FindArgs {
  let i = 0;
  while (i < args.length && _LEAD.test(args[i])) i += args[i] === "-D" ? 2 : 1;
  const pathsFrom = Math.min(i, args.length);
  while (i < args.length && !/^[-(!]/.test(args[i])) i++;
  const exprFrom = i;
  const primaries: FindPrimary[] = [];
  while (i < args.length) {
    const values = Math.min(_arity(args, i), args.length - 1 - i);
    primaries.push({ name: args[i], at: i, values });
    i += 1 + values;
  }
  return { pathsFrom, exprFrom, primaries };
}
