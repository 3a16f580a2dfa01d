/**
 * `rtok where NAME`, `rtok refs NAME` and `rtok symbols FILE|DIR`: the project's symbol index
 * (the `graph` plugin), brought up to date by file mtime and size, then asked.
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { GraphQuestion } from "../plugins/graph/answer.ts";
import { boot } from "./_boot.ts";
import { askIndex } from "./_graph_ask.ts";
import { print, warn } from "./_io.ts";

/** `rtok where --help` (and refs, symbols). */
export const GRAPH_HELP = `rtok where | refs | symbols: the project's symbol index

Usage: rtok where NAME [--format text|json]
       rtok refs NAME [--format text|json]
       rtok symbols FILE|DIR [--format text|json]

  where NAME      each definition of NAME: kind, qualified name, file:first-last line
                  (Parser.parse or Stack::push asks for one scope's NAME)
  refs NAME       each file that uses NAME, with the lines it is used on
  symbols PATH    every definition in a file, or in each file under a directory
  --format        text (default) or json

The project is the git work tree around the current directory (else the directory); its
TypeScript, JavaScript, Python, Go, Rust and Java files are indexed (in git, those git lists:
what .gitignore ignores is left out). Each command first re-reads the files whose mtime or
size changed and drops the deleted ones. An unknown name gets the closest defined names and
exit code 1. A file no grammar can read is indexed by nothing and named in
rtok gain --failures.
`;

/** Runs `rtok where|refs|symbols`, named by the first argument; 0 found, 1 nothing found. */
export async function main(args: readonly string[]): Promise<number> {
  const [word, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: [...rest],
    options: {
      format: { type: "string", default: "text" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    await print(GRAPH_HELP);
    return 0;
  }
  const format = values.format;
  if (format !== "text" && format !== "json") {
    throw new TypeError(`--format "${format}": expected text or json`);
  }
  const what = word === "symbols" ? "FILE|DIR" : "NAME";
  if (positionals.length !== 1 || positionals[0] === "") {
    throw new TypeError(`expected one ${what}: rtok ${word} ${what} (see rtok ${word} --help)`);
  }
  const arg = positionals[0];
  const q: GraphQuestion = word === "symbols"
    ? { kind: "symbols", path: arg }
    : { kind: word === "refs" ? "refs" : "where", name: arg };
  const answer = await askIndex(await boot(), q, {
    cwd: Deno.cwd(),
    surface: "cli",
    command: ["rtok", word, ...rest].join(" "),
  });
  const u = answer.update;
  if (u.ms >= 1000) {
    warn(`symbol index of ${u.root}: read ${u.parsed} files in ${(u.ms / 1000).toFixed(1)} s`);
  }
  await print(format === "json" ? JSON.stringify(answer.data, null, 2) + "\n" : answer.text);
  return answer.found ? 0 : 1;
}
