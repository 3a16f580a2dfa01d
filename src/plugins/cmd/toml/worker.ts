/**
 * The Worker that runs a user's or a project's filter, so the main thread can abandon it: a
 * regular expression cannot be interrupted inside the thread that runs it. It loads the
 * engine only (no TOML parser): the definition arrives already parsed.
 *
 * Messages in: `{ kind: "filter", def, raw, input }` or `{ kind: "verify", defs }`. Out:
 * `{ kind: "started" }` as soon as a job arrives (the time limit runs from there), then
 * `{ kind: "done", result }` or `{ kind: "error", message }`.
 *
 * @module
 */

import type { FilterInput } from "../../../core/filter.ts";
import { compileFilter } from "./engine.ts";
import type { FilterDef } from "./spec.ts";

/** A job for the worker. */
export type Job =
  | {
    readonly kind: "filter";
    readonly def: FilterDef;
    readonly raw: string;
    readonly input: FilterInput;
  }
  | { readonly kind: "verify"; readonly defs: readonly FilterDef[] };

// The worker's global scope, typed for what this module uses of it.
const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<Job>) => void | Promise<void>) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (e) => {
  scope.postMessage({ kind: "started" });
  try {
    const job = e.data;
    // The test runner loads only for `rtok filters verify`, off a run's path.
    const result = job.kind === "filter"
      ? compileFilter(job.def).filter(job.raw, job.input)
      : (await import("./verify.ts")).verifyDefs(job.defs);
    scope.postMessage({ kind: "done", result });
  } catch (err) {
    scope.postMessage({ kind: "error", message: (err as Error)?.message ?? String(err) });
  }
};
