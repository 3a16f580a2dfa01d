/**
 * The unified-diff body compactor shared by `git diff`, `git show` and `diff -u`.
 *
 * A diff shows the changes; what the agent can read from disk or history is not repeated.
 * Every hunk header survives verbatim. Inside a hunk only the changed lines stay, plus one
 * context line before a pure insertion so the added block still shows where it goes, unless
 * the caller chose the context width: context is what goes first. A new file shows its first
 * lines, a hunk whose changes repeat an earlier hunk's points at it, a hunk of more than a few
 * hundred changed lines shows its first and last ones; past a budget for the whole output, for
 * generated files and for deleted files (whose old content git still holds), only hunk headers
 * remain. Where changed lines are cut, the line standing for them says which lines of which
 * file they are (`⋯ +120 changed lines (src/app.ts new 140–259, old 130–210)`), in the file's
 * own numbering from the hunk header, so the agent can read exactly those. Every drop is
 * counted for the `cut` list.
 *
 * @module
 */

import { plural } from "../src/core/text.ts";

/**
 * Changed lines shown from the start of a hunk that has more than the cap. The changed lines
 * are what an agent edits next (it pastes them into an edit as they are): a hunk of up to
 * {@link CHANGED_HEAD} + {@link CHANGED_TAIL} changed lines is shown whole; context goes first.
 */
export const CHANGED_HEAD = 250;
/** Changed lines shown from the end of a hunk that has more than the cap. */
export const CHANGED_TAIL = 50;
/** Lines shown from the start of a new file's body (the file itself can be read whole). */
export const NEW_FILE_LINES = 40;
/** Body lines shown for a whole output before the remaining hunks are reduced to headers. */
export const BODY_BUDGET = 1500;
/** The mark that starts a line standing for changed lines not shown. */
export const GAP = "⋯";

/** One hunk: its header as printed and the body lines it spans. */
export interface Hunk {
  /** The `@@ -a,b +c,d @@ context` line, verbatim. */
  readonly header: string;
  /** Parents of the diff: 1 for `@@`, 2 for a combined diff's `@@@`. */
  readonly parents: number;
  /** Body lines, `\ No newline at end of file` markers included. */
  readonly lines: readonly string[];
}

/** One file of a diff, as its caller titled it. */
export interface DiffFile {
  /** The compact one-line header (`diff src/app.ts (+12 −3)`). */
  readonly title: string;
  /** The path that decides whether the file is generated. */
  readonly path: string;
  /** True when the file was deleted: its body is the old content, which git still holds. */
  readonly deleted?: boolean;
  /** Header lines the caller did not recognise, printed verbatim after the title. */
  readonly extra: readonly string[];
  /** Hunks, and lines that belong to no hunk (kept verbatim), in printed order. */
  readonly body: readonly (Hunk | string)[];
}

/** An item of a diff output: a file, or a line printed verbatim. */
export type DiffItem = DiffFile | string;

/** How {@linkcode compactDiff} treats context. */
export interface CompactOptions {
  /** Keep every context line: the caller chose the context width (`-U5`, `-W`). */
  readonly keepContext: boolean;
}

/** Lines printed and the phrases for what was dropped. */
export interface Compacted {
  /** The output lines. */
  readonly lines: string[];
  /** Short phrases of what was dropped; empty when nothing was. */
  readonly cut: string[];
}

const HUNK_HEADER = /^(@{2,}) ((?:-\d+(?:,\d+)? )+)\+(\d+)(?:,(\d+))? \1(?: |$)/;

// Lock files and minified bundles: a body nobody reads line by line.
const GENERATED_NAMES = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "Cargo.lock",
  "go.sum",
  "deno.lock",
  "poetry.lock",
  "composer.lock",
  "Gemfile.lock",
]);
const GENERATED_SUFFIXES = [".min.js", ".min.css", ".map"];

/** True for lock files and minified or source-map files, whose hunk bodies are cut. */
export function isGenerated(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return GENERATED_NAMES.has(name) || GENERATED_SUFFIXES.some((s) => name.endsWith(s));
}

/** True when `line` is a hunk header (`@@ -1,3 +1,4 @@`, or `@@@` for a combined diff). */
export function isHunkHeader(line: string): boolean {
  return HUNK_HEADER.test(line);
}

