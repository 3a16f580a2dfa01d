/**
 * `npm install`, `npm i` and `npm ci`: what changed (`added 27 packages, and audited 28
 * packages`), the audit's vulnerability line with npm's advice folded onto it, every error with
 * its code, and the warnings in short: deprecated packages named and counted on one line, engine
 * mismatches and unapproved install scripts one line each, a peer conflict (`ERESOLVE`) as what
 * was found and what was wanted. Cut and named: timings, the funding notice, update notices,
 * deprecation notes, the `node_modules/` locations and further dependents of a peer conflict,
 * the log file path, npm's generic hints (and its reminder of what `--force` does) and a usage
 * text. npm prints its summary on stdout and
 * its warnings and errors on stderr: the filter reads either, or both interleaved.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { Cuts, screenLines, withoutTiming } from "./_pm.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";

/** Dependents shown for each package of a peer conflict; the others are counted. */
export const NPM_EDGES_SHOWN: number = 1;

// npm 7+ writes `npm warn`/`npm error`; npm 6 wrote `npm WARN`/`npm ERR!`.
const LOG_LINE =
  /^npm (warn|WARN|error|ERR!|notice|info|verb|verbose|sill|silly|http|timing)(?: (.*))?$/;
const SUMMARY = /^(?:added|removed|changed|up to date|audited)\b/;
const FUNDING = /^\d+ packages? (?:is|are) looking for funding$/;
const FUND_HINT = /^ {2}run `npm fund` for details$/;
const VULNERABILITIES = /^(?:found \d+ vulnerabilit|\d+ (?:\w+ severity )?vulnerabilit)/;
// Lines of npm's advice under the vulnerability count, folded onto it.
const AUDIT_ADVICE: ReadonlyArray<[RegExp, string | null]> = [
  [/^To address (?:all )?issues(?: that do not require attention)?, run:$/, null],
  [/^To address all issues \(including breaking changes\), run:$/, null],
  [/^ {2}(npm audit fix.*)$/, "$1"],
  [/^Some issues need review, and may require choosing$/, "some need review"],
  [/^a different dependency\.$/, null],
  [/^Run `npm audit` for details\.$/, "details: npm audit"],
];
// npm's generic hints under an error, the same for every package.
const HINTS = [
  /^Note that you can also install from a$/,
  /^tarball, folder, http url, or git url\.$/,
  /^In most cases you or one of your dependencies are requesting( a package version that doesn't exist\.)?$/,
  /^a package version that doesn't exist\.$/,
  /^This is probably not a problem with npm\. There is likely additional logging output above\.$/,
  /^The requested resource '.+' could not be found or you do not have permission to access it\.$/,
];
const LOG_PATH = /^A complete log of this run can be found in:/;
const FORCE_REMINDER = /^using --force Recommended protections disabled\.$/;
const FIX_PEERS =
  /^Fix the upstream dependency conflict, or retry this command with (.+?) to accept an incorrect \(and potentially broken\) dependency resolution\.$/;

/** A log line: its level (`warn`, `error`…) and the text after it. */
export interface LogLine {
  readonly level: string;
  readonly text: string;
}

/** The level and text of an `npm warn …`/`npm ERR! …` line, or `null` for any other line. */
export function logLine(line: string): LogLine | null {
  const m = LOG_LINE.exec(line);
  if (!m) return null;
  const level = m[1] === "WARN" ? "warn" : m[1] === "ERR!" ? "error" : m[1];
  return { level, text: m[2] ?? "" };
}

/** Why these `npm install` arguments ask for a machine format, or `null`. */
export function npmInstallPassthrough(args: readonly string[]): string | null {
  for (const arg of args) {
    if (arg === "--") break;
    if (/^--(?:json|parseable)(?:=true)?$/.test(arg)) {
      return `the caller chose the output format (${arg})`;
    }
  }
  return null;
}

// Lines that carry on a peer-conflict report after its first line.
const ERESOLVE_PART =
  /^(?:$|While resolving:|Found:|Could not resolve dependency:|Conflicting peer dependency:|node_modules\/|\s|(?:peer|dev|optional|peerOptional|bundled) \S+@|\S+@"|Fix the upstream|For a full report see:|\/\S+eresolve-report\.txt$)/;

/**
 * A peer-conflict report (`While resolving:`, `Found:`, `Could not resolve dependency:`,
 * `Conflicting peer dependency:`) in one line: what was wanted, by whom, what was found and what
 * conflicts. The `node_modules/` locations and the chains of dependents go; any line npm adds
 * that rtok does not know stays.
 */
export function summarizeEresolve(lines: readonly string[], cuts: Cuts): string[] {
  let resolving = "";
  let found = "";
  let wanted = "";
  let conflicting = "";
  let retry = "";
  const other: string[] = [];
  // The section the current line belongs to: its first dependent is what `wanted` names.
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const trimmed = lines[i].trim();
    if (trimmed === "") {
      section = "";
      continue;
    }
    let m: RegExpExecArray | null;
    if ((m = /^While resolving: (.+)$/.exec(trimmed))) resolving = m[1];
    else if ((m = /^Found: (.+)$/.exec(trimmed))) found = m[1];
    else if ((m = /^Conflicting peer dependency: (.+)$/.exec(trimmed))) conflicting = m[1];
    else if (trimmed === "Could not resolve dependency:") section = "wanted";
    else if ((m = FIX_PEERS.exec(trimmed))) retry = m[1];
    else if (trimmed === "For a full report see:") {
      if (/eresolve-report\.txt$/.test(lines[i + 1] ?? "")) i++;
      cuts.add("report path");
    } else if (
      /^node_modules\/|^(?:peer|dev|optional|peerOptional|bundled) \S+@|^\S+@"|^\d+ more \(/.test(
        trimmed,
      )
    ) {
      if (section === "wanted" && !wanted && !trimmed.startsWith("node_modules/")) wanted = trimmed;
      else cuts.add("dependency paths");
    } else other.push(trimmed);
  }
  const parts: string[] = [];
  if (wanted) parts.push(`could not resolve ${wanted}`);
  if (found) parts.push(`found ${found}`);
  if (conflicting) parts.push(`conflicting peer ${conflicting}`);
  let line = parts.join("; ");
  if (resolving && !wanted.endsWith(` from ${resolving}`)) {
    line += ` (while resolving ${resolving})`;
  }
  const out = line ? [line] : [];
  if (retry) out.push(`retry with ${retry} to accept it`);
  return [...out, ...other];
}

