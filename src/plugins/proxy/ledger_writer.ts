/**
 * The proxy's rows on their way to the ledger: batched off the request path, and never lost
 * to a ledger that cannot be written. A batch the store refuses (locked, read-only, full) goes
 * to the spool, drained into the ledger by the next batch that is written; a batch the spool
 * refuses too is held in memory and tried again. No request ever waits on any of it.
 *
 * @module
 */

import type { ProxyRow } from "./row.ts";

/** Where rows can go, each throwing when it cannot take them. */
export interface LedgerSinks {
  /** Writes rows to the ledger in one transaction. */
  write(rows: readonly ProxyRow[]): void;
  /** Appends rows to the spool. */
  spool(rows: readonly ProxyRow[]): void;
  /** Moves the spool into the ledger. */
  drain(): void;
  /** One line on stderr. */
  warn(line: string): void;
}

/** What the writer has done since it started. */
export interface LedgerWriterStats {
  /** Rows written to the ledger. */
  readonly written: number;
  /** Rows sent to the spool. */
  readonly spooled: number;
  /** Rows waiting in memory now. */
  readonly held: number;
  /** Rows dropped because more than `maxHeld` waited (neither ledger nor spool could take them). */
  readonly dropped: number;
}

/** Timing and bounds; the defaults suit a gateway. */
export interface LedgerWriterOptions {
  /** How long a finished request's row may wait to be written with others. */
  readonly flushMs?: number;
  /** How long to wait before trying again when neither the ledger nor the spool took a batch. */
  readonly retryMs?: number;
  /** Rows held in memory at most; the oldest go past it. */
  readonly maxHeld?: number;
}

/** Batches rows to the ledger, falling back to the spool, then to memory. */
export class LedgerWriter {
  readonly #sinks: LedgerSinks;
  readonly #flushMs: number;
  readonly #retryMs: number;
  readonly #maxHeld: number;
  readonly #pending: ProxyRow[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #written = 0;
  #spooled = 0;
  #dropped = 0;
  // Rows spooled since the last drain: the next written batch drains them.
  #inSpool = 0;
  // The last failure said, so a failing disk costs one line, not one per batch.
  #said = "";

  /** A writer into `sinks`. */
  constructor(sinks: LedgerSinks, options: LedgerWriterOptions = {}) {
    this.#sinks = sinks;
    this.#flushMs = options.flushMs ?? 100;
    this.#retryMs = options.retryMs ?? 1000;
    this.#maxHeld = options.maxHeld ?? 100_000;
  }

  /** Keeps a finished request's row; never throws. */
  add(row: ProxyRow): void {
    this.#pending.push(row);
    if (this.#pending.length > this.#maxHeld) {
      const over = this.#pending.length - this.#maxHeld;
      this.#pending.splice(0, over);
      this.#dropped += over;
      this.#say(`dropped ${over} request rows: neither the ledger nor the spool takes them`);
    }
    this.#timer ??= setTimeout(() => this.flush(), this.#flushMs);
  }

  /** Writes what is pending now: to the ledger, else the spool, else it stays held. */
  flush(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const rows = this.#pending.splice(0);
    if (rows.length === 0) return this.#drainIfSpooled();
    try {
      this.#sinks.write(rows);
      this.#written += rows.length;
      if (this.#said) this.#sinks.warn("the ledger takes rows again");
      this.#said = "";
      this.#drainIfSpooled();
      return;
    } catch (e) {
      this.#say(`the ledger refused ${rows.length} rows (${(e as Error).message}); spooling them`);
    }
    try {
      this.#sinks.spool(rows);
      this.#spooled += rows.length;
      this.#inSpool += rows.length;
    } catch (e) {
      this.#say(`the spool refused them too (${(e as Error).message}); holding them in memory`);
      this.#pending.unshift(...rows);
      this.#timer = setTimeout(() => this.flush(), this.#retryMs);
    }
  }

  /** Writes everything pending and drains the spool; for the end of the process. */
  close(): void {
    this.flush();
    this.#drainIfSpooled();
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#pending.length > 0) {
      this.#sinks.warn(
        `${this.#pending.length} request rows could not be written to the ledger or the spool`,
      );
    }
  }

  /** What it has done. */
  stats(): LedgerWriterStats {
    return {
      written: this.#written,
      spooled: this.#spooled,
      held: this.#pending.length,
      dropped: this.#dropped,
    };
  }

  #drainIfSpooled(): void {
    if (this.#inSpool === 0) return;
    try {
      this.#sinks.drain();
      this.#inSpool = 0;
    } catch { /* still spooled: the next written batch, or any rtok gain, drains it */ }
  }

  #say(line: string): void {
    const kind = line.replace(/\d+/g, "N");
    if (kind === this.#said) return;
    this.#said = kind;
    this.#sinks.warn(line);
  }
}
