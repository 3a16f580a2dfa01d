/**
 * One file read for an agent, the way a host's whole-file Read is compressed: `rtok read`,
 * `rtok cat FILE` and MCP's `rtok_read` all come here. A long file becomes its first lines and
 * a view of the rest (an outline, a structure, levels; `src/content/file.ts`), with the file
 * archived and named on the pointer line; `lines` gives exact lines, numbered as the file
 * numbers them; `outline` asks for the view of any file. One ledger row each.
 *
 * @module
 */

import type { Surface } from "../core/plugin.ts";
import { decodeText } from "../core/text.ts";
import { pointerLine } from "../core/pointer.ts";
import { fileLines, renderView, viewFile } from "../content/file.ts";
import { POSTTOOL_DEFAULTS, readSettings } from "../plugins/posttool/settings.ts";
import { deliver, ledgerRow } from "../pipeline/deliver.ts";
import { archiveKeeper, type Boot, context, reportPluginErrors } from "./_boot.ts";
import { warn } from "./_io.ts";

/** What to read of the file. */
export interface FileViewOptions {
  /** Lines A to B only (1-based, inclusive), each as `N\tline`. */
  readonly lines?: readonly [number, number];
  /** The view of the file however long it is (for code, its outline). */
  readonly outline?: boolean;
}

/** What the agent gets, and the archive id of the file when a view left lines out. */
export interface FileAnswer {
  /** The text. */
  readonly text: string;
  /** The archive id, when the file was kept. */
  readonly archiveId: string | null;
}

/**
 * The file at `path` for an agent, recorded as `family` on `surface`. Throws an `Error` with a
 * one-line message when the file cannot be read or is not UTF-8 text.
 */
export async function viewForAgent(
  b: Boot,
  path: string,
  opts: FileViewOptions,
  meta: { readonly surface: Surface; readonly family: string; readonly command: string },
): Promise<FileAnswer> {
  const started = performance.now();
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    throw new Error(`Cannot read "${path}": ${(e as Error).message}`);
  }
  const text = decodeText(bytes);
  if (text === null) {
    throw new TypeError(`"${path}" is not UTF-8 text; rtok reads text files only`);
  }
  const answer = await _answer(b, path, text, bytes, opts, meta.command);
  await context(b, null).record(ledgerRow({
    surface: meta.surface,
    plugin: "posttool",
    family: meta.family,
    command: meta.command,
    rtokCommand: `rtok ${meta.command}`,
    project: Deno.cwd(),
    rawChars: text.length,
    emittedChars: answer.text.length,
    textClass: "code",
    stage: answer.archiveId ? "filter" : "none",
    lossy: answer.archiveId !== null,
    archiveId: answer.archiveId,
    exitCode: 0,
    passthrough: answer.archiveId || opts.lines ? null : "short enough to read whole",
    started,
  }));
  reportPluginErrors(b);
  return answer;
}

async function _answer(
  b: Boot,
  path: string,
  text: string,
  bytes: Uint8Array,
  opts: FileViewOptions,
  command: string,
): Promise<FileAnswer> {
  if (opts.lines) {
    const [a, z] = opts.lines;
    const all = fileLines(text);
    const out = all.slice(a - 1, z).map((line, i) => `${a + i}\t${line}`);
    return { text: out.length ? out.join("\n") + "\n" : "", archiveId: null };
  }
  let settings = POSTTOOL_DEFAULTS;
  try {
    settings = readSettings(b.config.plugins.posttool ?? {});
  } catch (e) {
    warn(`${(e as Error).message}; using the defaults`);
  }
  const thresholds = opts.outline
    ? { lines: 0, chars: 0 }
    : { lines: settings.readLines, chars: settings.readChars };
  let view;
  try {
    view = await viewFile(path, text, thresholds, opts.outline === true);
  } catch (e) {
    warn((e as Error).message);
    return { text, archiveId: null };
  }
  if (!view) return { text, archiveId: null };
  const shown = opts.outline ? view.body : renderView(view);
  const sent = await deliver(archiveKeeper(b, false), bytes, {
    lossy: true,
    text: (id) => shown + pointerLine(view.cut, id) + "\n",
  }, { command, cwd: Deno.cwd(), exitCode: 0, family: "read" });
  // Without the archive nothing is cut: the file whole.
  return sent.whole ? { text, archiveId: null } : { text: sent.text, archiveId: sent.archiveId };
}
