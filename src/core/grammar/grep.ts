/**
 * The argument grammars of `grep` and `rg`: which options take a value, which give the
 * pattern, which make a search recursive, which shape or replace the printed output, and which
 * run another program. The filters, the guard and the rewrite's read-only rule all read them
 * here, so an option added once is read alike everywhere.
 *
 * @module
 */

import { type OptionSpec, type ScannedArgs, scanOptions } from "./options.ts";

/** A search tool's grammar. */
export interface SearchGrammar {
  /** Which options take a value. */
  readonly spec: OptionSpec;
  /** Options that give the pattern, so that every operand is a path (`-e`, `-f`). */
  readonly patternOptions: readonly string[];
  /** Options whose value is itself a pattern (`-e PAT`, `--regexp=PAT`). */
  readonly patternValues: readonly string[];
  /** Options that make the search walk directories (rg always does). */
  readonly recursive: readonly string[];
  /** Options that walk directories given one value (`-d recurse`), `null` when none do. */
  readonly recursiveBy: { readonly options: readonly string[]; readonly value: string } | null;
  /** Options that leave a directory out of the walk, by the start of their name. */
  readonly excludePrefix: string | null;
  /** Options that ask for a format meant for programs, or print no hits at all. */
  readonly machine: ReadonlySet<string>;
  /** Options that print file names with each hit, and those that leave them out. */
  readonly filenames: { readonly on: readonly string[]; readonly off: readonly string[] };
  /** Options that number the lines, and those that stop it. */
  readonly lineNumbers: { readonly on: readonly string[]; readonly off: readonly string[] };
  /** Options that print context lines around the hits. */
  readonly context: readonly string[];
  /** The option that sets the line between context groups, and the one that drops it. */
  readonly separator: { readonly set: string; readonly off: string };
  /**
   * Long options that make the search run another program or open archives with one: the
   * command is then more than a read (a long option also counts as `--opt=value`).
   */
  readonly runs: readonly string[];
  /** …and the short option letters that do. */
  readonly runsShort: string;
}

const _PATTERN_OPTIONS = ["-e", "-f", "--regexp", "--file"];
const _PATTERN_VALUES = ["-e", "--regexp"];
const _CONTEXT = ["-A", "-B", "-C", "--after-context", "--before-context", "--context"];
const _HELP = ["--help", "-V", "--version"];

/** GNU grep (and `egrep`, `fgrep`). */
export const GREP: SearchGrammar = {
  spec: {
    // `-X MATCHER` is grep's undocumented choice of matcher (`-X egrep`).
    shortValued: "efmABCdDX",
    longValued: new Set([
      "regexp",
      "file",
      "max-count",
      "after-context",
      "before-context",
      "context",
      "directories",
      "devices",
      "include",
      "exclude",
      "exclude-from",
      "exclude-dir",
      "label",
      "binary-files",
      "group-separator",
    ]),
  },
  patternOptions: _PATTERN_OPTIONS,
  patternValues: _PATTERN_VALUES,
  recursive: ["-r", "-R", "--recursive", "--dereference-recursive"],
  recursiveBy: { options: ["-d", "--directories"], value: "recurse" },
  excludePrefix: "--exclude",
  machine: new Set([
    "-l",
    "-L",
    "--files-with-matches",
    "--files-without-match",
    "-c",
    "--count",
    "-q",
    "--quiet",
    "--silent",
    "-z",
    "-Z",
    "--null",
    "--null-data",
    ..._HELP,
  ]),
  filenames: { on: ["-H", "--with-filename"], off: ["-h", "--no-filename"] },
  lineNumbers: { on: ["-n", "--line-number"], off: [] },
  // grep also reads `-NUM` as `--context=NUM`.
  context: [..._CONTEXT, ..."0123456789".split("").map((digit) => `-${digit}`)],
  separator: { set: "--group-separator", off: "--no-group-separator" },
  runs: [],
  runsShort: "",
};

