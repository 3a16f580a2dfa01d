/**
 * Reading a command's numeric flags, with the one-line error every surface gives.
 *
 * @module
 */

/**
 * `text` as a whole number from `min` to `max`; otherwise a `TypeError` naming `flag`, like
 * `--limit "0": expected a whole number ≥ 1`.
 */
export function wholeNumber(
  flag: string,
  text: string,
  min: number,
  max: number = Number.MAX_SAFE_INTEGER,
): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new TypeError(`${flag} "${text}": expected a whole number ${range}`);
  }
  return n;
}