/**
 * Reads the hunk whose header is `lines[start]`, consuming exactly the lines its header
 * counts, so a removed line that reads `--- x` is never taken for a file header. Returns
 * `null` when `lines[start]` is not a hunk header; a body cut short ends the hunk early.
 */
export function readHunk(
  lines: readonly string[],
  start: number,
): { hunk: Hunk; next: number } | null {
  const m = HUNK_HEADER.exec(lines[start]);
  if (!m) return null;
  const parents = m[1].length - 1;
  const olds = m[2].trim().split(" ").map(rangeLength);
  let newLeft = m[4] === undefined ? 1 : Number(m[4]);
  const body: string[] = [];
  let i = start + 1;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("\\")) {
      body.push(line);
      continue;
    }
    if (newLeft <= 0 && olds.every((n) => n <= 0)) break;
    const marks = line.slice(0, parents);
    if (marks.length < parents || /[^ +-]/.test(marks)) break;
    body.push(line);
    if (marks.includes("-")) {
      for (let p = 0; p < parents; p++) if (marks[p] === "-") olds[p]--;
    } else {
      newLeft--;
      for (let p = 0; p < parents; p++) if (marks[p] === " ") olds[p]--;
    }
  }
  return { hunk: { header: lines[start], parents, lines: body }, next: i };
}

function rangeLength(range: string): number {
  const comma = range.indexOf(",");
  return comma < 0 ? 1 : Number(range.slice(comma + 1));
}

// A line with `-` in any parent's column removes a line; one with only `+` marks adds it.
type Kind = "added" | "removed" | "context" | "marker";

function kindOf(line: string, parents: number): Kind {
  if (line.startsWith("\\")) return "marker";
  const marks = line.slice(0, parents);
  if (marks.includes("-")) return "removed";
  return marks.includes("+") ? "added" : "context";
}

function isChange(kind: Kind): boolean {
  return kind === "added" || kind === "removed";
}

/** Added and deleted lines over a file's hunks. */
export function countChanges(body: readonly (Hunk | string)[]): { added: number; deleted: number } {
  let added = 0;
  let deleted = 0;
  for (const hunk of body) {
    if (typeof hunk === "string") continue;
    for (const line of hunk.lines) {
      const kind = kindOf(line, hunk.parents);
      if (kind === "added") added++;
      else if (kind === "removed") deleted++;
    }
  }
  return { added, deleted };
}

/** `+12 −3`, `+40`, `−7`: the counts that are not zero, or `""` when both are. */
export function countsLabel(added: number, deleted: number): string {
  const parts: string[] = [];
  if (added > 0) parts.push(`+${added}`);
  if (deleted > 0) parts.push(`−${deleted}`);
  return parts.join(" ");
}

/** True when a hunk holds its file's whole content from nothing (`@@ -0,0 +1,N @@`). */
export function isCreation(hunk: Hunk): boolean {
  return /^@+ (?:-0,0 )+\+/.test(hunk.header);
}

/** One hunk's body after trimming, with what was dropped. */
interface HunkBody {
  /** The lines to print. */
  lines: string[];
  /** The lines the context rule keeps, uncapped: hunks with equal keys make the same change. */
  key: string;
  /** Changed lines in the hunk. */
  changes: number;
  /** Context lines dropped. */
  context: number;
  /** Changed lines dropped past the cap. */
  capped: number;
  /** True for a new file's body, capped at its head. */
  creation: boolean;
}

// A new file shows its head only; any other hunk its first and last changed lines.
function compactHunk(hunk: Hunk, keepContext: boolean, path: string): HunkBody {
  const kinds = hunk.lines.map((l) => kindOf(l, hunk.parents));
  const creation = isCreation(hunk);
  const capKept = creation
    ? keptChanges(kinds, NEW_FILE_LINES, 0)
    : keptChanges(kinds, CHANGED_HEAD, CHANGED_TAIL);
  const uncapped = selectLines(kinds, keepContext, () => true);
  const keep = selectLines(kinds, keepContext, (i) => capKept[i]);
  const gap = (n: number, span: Span) =>
    creation
      ? `${GAP} +${plural(n, "more line")} (new file ${path} ${_lines(span.newFrom, span.newTo)})`
      : `${GAP} +${plural(n, "changed line")} (${path} ${_spanText(span)})`;
  return {
    ...renderKept(hunk, kinds, keep, gap),
    key: hunk.lines.filter((_, i) => uncapped[i]).join("\n"),
    changes: kinds.filter(isChange).length,
    creation,
  };
}

