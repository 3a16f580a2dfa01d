/**
 * Helpers shared by the package-manager and script-runner filters (`npm_install.ts`,
 * `pnpm_install.ts`, `yarn_install.ts`, `bun_install.ts`, `pip_install.ts`, `cargo_fetch.ts`,
 * `npm_run.ts`).
 *
 * @module
 */

import { splitLines, stripAnsi } from "../src/core/text.ts";

/**
 * The lines as a terminal would show them: ANSI codes stripped, and of a line redrawn with
 * carriage returns (a progress bar, a spinner) only its last state.
 */
export function screenLines(raw: string): string[] {
  return splitLines(stripAnsi(raw).replace(/\r\n/g, "\n")).map((line) => {
    const cr = line.lastIndexOf("\r");
    return cr < 0 ? line : line.slice(cr + 1);
  });
}

/** What a filter dropped, named once each in the order first dropped. */
export class Cuts {
  readonly #names: string[] = [];

  /** Records that something called `name` was dropped. */
  add(name: string): void {
    if (!this.#names.includes(name)) this.#names.push(name);
  }

  /** The names, for `Filtered.cut`. */
  list(): string[] {
    return [...this.#names];
  }
}

/** Cuts `text` to `width` chars, `…` included, when longer. */
export function clip(text: string, width: number): string {
  return text.length <= width ? text : text.slice(0, width - 1) + "…";
}

// `    at fn (node:internal/modules/cjs/loader:1554:14)`, `    at node:internal/main/…`.
const NODE_INTERNAL_FRAME = /^\s+at (?:.* \()?node:[\w/.-]+:\d+:\d+\)?$/;
// A JS stack frame of any kind.
const JS_FRAME = /^\s+at \S/;
// node's source excerpt for a throw inside node itself: `node:assert:90`.
const NODE_INTERNAL_SOURCE = /^node:[\w/.-]+:\d+$/;

/**
 * A Node.js error report with node's own frames taken out: `    at … (node:internal/…)` lines,
 * and the source excerpt node prints above the error when it was thrown inside node itself
 * (`node:assert:90`, the code line, the caret, a blank). Frames in the caller's files stay.
 * Returns the lines kept and how many frames went.
 */
export function dropNodeFrames(lines: readonly string[]): { lines: string[]; dropped: number } {
  const out: string[] = [];
  let dropped = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (NODE_INTERNAL_SOURCE.test(line) && /^\s*\^+\s*$/.test(lines[i + 2] ?? "x")) {
      i += lines[i + 3] === "" ? 3 : 2;
      dropped++;
      continue;
    }
    // A frame inside node, with an error object's `{` kept when the frame carried it.
    const brace = line.endsWith(" {") ? " {" : "";
    const frame = brace ? line.slice(0, -2) : line;
    if (NODE_INTERNAL_FRAME.test(frame)) {
      dropped++;
      if (brace) {
        const last = out.length - 1;
        if (last >= 0 && JS_FRAME.test(out[last])) out[last] += brace;
        else out.push(brace.trim());
      }
      continue;
    }
    out.push(line);
  }
  return { lines: out, dropped };
}

// `    at fn (/abs/path/node_modules/pkg/lib/x.js:1:2)` or `    at /abs/path/node_modules/…`.
const NODE_MODULES_FRAME = /^\s+at (?:.* \()?\S*\/node_modules\/[^)]*\)?(?: \{)?$/;

/**
 * Runs of stack frames inside `node_modules/`: the first frame of a run stays (where the
 * failure entered the library), the others become one `    … N more frames in node_modules`
 * line. Returns the lines and how many frames went.
 */
export function foldLibraryFrames(lines: readonly string[]): { lines: string[]; folded: number } {
  const out: string[] = [];
  let folded = 0;
  for (let i = 0; i < lines.length; i++) {
    out.push(lines[i]);
    if (!NODE_MODULES_FRAME.test(lines[i]) || lines[i].endsWith(" {")) continue;
    let n = 0;
    while (NODE_MODULES_FRAME.test(lines[i + 1 + n] ?? "") && !lines[i + n].endsWith(" {")) n++;
    // The last frame of a run keeps an error object's `{`, so it stays.
    if (n > 0 && lines[i + n].endsWith(" {")) n--;
    if (n > 1) {
      out.push(`${/^\s*/.exec(lines[i])![0]}… ${n} more frames in node_modules`);
      folded += n;
      i += n;
    }
  }
  return { lines: out, folded };
}

// node's excerpt header above an uncaught error: `/abs/file.js:3` (or `file:///…` for ESM).
const EXCERPT_HEADER = /^((?:file:\/\/)?\/[^():]+):(\d+)$/;
const CARET = /^\s*\^+\s*$/;

/**
 * node's source excerpt above an uncaught error (`/app/calc.js:3`, the code line, a caret
 * under it, a blank) written as the code line under the frame naming the same file and line
 * (`    at divide (/app/calc.js:3:22)`): the header repeats that frame and the caret only
 * marks a column the frame gives. When no frame below names that line, the excerpt stays.
 */
export function foldSourceExcerpt(lines: readonly string[]): string[] {
  const out = [...lines];
  for (let i = 0; i < out.length; i++) {
    const header = EXCERPT_HEADER.exec(out[i]);
    if (!header || !CARET.test(out[i + 2] ?? "") || (out[i + 1] ?? "").trim() === "") continue;
    const where = `${header[1]}:${header[2]}:`;
    const end = out[i + 3] === "" ? i + 4 : i + 3;
    // The error's message lines, then its first frame, which must be the excerpt's line.
    let frame = end;
    while (frame < out.length && frame < end + 20 && !/^\s+at \S/.test(out[frame])) frame++;
    // A frame carrying an error object's `{` has the object's fields under it: leave it be.
    if (!out[frame]?.includes(where) || out[frame].endsWith(" {")) continue;
    const code = out[i + 1].trim();
    out.splice(frame + 1, 0, `      ${code}`);
    out.splice(i, end - i);
    i = frame - (end - i);
  }
  return out;
}

// `    at Object.<anonymous> (/app/report.js:3:23)`: a module's top-level code, which names no
// function; node writes an unnamed frame as `    at /app/report.js:3:23`.
const ANONYMOUS_FRAME = /^(\s+at )Object\.<anonymous> \((.+:\d+:\d+)\)((?: \{)?)$/;

/** `at Object.<anonymous> (file:1:2)` frames written as node writes any unnamed frame. */
export function shortenAnonymousFrames(lines: readonly string[]): string[] {
  return lines.map((line) => line.replace(ANONYMOUS_FRAME, "$1$2$3"));
}

// An absolute path in a stack frame or in node's `path:line` source excerpt header.
const FRAME_PATH = /^\s+at (?:.* \()?(\/[^():]+):\d+:\d+\)?(?: \{)?$/;
const EXCERPT_PATH = /^(\/[^():]+):\d+$/;

/**
 * Stack paths with their shared directory written once: when two or more frames (or node's
 * source excerpt) name files below one directory, a `(stack paths below /dir/)` line goes first
 * and the frames name the files from there. Nothing is lost; the text only gets shorter.
 */
export function factorStackPaths(lines: readonly string[]): string[] {
  const hits: { index: number; path: string }[] = [];
  lines.forEach((line, index) => {
    const path = FRAME_PATH.exec(line)?.[1] ?? EXCERPT_PATH.exec(line)?.[1];
    if (path) hits.push({ index, path });
  });
  if (hits.length < 2) return [...lines];
  let dir = hits[0].path.slice(0, hits[0].path.lastIndexOf("/") + 1);
  for (const { path } of hits) {
    while (dir && !path.startsWith(dir)) {
      dir = dir.slice(0, dir.lastIndexOf("/", dir.length - 2) + 1);
    }
  }
  const legend = `(stack paths below ${dir})`;
  // Worth it only when the prefix written once saves more than the legend costs.
  if (dir.split("/").length < 4 || dir.length * hits.length <= legend.length + 1) return [...lines];
  const out = [...lines];
  for (const { index, path } of hits) out[index] = out[index].replace(path, path.slice(dir.length));
  out.splice(hits[0].index, 0, legend);
  return out;
}

/** The line without a trailing ` in 1.2s` / ` in 350ms` / ` [12.00ms]` timing. */
export function withoutTiming(line: string): { text: string; timed: boolean } {
  const m = / (?:in \d+(?:\.\d+)?m?s|\[\d+(?:\.\d+)?m?s\])(?=\.?$)/.exec(line);
  return m ? { text: line.slice(0, m.index) + line.slice(m.index + m[0].length), timed: true } : {
    text: line,
    timed: false,
  };
}
