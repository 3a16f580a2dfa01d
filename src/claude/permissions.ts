/**
 * The user's own Claude Code permission rules for the shell tool, read from every settings
 * file Claude Code reads (managed, user, project, local), and matched the way the hook needs:
 * deny and ask rules generously (on the command as written, without its prefixes, and by the
 * tool's name), allow rules strictly (on the command as written). So a rewrite is never
 * allowed where the user's rules would not allow the command, and never hides a deny.
 *
 * @module
 */

import { joinPath } from "../core/paths.ts";

/** One `Bash(...)` rule. */
export type BashRule =
  | { readonly kind: "all"; readonly source: string }
  | { readonly kind: "prefix"; readonly prefix: string; readonly source: string }
  | { readonly kind: "exact"; readonly command: string; readonly source: string }
  | { readonly kind: "glob"; readonly pattern: RegExp; readonly source: string };

/** The shell tool's rules from every settings file. */
export interface BashRules {
  /** `permissions.allow`. */
  readonly allow: readonly BashRule[];
  /** `permissions.ask`. */
  readonly ask: readonly BashRule[];
  /** `permissions.deny`. */
  readonly deny: readonly BashRule[];
}

/** No rules at all. */
export const NO_RULES: BashRules = { allow: [], ask: [], deny: [] };

/** Where the settings files are. */
export interface SettingsPlaces {
  /** Claude Code's user directory (`$CLAUDE_CONFIG_DIR`, else `~/.claude`), if known. */
  readonly userDir: string | null;
  /** The project directory (`$CLAUDE_PROJECT_DIR`, else the working directory), if known. */
  readonly projectDir: string | null;
}

/** The settings files Claude Code reads, lowest precedence first. */
export function settingsFiles(places: SettingsPlaces): string[] {
  const files: string[] = [];
  if (places.userDir) files.push(joinPath(places.userDir, "settings.json"));
  if (places.projectDir) {
    const dir = joinPath(places.projectDir, ".claude");
    files.push(joinPath(dir, "settings.json"), joinPath(dir, "settings.local.json"));
  }
  files.push("/etc/claude-code/managed-settings.json");
  return files;
}

/** Parses one permission string; `null` when it is not about the shell tool. */
export function parseBashRule(source: string): BashRule | null {
  const s = source.trim();
  if (s === "Bash") return { kind: "all", source };
  const m = /^Bash\((.*)\)$/s.exec(s);
  if (!m) return null;
  const body = m[1].trim();
  if (body === "" || body === "*") return { kind: "all", source };
  if (body.endsWith(":*")) return { kind: "prefix", prefix: _squash(body.slice(0, -2)), source };
  if (body.includes("*")) {
    const re = _squash(body).split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
    return { kind: "glob", pattern: new RegExp(`^${re.join(".*")}$`, "s"), source };
  }
  return { kind: "exact", command: _squash(body), source };
}

function _squash(s: string): string {
  return s.trim().replace(/\s+/g, " ");
}

/**
 * True when `rule` covers `command`. `loose` (for deny and ask) also reads a prefix as a bare
 * string prefix, an exact rule as a prefix, and a trailing ` *` as matching nothing after it.
 */
export function ruleCovers(rule: BashRule, command: string, loose: boolean): boolean {
  const c = _squash(command);
  switch (rule.kind) {
    case "all":
      return true;
    case "prefix":
      return c === rule.prefix || c.startsWith(`${rule.prefix} `) ||
        (loose && c.startsWith(rule.prefix));
    case "exact":
      return c === rule.command || (loose && c.startsWith(`${rule.command} `));
    case "glob":
      return rule.pattern.test(c) ||
        (loose && rule.source.trim().endsWith(" *)") &&
          rule.pattern.test(`${c} x`));
  }
}

/** Reads the rules from `files`; a missing file has none, one that does not parse throws. */
export function readBashRules(files: readonly string[]): BashRules {
  const allow: BashRule[] = [];
  const ask: BashRule[] = [];
  const deny: BashRule[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = Deno.readTextFileSync(file);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) continue;
      throw new Error(`Cannot read Claude Code settings "${file}": ${(e as Error).message}`);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw new SyntaxError(
        `Cannot read Claude Code settings "${file}": ${(e as Error).message}; ` +
          "fix the file so Claude Code and rtok can read its rules",
      );
    }
    const perms = (doc as { permissions?: unknown } | null)?.permissions;
    if (perms === undefined || perms === null) continue;
    if (typeof perms !== "object") {
      throw new TypeError(
        `Cannot read Claude Code settings "${file}": "permissions" is not an object`,
      );
    }
    for (const [key, into] of [["allow", allow], ["ask", ask], ["deny", deny]] as const) {
      const list = (perms as Record<string, unknown>)[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        throw new TypeError(
          `Cannot read Claude Code settings "${file}": "permissions.${key}" is not a list`,
        );
      }
      for (const item of list) {
        const rule = typeof item === "string" ? parseBashRule(item) : null;
        if (rule) into.push(rule);
      }
    }
  }
  return { allow, ask, deny };
}

/** The first rule in `rules` covering any of `forms`, or `null`. */
export function firstCovering(
  rules: readonly BashRule[],
  forms: readonly string[],
  loose: boolean,
): BashRule | null {
  for (const rule of rules) {
    if (forms.some((f) => ruleCovers(rule, f, loose))) return rule;
  }
  return null;
}