// Past `head + tail` changed lines, only the first `head` and the last `tail` are kept.
function keptChanges(kinds: readonly Kind[], head: number, tail: number): boolean[] {
  const total = kinds.filter(isChange).length;
  const capped = total > head + tail;
  let index = 0;
  return kinds.map((k) => {
    if (!isChange(k)) return false;
    const i = index++;
    return !capped || i < head || i >= total - tail;
  });
}

// Changed lines as `changeKept` says; context only when the caller chose it, or as the one
// anchor before a kept run of pure insertion, which else would not show where it goes (a
// replacement anchors itself); a `\ No newline` marker goes with the line it follows.
function selectLines(
  kinds: readonly Kind[],
  keepContext: boolean,
  changeKept: (i: number) => boolean,
): boolean[] {
  const keep: boolean[] = [];
  for (let i = 0; i < kinds.length; i++) {
    if (isChange(kinds[i])) keep.push(changeKept(i));
    else if (kinds[i] === "marker") keep.push(i > 0 && keep[i - 1]);
    else {
      const next = nextLine(kinds, i);
      const anchor = next >= 0 && isChange(kinds[next]) && changeKept(next) &&
        insertionAt(kinds, next);
      keep.push(keepContext || anchor);
    }
  }
  return keep;
}

// The next line after `i` that is not a `\ No newline` marker, or -1.
function nextLine(kinds: readonly Kind[], i: number): number {
  for (let j = i + 1; j < kinds.length; j++) if (kinds[j] !== "marker") return j;
  return -1;
}

// True when the run of changed lines starting at `start` only adds lines.
function insertionAt(kinds: readonly Kind[], start: number): boolean {
  for (let i = start; i < kinds.length && kinds[i] !== "context"; i++) {
    if (kinds[i] === "removed") return false;
  }
  return true;
}

/** The lines of the new and the old file a run of dropped changed lines stood for. */
interface Span {
  newFrom: number;
  newTo: number;
  oldFrom: number;
  oldTo: number;
}

function _lines(from: number, to: number): string {
  return from === to ? `line ${from}` : `lines ${from}–${to}`;
}

// `new 140–259, old 130–210`: the sides the run touched.
function _spanText(span: Span): string {
  const part = (side: string, from: number, to: number) =>
    from > to ? null : from === to ? `${side} ${from}` : `${side} ${from}–${to}`;
  return [part("new", span.newFrom, span.newTo), part("old", span.oldFrom, span.oldTo)]
    .filter((x) => x !== null).join(", ");
}

// Where a hunk starts in its new file and in its (first) old file, from its header.
function _starts(header: string): { old: number; new: number } {
  const m = HUNK_HEADER.exec(header);
  if (!m) return { old: 1, new: 1 };
  const old = Number(/^-(\d+)/.exec(m[2].trim())?.[1] ?? 1);
  return { old, new: Number(m[3]) };
}

// Dropped context goes unmarked: a trimmed hunk no longer claims its lines are contiguous. A
// run of dropped changed lines is one gap line naming the lines it stood for.
function renderKept(
  hunk: Hunk,
  kinds: readonly Kind[],
  keep: readonly boolean[],
  gap: (dropped: number, span: Span) => string,
): { lines: string[]; context: number; capped: number } {
  const lines = hunk.lines;
  const out: string[] = [];
  let context = 0;
  let capped = 0;
  let { old: oldNo, new: newNo } = _starts(hunk.header);
  // A line's place in each file, and the numbers moved past it.
  const step = (k: Kind): { oldAt: number; newAt: number } => {
    const at = { oldAt: oldNo, newAt: newNo };
    if (k === "context") {
      oldNo++;
      newNo++;
    } else if (k === "added") newNo++;
    else if (k === "removed") oldNo++;
    return at;
  };
  let i = 0;
  while (i < lines.length) {
    if (keep[i]) {
      step(kinds[i]);
      out.push(lines[i++]);
      continue;
    }
    let runChanged = 0;
    const span: Span = { newFrom: Infinity, newTo: -Infinity, oldFrom: Infinity, oldTo: -Infinity };
    for (; i < lines.length && !keep[i]; i++) {
      const at = step(kinds[i]);
      if (kinds[i] === "added") {
        span.newFrom = Math.min(span.newFrom, at.newAt);
        span.newTo = Math.max(span.newTo, at.newAt);
      } else if (kinds[i] === "removed") {
        span.oldFrom = Math.min(span.oldFrom, at.oldAt);
        span.oldTo = Math.max(span.oldTo, at.oldAt);
      }
      if (isChange(kinds[i])) runChanged++;
      else if (kinds[i] === "context") context++;
    }
    capped += runChanged;
    if (runChanged > 0) out.push(gap(runChanged, span));
  }
  return { lines: out, context, capped };
}

