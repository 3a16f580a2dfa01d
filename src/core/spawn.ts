/**
 * Starting and reading child processes, in one place for every surface that runs one (`rtok
 * <tool>`, the MCP runner, `rtok doctor`'s hook probe): a failed start reads as the shell's own
 * exit codes, output is held only up to a cap, a process group is killed whole, and a time
 * limit is enforced.
 *
 * @module
 */

import { envVar } from "./env.ts";
import { joinPath } from "./paths.ts";
import { onPath } from "./self.ts";

/** Exit code of a command that could not be found, as a POSIX shell gives it. */
export const NOT_FOUND_EXIT = 127;
/** Exit code of a command that was found but could not be run, as a POSIX shell gives it. */
export const CANNOT_RUN_EXIT = 126;

/** How to start a process. */
export interface StartOptions {
  /** Its working directory (the current one when absent). */
  readonly cwd?: string;
  /** Its stdin. */
  readonly stdin: "inherit" | "null" | "piped";
  /** Its stdout. */
  readonly stdout: "inherit" | "piped" | "null";
  /** Its stderr. */
  readonly stderr: "inherit" | "piped" | "null";
  /**
   * True to start it as the leader of a new process group (through `setsid`, where Linux has
   * it), so {@linkcode Started.kill} reaches every process it starts too.
   */
  readonly group?: boolean;
}

/** A process that started, or why it did not. */
export type Started =
  | {
    /** It runs. */
    readonly ok: true;
    /** The child. */
    readonly child: Deno.ChildProcess;
    /** Sends `signal` to it (to its whole group when it leads one); a gone process is fine. */
    kill(signal: Deno.Signal): void;
  }
  | {
    /** It did not start. */
    readonly ok: false;
    /** The exit code a shell gives such a command: 127 not found, 126 cannot run. */
    readonly code: number;
    /** One line: what could not start, and why. */
    readonly message: string;
  };

// setsid's path, looked up once; null where there is none (or not Linux).
let _setsid: string | null | undefined;

function _setsidPath(): string | null {
  if (_setsid === undefined) {
    const dir = Deno.build.os === "linux"
      ? onPath("setsid", envVar("PATH") ?? "/usr/bin:/bin")
      : null;
    _setsid = dir === null ? null : joinPath(dir, "setsid");
  }
  return _setsid;
}

/** Starts `cmd` with `args`; never throws. */
export function startProcess(
  cmd: string,
  args: readonly string[],
  opts: StartOptions,
): Started {
  const setsid = opts.group ? _setsidPath() : null;
  try {
    const child = new Deno.Command(setsid ?? cmd, {
      args: setsid ? [cmd, ...args] : [...args],
      cwd: opts.cwd,
      stdin: opts.stdin,
      stdout: opts.stdout,
      stderr: opts.stderr,
    }).spawn();
    const kill = (signal: Deno.Signal) => {
      try {
        if (setsid) Deno.kill(-child.pid, signal);
        else child.kill(signal);
      } catch { /* already gone */ }
    };
    return { ok: true, child, kill };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return { ok: false, code: NOT_FOUND_EXIT, message: `${cmd}: command not found` };
    }
    return {
      ok: false,
      code: CANNOT_RUN_EXIT,
      message: `${cmd}: cannot run: ${(e as Error).message}`,
    };
  }
}

/** What {@linkcode readCapped} read. */
export interface CappedRead {
  /** The bytes held: the whole stream, or its first `cap` bytes; empty once spilled. */
  readonly held: Uint8Array;
  /** Every byte the stream carried. */
  readonly bytes: number;
  /** True when the stream passed the cap and went to `spill` from then on. */
  readonly spilled: boolean;
  /** Bytes past the cap that were neither held nor spilled (no `spill` was given). */
  readonly dropped: number;
}

/** How {@linkcode readCapped} reads. */
export interface CapOptions {
  /** Bytes held at most; negative holds none. */
  readonly cap: number;
  /** Where the stream goes once it passes the cap; without it, the rest is counted. */
  readonly spill?: (bytes: Uint8Array) => Promise<void>;
  /** Stops the read (what arrived is kept) when aborted. */
  readonly signal?: AbortSignal;
}