/** `EBADENGINE` report lines (`package: 'x@1'`, `required: {…}`) as one line. */
function engineLine(block: readonly string[]): string {
  const field = (name: string) =>
    block.map((l) => new RegExp(`^\\s+${name}: (.*?),?$`).exec(l)?.[1]).find((v) => v);
  const pkg = field("package")?.replace(/^'(.*)'$/, "$1");
  const required = field("required")?.replace(/^\{ (.*) \}$/, "$1");
  const current = field("current")?.replace(/^\{ (.*) \}$/, "$1");
  if (!pkg || !required) return `npm warn ${block.map((l) => l.trim()).join(" ")}`;
  return `npm warn EBADENGINE ${pkg} requires ${required}${current ? ` (current ${current})` : ""}`;
}

const INSTALL_SCRIPTS_HEAD = /^install-scripts \d+ packages? ha(?:s|ve) install scripts/;

/** `install-scripts` report lines as one line naming each package and its script's event. */
function installScriptsLine(block: readonly string[], cuts: Cuts): string {
  const packages: string[] = [];
  const other: string[] = [];
  let hint = "";
  for (const line of block) {
    const entry = /^\s+(\S+) \((\w+): .*\)$/.exec(line);
    if (entry) {
      packages.push(`${entry[1]} (${entry[2]})`);
      cuts.add("script commands");
    } else if (/^\d+ packages? ha(?:s|ve) install scripts/.test(line) || line === "") continue;
    else if (/`npm install-scripts approve/.test(line)) {
      hint = " (npm install-scripts approve <pkg>)";
    } else other.push(line.trim());
  }
  const head = `npm warn install-scripts not in allowScripts: ${packages.join(", ")}${hint}`;
  return [head, ...other.map((l) => `npm warn install-scripts ${l}`)].join("\n");
}

/**
 * An error block (the text after each `npm error `): the code, then what npm said, without its
 * hints, usage text and log path, a failed script's `path`/`command` folded into one line.
 */
export function errorLines(block: readonly string[], cuts: Cuts): string[] {
  let code = "";
  const body: string[] = [];
  for (let i = 0; i < block.length; i++) {
    const text = block[i];
    const codeMatch = /^code (\S+)$/.exec(text);
    if (codeMatch && !code) {
      code = codeMatch[1];
      continue;
    }
    if (/^errno /.test(text) && text.slice(6) === code) continue;
    if (LOG_PATH.test(text)) {
      cuts.add("log path");
      // npm 6–8 put the path on the next line.
      if (/:\s*$/.test(text) && /^\s+\S+\.log$/.test(block[i + 1] ?? "")) i++;
      continue;
    }
    const untagged = text.replace(/^(?:404|notarget)(?: |$)/, "");
    if (HINTS.some((h) => h.test(untagged.trim()))) {
      cuts.add("npm hints");
      continue;
    }
    if (untagged.trim() === "Usage:" && code === "EUSAGE") {
      // From the command's one-line description above `Usage:` to `Run "npm help ci"…`.
      while (body.length && body[body.length - 1].trim() === "") body.pop();
      if (body.length > 1 && !/[.:]$/.test(body[body.length - 1])) body.pop();
      const end = block.findIndex((l, j) => j > i && /^Run "npm help \S+" for more info$/.test(l));
      const help = end < 0 ? "" : /^Run "(npm help \S+)"/.exec(block[end])?.[1] ?? "";
      body.push(help ? `(usage: ${help})` : "(usage text)");
      cuts.add("usage text");
      if (end < 0) break;
      i = end;
      continue;
    }
    body.push(untagged);
  }
  let lines = body;
  if (code === "ERESOLVE" || body.some((l) => /^While resolving:/.test(l))) {
    const first = body.findIndex((l) => /^While resolving:|^Found:/.test(l));
    if (first >= 0) {
      lines = [...body.slice(0, first), ...summarizeEresolve(body.slice(first), cuts)];
    }
  }
  lines = lines.filter((l) => l.trim() !== "");
  // A script that failed: `path …`, `command failed`, `command sh -c …` as one line.
  const failed = lines.indexOf("command failed");
  const command = lines.findIndex((l) => l.startsWith("command ") && l !== "command failed");
  if (failed >= 0 && command >= 0) {
    const path = lines.findIndex((l) => l.startsWith("path "));
    const where = path >= 0 ? ` in ${lines[path].slice(5)}` : "";
    const merged = `command failed${where}: ${lines[command].slice(8)}`;
    lines = lines.filter((_, k) => k !== failed && k !== command && k !== path);
    lines.unshift(merged);
  }
  let first = lines.shift() ?? "";
  if (code && first.startsWith(`${code} `)) first = first.slice(code.length + 1);
  const head = !code
    ? `npm error ${first}`
    : /^\d+$/.test(code)
    ? `npm error exit code ${code}${first ? `: ${first}` : ""}`
    : `npm error ${code}${first ? `: ${first}` : ""}`;
  return [head.trimEnd(), ...lines.map((l) => `  ${l.trim()}`)];
}

/** A vulnerability count with the advice lines under it folded on; returns lines consumed. */
function vulnerabilityLine(lines: readonly string[], i: number): { text: string; used: number } {
  const advice: string[] = [];
  let j = i + 1;
  for (; j < lines.length; j++) {
    const line = lines[j];
    if (line === "") continue;
    const rule = AUDIT_ADVICE.find(([re]) => re.test(line));
    if (!rule) break;
    if (rule[1]) advice.push(line.replace(rule[0], rule[1]));
  }
  // Trailing blank lines belong to the next section.
  while (j > i + 1 && lines[j - 1] === "") j--;
  const text = advice.length ? `${lines[i]} (${advice.join("; ")})` : lines[i];
  return { text, used: j - i };
}

/** Filters what `npm install` / `npm ci` printed, on either stream; see the module doc. */
export function filterNpmInstall(raw: string, _input?: FilterInput): Filtered {
  const lines = screenLines(raw);
  const cuts = new Cuts();
  const out: string[] = [];
  const deprecated: string[] = [];
  let deprecatedAt = -1;
  const errors: string[] = [];
  let errorsAt = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const log = logLine(line);
    if (log?.level === "error") {
      if (errorsAt < 0) errorsAt = out.length;
      errors.push(log.text);
      continue;
    }
    if (log?.level === "notice") {
      cuts.add("npm notices");
      continue;
    }
    if (log?.level === "warn") {
      i = warning(lines, i, log.text, out, cuts, (id) => {
        if (deprecatedAt < 0) deprecatedAt = out.length;
        deprecated.push(id);
      });
      continue;
    }
    if (log) {
      out.push(line);
      continue;
    }
    if (line.trim() === "") continue;
    if (FUNDING.test(line)) {
      cuts.add("funding notice");
      if (FUND_HINT.test(lines[i + 1] ?? "")) i++;
      continue;
    }
    if (SUMMARY.test(line)) {
      const { text, timed } = withoutTiming(line);
      if (timed) cuts.add("timing");
      out.push(text);
      continue;
    }
    if (VULNERABILITIES.test(line)) {
      const { text, used } = vulnerabilityLine(lines, i);
      out.push(text);
      i += used - 1;
      continue;
    }
    out.push(line);
  }
  if (deprecated.length) {
    cuts.add("deprecation notes");
    const unique = [...new Set(deprecated)];
    out.splice(deprecatedAt, 0, `npm warn deprecated (${unique.length}): ${unique.join(", ")}`);
    if (errorsAt >= deprecatedAt) errorsAt++;
  }
  if (errors.length) out.splice(errorsAt, 0, ...errorLines(errors, cuts));
  return { text: out.length ? out.join("\n") + "\n" : "", cut: cuts.list() };
}

/** Handles the warning at `lines[i]`; returns the index of the last line it used. */
function warning(
  lines: readonly string[],
  i: number,
  text: string,
  out: string[],
  cuts: Cuts,
  onDeprecated: (id: string) => void,
): number {
  const deprecated = /^deprecated ((?:@[^\s@/]+\/)?[^\s@]+@[^\s:]+):?(?: |$)/.exec(text);
  if (deprecated) {
    onDeprecated(deprecated[1]);
    return i;
  }
  // npm's fixed reminder of what --force does; the flag itself stays named.
  if (FORCE_REMINDER.test(text)) {
    out.push("npm warn using --force");
    cuts.add("npm hints");
    return i;
  }
  // The lines that carry on this warning: same tag, or a peer conflict's report.
  const tag = /^(EBADENGINE|install-scripts|ERESOLVE)\b/.exec(text)?.[1];
  if (!tag) {
    const previous = out[out.length - 1] ?? "";
    const line = `npm warn ${text}`;
    const repeat = /^(.*) \(×(\d+)\)$/.exec(previous);
    if (previous === line) out[out.length - 1] = `${line} (×2)`;
    else if (repeat && repeat[1] === line) {
      out[out.length - 1] = `${line} (×${Number(repeat[2]) + 1})`;
    } else out.push(line);
    return i;
  }
  const block = [text];
  let j = i + 1;
  for (; j < lines.length; j++) {
    const next = logLine(lines[j]);
    if (next?.level !== "warn") break;
    if (tag === "ERESOLVE") {
      if (!ERESOLVE_PART.test(next.text)) break;
      block.push(next.text);
    } else if (next.text === tag || next.text.startsWith(`${tag} `)) {
      const rest = next.text.slice(tag.length + 1);
      if (tag === "EBADENGINE" && /^Unsupported engine/.test(rest)) break;
      block.push(rest);
    } else break;
  }
  if (tag === "EBADENGINE") out.push(engineLine(block));
  else if (tag === "install-scripts" && !INSTALL_SCRIPTS_HEAD.test(block[0])) {
    out.push(...block.map((l) => `npm warn ${l.startsWith(tag) ? l : `${tag} ${l}`}`));
  } else if (tag === "install-scripts") {
    block[0] = block[0].slice(tag.length + 1);
    out.push(installScriptsLine(block, cuts));
  } else {
    const [first, ...rest] = summarizeEresolve(block.slice(1), cuts);
    out.push(
      first ? `npm warn ${text}: ${first}` : `npm warn ${text}`,
      ...rest.map((l) => `  ${l}`),
    );
  }
  return j - 1;
}

function npmInstallFamily(name: string): CommandFilter {
  return {
    name,
    textClass: "log",
    filterStderr: true,
    passthrough: npmInstallPassthrough,
    filter: filterNpmInstall,
  };
}

/** The `npm install` filter. */
export const npmInstallFilter: CommandFilter = npmInstallFamily("npm install");
/** The `npm i` filter (`npm install` by its alias). */
export const npmIFilter: CommandFilter = npmInstallFamily("npm i");
/** The `npm ci` filter. */
export const npmCiFilter: CommandFilter = npmInstallFamily("npm ci");

/**
 * The families this module serves. Package managers write dependencies, lockfiles, caches and environments, and run install scripts; script runners run the project's code: never rewritten as read-only.
 */
export const FAMILIES: FamilyDeclarations = {
  "npm install": { filter: npmInstallFilter, rewrite: NOT_READ_ONLY, saving: 46 },
  "npm i": { filter: npmIFilter, rewrite: NOT_READ_ONLY, saving: 41 },
  "npm ci": { filter: npmCiFilter, rewrite: NOT_READ_ONLY, saving: 69 },
};