// `@@ -12,7`: the part of a hunk header that names where the hunk starts in the old file.
function oldStart(header: string): string {
  const m = HUNK_HEADER.exec(header);
  return m ? `${m[1]} ${m[2].trim()}` : header;
}

/** Running totals of what {@linkcode compactDiff} dropped. */
interface Tally {
  context: number;
  changed: number;
  newFileLines: number;
  newFiles: number;
  repeated: number;
  overBudgetHunks: number;
  overBudgetFiles: Set<string>;
  generated: string[];
  deletedFiles: number;
}

/**
 * Prints a diff compactly: each file's title, its verbatim extra header lines, every hunk
 * header, and trimmed bodies while the output stays within {@linkcode BODY_BUDGET} body lines.
 */
export function compactDiff(items: readonly DiffItem[], opts: CompactOptions): Compacted {
  const out: string[] = [];
  const tally: Tally = {
    context: 0,
    changed: 0,
    newFileLines: 0,
    newFiles: 0,
    repeated: 0,
    overBudgetHunks: 0,
    overBudgetFiles: new Set(),
    generated: [],
    deletedFiles: 0,
  };
  // Bodies printed so far, by key, as `path @@ -a,b` for a repeat to point at.
  const printed = new Map<string, string>();
  let used = 0;
  for (const item of items) {
    if (typeof item === "string") {
      out.push(item);
      continue;
    }
    out.push(item.title, ...item.extra);
    const generated = isGenerated(item.path);
    const headersOnly = generated || item.deleted === true;
    let bodiesCut = 0;
    for (const part of item.body) {
      if (typeof part === "string") {
        out.push(part);
        continue;
      }
      out.push(part.header);
      if (headersOnly) {
        bodiesCut++;
        continue;
      }
      if (used >= BODY_BUDGET) {
        tally.overBudgetHunks++;
        tally.overBudgetFiles.add(item.path);
        continue;
      }
      const body = compactHunk(part, opts.keepContext, item.path);
      tally.context += body.context;
      const earlier = body.changes >= 2 ? printed.get(body.key) : undefined;
      if (earlier !== undefined) {
        out.push(`${GAP} same change as ${earlier}`);
        used++;
        tally.repeated++;
        continue;
      }
      if (body.changes >= 2) printed.set(body.key, `${item.path} ${oldStart(part.header)}`);
      // One by one: a hunk kept with the caller's context can outgrow a spread's argument limit.
      for (const line of body.lines) out.push(line);
      used += body.lines.length;
      if (body.creation && body.capped > 0) {
        tally.newFileLines += body.capped;
        tally.newFiles++;
      } else tally.changed += body.capped;
    }
    if (bodiesCut > 0 && generated) {
      tally.generated.push(`${hunksBodies(bodiesCut)} in ${item.path}`);
    } else if (bodiesCut > 0) tally.deletedFiles++;
  }
  return { lines: out, cut: cutPhrases(tally) };
}

function hunksBodies(count: number): string {
  return count === 1 ? "1 hunk's body" : `${count} hunks' bodies`;
}

function cutPhrases(tally: Tally): string[] {
  const cut: string[] = [];
  if (tally.context > 0) cut.push(plural(tally.context, "context line"));
  if (tally.changed > 0) cut.push(`${plural(tally.changed, "changed line")} of long hunks`);
  if (tally.newFileLines > 0) {
    cut.push(`${plural(tally.newFileLines, "line")} of ${plural(tally.newFiles, "new file")}`);
  }
  if (tally.repeated > 0) cut.push(plural(tally.repeated, "repeated hunk"));
  cut.push(...tally.generated);
  if (tally.deletedFiles > 0) cut.push(`bodies of ${plural(tally.deletedFiles, "deleted file")}`);
  if (tally.overBudgetHunks > 0) {
    const files = plural(tally.overBudgetFiles.size, "file");
    cut.push(`${hunksBodies(tally.overBudgetHunks)} in ${files} past ${BODY_BUDGET} lines`);
  }
  return cut;
}
