/**
 * Running a user's or a project's filter in a Worker with a time limit: on timeout the Worker
 * is terminated and the call rejects with `Deno.errors.TimedOut`, so the runner can send the
 * raw output and record a failure. Built-in filters do not need this (their patterns are
 * checked for nested repetition by a test) and run inline.
 *
 * A Worker takes tens of milliseconds to start, and `new Worker` holds the main thread while
 * it does. So a filter chosen for a run starts its Workers on the first turn of the event loop
 * after the run is planned, which is when the tool has started and runs alongside; `release()`
 * ends any the run did not use.
 *
 * @module
 */

import type { Filtered, FilterInput } from "../../../core/filter.ts";
import { compileFilter, type TomlFilter } from "./engine.ts";
import type { FilterDef } from "./spec.ts";
import type { Verified } from "./verify.ts";
import type { Job } from "./worker.ts";

// How long a Worker may take to start before the job counts as failed: start-up is not the
// filter's fault, so it is not charged to the filter's limit, but it must not hang either.
const BOOT_LIMIT_MS = 10_000;

// Calls `fn` after `ms`, unless the returned function is called first. Built on
// `AbortSignal.timeout`, not `setTimeout`: Deno loads its timers on the first `setTimeout` of a
// process, which costs a run some 20 ms; the signal's timer is ready and does not keep the
// process alive either.
function _after(ms: number, fn: () => void): () => void {
  let live = true;
  AbortSignal.timeout(ms).addEventListener("abort", () => {
    if (live) fn();
  });
  return () => {
    live = false;
  };
}

/** A filter from a file, run in a Worker started ahead of time. */
export interface IsolatedFilter extends TomlFilter {
  /** Terminates the Workers started ahead that no call used. */
  release(): void;
}

/**
 * `def` compiled, with `filterWithin` running it in a Worker. One Worker starts on the next
 * turn of the event loop (two when the filter reads stderr too); call `release()` when the run
 * is over.
 */
export function isolate(def: FilterDef): IsolatedFilter {
  const warm: _Spawned[] = [];
  const cancel = _after(0, () => {
    for (let n = def.stderr ? 2 : 1; n > 0; n--) warm.push(_spawn());
  });
  return {
    ...compileFilter(def),
    filterWithin: (raw: string, input: FilterInput, limitMs: number) =>
      _run<Filtered>(
        warm.shift() ?? _spawn(),
        { kind: "filter", def, raw, input },
        limitMs,
        `filter "${def.name}"`,
      ),
    release: () => {
      cancel();
      for (const w of warm.splice(0)) w.worker.terminate();
    },
  };
}

/** Runs the embedded tests of `defs` in a Worker, all within `limitMs`. */
export function verifyInWorker(defs: readonly FilterDef[], limitMs: number): Promise<Verified> {
  return _run<Verified>(_spawn(), { kind: "verify", defs }, limitMs, "the tests");
}

interface _Spawned {
  readonly worker: Worker;
  // An error the Worker raised before a job was waiting on it.
  failed: Error | null;
  onFail: ((e: Error) => void) | null;
}

function _spawn(): _Spawned {
  const s: _Spawned = {
    worker: new Worker(new URL("./worker.ts", import.meta.url), { type: "module" }),
    failed: null,
    onFail: null,
  };
  s.worker.onerror = (e: ErrorEvent) => {
    // Handled here: left alone, an error in the Worker would end the whole process.
    e.preventDefault();
    const error = new Error(e.message);
    s.failed = error;
    s.onFail?.(error);
  };
  return s;
}

function _run<T>(s: _Spawned, job: Job, limitMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let cancel = _after(BOOT_LIMIT_MS, () => finish(new Error("the filter Worker did not start")));
    const finish = (error: Error | null, result?: T) => {
      cancel();
      s.worker.terminate();
      if (error) reject(error);
      else resolve(result as T);
    };
    if (s.failed) return finish(s.failed);
    s.onFail = finish;
    s.worker.onmessage = (e: MessageEvent) => {
      const m = e.data as { kind: string; result?: T; message?: string };
      if (m.kind === "started") {
        // The limit runs from when the Worker has the job, not from its start-up.
        cancel();
        cancel = _after(limitMs, () => {
          finish(new Deno.errors.TimedOut(`${what} took longer than ${limitMs} ms`));
        });
      } else if (m.kind === "done") {
        finish(null, m.result);
      } else {
        finish(new Error(m.message ?? "the filter failed"));
      }
    };
    s.worker.postMessage(job);
  });
}
