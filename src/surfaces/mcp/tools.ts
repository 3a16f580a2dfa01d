/**
 * What `rtok mcp`'s tools do, apart from the protocol: run a command through rtok, expand an
 * archived output page by page, search the archive, report the savings. Nothing here writes
 * to stdout (the protocol's channel); each tool returns its answer or throws a built-in error
 * whose one-line message the server hands back as an `isError` result.
 *
 * @module
 */

import { joinPath } from "../../core/paths.ts";
import { quoteWord } from "../../core/shell.ts";
import { selfArgv } from "../../core/self.ts";
import type { Store } from "../../core/store.ts";
import { findPointers, pointerLine } from "../../core/pointer.ts";
import { findArchived, readArchived, recordExpand } from "../../plugins/archive/archive.ts";
import { parseRange, selectLines } from "../../plugins/archive/expand.ts";
import { searchArchive, searchText } from "../../plugins/archive/search.ts";
import { expandRates } from "../../plugins/measure/expand_rate.ts";
import { gainSummary } from "../../plugins/measure/gain.ts";
import { planRewrite } from "../../rewrite/plan.ts";
import { deliver } from "../../pipeline/deliver.ts";
import { heldText, runCapped } from "../../pipeline/execute.ts";
import { planLine } from "../../pipeline/line.ts";
import { catOfOneFile } from "../../pipeline/plan.ts";
import {
  type CapturedRun,
  runCapturedCommand,
  TIMEOUT_EXIT_CODE,
} from "../../pipeline/captured.ts";
import { archiveKeeper, type Boot, drain, openStore, runEnv } from "../_boot.ts";
import { viewForAgent } from "../_file_view.ts";
import { askIndex } from "../_graph_ask.ts";

/** The most chars one tool answer carries; longer text is paged or cut (and archived). */
export const MAX_ANSWER_CHARS = 40_000;

/** `rtok_run`'s default time limit. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** The exit code of a command `rtok_run` stopped at its time limit (as `timeout(1)` uses). */
export { TIMEOUT_EXIT_CODE };

/** A tool's answer: text for the model, and the same facts as structured content. */
export interface ToolAnswer {
  /** The text content. */
  readonly text: string;
  /** Structured content. */
  readonly structured: Record<string, unknown>;
  /** True when the call failed (a non-zero exit, a timeout). */
  readonly isError?: boolean;
}

/** `rtok_run`'s arguments. */
export interface RunArgs {
  /** The command as an argv, run without a shell. */
  readonly command?: readonly string[];
  /** A shell command line, run with `sh -c` after the hook's rewrite. */
  readonly shell?: string;
  /** The working directory (default: the server's). */
  readonly cwd?: string;
  /** The time limit in milliseconds. */
  readonly timeoutMs?: number;
}

/**
 * Runs a command through rtok's filters, the way the hook would have rewritten it. An argv,
 * or a line that is one plain command, runs as the tool itself, filtered in this process
 * (no second rtok start-up), and is recorded as an `mcp` run; any other line runs under
 * `sh -c` with its filtered commands rewritten to rtok. A command past its time limit is
 * killed with its whole process group: exit code 124 and a "timed out" line.
 */
