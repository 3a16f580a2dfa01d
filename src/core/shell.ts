/**
 * Shell words: quoting an argv back into a command line a POSIX shell reads the same way.
 *
 * @module
 */

/** One word, single-quoted only when the shell would otherwise read it differently. */
export function quoteWord(word: string): string {
  if (word !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** An argv as one command line. */
export function quoteArgv(argv: readonly string[]): string {
  return argv.map(quoteWord).join(" ");
}

// One word: single-quoted, double-quoted with nothing that expands, or bare without shell syntax.
const _CAT = /^\s*cat\s+(?:'([^']+)'|"([^"$`\\]+)"|([^\s'"$`\\;&|<>()*?[\]{}~]+))\s*$/;

/**
 * The one operand of a command line that is `cat` of one plain word (quoted or not, not an
 * option), or `null` for any other line: it is then not a read of one file.
 */
export function catOperand(line: string): string | null {
  const m = _CAT.exec(line);
  const word = m ? m[1] ?? m[2] ?? m[3] : null;
  return word === null || word.startsWith("-") ? null : word;
}
