import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { isolate, verifyInWorker } from "./sandbox.ts";
import { parseFilterFile } from "./spec.ts";

const [SLOW, FAST] = parseFilterFile(
  `[[filter]]
name = "slow"
match = '^slow'
steps = [{ strip = ['(a+)+$'] }]

[[filter]]
name = "fast"
match = '^fast'
steps = [{ strip = ['^#'] }]

[[filter.test]]
input = "# x\\ny\\n"
expected = "y"
`,
  "f.toml",
);

const INPUT = { args: [], shaped: false, exitCode: 0 };

Deno.test("a filter in a Worker gives what it gives inline, call after call", async () => {
  const f = isolate(FAST);
  const raw = "# a\nb\n# c\n";
  // The first call takes the Worker started ahead; the second starts its own.
  deepStrictEqual(await f.filterWithin!(raw, INPUT, 5000), f.filter(raw, INPUT));
  deepStrictEqual(await f.filterWithin!("# z\n", INPUT, 5000), { text: "", cut: ["1 line"] });
  f.release();
});

Deno.test("release ends the Workers a run did not use, and stops those not yet started", async () => {
  const Real = globalThis.Worker;
  let started = 0;
  let ended = 0;
  globalThis.Worker = class extends Real {
    constructor(...args: ConstructorParameters<typeof Worker>) {
      super(...args);
      started++;
    }
    override terminate(): void {
      ended++;
      super.terminate();
    }
  };
  const turn = () => new Promise((r) => setTimeout(r, 20));
  try {
    // Two started ahead for a filter that reads stderr too, both ended, once.
    const f = isolate({ ...FAST, stderr: true });
    await turn();
    strictEqual(started, 2);
    f.release();
    f.release();
    strictEqual(ended, 2);
    // Released before its turn came, none starts.
    isolate(FAST).release();
    await turn();
    deepStrictEqual([started, ended], [2, 2]);
  } finally {
    globalThis.Worker = Real;
  }
});

Deno.test("a catastrophic pattern is abandoned at the time limit", async () => {
  const started = performance.now();
  const slow = isolate(SLOW);
  await rejects(
    slow.filterWithin!("a".repeat(40) + "b\n", INPUT, 300),
    (e: Error) => {
      ok(e instanceof Deno.errors.TimedOut, e.name);
      strictEqual(e.message, 'filter "slow" took longer than 300 ms');
      return true;
    },
  );
  const took = performance.now() - started;
  ok(took < 3000, `took ${Math.round(took)} ms`);
  slow.release();
});

Deno.test("verifyInWorker runs the embedded tests off the main thread", async () => {
  const v = await verifyInWorker([FAST], 5000);
  deepStrictEqual(v, { filters: 1, tests: 1, failures: [] });
});
