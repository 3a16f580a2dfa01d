import { deepStrictEqual, match, ok, rejects, strictEqual } from "node:assert/strict";
import { Store, storePath } from "../../core/store.ts";
import { askGraph, relativePath } from "./answer.ts";
import { closestNames, editDistance } from "./query.ts";
import { updateIndex } from "./indexer.ts";

const PERMS: Deno.TestDefinition["permissions"] = { read: true, write: true, env: true };

function project(): { root: string; store: Store } & Disposable {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "rtok-graph-answer-" }));
  const files: Record<string, string> = {
    "src/config.ts": [
      "export interface Config {",
      "  port: number;",
      "}",
      "",
      "export function parseConfig(text: string): Config {",
      "  return JSON.parse(text);",
      "}",
      "",
      "export function parseConfigFile(path: string): Config {",
      "  return parseConfig(Deno.readTextFileSync(path));",
      "}",
      "",
      "export class Loader {",
      "  load(): Config {",
      '    return parseConfig("{}");',
      "  }",
      "}",
    ].join("\n") + "\n",
    "src/app/main.ts": 'import { parseConfig } from "../config.ts";\nparseConfig("{}");\n',
    "lib/stack.rs": "pub struct Stack;\n\nimpl Stack {\n    pub fn push(&self) {}\n}\n",
  };
  for (const [path, text] of Object.entries(files)) {
    Deno.mkdirSync(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    Deno.writeTextFileSync(`${root}/${path}`, text);
  }
  // A marker of a project root, so a question from a subdirectory finds it.
  Deno.mkdirSync(`${root}/.git`);
  const store = Store.open(storePath(`${root}/.git/home`));
  return {
    root,
    store,
    [Symbol.dispose]: () => {
      store.close();
      Deno.removeSync(root, { recursive: true });
    },
  };
}

Deno.test("relativePath() writes a path from a directory, with ../ where it must", async (t) => {
  const cases: [string, string, string][] = [
    ["/p", "/p/src/a.ts", "src/a.ts"],
    ["/p/src", "/p/src/a.ts", "a.ts"],
    ["/p/src/app", "/p/lib/b.rs", "../../lib/b.rs"],
    ["/p", "/p", "."],
    ["/", "/p/a.ts", "p/a.ts"],
  ];
  for (const [from, path, want] of cases) {
    await t.step(`${from} → ${path}`, () => strictEqual(relativePath(from, path), want));
  }
});

Deno.test("editDistance() counts single-character edits", () => {
  strictEqual(editDistance("parse", "parse"), 0);
  strictEqual(editDistance("parse", "prase"), 2);
  strictEqual(editDistance("parseConfig", "parseConfg"), 1);
  strictEqual(editDistance("", "abc"), 3);
});

Deno.test({
  name: "askGraph() where: each definition as kind, qualified name, file:first-last",
  permissions: PERMS,
  fn: async () => {
    using p = project();
    const a = await askGraph(p.store, { kind: "where", name: "parseConfig" }, { cwd: p.root });
    strictEqual(a.found, true);
    strictEqual(a.text, "function parseConfig src/config.ts:5-7\n");
    const m = await askGraph(p.store, { kind: "where", name: "load" }, { cwd: p.root });
    strictEqual(m.text, "method Loader.load src/config.ts:14-16\n");
    const scoped = await askGraph(p.store, { kind: "where", name: "Stack::push" }, {
      cwd: p.root,
    });
    strictEqual(scoped.text, "method Stack::push lib/stack.rs:4\n");
    const fromSub = await askGraph(p.store, { kind: "where", name: "Loader" }, {
      cwd: `${p.root}/src/app`,
    });
    strictEqual(fromSub.text, "class Loader ../config.ts:13-17\n", "paths from where it is asked");
    deepStrictEqual((fromSub.data.definitions as { file: string }[])[0].file, "../config.ts");
  },
});

Deno.test({
  name: "askGraph() refs: each file that uses a name, with its lines",
  permissions: PERMS,
  fn: async () => {
    using p = project();
    const a = await askGraph(p.store, { kind: "refs", name: "parseConfig" }, { cwd: p.root });
    strictEqual(a.text, "src/app/main.ts: 1, 2\nsrc/config.ts: 10, 15\n");
    strictEqual(a.data.uses, 4);
  },
});

Deno.test({
  name: "askGraph() symbols: every definition of a file, or of each file under a directory",
  permissions: PERMS,
  fn: async () => {
    using p = project();
    const file = await askGraph(p.store, { kind: "symbols", path: "lib/stack.rs" }, {
      cwd: p.root,
    });
    strictEqual(
      file.text,
      "lib/stack.rs\n  struct Stack L1\n  impl Stack L3-5\n  method Stack::push L4\n",
    );
    const dir = await askGraph(p.store, { kind: "symbols", path: "src" }, { cwd: p.root });
    strictEqual(
      dir.text,
      [
        "src/config.ts",
        "  interface Config L1-3",
        "  function parseConfig L5-7",
        "  function parseConfigFile L9-11",
        "  class Loader L13-17",
        "  method Loader.load L14-16",
      ].join("\n") + "\n",
    );
    const none = await askGraph(p.store, { kind: "symbols", path: "src/app" }, { cwd: p.root });
    strictEqual(none.found, false);
    match(none.text, /^no definitions in the 1 indexed files under "src\/app"\n$/);
    await rejects(
      askGraph(p.store, { kind: "symbols", path: "nope" }, { cwd: p.root }),
      /"nope" does not exist: give a file or directory of the project/,
    );
  },
});

Deno.test({
  name: "askGraph() says in one line that a name is unknown, with the closest defined names",
  permissions: PERMS,
  fn: async (t) => {
    using p = project();
    await t.step("a typo", async () => {
      const a = await askGraph(p.store, { kind: "where", name: "parseConfg" }, { cwd: p.root });
      strictEqual(a.found, false);
      strictEqual(
        a.text,
        `no definition of "parseConfg" in ${p.root} (3 files indexed); ` +
          "closest: parseConfig\n",
      );
      strictEqual(a.text.split("\n").length, 2, "one line");
    });
    await t.step("another case first", async () => {
      const a = await askGraph(p.store, { kind: "where", name: "loader" }, { cwd: p.root });
      match(a.text, /closest: Loader, load\n$/);
    });
    await t.step("nothing close", async () => {
      const a = await askGraph(p.store, { kind: "refs", name: "zzzzzz" }, { cwd: p.root });
      match(a.text, /^no use of "zzzzzz" in .*; no defined name is close\n$/);
    });
    await t.step("closestNames() ranks case, then prefix, then distance", async () => {
      const u = await updateIndex(p.store, p.root);
      deepStrictEqual(closestNames(p.store, u.projectId, "config"), ["Config"]);
      deepStrictEqual(closestNames(p.store, u.projectId, "parseConf"), [
        "parseConfig",
        "parseConfigFile",
      ]);
      ok(closestNames(p.store, u.projectId, "Stak").includes("Stack"));
    });
  },
});
