/**
 * The version a test keeps equal to deno.json's, and how `rtok --help` is laid out. What it
 * lists is read from the command table (`./mod.ts`) and the family table, never kept here.
 *
 * @module
 */

/** rtok's version. */
export const VERSION = "0.1.0";

/** One line of the command list: what follows `rtok`, and what it does. */
export type HelpLine = readonly [usage: string, text: string];

// The column the text starts at, and the width it wraps in.
const _COLUMN = 27;
const _WIDTH = 80;

/** `rtok --help`: `commands` in the given order, then `families`, whose output rtok filters. */
export function renderHelp(commands: readonly HelpLine[], families: readonly string[]): string {
  const lines = [
    `rtok ${VERSION}: cut the tokens coding agents spend on tool output`,
    "",
    "Usage:",
  ];
  for (const [usage, text] of commands) {
    const head = `  rtok ${usage}`;
    const body = _wrap(text.split(" "), _WIDTH - _COLUMN);
    const first = head.length < _COLUMN - 1 ? head.padEnd(_COLUMN) + body.shift() : head;
    lines.push(first, ...body.map((l) => " ".repeat(_COLUMN) + l));
  }
  lines.push("  rtok --version", "");
  // A family's name is one item: a line breaks after a comma, never inside `git log`.
  const items = [...families].sort().map((f, i, all) => i < all.length - 1 ? `${f},` : `${f}.`);
  lines.push(..._wrap(["Filtered (rtok filters list says how):", ...items], _WIDTH), "");
  lines.push(
    ..._wrap(
      ("Every other command runs unchanged, recorded as a passthrough. The tool's stdin, " +
        "stderr and exit code are its own; what a filter cut is kept in the archive " +
        "($RTOK_HOME/archive, default ~/.rtok) and named on the output's last line.").split(" "),
      _WIDTH,
    ),
  );
  return lines.join("\n") + "\n";
}

// `words` in lines of at most `width` chars, a space between two (a longer word stands alone).
function _wrap(words: readonly string[], width: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}
