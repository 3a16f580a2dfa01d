import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { Store } from "../../core/store.ts";
import type { SpoolEntry } from "../../core/spool.ts";
import { ingestGuard } from "./mod.ts";
import { guardReport, guardText } from "./report.ts";

function entry(kind: string, data: Record<string, unknown>, ts = 1): SpoolEntry {
  return { kind, ts, data };
}

function row(project: string, session: string, rule: string, command: string, action: string) {
  return entry("guard.intervention", { ts: 1, project, session, rule, command, action });
}

Deno.test("guardReport: interventions per rule and their false-block rate, by project", async (t) => {
  const dir = Deno.makeTempDirSync({ prefix: "rtok-guard-report-" });
  const store = Store.open(`${dir}/rtok.db`);
  try {
    store.write(() =>
      ingestGuard([
        row("/p", "s1", "cat-large", "cat big.ts", "reason"),
        entry("guard.false_block", { session: "s1", rule: "cat-large", command: "cat big.ts" }),
        row("/p", "s1", "grep-vendor", "grep -r x .", "rewrite"),
        row("/p/sub", "s2", "grep-vendor", "grep -r y .", "rewrite"),
        row("/q", "s3", "cat-large", "cat other.ts", "reason"),
        row("/p", "s4", "cat-large", "cat big.ts", "reason"),
        // Not a row: an action the table does not know.
        row("/p", "s5", "verbose", "cp -v a b", "block"),
      ], store)
    );
    await t.step("every project", () => {
      const r = guardReport(store, { project: null });
      strictEqual(r.interventions, 5);
      strictEqual(r.rewrites, 2);
      strictEqual(r.reasons, 3);
      strictEqual(r.falseBlocks, 1);
      strictEqual(r.falseBlockPct, 20);
      deepStrictEqual(r.rules.map((x) => [x.rule, x.interventions, x.falseBlocks]), [
        ["cat-large", 3, 1],
        ["grep-vendor", 2, 0],
      ]);
    });
    await t.step("a false block marks only its session's intervention", () => {
      const n = store.db.prepare("SELECT session FROM interventions WHERE false_block = 1").all();
      deepStrictEqual(n.map((x) => (x as { session: string }).session), ["s1"]);
    });
    await t.step("one project and below", () => {
      const r = guardReport(store, { project: "/p" });
      strictEqual(r.interventions, 4);
      strictEqual(r.falseBlockPct, 25);
    });
    await t.step("the text names the totals and each rule; none says nothing", () => {
      const text = guardText(guardReport(store, { project: null }));
      ok(text.includes("5 interventions (2 rewritten, 3 explained); false blocks: 1 (20 %)"), text);
      ok(/cat-large\s+3\s+false blocks: 1 \(33\.3 %\)/.test(text), text);
      strictEqual(guardText(guardReport(store, { project: "/none" })), "");
    });
  } finally {
    store.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