export async function runTool(b: Boot, args: RunArgs): Promise<ToolAnswer> {
  const hasArgv = args.command !== undefined;
  const hasShell = args.shell !== undefined;
  if (hasArgv === hasShell) {
    throw new TypeError(
      'give either "command" (an argv array, like ["git", "log"]) or "shell" (a command line), ' +
        "not both and not neither",
    );
  }
  if (hasArgv && (args.command!.length === 0 || args.command![0] === "")) {
    throw new TypeError(
      '"command" is empty: give the program and its arguments, like ["git", "log"]',
    );
  }
  if (hasShell && args.shell!.trim() === "") {
    throw new TypeError('"shell" is empty: give a command line, like "git log -5"');
  }
  const cwd = await _directory(args.cwd);
  const timeoutMs = args.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let run: () => Promise<_Done>;
  let ran: string;
  const line = hasArgv
    ? { kind: "plain" as const, argv: args.command! }
    : planLine(args.shell!, cwd);
  if (line.kind === "cat") {
    // `cat FILE` is read the way a host's whole-file Read is.
    ran = `rtok cat ${quoteWord(line.operand)}`;
    run = () => _catInProcess(b, line.path, ran, cwd, timeoutMs);
  } else if (line.kind === "plain") {
    ran = `rtok ${line.argv.map(quoteWord).join(" ")}`;
    run = () => runCapturedCommand(runEnv(b), line.argv, cwd, timeoutMs, "mcp");
  } else {
    const self = selfArgv();
    const plan = planRewrite(args.shell!, self.map(quoteWord).join(" "));
    ran = plan.kind === "read" && plan.commands.some((c) => c.family) ? plan.command : args.shell!;
    run = () => _spawnCapped(["/bin/sh", "-c", ran], cwd, timeoutMs);
  }
  const started = performance.now();
  const done = await run();
  const elapsedMs = Math.round(performance.now() - started);
  const stdout = done.stdout;
  const archiveIds = findPointers(stdout).map((p) => p.id);
  let text = stdout;
  if (done.stderr) text += (text && !text.endsWith("\n") ? "\n" : "") + done.stderr;
  const exitCode = done.timedOut ? TIMEOUT_EXIT_CODE : done.code;
  const cut = await _fit(b, text, { command: ran, cwd, exitCode, family: "mcp output" });
  const tail = done.timedOut
    ? `[timed out after ${timeoutMs} ms: killed; exit code ${TIMEOUT_EXIT_CODE}]`
    : exitCode !== 0
    ? `[exit code ${exitCode}${done.signal ? ` (${done.signal})` : ""}]`
    : "";
  const body = cut.text + (tail ? (cut.text && !cut.text.endsWith("\n") ? "\n" : "") + tail : "");
  return {
    text: body === "" ? "(no output)" : body,
    structured: {
      exitCode,
      signal: done.signal,
      timedOut: done.timedOut,
      archiveId: archiveIds.at(-1) ?? null,
      archiveIds,
      ...(cut.id ? { overflowArchiveId: cut.id } : {}),
      command: hasArgv ? args.command!.map(quoteWord).join(" ") : args.shell!,
      ran,
      cwd,
      elapsedMs,
    },
    isError: exitCode !== 0,
  };
}

/** `rtok_read`'s arguments. */
export interface ReadArgs {
  /** The file, absolute or relative to `cwd`. */
  readonly path: string;
  /** `"A:B"`: exact lines. */
  readonly lines?: string;
  /** The view (an outline, for code) whatever the file's length. */
  readonly outline?: boolean;
  /** The directory a relative path is read from (default: the server's). */
  readonly cwd?: string;
}

// A tool's `lines` argument, its error worded for the tool rather than the CLI's `--lines`.
function _lineRange(arg: string | undefined): [number, number] | undefined {
  if (arg === undefined) return undefined;
  try {
    return parseRange(arg);
  } catch (e) {
    throw new RangeError((e as Error).message.replace(/^--lines/, "lines"));
  }
}

/** A file as rtok compresses a host's whole-file Read (`rtok read`). */
export async function readTool(b: Boot, args: ReadArgs): Promise<ToolAnswer> {
  if (args.outline && args.lines !== undefined) {
    throw new TypeError('"outline" and "lines" ask for different things: give one');
  }
  const lines = _lineRange(args.lines);
  const cwd = await _directory(args.cwd);
  const path = args.path.startsWith("/") ? args.path : joinPath(cwd, args.path);
  const answer = await viewForAgent(b, path, {
    ...(lines ? { lines } : {}),
    ...(args.outline ? { outline: true } : {}),
  }, { surface: "mcp", family: "read", command: `read ${quoteWord(path)}` });
  return {
    text: answer.text === "" ? "(no lines)" : answer.text,
    structured: { path, archiveId: answer.archiveId },
  };
}

/** `rtok_expand`'s arguments. */
export interface ExpandArgs {
  /** The archive id (at least 6 hex digits). */
  readonly id: string;
  /** Lines matching this regular expression, each as `N:line`. */
  readonly grep?: string;
  /** `A:B`, 1-based and inclusive. */
  readonly lines?: string;
  /** The first N lines. */
  readonly head?: number;
  /** The last N lines. */
  readonly tail?: number;
  /** Which page of the answer, from 1. */
  readonly page?: number;
}

/**
 * The raw output behind an archive id, whole or by selection, one page of at most
 * {@linkcode MAX_ANSWER_CHARS}. Records one expand per call for page 1 (paging on through the
 * same output is one expand, not several).
 */
