/**
 * A document's outline: its headings, nested by level, each with the true 1-based line range of
 * its section (from the heading to the line before the next heading of the same or a higher
 * level), as a file view shows a long Markdown, reStructuredText or AsciiDoc file instead of its
 * body. Markdown: ATX headings (`#`…`######`) and setext ones (a line under `===` or `---`),
 * none inside fenced code (```, ~~~) or front matter (`---` YAML, `+++` TOML, at line 1).
 * reStructuredText: a title underlined (and maybe overlined) with one punctuation char repeated
 * at least its length, levels in the order the styles first appear. AsciiDoc: `=`…`======`.
 *
 * @module
 */

import { plural } from "../core/text.ts";

/** One heading. */
export interface Heading {
  /** 1 for the top level. */
  readonly level: number;
  /** Its text, as written (markup around it removed). */
  readonly title: string;
  /** The heading's first line, 1-based. */
  readonly start: number;
  /** The last line of its section. */
  readonly end: number;
}

/** The document syntaxes read. */
export type DocumentSyntax = "markdown" | "rst" | "asciidoc";

const _SYNTAX: Readonly<Record<string, DocumentSyntax>> = {
  md: "markdown",
  markdown: "markdown",
  mdx: "markdown",
  mkd: "markdown",
  rst: "rst",
  adoc: "asciidoc",
  asciidoc: "asciidoc",
};

/** The syntax of the document at `path`, by its extension, or `null` when it names none. */
export function documentSyntax(path: string): DocumentSyntax | null {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  return _SYNTAX[name.slice(dot + 1).toLowerCase()] ?? null;
}

/** Headings listed at most; past this the deepest levels are left out first. */
export const OUTLINE_HEADINGS = 300;

/** `text`'s headings in `syntax`, in order, with their section ranges. */
export function headingsOf(text: string, syntax: DocumentSyntax): Heading[] {
  const lines = text.split("\n").map((l) => l.endsWith("\r") ? l.slice(0, -1) : l);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const found = syntax === "markdown"
    ? _markdown(lines)
    : syntax === "rst"
    ? _rst(lines)
    : _asciidoc(lines);
  // A section runs to the line before the next heading of its level or above.
  return found.map((h, i) => {
    let end = lines.length;
    for (let j = i + 1; j < found.length; j++) {
      if (found[j].level <= h.level) {
        end = found[j].start - 1;
        break;
      }
    }
    return { ...h, end: Math.max(end, h.start) };
  });
}

type _Found = Omit<Heading, "end">;

function _markdown(lines: readonly string[]): _Found[] {
  const out: _Found[] = [];
  let fence: string | null = null;
  let i = 0;
  // Front matter: `---` (YAML) or `+++` (TOML) on line 1, to its closing line.
  if (lines[0] === "---" || lines[0] === "+++") {
    const close = lines.indexOf(lines[0], 1);
    if (close > 0) i = close + 1;
  }
  for (; i < lines.length; i++) {
    const line = lines[i];
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) {
        fence = null;
      }
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    const atx = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$/.exec(line);
    if (atx && (atx[2] ?? "").trim() !== "") {
      out.push({
        level: atx[1].length,
        title: atx[2].replace(/[ \t]+#+$/, "").trim(),
        start: i + 1,
      });
      continue;
    }
    const next = lines[i + 1];
    if (
      next !== undefined && line.trim() !== "" && !/^ {4}|^\t/.test(line) &&
      /^ {0,3}(=+|-+)[ \t]*$/.test(next) && !/^ {0,3}(?:[-*+]|\d+[.)])\s/.test(line) &&
      !/^ {0,3}>/.test(line)
    ) {
      out.push({ level: next.trim()[0] === "=" ? 1 : 2, title: line.trim(), start: i + 1 });
      i++;
    }
  }
  return out;
}

function _rst(lines: readonly string[]): _Found[] {
  const out: _Found[] = [];
  const styles: string[] = [];
  const rule = (l: string | undefined) =>
    l !== undefined && /^([!-\/:-@\[-`{-~])\1{2,}\s*$/.test(l) ? l.trim() : null;
  for (let i = 0; i < lines.length; i++) {
    const title = lines[i];
    if (title.trim() === "" || rule(title) !== null) continue;
    const under = rule(lines[i + 1]);
    if (under === null || under.length < title.trim().length) continue;
    const over = rule(lines[i - 1]) === under;
    const style = `${over ? "o" : ""}${under[0]}`;
    if (!styles.includes(style)) styles.push(style);
    out.push({ level: styles.indexOf(style) + 1, title: title.trim(), start: over ? i : i + 1 });
    i++;
  }
  return out;
}

function _asciidoc(lines: readonly string[]): _Found[] {
  const out: _Found[] = [];
  let block: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^(-{4,}|\.{4,}|={4,}|\+{4,}|_{4,})\s*$/.test(line)) {
      block = block === line.trim() ? null : block ?? line.trim();
      continue;
    }
    if (block !== null) continue;
    const m = /^(={1,6})\s+(\S.*)$/.exec(line);
    if (m) out.push({ level: m[1].length, title: m[2].trim(), start: i + 1 });
  }
  return out;
}

/**
 * The outline as lines (`## Install L12-40`, two spaces a level below the top one), at most
 * {@linkcode OUTLINE_HEADINGS}: past that the deepest levels go first, and a last line counts
 * them.
 */
export function renderHeadings(headings: readonly Heading[]): string {
  const top = Math.min(...headings.map((h) => h.level));
  let deepest = Math.max(...headings.map((h) => h.level));
  let shown = headings;
  while (shown.length > OUTLINE_HEADINGS && deepest > top) {
    deepest--;
    shown = headings.filter((h) => h.level <= deepest);
  }
  shown = shown.slice(0, OUTLINE_HEADINGS);
  const lines = shown.map((h) => {
    const range = h.start === h.end ? `L${h.start}` : `L${h.start}-${h.end}`;
    return `${"  ".repeat(h.level - top)}${"#".repeat(h.level)} ${h.title} ${range}`;
  });
  const left = headings.length - shown.length;
  if (left > 0) {
    lines.push(`(${plural(left, "heading")} deeper or further in, not listed)`);
  }
  return lines.join("\n");
}
