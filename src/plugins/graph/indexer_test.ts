import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { Store, storePath } from "../../core/store.ts";
import { hasSymbolIndex } from "./marker.ts";
import { extractSymbols } from "./extract.ts";
import { listProjectFiles, MAX_WALKED_FILES } from "./files.ts";
import { type IndexOptions, updateIndex } from "./indexer.ts";
import { definitionsUnder, findDefinitions, findReferences } from "./query.ts";

const PERMS: Deno.TestDefinition["permissions"] = {
  read: true,
  write: true,
  run: ["git"],
  env: true,
};

function git(dir: string, ...args: string[]): void {
  const out = new Deno.Command("git", {
    args: ["-C", dir, ...args],
    env: {
      GIT_AUTHOR_NAME: "Ada",
      GIT_AUTHOR_EMAIL: "ada@lab.dev",
      GIT_COMMITTER_NAME: "Ada",
      GIT_COMMITTER_EMAIL: "ada@lab.dev",
    },
    stdout: "null",
    stderr: "piped",
  }).outputSync();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const at = `${root}/${path}`;
    Deno.mkdirSync(at.slice(0, at.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(at, text);
  }
}

// A small project in three languages; `.gitignore` leaves out `gen/` and `*.local.ts`.
const FILES: Record<string, string> = {
  ".gitignore": "gen/\n*.local.ts\n",
  "src/parse.ts": "export function parse(s: string): number {\n  return Number(s);\n}\n",
  "src/main.ts": 'import { parse } from "./parse.ts";\n\nconsole.log(parse("1"));\n',
  "tools/build.py": "def build():\n    return 1\n\n\nclass Builder:\n    pass\n",
  "cmd/run.go": "package cmd\n\nfunc Run() int {\n\treturn 0\n}\n",
  "gen/out.ts": "export function generated(): void {}\n",
  "src/secret.local.ts": "export function secret(): void {}\n",
  "README.md": "# not code\n",
};

// The real extractor, with the paths it was handed counted.
function counting(): { parsed: string[]; options: IndexOptions } {
  const parsed: string[] = [];
  return {
    parsed,
    options: {
      extract: (path, text) => {
        parsed.push(path);
        return extractSymbols(path, text);
      },
    },
  };
}

function where(store: Store, projectId: number, name: string): string[] {
  return findDefinitions(store, projectId, name).map((d) =>
    `${d.kind} ${d.name} ${d.file}:${d.start}-${d.end}`
  );
}

Deno.test({
  name:
    "updateIndex() follows edits, renames and deletions exactly, re-parsing only the files that changed",
  permissions: PERMS,
  fn: async (t) => {
    const dir = Deno.makeTempDirSync({ prefix: "rtok-graph-" });
    const root = Deno.realPathSync(dir);
    write(root, FILES);
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "init");
    write(root, { "src/untracked.ts": "export const fresh = 1;\n" });
    const store = Store.open(storePath(`${root}/.home`));
    try {
      let id = 0;
      await t.step(
        "the first update reads every file git lists, none that .gitignore ignores",
        async () => {
          const c = counting();
          const u = await updateIndex(store, root, { ...c.options, home: `${root}/.home` });
          id = u.projectId;
          strictEqual(u.lister, "git");
          deepStrictEqual(c.parsed.sort(), [
            "cmd/run.go",
            "src/main.ts",
            "src/parse.ts",
            "src/untracked.ts",
            "tools/build.py",
          ]);
          deepStrictEqual([u.files, u.parsed, u.dropped, u.failed.length], [5, 5, 0, 0]);
          deepStrictEqual(where(store, id, "generated"), []);
          deepStrictEqual(where(store, id, "secret"), []);
          deepStrictEqual(where(store, id, "parse"), ["function parse src/parse.ts:1-3"]);
          deepStrictEqual(where(store, id, "Builder"), ["class Builder tools/build.py:5-6"]);
          deepStrictEqual(where(store, id, "Run"), ["function Run cmd/run.go:3-5"]);
          deepStrictEqual(findReferences(store, id, "parse"), [{
            file: "src/main.ts",
            lines: [1, 3],
          }]);
          ok(await hasSymbolIndex(`${root}/.home`, root), "the hook's marker is written");
        },
      );
      await t.step("an update with nothing changed reads nothing", async () => {
        const c = counting();
        const u = await updateIndex(store, root, c.options);
        deepStrictEqual(c.parsed, []);
        deepStrictEqual([u.files, u.parsed, u.dropped], [5, 0, 0]);
      });
      await t.step(
        "an edit re-reads that file alone and leaves the others' rows as they were",
        async () => {
          const before = store.db.prepare(
            "SELECT rowid, * FROM graph_defs WHERE file_id != (SELECT id FROM graph_files WHERE path = 'src/parse.ts') ORDER BY rowid",
          ).all();
          write(root, {
            "src/parse.ts": "// Parsing.\n\nexport function parse(s: string): number {\n" +
              "  return Number(s) + offset();\n}\n\nfunction offset(): number {\n  return 1;\n}\n",
          });
          const c = counting();
          const u = await updateIndex(store, root, c.options);
          deepStrictEqual(c.parsed, ["src/parse.ts"]);
          deepStrictEqual([u.parsed, u.dropped], [1, 0]);
          deepStrictEqual(where(store, id, "parse"), ["function parse src/parse.ts:3-5"]);
          deepStrictEqual(where(store, id, "offset"), ["function offset src/parse.ts:7-9"]);
          deepStrictEqual(findReferences(store, id, "offset"), [{
            file: "src/parse.ts",
            lines: [4],
          }]);
          const after = store.db.prepare(
            "SELECT rowid, * FROM graph_defs WHERE file_id != (SELECT id FROM graph_files WHERE path = 'src/parse.ts') ORDER BY rowid",
          ).all();
          deepStrictEqual(after, before);
        },
      );
      await t.step("an edit of the same size is seen by its mtime", async () => {
        const path = `${root}/cmd/run.go`;
        const old = Deno.readTextFileSync(path);
        Deno.writeTextFileSync(path, old.replace("func Run()", "func Go_()"));
        const later = new Date(Deno.statSync(path).mtime!.getTime() + 2000);
        Deno.utimeSync(path, later, later);
        const c = counting();
        await updateIndex(store, root, c.options);
        deepStrictEqual(c.parsed, ["cmd/run.go"]);
        deepStrictEqual(where(store, id, "Run"), []);
        deepStrictEqual(where(store, id, "Go_"), ["function Go_ cmd/run.go:3-5"]);
      });
      await t.step("a rename drops the old path and reads the new one", async () => {
        git(root, "mv", "tools/build.py", "tools/make.py");
        const c = counting();
        const u = await updateIndex(store, root, c.options);
        deepStrictEqual(c.parsed, ["tools/make.py"]);
        deepStrictEqual([u.parsed, u.dropped, u.files], [1, 1, 5]);
        deepStrictEqual(where(store, id, "Builder"), ["class Builder tools/make.py:5-6"]);
        deepStrictEqual(definitionsUnder(store, id, "tools/build.py"), []);
      });
      await t.step(
        "a deletion drops the file's definitions and uses, reading nothing",
        async () => {
          Deno.removeSync(`${root}/src/main.ts`);
          const c = counting();
          const u = await updateIndex(store, root, c.options);
          deepStrictEqual(c.parsed, []);
          deepStrictEqual([u.parsed, u.dropped, u.files], [0, 1, 4]);
          deepStrictEqual(findReferences(store, id, "parse"), []);
          const orphans = store.db.prepare(
            `SELECT (SELECT count(*) FROM graph_defs WHERE file_id NOT IN (SELECT id FROM graph_files))
           + (SELECT count(*) FROM graph_refs WHERE file_id NOT IN (SELECT id FROM graph_files)) AS n`,
          ).get() as { n: number };
          strictEqual(Number(orphans.n), 0);
        },
      );
      await t.step(
        "a file no grammar can read is named once, then left alone until it changes",
        async () => {
          write(root, { "src/broken.ts": "}}}} ((( ]]]\n" });
          const first = await updateIndex(store, root);
          deepStrictEqual(first.failed.map((f) => f.path), ["src/broken.ts"]);
          ok(/syntax errors/.test(first.failed[0].problem));
          deepStrictEqual(definitionsUnder(store, id, "src/broken.ts"), []);
          const c = counting();
          const again = await updateIndex(store, root, c.options);
          deepStrictEqual([c.parsed, again.failed], [[], []]);
          write(root, { "src/broken.ts": "export class Mended {}\n" });
          const fixed = await updateIndex(store, root);
          deepStrictEqual(fixed.failed, []);
          deepStrictEqual(where(store, id, "Mended"), ["class Mended src/broken.ts:1-1"]);
        },
      );
    } finally {
      store.close();
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "updateIndex() walks a directory outside git, skipping hidden and vendored folders",
  permissions: PERMS,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "rtok-graph-walk-" });
    const root = Deno.realPathSync(dir);
    write(root, {
      "a.py": "def alpha():\n    pass\n",
      "lib/b.js": "export function beta() {}\n",
      "node_modules/pkg/index.js": "export function vendored() {}\n",
      ".venv/lib/site.py": "def hidden():\n    pass\n",
      "target/out.rs": "fn built() {}\n",
      "notes.txt": "function not_code() {}\n",
    });
    const store = Store.open(storePath(`${root}/.home`));
    try {
      const c = counting();
      const u = await updateIndex(store, root, c.options);
      strictEqual(u.lister, "walk");
      deepStrictEqual(c.parsed.sort(), ["a.py", "lib/b.js"]);
      deepStrictEqual(where(store, u.projectId, "beta"), ["function beta lib/b.js:1-1"]);
      deepStrictEqual(where(store, u.projectId, "vendored"), []);
      deepStrictEqual(where(store, u.projectId, "hidden"), []);
    } finally {
      store.close();
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "updateIndex() keeps each project's index apart in one store",
  permissions: PERMS,
  fn: async () => {
    const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "rtok-graph-two-" }));
    write(dir, {
      "one/a.ts": "export function same() {}\n",
      "two/b.ts": "export function same() {}\n",
    });
    const store = Store.open(storePath(`${dir}/.home`));
    try {
      const one = await updateIndex(store, `${dir}/one`);
      const two = await updateIndex(store, `${dir}/two`);
      ok(one.projectId !== two.projectId);
      deepStrictEqual(where(store, one.projectId, "same"), ["function same a.ts:1-1"]);
      deepStrictEqual(where(store, two.projectId, "same"), ["function same b.ts:1-1"]);
    } finally {
      store.close();
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "listProjectFiles() outside git gives up past MAX_WALKED_FILES source files, in one line",
  permissions: PERMS,
  fn: async () => {
    const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "rtok-graph-big-" }));
    try {
      // One more source file than the walk lists, spread over folders; text files do not count.
      for (let i = 0; i <= MAX_WALKED_FILES; i++) {
        const sub = `${dir}/d${Math.floor(i / 1000)}`;
        if (i % 1000 === 0) Deno.mkdirSync(sub);
        Deno.writeTextFileSync(`${sub}/m${i}.py`, "");
      }
      await rejects(listProjectFiles(dir), (e: Error) => {
        ok(e instanceof RangeError, String(e));
        ok(!e.message.includes("\n"), e.message);
        ok(e.message.startsWith(`Cannot index "${dir}": it is not a git work tree`), e.message);
        return true;
      });
      Deno.removeSync(`${dir}/d0/m0.py`);
      strictEqual((await listProjectFiles(dir)).paths.length, MAX_WALKED_FILES);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
