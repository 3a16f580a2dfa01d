/**
 * A long file, as the model should first see it: its first lines verbatim (the `head`, which a
 * host may number: every number is then that line of the file), and a `body` standing for the
 * rest: for code, an outline of every class, function and method with its true line range; for
 * JSON, its structure with every key and value; for a document (Markdown, reStructuredText,
 * AsciiDoc), its headings with their line ranges; for logs, the counts by level with every
 * WARN and ERROR line whole; for a lockfile, its packages; for other text, its head and tail. The
 * body says how many lines the file has and that a read with an offset and a limit returns
 * exact lines. The same engine serves a host's whole-file Read, `cat` of one file, and
 * `rtok read`.
 *
 * @module
 */

import type { TextClass } from "../core/tokens.ts";
import { estimate } from "../core/tokens.ts";
import { lazyImport } from "../core/lazy.ts";
import { hasPointer, withPointer } from "../core/pointer.ts";
import { withHiddenSpans } from "../core/hidden_lines.ts";
import { plural } from "../core/text.ts";
import { classifyFile, type FileKind } from "./text_kind.ts";
import { headAndTail } from "./head_tail.ts";

/** When a file is long enough to be viewed instead of sent whole. */
export interface FileThresholds {
  /** More lines than this (default 250). */
  readonly lines: number;
  /** Or more chars than this (default 12,000). */
  readonly chars: number;
}

/** The defaults: about a screenful of code more than anyone reads at once. */
export const FILE_THRESHOLDS: FileThresholds = { lines: 250, chars: 12_000 };

/** Files longer than this (10 MiB of UTF-16 code units) are not viewed: the content engine's own cap. */
export const FILE_MAX_CHARS: number = 10 * 1024 * 1024;

/** Lines of a code file's head: its imports and module comment, usually. */
export const CODE_HEAD_LINES = 30;
/** Lines of a data or text file's head. */
export const DATA_HEAD_LINES = 5;
/** The head never holds more chars than this, whatever its line count. */
export const HEAD_MAX_CHARS = 3_000;

/** A file viewed. */
export interface FileView {
  /** What the file was read as. */
  readonly kind: FileKind;
  /** The file's first lines, verbatim, joined by `\n`, without a final newline. */
  readonly head: string;
  /** How many lines `head` holds. */
  readonly headLines: number;
  /** What stands for the rest of the file, ending with a newline. */
  readonly body: string;
  /** The same view standing alone, without the head (for output no host numbers). */
  readonly alone: string;
  /** What was left out, as short phrases: non-empty (a view always leaves lines out). */
  readonly cut: readonly string[];
  /** How the view is counted. */
  readonly textClass: TextClass;
  /** The file's line count. */
  readonly lines: number;
}

const _CLASS: Readonly<Record<FileKind, TextClass>> = {
  code: "code",
  json: "json",
  log: "log",
  lockfile: "log",
  document: "prose",
  text: "prose",
};

/** The file's lines as a host counts them: a final newline ends the last line. */
export function fileLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function _head(lines: readonly string[], want: number): string[] {
  const out: string[] = [];
  let chars = 0;
  for (const line of lines.slice(0, want)) {
    chars += line.length + 1;
    if (chars > HEAD_MAX_CHARS && out.length > 0) break;
    out.push(line);
  }
  return out;
}

/**
 * The view of `text`, the file at `path`, or `null` to send it whole: at or under both
 * thresholds, already rtok's output, or a view that is not strictly smaller than the file in
 * chars and estimated tokens (the pointer line counted), unless `always` (the view was asked
 * for). Throws an `Error` naming the file when its language's grammar gives no outline (it
 * did not load, or the parse failed): the caller sends the file whole and says why.
 */
