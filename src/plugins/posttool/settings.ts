/**
 * `[plugins.posttool]`: which tools' results are compressed, and when a whole-file read is
 * long enough to be shown as a view.
 *
 * @module
 */

/** The plugin's settings, defaults filled in. */
export interface PosttoolSettings {
  /** Per tool kind: compress its results. */
  readonly tools: {
    readonly read: boolean;
    readonly grep: boolean;
    readonly glob: boolean;
    readonly bash: boolean;
    readonly mcp: boolean;
  };
  /** A whole-file read of more lines than this is viewed. */
  readonly readLines: number;
  /** …or of more chars than this. */
  readonly readChars: number;
  /**
   * A view must save at least this share of the file's chars (0–1), else the file goes whole:
   * a view that saves little costs the agent a second read for almost nothing.
   */
  readonly readMinSaving: number;
}

/** The defaults: every tool on; about 250 lines or 12,000 chars; a view saves 40 % or more. */
export const POSTTOOL_DEFAULTS: PosttoolSettings = {
  tools: { read: true, grep: true, glob: true, bash: true, mcp: true },
  readLines: 250,
  readChars: 12_000,
  readMinSaving: 0.4,
};

const _KEYS = [
  "enabled",
  "read",
  "grep",
  "glob",
  "bash",
  "mcp",
  "read_lines",
  "read_chars",
  "read_min_saving",
];

/**
 * The settings in `table` (`[plugins.posttool]`). Throws a `TypeError` naming the key and what
 * it expects, so the hook records why and leaves the result as it was.
 */
export function readSettings(table: Readonly<Record<string, unknown>>): PosttoolSettings {
  for (const key of Object.keys(table)) {
    if (!_KEYS.includes(key)) {
      throw new TypeError(
        `[plugins.posttool] has no key "${key}"; expected one of ${_KEYS.join(", ")}`,
      );
    }
  }
  const flag = (key: string, d: boolean): boolean => {
    const v = table[key];
    if (v === undefined) return d;
    if (typeof v !== "boolean") {
      throw new TypeError(`[plugins.posttool] ${key}: expected true or false`);
    }
    return v;
  };
  const count = (key: string, d: number): number => {
    const v = table[key];
    if (v === undefined) return d;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
      throw new TypeError(`[plugins.posttool] ${key}: expected a whole number of at least 1`);
    }
    return v;
  };
  const share = (key: string, d: number): number => {
    const v = table[key];
    if (v === undefined) return d;
    if (typeof v !== "number" || !(v >= 0 && v < 1)) {
      throw new TypeError(
        `[plugins.posttool] ${key}: expected a share from 0 to below 1, like 0.4`,
      );
    }
    return v;
  };
  const t = POSTTOOL_DEFAULTS.tools;
  return {
    tools: {
      read: flag("read", t.read),
      grep: flag("grep", t.grep),
      glob: flag("glob", t.glob),
      bash: flag("bash", t.bash),
      mcp: flag("mcp", t.mcp),
    },
    readLines: count("read_lines", POSTTOOL_DEFAULTS.readLines),
    readChars: count("read_chars", POSTTOOL_DEFAULTS.readChars),
    readMinSaving: share("read_min_saving", POSTTOOL_DEFAULTS.readMinSaving),
  };
}