export async function expandTool(b: Boot, args: ExpandArgs): Promise<ToolAnswer> {
  const page = args.page ?? 1;
  const lines = _lineRange(args.lines);
  const sel = {
    ...(lines ? { lines } : {}),
    ...(args.grep !== undefined ? { grep: args.grep } : {}),
    ...(args.head !== undefined ? { head: args.head } : {}),
    ...(args.tail !== undefined ? { tail: args.tail } : {}),
  };
  return await _withStore(b, async (store, home) => {
    const out = findArchived(store, args.id.trim().toLowerCase(), home);
    const bytes = await readArchived(home, out);
    const partial = Object.keys(sel).length > 0;
    let text: string;
    if (partial) {
      text = selectLines(bytes, sel);
    } else {
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        throw new TypeError(
          `Archived output ${out.id} is binary (${bytes.byteLength} bytes), and a tool answer ` +
            `is text: run "rtok expand ${out.id} > file" in a shell instead`,
        );
      }
    }
    const pages = pageText(text, MAX_ANSWER_CHARS);
    if (page > pages.length) {
      throw new RangeError(
        `page ${page}: archived output ${out.id} has ${pages.length} page${
          pages.length === 1 ? "" : "s"
        } for this selection`,
      );
    }
    if (page === 1) recordExpand(store, out.id, "mcp");
    const shown = pages[page - 1];
    const more = page < pages.length
      ? `\n[rtok: page ${page} of ${pages.length}; next: rtok_expand with id "${out.id}" and page ${
        page + 1
      }${partial ? " and the same selection" : ""}]`
      : "";
    return {
      text: (shown === "" ? "(no lines selected)" : shown) + more,
      structured: {
        id: out.id,
        command: out.command,
        cwd: out.cwd,
        exitCode: out.exitCode,
        family: out.family,
        size: out.size,
        created: new Date(out.created).toISOString(),
        page,
        pages: pages.length,
      },
    };
  });
}

/** `rtok_search`'s arguments. */
export interface SearchArgs {
  /** The query: a name, a "phrase", `pre*`, `a OR b`. */
  readonly query: string;
  /** Most results (default 10). */
  readonly limit?: number;
  /** The project directory (default: the server's working directory). */
  readonly cwd?: string;
  /** Search every project's outputs. */
  readonly allProjects?: boolean;
}

/** Searches the archived outputs of a project (the server's directory by default). */
export async function searchTool(b: Boot, args: SearchArgs): Promise<ToolAnswer> {
  const project = args.allProjects ? null : await _directory(args.cwd);
  return await _withStore(b, async (store, home) => {
    const r = await searchArchive(store, home, args.query, { project, limit: args.limit ?? 10 });
    return {
      text: searchText(r, project),
      structured: { project, ...r },
    };
  });
}

/** `rtok_symbols`' arguments. */
export interface SymbolsArgs {
  /** The name: `parse`, or with its scope, `Parser.parse`. */
  readonly name: string;
  /** Also list the files and lines that use it. */
  readonly references?: boolean;
  /** A directory of the project (default: the server's). */
  readonly cwd?: string;
}

/**
 * Where `name` is defined in the project (its symbol index, brought up to date first), and
 * with `references`, where it is used. Nothing found: one line with the closest names.
 */
export async function symbolsTool(b: Boot, args: SymbolsArgs): Promise<ToolAnswer> {
  const name = args.name.trim();
  if (name === "") throw new TypeError('"name" is empty: give a name, like "parseConfig"');
  const cwd = await _directory(args.cwd);
  const command = `rtok_symbols ${name}`;
  const where = await askIndex(b, { kind: "where", name }, { cwd, surface: "mcp", command });
  if (!args.references) {
    return { text: where.text, structured: where.data };
  }
  const refs = await askIndex(b, { kind: "refs", name }, { cwd, surface: "mcp", command });
  const uses = refs.found ? `uses:\n${refs.text}` : refs.text;
  const r = refs.data as { references?: unknown; uses?: unknown };
  return {
    text: where.text + uses,
    structured: { ...where.data, references: r.references ?? [], uses: r.uses ?? 0 },
  };
}

/** `rtok_gain`'s arguments. */
export interface GainArgs {
  /** Only runs in this directory and below (default: every project). */
  readonly project?: string;
}

/** The savings summary and the expand rates, as structured content. */
export async function gainTool(b: Boot, args: GainArgs): Promise<ToolAnswer> {
  const project = args.project === undefined ? null : await _directory(args.project);
  return await _withStore(b, async (store) => {
    await drain(b, store);
    const summary = {
      estimated: true,
      ...gainSummary(store, { project }),
      expandRates: expandRates(store, project),
    };
    return { text: JSON.stringify(summary, null, 2), structured: summary };
  });
}

