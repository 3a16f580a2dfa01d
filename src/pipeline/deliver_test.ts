import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { RawMeta } from "../core/plugin.ts";
import { deliver, type Keeper, ledgerRow, UNARCHIVED } from "./deliver.ts";

const META: RawMeta = { command: "git log", cwd: "/p", exitCode: 0, family: "git log" };

// A keeper that records what it was handed and answers `id`.
function _keeper(id: string | null): Keeper & { kept: Uint8Array[] } {
  const kept: Uint8Array[] = [];
  return {
    kept,
    keep(raw: Uint8Array) {
      kept.push(raw);
      return Promise.resolve(id);
    },
  };
}

Deno.test("deliver() sends a lossless cut without keeping anything", async () => {
  const keeper = _keeper("abc123abc123");
  const sent = await deliver(
    keeper,
    "raw text",
    { lossy: false, text: (id) => `short${id}` },
    META,
  );
  deepStrictEqual(sent, { whole: false, text: "short", archiveId: null });
  strictEqual(keeper.kept.length, 0);
});

Deno.test("deliver() keeps the raw bytes of a lossy cut and names their id", async () => {
  const keeper = _keeper("abc123abc123");
  const sent = await deliver(
    keeper,
    "raw text",
    { lossy: true, text: (id) => `cut [${id}]` },
    META,
  );
  deepStrictEqual(sent, { whole: false, text: "cut [abc123abc123]", archiveId: "abc123abc123" });
  deepStrictEqual(keeper.kept, [new TextEncoder().encode("raw text")]);
});

Deno.test("deliver() sends the output whole when its raw bytes cannot be kept", async () => {
  const sent = await deliver(_keeper(null), new Uint8Array([1, 2]), {
    lossy: true,
    text: () => "cut",
  }, META);
  deepStrictEqual(sent, { whole: true, passthrough: UNARCHIVED });
});

Deno.test("ledgerRow() fills what a run leaves unsaid and times the run", () => {
  const m = ledgerRow({
    surface: "cli",
    plugin: "cmd",
    family: "ls",
    command: "ls",
    rtokCommand: "rtok ls",
    project: "/p",
    rawChars: 10,
    emittedChars: 4,
    textClass: "log",
    exitCode: 0,
    lossy: true,
    started: performance.now() - 50,
  });
  strictEqual(m.session, null);
  strictEqual(m.turn, null);
  strictEqual(m.stage, "none");
  strictEqual(m.lossy, true);
  strictEqual(m.archiveId, null);
  strictEqual(m.passthrough, null);
  ok(m.elapsedMs >= 50, String(m.elapsedMs));
  ok(!("started" in m));
});
