import { deepStrictEqual } from "node:assert/strict";
import { Store, storePath } from "../../core/store.ts";
import { markIndexed } from "./marker.ts";
import { countDefinitions, hasSymbolIndex, warmLookup } from "./mod.ts";

Deno.test("countDefinitions() counts a name's definitions in one project's index", async () => {
  const home = await Deno.makeTempDir();
  try {
    deepStrictEqual(await countDefinitions(home, "/p", "parse"), null);
    await warmLookup();
    const store = Store.open(storePath(home));
    store.write((db) => {
      db.exec(`INSERT INTO graph_projects (id, root, updated) VALUES (1, '/p', 0), (2, '/q', 0);
        INSERT INTO graph_files (id, project_id, path, mtime, size, language)
          VALUES (1, 1, 'a.ts', 0, 1, 'typescript'), (2, 2, 'b.ts', 0, 1, 'typescript');
        INSERT INTO graph_defs (file_id, name, kind, scope, start_line, end_line)
          VALUES (1, 'parse', 'function', '', 1, 2), (1, 'parse', 'method', 'P', 4, 5),
                 (2, 'parse', 'function', '', 1, 2);`);
    });
    store.close();
    deepStrictEqual(await countDefinitions(home, "/p", "parse"), 2);
    deepStrictEqual(await countDefinitions(home, "/q", "parse"), 1);
    deepStrictEqual(await countDefinitions(home, "/p", "absent"), 0);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("hasSymbolIndex() is true once the project is marked indexed", async () => {
  const home = await Deno.makeTempDir();
  try {
    deepStrictEqual(await hasSymbolIndex(home, "/p"), false);
    await markIndexed(home, "/p");
    deepStrictEqual(await hasSymbolIndex(home, "/p"), true);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
