import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { Store, storePath } from "../../core/store.ts";
import { MIN_ARM_REQUESTS, styleComparison } from "./gain.ts";

const perms = { read: true, write: true } as const;

function withRequests(
  rows: readonly [string | null, number | null, number][],
  fn: (s: Store) => void,
) {
  const home = Deno.makeTempDirSync();
  const store = Store.open(storePath(home));
  try {
    store.write((db) => {
      const insert = db.prepare(
        `INSERT INTO proxy_requests (ts, provider, route, status, streamed, latency_ms,
           duration_ms, output_tokens, results_seen, results_compressed, chars_seen, chars_saved,
           style_arm) VALUES (1, 'anthropic', 'messages', ?, 0, 1, 1, ?, 0, 0, 0, 0, ?)`,
      );
      for (const [arm, out, status] of rows) insert.run(status, out, arm);
    });
    fn(store);
  } finally {
    store.close();
    Deno.removeSync(home, { recursive: true });
  }
}

// `n` requests of `arm` whose output tokens alternate around `mean` by ±`spread`.
const arm = (a: string, n: number, mean: number, spread: number) =>
  Array.from(
    { length: n },
    (_, i) => [a, mean + (i % 2 ? spread : -spread), 200] as [string, number, number],
  );

Deno.test({
  name: "styleComparison() says there is too little data below the minimum in either arm",
  permissions: perms,
  fn: () =>
    withRequests(
      [...arm("styled", 40, 100, 10), ...arm("holdout", MIN_ARM_REQUESTS - 1, 200, 10)],
      (s) => {
        const c = styleComparison(s);
        strictEqual(c.difference, null);
        match(c.verdict, /^too little data to tell: 40 styled and 29 held-out requests/);
        deepStrictEqual(c.arms.map((a) => [a.arm, a.requests, a.meanOutputTokens]), [
          ["styled", 40, 100],
          ["holdout", 29, 199.7], // 15 at 190 and 14 at 210
        ]);
      },
    ),
});

Deno.test({
  name:
    "styleComparison() shows a difference whose interval excludes 0, and counts only successful requests with usage",
  permissions: perms,
  fn: () =>
    withRequests([
      ...arm("styled", 40, 100, 10),
      ...arm("holdout", 40, 160, 10),
      ["styled", 5000, 500], // an error: not counted
      ["holdout", null, 200], // no usage: not counted
      [null, 9000, 200], // no arm: not counted
    ], (s) => {
      const c = styleComparison(s);
      strictEqual(c.arms[0].requests, 40);
      strictEqual(c.arms[1].requests, 40);
      strictEqual(c.difference?.mean, -60);
      match(
        c.verdict,
        /^styled answers are shorter: 60 output tokens fewer per request \(95 % interval -6\d\.\d to -5\d\.\d\)$/,
      );
    }),
});

Deno.test({
  name: "styleComparison() says no difference is shown when the interval includes 0",
  permissions: perms,
  fn: () =>
    withRequests([...arm("styled", 40, 100, 50), ...arm("holdout", 40, 101, 50)], (s) => {
      match(
        styleComparison(s).verdict,
        /^no difference shown: the 95 % interval -?\d+\.\d to \d+\.\d of styled minus held-out includes 0$/,
      );
    }),
});
