import { deepEqual, equal, ok } from "node:assert/strict";
import { type LedgerSinks, LedgerWriter } from "./ledger_writer.ts";
import type { ProxyRow } from "./server.ts";

function row(ts: number): ProxyRow {
  return {
    ts,
    provider: "anthropic",
    route: "messages",
    status: 200,
    streamed: false,
    latencyMs: 1,
    durationMs: 1,
    usage: { model: "m", input: 1, output: 1, cacheWrite: null, cacheRead: null },
    resultsSeen: 0,
    charsSeen: 0,
    charsSaved: 0,
    results: [],
    note: null,
    style: null,
  };
}

// Sinks that fail while told to, and keep what each took.
function sinks() {
  const s = {
    ledger: [] as number[],
    spooled: [] as number[],
    lines: [] as string[],
    ledgerDown: false,
    spoolDown: false,
    drains: 0,
  };
  const api: LedgerSinks = {
    write(rows) {
      if (s.ledgerDown) throw new Error("database is locked");
      s.ledger.push(...rows.map((r) => r.ts));
    },
    spool(rows) {
      if (s.spoolDown) throw new Error("read-only file system");
      s.spooled.push(...rows.map((r) => r.ts));
    },
    drain() {
      if (s.ledgerDown) throw new Error("database is locked");
      s.drains++;
      s.ledger.push(...s.spooled.splice(0));
    },
    warn: (line) => s.lines.push(line),
  };
  return { s, api };
}

Deno.test("LedgerWriter.flush() writes a batch, spools what the ledger refuses, drains it later", () => {
  const { s, api } = sinks();
  const w = new LedgerWriter(api, { flushMs: 60_000 });
  w.add(row(1));
  w.add(row(2));
  w.flush();
  deepEqual(s.ledger, [1, 2]);
  s.ledgerDown = true;
  w.add(row(3));
  w.flush();
  w.add(row(4));
  w.flush();
  deepEqual(s.spooled, [3, 4]);
  equal(s.lines.length, 1, "one line for a failing ledger, not one per batch");
  s.ledgerDown = false;
  w.add(row(5));
  w.flush();
  deepEqual(s.ledger.toSorted(), [1, 2, 3, 4, 5], "the spooled rows drained with the next batch");
  equal(s.drains, 1);
  deepEqual(w.stats(), { written: 3, spooled: 2, held: 0, dropped: 0 });
});

Deno.test("LedgerWriter holds rows neither sink takes, and writes them once one does", () => {
  const { s, api } = sinks();
  const w = new LedgerWriter(api, { flushMs: 60_000, retryMs: 60_000, maxHeld: 3 });
  s.ledgerDown = true;
  s.spoolDown = true;
  for (let i = 1; i <= 4; i++) w.add(row(i));
  w.flush();
  equal(w.stats().held, 3);
  equal(w.stats().dropped, 1, "past maxHeld the oldest go, and it is said");
  ok(s.lines.some((l) => /dropped 1 request rows/.test(l)));
  s.ledgerDown = false;
  s.spoolDown = false;
  w.close();
  deepEqual(s.ledger, [2, 3, 4]);
  equal(w.stats().held, 0);
});
