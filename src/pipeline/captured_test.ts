import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { defaultConfig } from "../core/config.ts";
import type { Measurement, Plugin } from "../core/plugin.ts";
import { makeCtx, Registry } from "../core/registry.ts";
import { runCapturedCommand } from "./captured.ts";
import type { RunEnv } from "./run.ts";

// An env with no filter, whose ledger plugin keeps its rows.
function _env(): { env: RunEnv; rows: Measurement[] } {
  const rows: Measurement[] = [];
  const ledger: Plugin = {
    manifest: { id: "measure", surfaces: ["mcp"], defaultOn: true, description: "Test ledger." },
    onMeasurement: (m) => void rows.push(m),
  };
  const config = defaultConfig();
  const registry = new Registry([ledger], config);
  return {
    rows,
    env: {
      registry,
      home: null,
      config,
      ctx: makeCtx(registry, { config, store: null, home: "" }),
      keeper: { keep: () => Promise.resolve(null) },
      warn: () => {},
      reportErrors: () => {},
    },
  };
}

Deno.test("runCapturedCommand() answers with the tool's output and records one mcp row", async () => {
  const { env, rows } = _env();
  const dir = await Deno.makeTempDir({ prefix: "rtok-captured-" });
  try {
    const done = await runCapturedCommand(
      env,
      ["sh", "-c", "echo out; echo err >&2; exit 2"],
      dir,
      10_000,
      "mcp",
    );
    deepStrictEqual(
      [done.code, done.stdout, done.stderr, done.timedOut],
      [2, "out\n", "err\n", false],
    );
    strictEqual(rows.length, 1);
    deepStrictEqual(
      [rows[0].surface, rows[0].project, rows[0].exitCode, rows[0].passthrough, rows[0].rawChars],
      ["mcp", dir, 2, "no filter", 4],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runCapturedCommand() stops a run at its time limit and records why", async () => {
  const { env, rows } = _env();
  const done = await runCapturedCommand(env, ["sleep", "5"], Deno.cwd(), 200, "mcp");
  deepStrictEqual([done.timedOut, done.signal], [true, "SIGTERM"]);
  // Killed by a signal: no exit code of its own.
  strictEqual(rows[0].exitCode, null);
});