/**
 * Reads `stream` to its end, holding at most `opts.cap` bytes. Past the cap, with a `spill`,
 * everything held and everything after goes to it; without one, the rest is counted as
 * dropped. Memory stays bounded whatever the size. A stream that errors, or a read that is
 * aborted, ends with what arrived.
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array> | null,
  opts: CapOptions,
): Promise<CappedRead> {
  if (stream === null) return { held: new Uint8Array(), bytes: 0, spilled: false, dropped: 0 };
  const { cap, spill, signal } = opts;
  let held: Uint8Array[] = [];
  let size = 0;
  let bytes = 0;
  let dropped = 0;
  let spilled = cap < 0 && spill !== undefined;
  // A reader loop, not `for await`: the async iterator costs a millisecond per run.
  const reader = stream.getReader();
  const stop = () => reader.cancel().catch(() => {});
  if (signal?.aborted) stop();
  signal?.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      const { value: chunk, done } = await reader.read();
      if (done) break;
      bytes += chunk.byteLength;
      if (spilled) {
        await spill!(chunk);
      } else if (size + chunk.byteLength <= cap) {
        held.push(chunk);
        size += chunk.byteLength;
      } else if (spill) {
        spilled = true;
        for (const c of held) await spill(c);
        await spill(chunk);
        held = [];
        size = 0;
      } else {
        dropped += chunk.byteLength;
      }
    }
  } catch { /* cancelled or broken: what arrived is what there is */ }
  signal?.removeEventListener("abort", stop);
  return { held: concatBytes(held, size), bytes, spilled, dropped };
}

/** `chunks` as one array (the chunk itself when there is one). */
export function concatBytes(chunks: readonly Uint8Array[], size?: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const all = new Uint8Array(size ?? chunks.reduce((n, c) => n + c.byteLength, 0));
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.byteLength;
  }
  return all;
}

/** How {@linkcode runCaptured} runs a command. */
export interface CaptureOptions {
  /** The working directory. */
  readonly cwd?: string;
  /** Bytes written to its stdin, which is then closed; without, stdin is empty. */
  readonly input?: Uint8Array;
  /** After this long it is sent SIGTERM (to its whole group). */
  readonly timeoutMs: number;
  /** After SIGTERM, this long until SIGKILL (0: SIGKILL at once). Default 2000. */
  readonly killAfterMs?: number;
  /** Bytes kept of each stream; the rest is counted. */
  readonly holdBytes: number;
  /**
   * Once it has exited, how long to go on reading pipes that a process it left behind still
   * holds open. Default: until they close (or the kill).
   */
  readonly readAfterExitMs?: number;
}

/** How a captured run ended. */
export interface Captured {
  /** False when it never started; `code` is then 127 or 126 and `stderr` says why. */
  readonly started: boolean;
  /** Its exit code (128 + n for a signal, as Deno reports it). */
  readonly code: number;
  /** The signal that ended it, if one did. */
  readonly signal: Deno.Signal | null;
  /** What it printed on stdout, up to the hold limit. */
  readonly stdout: Uint8Array;
  /** What it printed on stderr, up to the hold limit (or why it did not start). */
  readonly stderr: Uint8Array;
  /** Bytes of stdout and of stderr past the hold limit. */
  readonly dropped: readonly [number, number];
  /** True when the time limit ended it. */
  readonly timedOut: boolean;
}

/**
 * Runs `argv` in its own process group with piped output, holding at most `holdBytes` of
 * each stream, killing the whole group after `timeoutMs`. Never throws.
 */
export async function runCaptured(
  argv: readonly string[],
  opts: CaptureOptions,
): Promise<Captured> {
  const [cmd, ...args] = argv;
  const started = startProcess(cmd, args, {
    cwd: opts.cwd,
    stdin: opts.input ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    group: true,
  });
  if (!started.ok) {
    return {
      started: false,
      code: started.code,
      signal: null,
      stdout: new Uint8Array(),
      stderr: new TextEncoder().encode(started.message),
      dropped: [0, 0],
      timedOut: false,
    };
  }
  const { child, kill } = started;
  const stop = new AbortController();
  const cancelReads = () => stop.abort();
  let timedOut = false;
  let hard: ReturnType<typeof setTimeout> | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    const killAfter = opts.killAfterMs ?? 2000;
    if (killAfter <= 0) {
      kill("SIGKILL");
      cancelReads();
      return;
    }
    kill("SIGTERM");
    hard = setTimeout(() => {
      kill("SIGKILL");
      // A process outside the group may still hold a pipe open: stop reading it.
      cancelReads();
    }, killAfter);
  }, opts.timeoutMs);
  const reading = Promise.all(
    [child.stdout, child.stderr].map((s) =>
      readCapped(s, { cap: opts.holdBytes, signal: stop.signal })
    ),
  );
  if (opts.input) {
    try {
      const w = child.stdin.getWriter();
      await w.write(opts.input);
      await w.close();
    } catch { /* it may exit without reading its input; its exit code tells the rest */ }
  }
  const status = await child.status;
  let late: ReturnType<typeof setTimeout> | undefined;
  if (opts.readAfterExitMs !== undefined) {
    late = setTimeout(cancelReads, opts.readAfterExitMs);
  }
  const [out, err] = await reading;
  clearTimeout(timer);
  if (hard !== undefined) clearTimeout(hard);
  if (late !== undefined) clearTimeout(late);
  return {
    started: true,
    code: status.code,
    signal: status.signal,
    stdout: out.held,
    stderr: err.held,
    dropped: [out.dropped, err.dropped],
    timedOut,
  };
}