export async function viewFile(
  path: string,
  text: string,
  thresholds: FileThresholds = FILE_THRESHOLDS,
  always = false,
): Promise<FileView | null> {
  if (text.length > FILE_MAX_CHARS) return null;
  const lines = fileLines(text);
  if (lines.length <= thresholds.lines && text.length <= thresholds.chars) return null;
  if (hasPointer(text)) return null;
  const kind = classifyFile(path, text);
  const head = _head(lines, kind === "code" ? CODE_HEAD_LINES : DATA_HEAD_LINES);
  const about = _about(path, lines.length, text.length, head.length);
  const rest = await _rest(kind, path, text, lines);
  if (!rest) return null;
  const restText = rest.text.endsWith("\n") ? rest.text : rest.text + "\n";
  const body = `${about}\n${restText}`;
  const cut = rest.cut.length
    ? rest.cut
    : [`lines ${head.length + 1}–${lines.length} as ${rest.kind}`];
  const view: FileView = {
    kind: rest.kind,
    head: head.join("\n"),
    headLines: head.length,
    body,
    // Code keeps its head (imports, the module's comment); the other views begin at line 1.
    alone: rest.kind === "code"
      ? `${head.join("\n")}\n${about}\n${restText}`
      : `${_about(path, lines.length, text.length, 0)}\n${restText}`,
    // Where the lines the view does not show are, for the pointer line (rule 11).
    cut: withHiddenSpans(text, { text: `${head.join("\n")}\n${body}`, cut }).cut,
    textClass: _CLASS[rest.kind],
    lines: lines.length,
  };
  const shown = `${view.head}\n${withPointer({ text: view.body, cut: view.cut }, "0".repeat(12))}`;
  const smaller = shown.length < text.length &&
    estimate(shown, view.textClass) < estimate(text, view.textClass);
  return smaller || always ? view : null;
}

/** The view as one text, for output no host numbers (the caller adds the pointer line). */
export function renderView(view: FileView): string {
  return view.alone;
}

function _about(path: string, lines: number, chars: number, shown: number): string {
  const how = shown > 0
    ? `lines 1–${shown} are shown as they are, the rest as below`
    : "shown as below";
  return `[rtok: ${path} has ${plural(lines, "line")} (${plural(chars, "char")}); ${how}. ` +
    `A read with an offset and a limit returns exact lines.]`;
}

// Each kind's reader loads when a file of that kind is viewed, and only then is its graph
// (a parser, an npm package) walked.
const _lazy = <M>(path: string): Promise<M> => lazyImport<M>(new URL(path, import.meta.url));

interface _Rest {
  readonly kind: FileKind;
  readonly text: string;
  readonly cut: readonly string[];
}

async function _rest(
  kind: FileKind,
  path: string,
  text: string,
  lines: readonly string[],
): Promise<_Rest | null> {
  switch (kind) {
    case "code": {
      const { outlineOf, renderOutline } = await _lazy<typeof import("./outline/outline.ts")>(
        "./outline/outline.ts",
      );
      const o = await outlineOf(path, text);
      if (o.problem) {
        throw new Error(
          `${path}: the ${o.language} grammar gave no outline (${o.problem}); sent whole`,
        );
      }
      if (o.symbols.length === 0) return _text(text);
      const by = o.parser === "tree-sitter" ? `${o.language}, parsed` : "by indentation";
      return {
        kind,
        text: `outline (${by}; each symbol with its lines):\n${renderOutline(o)}`,
        cut: [`the bodies of ${plural(o.symbols.length, "symbol")}`],
      };
    }
    case "json": {
      const { compressJson } = await _lazy<typeof import("./json_structure.ts")>(
        "./json_structure.ts",
      );
      const r = compressJson(text);
      return r ? { kind, text: r.text, cut: r.cut } : _text(text);
    }
    case "log": {
      const { compressLog } = await _lazy<typeof import("./log_levels.ts")>("./log_levels.ts");
      const r = compressLog(text);
      return r ? { kind, text: r.text, cut: r.cut } : _text(text);
    }
    case "document": {
      const { documentSyntax, headingsOf, renderHeadings } = await _lazy<
        typeof import("./document.ts")
      >("./document.ts");
      const syntax = documentSyntax(path) ?? "markdown";
      const headings = headingsOf(text, syntax);
      if (headings.length === 0) return _text(text);
      return {
        kind,
        text: `outline (${syntax}; each heading with its lines):\n${renderHeadings(headings)}`,
        cut: [`the text under ${plural(headings.length, "heading")}`],
      };
    }
    case "lockfile": {
      const { compressLockfile } = await _lazy<typeof import("./lockfile.ts")>("./lockfile.ts");
      const r = compressLockfile(path, text);
      return r ? { kind, text: r.text, cut: r.cut } : _text(text);
    }
    default:
      return lines.length > 0 ? _text(text) : null;
  }
}

function _text(text: string): _Rest | null {
  const r = headAndTail(text);
  return r ? { kind: "text", text: r.text, cut: r.cut } : null;
}
