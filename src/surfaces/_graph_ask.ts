/**
 * Asking the symbol index from a surface (`rtok where|refs|symbols`, MCP `rtok_symbols`):
 * the store opened, the index brought up to date and asked, and each file a grammar could not
 * read named once in the ledger's failures (`rtok gain --failures`).
 *
 * @module
 */

import { joinPath } from "../core/paths.ts";
import type { Surface } from "../core/plugin.ts";
import { askGraph, type GraphAnswer, type GraphQuestion } from "../plugins/graph/answer.ts";
import { type Boot, context, drain, openStore } from "./_boot.ts";

/** Answers `q` asked from `cwd`; `command` is what the ledger names a failure's run by. */
export async function askIndex(
  b: Boot,
  q: GraphQuestion,
  where: { readonly cwd: string; readonly surface: Surface; readonly command: string },
): Promise<GraphAnswer> {
  if (!b.registry.has("graph")) {
    throw new Error(
      "the graph plugin is off in config ([plugins.graph] enabled = false): turn it on to " +
        "ask the symbol index",
    );
  }
  const store = await openStore(b);
  if (!store) {
    throw new Error("the symbol index cannot be read: the store did not open (see the line above)");
  }
  try {
    const answer = await askGraph(store, q, { cwd: where.cwd, home: b.home });
    const failed = answer.update.failed;
    if (failed.length) {
      const ctx = context(b, store);
      for (const f of failed) {
        await b.registry.failure({
          surface: where.surface,
          plugin: "graph",
          family: "graph index",
          command: where.command,
          error: `cannot index "${joinPath(answer.update.root, f.path)}": ${f.problem}`,
          fallbackOk: true,
        }, ctx);
      }
      await drain(b, store);
    }
    return answer;
  } finally {
    store.close();
  }
}
