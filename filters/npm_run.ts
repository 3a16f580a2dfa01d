/**
 * `npm run <script>` and `npm test` (and `pnpm run`/`pnpm test`, `yarn run`/`yarn test`,
 * `bun run`) for a script rtok has no filter for: the script's own output stays, with the package
 * manager's framing taken off. Gone silently: npm's `> pkg@1.0.0 test` / `> jest` banner, the
 * `$ jest` lines of pnpm, yarn and bun, and Yarn's `yarn run v1.22.22` (they echo package.json).
 * Cut and named: Yarn's closing timing and documentation link, npm's log-file path and hints, and
 * the frames of a Node.js stack trace that lie inside node itself (`node:internal/…`). A line
 * repeated back to back is written once with its count; a run of lines of one shape (a build's
 * table of the files it wrote) keeps its first and last lines and counts the rest ("similar
 * lines"), though a line reporting a problem never folds. The exit status stays: the manager's own
 * failure line (`npm error …`, `ELIFECYCLE`, `error Command failed with exit code 1.`), or, when
 * the manager printed none (npm 11 prints nothing), a closing `… failed with exit code N` line.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import {
  Cuts,
  dropNodeFrames,
  factorStackPaths,
  foldLibraryFrames,
  foldSourceExcerpt,
  screenLines,
  shortenAnonymousFrames,
} from "./_pm.ts";
import { errorLines, logLine } from "./npm_install.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";

/** Which package manager runs the script: it decides the framing lines. */
type Manager = "npm" | "pnpm" | "yarn" | "bun";

// `> calc@1.0.0 test` (npm) or `> calc@1.0.0 test /path/to/calc` (pnpm ≤ 10, npm ≤ 6).
const NPM_BANNER = /^> (?:@[^@\s]+\/)?[^@\s]+@\S+ \S+(?: \/.*)?$/;
const YARN_BANNER = /^yarn run v\d\S*$/;
// What node prints under an uncaught exception.
const NODE_VERSION = /^Node\.js v\d+\.\d+\.\d+$/;
const DOLLAR = /^\$ \S/;
const YARN_DONE = /^(?:✨ {2})?Done in \d+(?:\.\d+)?m?s\.$/;
const YARN_DOCS = /^info Visit https:\/\/yarnpkg\.com\/\S+ for documentation about this command\.$/;
// The managers' own lines that say a script failed.
const FAILURE =
  /^(?:npm error|npm ERR!|error Command failed|error: script ".*" exited with code|\s*\[?ELIFECYCLE\]?|\s*ERR_PNPM_|\S+ (?:run \S+|test) failed with exit code \d+$)/;

/** The `npm run` / `npm test` filter of `manager`, named `name`. */
function scriptFilter(name: string, manager: Manager): CommandFilter {
  return {
    name,
    textClass: "log",
    filterStderr: true,
    filter: (raw: string, input: FilterInput) => filterScript(raw, input, name, manager),
  };
}

/** Filters what a package manager printed running a script; see the module doc. */
export function filterScript(
  raw: string,
  input: FilterInput,
  name: string,
  manager: Manager,
): Filtered {
  const cuts = new Cuts();
  const body: string[] = [];
  const npmErrors: string[] = [];
  let npmErrorsAt = -1;
  const lines = screenLines(raw);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (manager !== "bun" && NPM_BANNER.test(line) && /^> /.test(lines[i + 1] ?? "")) {
      // The banner, the command (one `> ` line per line of it), and the blank after.
      i++;
      while (/^> /.test(lines[i + 1] ?? "")) i++;
      if (lines[i + 1] === "") i++;
      if (body.length && body[body.length - 1] === "") body.pop();
      continue;
    }
    if (manager !== "npm" && DOLLAR.test(line)) continue;
    if (manager === "yarn" && YARN_BANNER.test(line)) continue;
    if (manager === "yarn" && YARN_DONE.test(line)) {
      cuts.add("timing");
      continue;
    }
    if (manager === "yarn" && YARN_DOCS.test(line)) {
      cuts.add("yarn hints");
      continue;
    }
    const log = manager === "npm" ? logLine(line) : null;
    if (log?.level === "error") {
      if (npmErrorsAt < 0) npmErrorsAt = body.length;
      npmErrors.push(log.text);
      continue;
    }
    body.push(line);
  }
  if (npmErrors.length) body.splice(npmErrorsAt, 0, ...errorLines(npmErrors, cuts));
  const { lines: kept, dropped } = dropNodeFrames(body);
  if (dropped > 0) cuts.add("node-internal frames");
  const { lines: folded, folded: libraryFrames } = foldLibraryFrames(kept);
  if (libraryFrames > 0) cuts.add("node_modules frames");
  const versionless = folded.filter((line) => !NODE_VERSION.test(line));
  if (versionless.length < folded.length) cuts.add("node version");
  const stacks = factorStackPaths(shortenAnonymousFrames(foldSourceExcerpt(versionless)));
  const out = collapseRepeats(foldSimilarLines(foldTapPasses(trimTap(stacks), cuts), cuts))
    .filter((line, i, all) => line !== "" || (i > 0 && all[i - 1] !== ""));
  while (out.length && out[out.length - 1] === "") out.pop();
  if (input.exitCode !== 0 && !out.some((l) => FAILURE.test(l))) {
    const script = name.endsWith(" run") && input.args[0] ? ` ${input.args[0]}` : "";
    out.push(`${name}${script} failed with exit code ${input.exitCode}`);
  }
  return { text: out.length ? out.join("\n") + "\n" : "", cut: cuts.list() };
}

