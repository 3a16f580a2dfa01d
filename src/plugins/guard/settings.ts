/**
 * `[plugins.guard]`: which of the guard's rules are off, and when a file is too long to `cat`.
 * One boolean per rule (rtok's config has no arrays); a rule is on unless set to `false`, but
 * `cat-large`, which is off unless set to `true`: in Claude Code the `posttool` plugin already
 * shows a long `cat` as the file's view, at once, where a deny costs the agent another request.
 *
 * ```toml
 * [plugins.guard]
 * verbose = false      # a rule the guard never applies
 * cat-large = true     # explain instead of letting a long cat through to its view
 * read_lines = 250     # cat-large: a file over this many lines…
 * read_chars = 12000   # …or this many chars
 * ```
 *
 * @module
 */

/** Every rule the guard has, by the id config and the ledger name it with. */
export const GUARD_RULES: readonly string[] = [
  "cat-large",
  "grep-vendor",
  "find-vendor",
  "tree-vendor",
  "root-search",
  "verbose",
  "grep-definition",
];

/** The guard's settings, defaults filled in. */
export interface GuardSettings {
  /** The rules turned off in config. */
  readonly off: ReadonlySet<string>;
  /** `cat` of files over this many lines in all is explained. */
  readonly readLines: number;
  /** …or over this many chars. */
  readonly readChars: number;
}

/**
 * The defaults. The two thresholds are the `posttool` plugin's (`POSTTOOL_DEFAULTS` in
 * `src/plugins/posttool/settings.ts`: 250 lines, 12,000 chars), copied so that one plugin does
 * not import another: a file the hook would show as a view is the file worth not `cat`-ing.
 */
export const GUARD_DEFAULTS: GuardSettings = {
  off: new Set(["cat-large"]),
  readLines: 250,
  readChars: 12_000,
};

const _KEYS = ["enabled", ...GUARD_RULES, "read_lines", "read_chars"];

/**
 * The settings in `table` (`[plugins.guard]`). Throws a `TypeError` naming the key and what it
 * expects, so the hook records why and the guard stays silent.
 */
export function readGuardSettings(table: Readonly<Record<string, unknown>>): GuardSettings {
  for (const key of Object.keys(table)) {
    if (!_KEYS.includes(key)) {
      throw new TypeError(
        `[plugins.guard] has no key "${key}"; expected one of ${_KEYS.join(", ")}`,
      );
    }
  }
  const off = new Set(GUARD_DEFAULTS.off);
  for (const rule of GUARD_RULES) {
    const v = table[rule];
    if (v === undefined) continue;
    if (typeof v !== "boolean") {
      throw new TypeError(`[plugins.guard] ${rule}: expected true or false`);
    }
    if (v) off.delete(rule);
    else off.add(rule);
  }
  const count = (key: string, d: number): number => {
    const v = table[key];
    if (v === undefined) return d;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
      throw new TypeError(`[plugins.guard] ${key}: expected a whole number of at least 1`);
    }
    return v;
  };
  return {
    off,
    readLines: count("read_lines", GUARD_DEFAULTS.readLines),
    readChars: count("read_chars", GUARD_DEFAULTS.readChars),
  };
}
