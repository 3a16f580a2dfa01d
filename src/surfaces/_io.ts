/**
 * Writing to stdout the way a pipeline expects: every byte, and quietly nothing more once the
 * reader has gone away (`rtok git log | head -3`).
 *
 * @module
 */

let closed = false;

/** Writes all of `bytes` to stdout; after a broken pipe, further output is dropped. */
export async function writeStdout(bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (!closed && off < bytes.byteLength) {
    try {
      off += await Deno.stdout.write(bytes.subarray(off));
    } catch (e) {
      if (!(e instanceof Deno.errors.BrokenPipe)) throw e;
      closed = true;
    }
  }
}

let stderrClosed = false;

/** Writes all of `bytes` to stderr (a tool's filtered stderr); after a broken pipe, nothing. */
export async function writeStderr(bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (!stderrClosed && off < bytes.byteLength) {
    try {
      off += await Deno.stderr.write(bytes.subarray(off));
    } catch (e) {
      if (!(e instanceof Deno.errors.BrokenPipe)) throw e;
      stderrClosed = true;
    }
  }
}

/** Prints one `rtok: …` line on stderr. */
export function warn(message: string): void {
  try {
    Deno.stderr.writeSync(new TextEncoder().encode(`rtok: ${message}\n`));
  } catch { /* stderr closed: nothing left to tell */ }
}

/** Writes `text` to stdout as UTF-8. */
export function print(text: string): Promise<void> {
  return writeStdout(new TextEncoder().encode(text));
}