// TAP's framing: the version header, and the `---`/`...` around a failure's YAML details.
const TAP_VERSION = /^TAP version \d+$/;
const TAP_NOT_OK = /^\s*not ok \d+/;
const TAP_PLAN = /^1\.\.(\d+)$/;

/**
 * TAP without its framing: the `TAP version 13` header, the `  ---` and `  ...` lines around a
 * failure's indented details (the indent marks them), and the `1..N` plan when a closing
 * `# tests N` count says the same.
 */
function trimTap(lines: readonly string[]): string[] {
  const counted = new Set(
    lines.map((l) => /^# tests (\d+)$/.exec(l)?.[1]).filter((n) => n !== undefined),
  );
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (TAP_VERSION.test(line)) continue;
    if (counted.has(TAP_PLAN.exec(line)?.[1] ?? "")) continue;
    if (/^\s+---$/.test(line) && TAP_NOT_OK.test(lines[i - 1] ?? "")) {
      const indent = line.indexOf("-");
      let end = i + 1;
      while (end < lines.length && lines[end].startsWith(" ".repeat(indent + 1))) end++;
      if (lines[end] === `${" ".repeat(indent)}...`) {
        out.push(...lines.slice(i + 1, end));
        i = end;
        continue;
      }
    }
    out.push(line);
  }
  return out;
}

/** Passing TAP lines in a row (`ok 3 - adds`) folded into one line when there are this many. */
export const TAP_FOLD_AT: number = 3;

// `ok 12 - name`, but not a skipped or to-do test, which stay listed.
const TAP_PASS = /^ok \d+\b(?!.*#\s*(?:skip|todo)\b)/i;
// `# add`: a test's name above its assertions; not the closing `# tests 14` counts.
const TAP_COMMENT = /^# (?!(?:tests|pass|fail|skip|todo|ok)\b)/;

// Where a TAP test's assertions end: the next test's name, a blank, the plan, the counts.
const TAP_GROUP_END = /^(?:# |$|\d+\.\.\d+)/;

/**
 * Runs of passing TAP lines as `ok ×N (tests a–b)`, with the `# name` lines of tests whose
 * assertions all passed: passing tests are counted, not listed. The name of a test with a
 * failing assertion stays.
 */
function foldTapPasses(lines: readonly string[], cuts: Cuts): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let end = i;
    let passes = 0;
    for (;;) {
      if (TAP_PASS.test(lines[end] ?? "")) {
        end++;
        passes++;
        continue;
      }
      if (!TAP_COMMENT.test(lines[end] ?? "")) break;
      let j = end + 1;
      while (TAP_PASS.test(lines[j] ?? "")) j++;
      // A test's name folds only when every assertion under it passed.
      if (j === end + 1 || (j < lines.length && !TAP_GROUP_END.test(lines[j]))) break;
      passes += j - end - 1;
      end = j;
    }
    if (passes < TAP_FOLD_AT) {
      out.push(lines[i]);
      continue;
    }
    const numbers = lines.slice(i, end).filter((l) => TAP_PASS.test(l))
      .map((l) => /^ok (\d+)/i.exec(l)![1]);
    out.push(`ok ×${passes} (tests ${numbers[0]}–${numbers[numbers.length - 1]})`);
    cuts.add("passing test names");
    i = end - 1;
  }
  return out;
}

