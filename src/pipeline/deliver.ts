/**
 * The last stage of the run pipeline: an output that cuts keeps its raw bytes in the archive
 * first, and names them on its pointer line; an output whose raw bytes cannot be kept goes out
 * whole. This module is the one place that rule is checked. It also builds the ledger row every
 * path records.
 *
 * @module
 */

import type { ArchiveService, Measurement, RawMeta } from "../core/plugin.ts";

/** The passthrough reason of an output that would have cut but could not be archived. */
export const UNARCHIVED = "the raw output could not be archived";

/** What keeps raw bytes: the context's archive (`Ctx.archive`), or a surface's wrapper of it. */
export type Keeper = Pick<ArchiveService, "keep">;

/** What an output became, before the archive id is known. */
export interface Cut {
  /** True when something was cut: the raw bytes must be kept before the text goes out. */
  readonly lossy: boolean;
  /** The text to send, its pointer line (when lossy) naming archive id `id`. */
  text(id: string): string;
}

/** What goes out: the cut text and where its raw bytes are, or the raw output whole. */
export type Delivered =
  | { readonly whole: false; readonly text: string; readonly archiveId: string | null }
  | { readonly whole: true; readonly passthrough: typeof UNARCHIVED };

/**
 * `cut` as it may go out: a lossless cut as it is; a lossy one only once `raw` is kept by
 * `keeper` (its id on the pointer line), else the raw output whole. Nothing is cut unless
 * archived.
 */
export async function deliver(
  keeper: Keeper,
  raw: Uint8Array | string,
  cut: Cut,
  meta: RawMeta,
): Promise<Delivered> {
  if (!cut.lossy) return { whole: false, text: cut.text(""), archiveId: null };
  const bytes = typeof raw === "string" ? new TextEncoder().encode(raw) : raw;
  const id = await keeper.keep(bytes, meta);
  if (id === null) return { whole: true, passthrough: UNARCHIVED };
  return { whole: false, text: cut.text(id), archiveId: id };
}

/** A ledger row's fields, those most runs leave at their defaults optional. */
export type RowFields =
  & Omit<
    Measurement,
    "session" | "turn" | "stage" | "lossy" | "archiveId" | "passthrough" | "elapsedMs"
  >
  & Partial<Pick<Measurement, "session" | "turn" | "stage" | "lossy" | "archiveId" | "passthrough">>
  & {
    /** When the work began (`performance.now()`), for the row's elapsed time. */
    readonly started: number;
  };

/**
 * The ledger row of a run that began at `started`: no session or turn, nothing cut, no stage,
 * unless `fields` says otherwise.
 */
export function ledgerRow(fields: RowFields): Measurement {
  const { started, ...rest } = fields;
  return {
    session: null,
    turn: null,
    stage: "none",
    lossy: false,
    archiveId: null,
    passthrough: null,
    ...rest,
    elapsedMs: performance.now() - started,
  };
}
