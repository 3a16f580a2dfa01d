import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { inputFields, judgeFacts, noFacts, viewPlaces, WrittenIndex } from "./facts.ts";

const raw = [
  "import { join } from 'node:path';",
  "export function parseLedger(rows) {",
  "  return rows.map(toCents);",
  "}",
  "export function settleBatch7(total) {",
  "  return total;",
  "}",
].join("\n");

Deno.test("judgeFacts() tells kept, located and unlocated facts the agent used later", () => {
  const index = new WrittenIndex([
    {
      item: 5,
      by: "Edit",
      fields: inputFields({ old_string: "parseLedger toCents settleBatch7" }),
      at: null,
    },
  ]);
  const fresh = new Set(["parseLedger", "toCents", "settleBatch7", "unusedName_1"]);
  const view = "export function parseLedger(rows) {\nfunction settleBatch7 L5-7\n" +
    "[rtok: cut 2 bodies at lines 3; raw: rtok expand 0123456789ab]";
  const counts = noFacts();
  const hidden = judgeFacts(fresh, raw, view, viewPlaces(view, true), 1, index, counts);
  // settleBatch7 is in the view (its outline entry); toCents is hidden on line 3, which the
  // pointer names; unusedName_1 was never used.
  deepStrictEqual(counts, { used: 3, kept: 2, located: 1, unlocated: 0 });
  deepStrictEqual(hidden.map((h) => [h.fact, h.located, h.line, h.next.by, h.next.field]), [
    ["toCents", true, 3, "Edit", "old_string"],
  ]);
});

Deno.test("judgeFacts() counts a hidden fact with no span naming its line as unlocated", () => {
  const index = new WrittenIndex([{ item: 9, by: "text", fields: [[null, "toCents"]], at: null }]);
  const counts = noFacts();
  const view = "head only\n[rtok: cut 6 lines; raw: rtok expand 0123456789ab]";
  judgeFacts(new Set(["toCents"]), raw, view, viewPlaces(view, false), 1, index, counts);
  deepStrictEqual(counts, { used: 1, kept: 0, located: 0, unlocated: 1 });
  // Outline ranges locate only in a file read's view.
  const outline = "f L1-7\n[rtok: cut 6 lines; raw: rtok expand 0123456789ab]";
  strictEqual(viewPlaces(outline, false).spans.length, 0);
  strictEqual(viewPlaces(outline, true).spans.length, 1);
});

Deno.test("WrittenIndex.nextUse() finds the first use after an item, not before it", () => {
  const index = new WrittenIndex([
    { item: 2, by: "Bash", fields: [["command", "grep -rn parseLedger src"]], at: "t2" },
    { item: 8, by: "Edit", fields: [["new_string", "parseLedger(x)"]], at: "t8" },
  ]);
  deepStrictEqual(index.nextUse("parseLedger", 3), {
    item: 8,
    by: "Edit",
    field: "new_string",
    at: "t8",
  });
  strictEqual(index.nextUse("parseLedger", 8), null);
});

Deno.test("WrittenIndex.nextUse() counts a relative path as used by the absolute path ending with it", () => {
  const index = new WrittenIndex([
    {
      item: 4,
      by: "Read",
      fields: [["file_path", "/home/me/shop/tests/unit/test_io.py"]],
      at: null,
    },
  ]);
  deepStrictEqual(index.nextUse("tests/unit/test_io.py", 1), {
    item: 4,
    by: "Read",
    field: "file_path",
    at: null,
  });
  strictEqual(index.nextUse("unit/other.py", 1), null);
});