/** Lines of one shape in a row (a build's file table) fold when there are this many. */
export const SIMILAR_FOLD_AT: number = 8;
/** Of a folded run of similar lines, how many stay at its start and at its end. */
export const SIMILAR_KEPT: { readonly head: number; readonly tail: number } = { head: 3, tail: 2 };

// A line that reports a problem never folds, however many like it there are.
const PROBLEM =
  /\b(?:errors?|fail(?:ed|ures?|s)?|warn(?:ings?)?|exceptions?|fatal|panic|denied|cannot|unable|invalid|missing|not found|deprecated|vulnerab\w*|not ok)\b|[✗✖✘×]|\bERR[!_]/i;
const FRAME = /^\s+at \S/;

// A line's shape: each word (hyphens in it too, as in a content hash `C0eDvzG-`) one `w`,
// each run of spaces one space.
const shape = (line: string) =>
  line.replace(/[A-Za-z0-9_][A-Za-z0-9_-]*/g, "w").replace(/\s+/g, " ");
const foldable = (line: string) => line.trim() !== "" && !PROBLEM.test(line) && !FRAME.test(line);

/**
 * A run of lines of one shape (`dist/assets/p01-Bjp5fxuM.js  0.07 kB │ gzip: 0.09 kB`, one per
 * file a build wrote) as its first and last lines and a `… N more like these` line: a listing is
 * counted, not copied. Lines that report a problem and stack frames never fold.
 */
function foldSimilarLines(lines: readonly string[], cuts: Cuts): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let end = i + 1;
    if (foldable(lines[i])) {
      const s = shape(lines[i]);
      while (end < lines.length && foldable(lines[end]) && shape(lines[end]) === s) end++;
    }
    if (end - i < SIMILAR_FOLD_AT) {
      out.push(lines[i]);
      continue;
    }
    const { head, tail } = SIMILAR_KEPT;
    out.push(
      ...lines.slice(i, i + head),
      `… ${end - i - head - tail} more like these`,
      ...lines.slice(end - tail, end),
    );
    cuts.add("similar lines");
    i = end - 1;
  }
  return out;
}

// Back-to-back copies of a line as one line with its count; blank lines stay as they are.
function collapseRepeats(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let n = 1;
    while (lines[i] !== "" && lines[i + n] === lines[i]) n++;
    out.push(n > 1 ? `${lines[i]} (×${n})` : lines[i]);
    i += n - 1;
  }
  return out;
}

/** The `npm run <script>` filter. */
export const npmRunFilter: CommandFilter = scriptFilter("npm run", "npm");
/** The `npm test` filter. */
export const npmTestFilter: CommandFilter = scriptFilter("npm test", "npm");
/** The `pnpm run <script>` filter. */
export const pnpmRunFilter: CommandFilter = scriptFilter("pnpm run", "pnpm");
/** The `pnpm test` filter. */
export const pnpmTestFilter: CommandFilter = scriptFilter("pnpm test", "pnpm");
/** The `yarn run <script>` filter. */
export const yarnRunFilter: CommandFilter = scriptFilter("yarn run", "yarn");
/** The `yarn test` filter. */
export const yarnTestFilter: CommandFilter = scriptFilter("yarn test", "yarn");
/** The `bun run <script>` filter. */
export const bunRunFilter: CommandFilter = scriptFilter("bun run", "bun");

/**
 * The families this module serves. Package managers write dependencies, lockfiles, caches and environments, and run install scripts; script runners run the project's code: never rewritten as read-only.
 */
export const FAMILIES: FamilyDeclarations = {
  "npm run": { filter: npmRunFilter, rewrite: NOT_READ_ONLY, saving: 57 },
  "npm test": { filter: npmTestFilter, rewrite: NOT_READ_ONLY, saving: 58 },
  "pnpm run": { filter: pnpmRunFilter, rewrite: NOT_READ_ONLY, saving: 59 },
  "pnpm test": { filter: pnpmTestFilter, rewrite: NOT_READ_ONLY, saving: null },
  "yarn run": { filter: yarnRunFilter, rewrite: NOT_READ_ONLY, saving: 59 },
  "yarn test": { filter: yarnTestFilter, rewrite: NOT_READ_ONLY, saving: null },
  "bun run": { filter: bunRunFilter, rewrite: NOT_READ_ONLY, saving: 59 },
};
