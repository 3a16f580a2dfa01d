import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { commitAll, failureRows, gitInit, rtok, tempDir } from "./_helpers.ts";

// A repository in three languages, written for this test: each definition's lines counted by
// hand from the text below.
const FILES: Record<string, string> = {
  ".gitignore": "build/\n",
  "web/server.ts": [
    /* 1 */ 'import { route } from "./routes.ts";',
    /* 2 */ "",
    /* 3 */ "export class Server {",
    /* 4 */ "  start(port: number): void {",
    /* 5 */ "    route(port);",
    /* 6 */ "  }",
    /* 7 */ "}",
  ].join("\n") + "\n",
  "web/routes.ts": [
    /* 1 */ "export function route(port: number): string {",
    /* 2 */ "  return `:${port}`;",
    /* 3 */ "}",
  ].join("\n") + "\n",
  "jobs/worker.py": [
    /* 1 */ "class Worker:",
    /* 2 */ "    def start(self):",
    /* 3 */ "        return 1",
  ].join("\n") + "\n",
  "db/conn.go": [
    /* 1 */ "package db",
    /* 2 */ "",
    /* 3 */ "type Conn struct{}",
    /* 4 */ "",
    /* 5 */ "func (c *Conn) start() {}",
  ].join("\n") + "\n",
  "build/gen.ts": "export function start(): void {}\n",
};

async function repo(dir: string): Promise<string> {
  const root = `${dir}/repo`;
  await gitInit(root);
  for (const [path, text] of Object.entries(FILES)) {
    Deno.mkdirSync(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    Deno.writeTextFileSync(`${root}/${path}`, text);
  }
  await commitAll(root, "init");
  return Deno.realPathSync(root);
}

Deno.test("rtok where, refs and symbols answer from the project's index, kept current by the CLI", async (t) => {
  using tmp = tempDir();
  const root = await repo(tmp.path);
  const home = `${tmp.path}/home`;
  await t.step(
    "where: every definition in the three languages, none that .gitignore ignores",
    async () => {
      const r = await rtok(home, ["where", "start"], { cwd: root });
      strictEqual(r.code, 0, r.err);
      strictEqual(
        r.out,
        "method Conn.start db/conn.go:5\n" +
          "method Worker.start jobs/worker.py:2-3\n" +
          "method Server.start web/server.ts:4-6\n",
      );
    },
  );
  await t.step("where from a subdirectory writes paths from there", async () => {
    const r = await rtok(home, ["where", "route"], { cwd: `${root}/web` });
    strictEqual(r.out, "function route routes.ts:1-3\n");
  });
  await t.step("refs: each file and line that uses the name", async () => {
    const r = await rtok(home, ["refs", "route"], { cwd: root });
    strictEqual(r.code, 0, r.err);
    strictEqual(r.out, "web/server.ts: 1, 5\n");
  });
  await t.step("symbols of a directory", async () => {
    const r = await rtok(home, ["symbols", "web"], { cwd: root });
    strictEqual(
      r.out,
      "web/routes.ts\n  function route L1-3\n" +
        "web/server.ts\n  class Server L3-7\n  method Server.start L4-6\n",
    );
  });
  await t.step("--format json", async () => {
    const r = await rtok(home, ["where", "Conn", "--format", "json"], { cwd: root });
    const data = JSON.parse(r.out);
    strictEqual(data.root, root);
    deepStrictEqual(data.definitions, [
      { file: "db/conn.go", name: "Conn", kind: "struct", scope: "", start: 3, end: 3 },
    ]);
  });
  await t.step("an unknown name: one line, the closest names, exit 1", async () => {
    const r = await rtok(home, ["where", "Servr"], { cwd: root });
    strictEqual(r.code, 1);
    strictEqual(
      r.out,
      `no definition of "Servr" in ${root} (4 files indexed); closest: Server\n`,
    );
  });
  await t.step("an edit is seen by the next question", async () => {
    Deno.writeTextFileSync(
      `${root}/web/routes.ts`,
      "// Routes.\n\nexport function route(port: number): string {\n  return `:${port}`;\n}\n",
    );
    const r = await rtok(home, ["where", "route"], { cwd: root });
    strictEqual(r.out, "function route web/routes.ts:3-5\n");
  });
  await t.step("bad arguments: one line saying what to give", async () => {
    const none = await rtok(home, ["where"], { cwd: root });
    strictEqual(none.code, 1);
    match(none.err, /^rtok: expected one NAME: rtok where NAME \(see rtok where --help\)\n$/);
    const fmt = await rtok(home, ["refs", "x", "--format", "xml"], { cwd: root });
    match(fmt.err, /--format "xml": expected text or json/);
  });
});

Deno.test("rtok where names a file no grammar can read once in rtok gain --failures", async () => {
  using tmp = tempDir();
  const root = await repo(tmp.path);
  const home = `${tmp.path}/home`;
  Deno.writeTextFileSync(`${root}/web/broken.ts`, "}}}} ((( ]]]\n");
  strictEqual((await rtok(home, ["where", "route"], { cwd: root })).code, 0);
  strictEqual((await rtok(home, ["refs", "route"], { cwd: root })).code, 0);
  const rows = failureRows(home).filter((f) => f.family === "graph index");
  deepStrictEqual(rows.map((f) => f.error), [
    `cannot index "${root}/web/broken.ts": the typescript parse has syntax errors and no definition`,
  ]);
  const gain = await rtok(home, ["gain", "--failures"], { cwd: root });
  ok(gain.out.includes(`${root}/web/broken.ts`), gain.out);
});

Deno.test("rtok where in three processes at once on a new store: each answers, one row per file", async () => {
  using tmp = tempDir();
  const root = await repo(tmp.path);
  const home = `${tmp.path}/home`;
  const runs = await Promise.all(
    [1, 2, 3].map(() => rtok(home, ["where", "start"], { cwd: root })),
  );
  for (const r of runs) {
    strictEqual(r.code, 0, r.err);
    strictEqual(
      r.out,
      "method Conn.start db/conn.go:5\nmethod Worker.start jobs/worker.py:2-3\n" +
        "method Server.start web/server.ts:4-6\n",
    );
  }
  const json = await rtok(home, ["symbols", ".", "--format", "json"], { cwd: root });
  strictEqual(json.code, 0, json.err);
  // Each definition once: no file's rows written twice by the racing updates.
  const { files } = JSON.parse(json.out) as { files: { file: string; symbols: unknown[] }[] };
  deepStrictEqual(files.map((f) => [f.file, f.symbols.length]), [
    ["db/conn.go", 2],
    ["jobs/worker.py", 2],
    ["web/routes.ts", 1],
    ["web/server.ts", 2],
  ]);
});
