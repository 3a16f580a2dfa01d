import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { defaultConfig } from "../core/config.ts";
import type { CommandFilter } from "../core/filter.ts";
import type { FailureRecord, Measurement, Plugin } from "../core/plugin.ts";
import { makeCtx, Registry } from "../core/registry.ts";
import { UNARCHIVED } from "./deliver.ts";
import type { Plan } from "./plan.ts";
import { filterAndWrite, recordRun, type RunEnv, type RunSink } from "./run.ts";

const RAW = Array.from({ length: 60 }, (_, i) => `line ${i + 1} of the output`).join("\n") + "\n";

// Keeps the first three lines and says the rest was cut.
const HEAD: CommandFilter = {
  name: "tool",
  textClass: "log",
  filter: (raw) => ({
    text: raw.split("\n").slice(0, 3).join("\n") + "\n",
    cut: [`${raw.split("\n").length - 4} lines`],
  }),
};

const THROWS: CommandFilter = {
  ...HEAD,
  filter: () => {
    throw new RangeError("broken on purpose");
  },
};

function _plan(filter: CommandFilter): Plan {
  return {
    filter,
    plugin: "cmd",
    filterArgs: [],
    runArgs: [],
    shaped: false,
    passthrough: null,
    family: filter.name,
  };
}

// An env whose ledger plugin keeps rows and failures, whose archive answers `id`.
function _env(id: string | null) {
  const rows: Measurement[] = [], failures: FailureRecord[] = [];
  const ledger: Plugin = {
    manifest: { id: "measure", surfaces: ["cli"], defaultOn: true, description: "Test ledger." },
    onMeasurement: (m) => void rows.push(m),
    onFailure: (f) => void failures.push(f),
  };
  const config = defaultConfig();
  const registry = new Registry([ledger], config);
  const env: RunEnv = {
    registry,
    home: null,
    config,
    ctx: makeCtx(registry, { config, store: null, home: "" }),
    keeper: { keep: () => Promise.resolve(id) },
    warn: () => {},
    reportErrors: () => {},
  };
  return { env, rows, failures };
}

function _sink() {
  const out: string[] = [], err: string[] = [];
  const sink: RunSink = {
    surface: "mcp",
    cwd: "/p",
    stdout: (b) => Promise.resolve(void out.push(new TextDecoder().decode(b))),
    stderr: (b) => Promise.resolve(void err.push(new TextDecoder().decode(b))),
  };
  return { sink, out, err };
}

const BYTES = new TextEncoder().encode(RAW);

Deno.test("filterAndWrite() prints the cut with its pointer once the raw output is archived", async () => {
  const { env } = _env("abc123abc123");
  const { sink, out } = _sink();
  const w = await filterAndWrite(env, ["tool"], _plan(HEAD), BYTES, 0, null, sink);
  match(out.join(""), /^line 1 of the output\n[\s\S]*rtok expand abc123abc123/);
  deepStrictEqual([w.lossy, w.archiveId, w.stage, w.rawChars], [
    true,
    "abc123abc123",
    "filter",
    RAW.length,
  ]);
  strictEqual(w.emitted, out.join("").length);
});

Deno.test("filterAndWrite() prints the raw output whole when it cannot be archived", async () => {
  const { env } = _env(null);
  const { sink, out } = _sink();
  const w = await filterAndWrite(env, ["tool"], _plan(HEAD), BYTES, 0, null, sink);
  strictEqual(out.join(""), RAW);
  deepStrictEqual([w.lossy, w.archiveId, w.passthrough], [false, null, UNARCHIVED]);
});

Deno.test("filterAndWrite() prints the raw output of a filter that throws, and records the failure", async () => {
  const { env, failures } = _env("abc123abc123");
  const { sink, out } = _sink();
  const w = await filterAndWrite(env, ["tool"], _plan(THROWS), BYTES, 0, null, sink);
  strictEqual(out.join(""), RAW);
  strictEqual(w.passthrough, "filter failed (see rtok gain --failures)");
  strictEqual(failures.length, 1);
  match(failures[0].error, /broken on purpose/);
  strictEqual(failures[0].surface, "mcp");
});

Deno.test("recordRun() records one row with the run's sizes, surface and directory", async () => {
  const { env, rows } = _env("abc123abc123");
  const { sink } = _sink();
  const w = await filterAndWrite(env, ["tool", "a b"], _plan(HEAD), BYTES, 0, null, sink);
  await recordRun(env, ["tool", "a b"], _plan(HEAD), performance.now(), w, sink);
  strictEqual(rows.length, 1);
  const m = rows[0];
  deepStrictEqual(
    [m.surface, m.project, m.command, m.rtokCommand, m.archiveId, m.emittedChars],
    ["mcp", "/p", "tool 'a b'", "rtok tool 'a b'", "abc123abc123", w.emitted],
  );
});