// rg's own letters differ from grep's: -r replaces, -L follows links, -z searches archives,
// -0 is NUL, -h is help, and -p (pretty) turns headings on.
/** ripgrep. */
export const RG: SearchGrammar = {
  spec: {
    // `-d` is `--max-depth` (ripgrep 14).
    shortValued: "ABCEMTdefgjmrt",
    longValued: new Set([
      "after-context",
      "before-context",
      "color",
      "colors",
      "context",
      "context-separator",
      "dfa-size-limit",
      "encoding",
      "engine",
      "field-context-separator",
      "field-match-separator",
      "file",
      "generate",
      "glob",
      "hostname-bin",
      "hyperlink-format",
      "iglob",
      "ignore-file",
      "max-columns",
      "max-count",
      "max-depth",
      "max-filesize",
      "path-separator",
      "pre",
      "pre-glob",
      "regex-size-limit",
      "regexp",
      "replace",
      "sort",
      "sortr",
      "threads",
      "type",
      "type-add",
      "type-clear",
      "type-not",
    ]),
  },
  patternOptions: _PATTERN_OPTIONS,
  patternValues: _PATTERN_VALUES,
  recursive: [],
  recursiveBy: null,
  excludePrefix: null,
  machine: new Set([
    "-l",
    "--files-with-matches",
    "--files-without-match",
    "-c",
    "--count",
    "--count-matches",
    "-q",
    "--quiet",
    "-0",
    "--null",
    "--null-data",
    "--json",
    "--files",
    "--vimgrep",
    "--heading",
    "-p",
    "--pretty",
    "--type-list",
    "-h",
    ..._HELP,
  ]),
  filenames: { on: ["-H", "--with-filename"], off: ["-I", "--no-filename"] },
  lineNumbers: { on: ["-n", "--line-number"], off: ["-N", "--no-line-number"] },
  context: [..._CONTEXT, "--passthru", "--passthrough"],
  separator: { set: "--context-separator", off: "--no-context-separator" },
  runs: ["--pre", "--search-zip", "--hostname-bin"],
  runsShort: "z",
};

/** The grammar of a search tool by its name, or `null` for another tool. */
export function searchGrammar(tool: string): SearchGrammar | null {
  if (tool === "rg") return RG;
  return tool === "grep" || tool === "egrep" || tool === "fgrep" ? GREP : null;
}

/** A search command's arguments read by its grammar. */
export interface SearchArgs {
  /** The arguments split into options and operands. */
  readonly scanned: ScannedArgs;
  /** True when an option gave the pattern: every operand is then a path. */
  readonly patternGiven: boolean;
  /** The patterns the command searches for, when its words say (empty for `-f FILE` alone). */
  readonly patterns: readonly string[];
  /** The paths searched, in order (none: the tool's default). */
  readonly paths: readonly string[];
  /** Where each path stands in the arguments. */
  readonly pathAt: readonly number[];
  /** True when an option makes the search walk directories. */
  readonly recursive: boolean;
  /** True when an option leaves a directory or file out of the walk. */
  readonly excludes: boolean;
}

/** Reads a search command's arguments (after the tool's name) by `grammar`. */
export function readSearch(args: readonly string[], grammar: SearchGrammar): SearchArgs {
  const scanned = scanOptions(args, grammar.spec);
  const { options, operands, operandAt } = scanned;
  const patternGiven = options.some((o) => grammar.patternOptions.includes(o.flag));
  const given = options.flatMap((o) =>
    grammar.patternValues.includes(o.flag) && o.value !== undefined ? [o.value] : []
  );
  const patterns = patternGiven ? given : operands.slice(0, 1);
  const skip = patternGiven ? 0 : 1;
  const by = grammar.recursiveBy;
  const recursive = options.some((o) =>
    grammar.recursive.includes(o.flag) ||
    (by !== null && by.options.includes(o.flag) && o.value === by.value)
  );
  const prefix = grammar.excludePrefix;
  return {
    scanned,
    patternGiven,
    patterns,
    paths: operands.slice(skip),
    pathAt: operandAt.slice(skip),
    recursive,
    excludes: prefix !== null && options.some((o) => o.flag.startsWith(prefix)),
  };
}