/**
 * `text` split into pages of at most `max` chars, at line ends where a line fits (a longer
 * line is split inside). Always at least one page.
 */
export function pageText(text: string, max: number): string[] {
  const pages: string[] = [];
  let current = "";
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    let rest = line;
    while (current.length + rest.length > max) {
      if (current !== "") {
        pages.push(current);
        current = "";
        continue;
      }
      pages.push(rest.slice(0, max));
      rest = rest.slice(max);
    }
    current += rest;
  }
  if (current !== "" || pages.length === 0) pages.push(current);
  return pages;
}

// Where a tool runs or searches: the given directory (relative to the server's), canonical.
async function _directory(dir: string | undefined): Promise<string> {
  const path = dir === undefined || dir === ""
    ? Deno.cwd()
    : dir.startsWith("/")
    ? dir
    : joinPath(Deno.cwd(), dir);
  try {
    const real = await Deno.realPath(path);
    if ((await Deno.stat(real)).isDirectory) return real;
  } catch { /* said below */ }
  throw new Deno.errors.NotFound(`cwd "${dir}" is not a directory: give an existing directory`);
}

async function _withStore<T>(b: Boot, fn: (store: Store, home: string) => Promise<T>): Promise<T> {
  const store = await openStore(b);
  if (store === null || b.home === null) {
    throw new Error("rtok's store cannot be opened (the server's stderr says why); set RTOK_HOME");
  }
  try {
    return await fn(store, b.home);
  } finally {
    store.close();
  }
}

// Text over the answer limit: its head and tail around one pointer line, the whole kept in
// the archive (through the pipeline's delivery: without the archive nothing is cut).
async function _fit(
  b: Boot,
  text: string,
  meta: { command: string; cwd: string; exitCode: number; family: string },
): Promise<{ text: string; id: string | null }> {
  if (text.length <= MAX_ANSWER_CHARS) return { text, id: null };
  const sent = await deliver(archiveKeeper(b, false), text, {
    lossy: true,
    text: (id) => _headAndTail(text, id),
  }, meta);
  return sent.whole ? { text, id: null } : { text: sent.text, id: sent.archiveId };
}

function _headAndTail(text: string, id: string): string {
  const lines = text.split("\n");
  const head: string[] = [];
  let used = 0;
  const budget = Math.floor(MAX_ANSWER_CHARS * 0.6);
  while (head.length < lines.length && used + lines[head.length].length < budget) {
    used += lines[head.length].length + 1;
    head.push(lines[head.length]);
  }
  const tail: string[] = [];
  used = 0;
  const tailBudget = Math.floor(MAX_ANSWER_CHARS * 0.3);
  for (let i = lines.length - 1; i >= head.length; i--) {
    if (used + lines[i].length >= tailBudget) break;
    used += lines[i].length + 1;
    tail.unshift(lines[i]);
  }
  const cut = lines.length - head.length - tail.length;
  return [
    ...head,
    pointerLine([`${cut} lines over the ${MAX_ANSWER_CHARS}-char answer limit`], id),
    ...tail,
  ].join("\n");
}

// How a run for `rtok_run` ended.
type _Done = CapturedRun;

// `cat FILE` as a whole-file read: the file's view; a file that is not one goes to cat itself.
async function _catInProcess(
  b: Boot,
  path: string,
  ran: string,
  cwd: string,
  timeoutMs: number,
): Promise<_Done> {
  if (!catOfOneFile(["cat", path], b.config.cmd.maxFilterMb * 1024 * 1024)) {
    return await runCapturedCommand(runEnv(b), ["cat", path], cwd, timeoutMs, "mcp");
  }
  const answer = await viewForAgent(b, path, {}, { surface: "mcp", family: "cat", command: ran });
  return { code: 0, signal: null, stdout: answer.text, stderr: "", timedOut: false };
}

async function _spawnCapped(
  argv: readonly string[],
  cwd: string,
  timeoutMs: number,
): Promise<_Done> {
  const done = await runCapped(argv, cwd, timeoutMs);
  return {
    code: done.code,
    signal: done.signal,
    stdout: heldText(done.stdout, done.dropped[0]),
    stderr: heldText(done.stderr, done.dropped[1]),
    timedOut: done.timedOut,
  };
}
