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
