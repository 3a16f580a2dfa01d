import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { defaultConfig } from "../../core/config.ts";
import { warmUp } from "./warm.ts";

Deno.test("warmUp() answers every sample event through the dry hook without a failure", async () => {
  const report = await warmUp(
    defaultConfig(),
    () => Promise.resolve(),
    new AbortController().signal,
  );
  deepStrictEqual(report.failures, []);
  // A PreToolUse of each kind, code of each grammar, data, documents, logs, Bash and Grep.
  ok(report.events >= 18, `${report.events} events`);
});

Deno.test("warmUp() answers no sample event while a request is in flight", async () => {
  let release = () => {};
  let asked = 0;
  const busy = new Promise<void>((r) => release = r);
  const stop = new AbortController();
  const warming = warmUp(defaultConfig(), () => {
    asked++;
    return busy;
  }, stop.signal);
  let settled = false;
  warming.then(() => settled = true);
  await new Promise((r) => setTimeout(r, 100));
  strictEqual(settled, false, "warming went on while a request was in flight");
  strictEqual(asked, 1);
  // The server stopping meanwhile: warming ends without answering anything.
  stop.abort();
  release();
  const report = await warming;
  strictEqual(report.events, 0);
  deepStrictEqual(report.failures, []);
});
