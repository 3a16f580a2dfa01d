/**
 * `deno bench`: the `graph` plugin's symbol index on a generated 2,000-file git repository
 * (TypeScript, Python and Go, about 40 lines each): a warm `where` (the index current, every
 * file listed and stat'ed, nothing parsed) and the update after one file changed. The cold
 * index and the budgets are in `budget.ts` (group `graph`).
 *
 * @module
 */

import { Store, storePath } from "../src/core/store.ts";
import { askGraph } from "../src/plugins/graph/answer.ts";
import { updateIndex } from "../src/plugins/graph/indexer.ts";
import { generatedFile, generateRepo } from "./_graph_repo.ts";

const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "rtok-graph-bench-" }));
generateRepo(root);
const store = Store.open(storePath(`${root}/.rtok-home`));
await updateIndex(store, root);
let edit = 0;

Deno.bench({
  name: "rtok where, warm (2,000 files listed and stat'ed, none parsed)",
  group: "graph",
  baseline: true,
  async fn() {
    const a = await askGraph(store, { kind: "where", name: "Service999" }, { cwd: root });
    if (!a.found || a.update.parsed !== 0) throw new Error("the warm query read a file");
  },
});

Deno.bench({
  name: "rtok where after one file changed (that file parsed again)",
  group: "graph",
  async fn(b) {
    const f = generatedFile(1000, ++edit);
    Deno.writeTextFileSync(`${root}/${f.path}`, f.text);
    b.start();
    const a = await askGraph(store, { kind: "where", name: "Worker1000" }, { cwd: root });
    b.end();
    if (a.update.parsed !== 1) throw new Error(`parsed ${a.update.parsed} files, not 1`);
  },
});

globalThis.addEventListener("unload", () => {
  store.close();
  Deno.removeSync(root, { recursive: true });
});
