import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { defaultConfig } from "../../core/config.ts";
import { MIGRATIONS } from "../../core/migrations.ts";
import { Store, storePath } from "../../core/store.ts";
import { insertRun } from "../../plugins/measure/ledger.ts";
import { measurement } from "../../../tests/_helpers.ts";
import { dashboardData, type DashboardSource, LedgerCopy, spooledRuns } from "./data.ts";
import { dashboardHandler } from "./mod.ts";

// The stores are made here, with write permission; the tests that read them run without it,
// so a write anywhere on their path would throw.
const ROOT = Deno.makeTempDirSync({ prefix: "rtok-dashboard-" });
const FILLED = `${ROOT}/filled`;
const OLD = `${ROOT}/old`;
const NONE = `${ROOT}/none`;
{
  const store = Store.open(storePath(FILLED));
  // git log: 3100 chars → 1000 tokens in, 310 → 100 out; ls: 260 → 26 chars as paths.
  insertRun(store, measurement({ command: "git log" }), 90);
  insertRun(
    store,
    measurement({
      family: "ls",
      command: `ls '<img src=x onerror="alert(1)">'`,
      rawChars: 260,
      emittedChars: 26,
      textClass: "paths",
    }),
    90,
  );
  store.close();
  Store.open(storePath(OLD), { migrations: MIGRATIONS.slice(0, 3) }).close();
  Deno.mkdirSync(NONE);
  Deno.writeTextFileSync(
    `${FILLED}/spool.jsonl`,
    [
      // git status: 1550 chars → 500 tokens in, 155 → 50 out.
      {
        kind: "measure.run",
        ts: Date.now(),
        data: {
          ...measurement({
            family: "git status",
            command: "git status",
            rawChars: 1550,
            emittedChars: 155,
          }),
        },
      },
      { kind: "measure.call", ts: 2, data: {} },
      // Not a record: a drain would not take it, nor does the page.
      { kind: "measure.run", ts: 3, data: {} },
    ].map((e) => JSON.stringify(e)).join("\n") + "\nnot json\n",
  );
}
globalThis.addEventListener("unload", () => Deno.removeSync(ROOT, { recursive: true }));

const source = (home: string, warnings: string[] = []): DashboardSource => ({
  ledger: storePath(home),
  home,
  config: defaultConfig(),
  scope: { project: null },
  warn: (m) => warnings.push(m),
});

const READ = { read: true } as const;

async function get(
  home: string,
  path: string,
  init: RequestInit = {},
  allowRemote = false,
): Promise<Response> {
  return await dashboardHandler(source(home), allowRemote)(
    new Request(`http://127.0.0.1:4321${path}`, init),
  );
}

Deno.test({
  name: "dashboardHandler() GET /api/gain gives gain's figures from a store read without write",
  permissions: READ,
  async fn() {
    const res = await get(FILLED, "/api/gain");
    strictEqual(res.status, 200);
    strictEqual(res.headers.get("content-type"), "application/json; charset=utf-8");
    const data = await res.json();
    strictEqual(data.empty, false);
    strictEqual(data.ledger, storePath(FILLED));
    strictEqual(data.gain.estimated, true);
    // The spooled git status is counted; the file still holds two runs.
    strictEqual(data.gain.runs, 3);
    strictEqual(data.gain.rawTokens, 1000 + 100 + 500);
    strictEqual(data.gain.savedTokens, 900 + 90 + 450);
    deepStrictEqual(data.gain.commands.map((c: { command: string }) => c.command), [
      "git log",
      "git status",
      "ls",
    ]);
    const file = Store.openReadOnly(storePath(FILLED))!;
    strictEqual(Number(file.db.prepare("SELECT count(*) AS n FROM runs").get()!.n), 2);
    file.close();
    strictEqual(data.gain.proxy.real, true);
    strictEqual(data.graph.days.length, 30);
    strictEqual(data.graph.days.at(-1).cli, 990 + 450);
    strictEqual(data.history.length, 3);
    strictEqual(data.history[0].command, "git status");
    deepStrictEqual(data.failures, []);
    strictEqual(data.spooledRuns, 2);
  },
});

Deno.test({
  name: "dashboardData() says nothing yet for a missing store, and does not create one",
  permissions: READ,
  fn() {
    const d = dashboardData(source(NONE));
    strictEqual(d.empty, true);
    strictEqual(d.gain, null);
    strictEqual(d.nothingYet, "No runs recorded yet: try `rtok git status`.");
    deepStrictEqual([...Deno.readDirSync(NONE)], []);
  },
});

Deno.test({
  name: "dashboardHandler() answers 503 with one line naming a store older than its schema",
  permissions: READ,
  async fn() {
    const warnings: string[] = [];
    const handler = dashboardHandler(source(OLD, warnings));
    const req = () => new Request("http://127.0.0.1:4321/api/gain");
    const res = await handler(req());
    strictEqual(res.status, 503);
    const { error } = await res.json();
    match(error, /^Cannot read store ".*\/old\/rtok\.db": it is at schema version 3, /);
    match(error, /run rtok gain once to update it$/);
    await (await handler(req())).body?.cancel();
    deepStrictEqual(warnings, [error], "told once, not at every poll");
  },
});

Deno.test({
  name: "dashboardHandler() serves its page, script and styles with a self-only policy",
  permissions: READ,
  async fn(t) {
    const cases: [string, string, RegExp][] = [
      ["/", "text/html; charset=utf-8", /<main id="app">/],
      ["/dashboard.js", "text/javascript; charset=utf-8", /fetch\("\/api\/gain"/],
      ["/dashboard.css", "text/css; charset=utf-8", /\.chart/],
    ];
    for (const [path, type, body] of cases) {
      await t.step(path, async () => {
        const res = await get(FILLED, path);
        strictEqual(res.status, 200);
        strictEqual(res.headers.get("content-type"), type);
        match(res.headers.get("content-security-policy") ?? "", /^default-src 'none'; /);
        match(await res.text(), body);
      });
    }
  },
});

Deno.test({
  name: "dashboardHandler() refuses other host names, other methods and other paths",
  permissions: READ,
  async fn(t) {
    const cases: [string, string, RequestInit, boolean, number][] = [
      ["a rebound host name", "/api/gain", { headers: { host: "evil.example:4321" } }, false, 403],
      ["the same with --allow-remote", "/", { headers: { host: "evil.example:4321" } }, true, 200],
      ["localhost", "/", { headers: { host: "localhost:4321" } }, false, 200],
      ["[::1]", "/", { headers: { host: "[::1]:4321" } }, false, 200],
      ["POST", "/api/gain", { method: "POST", body: "x" }, false, 405],
      ["an unknown path", "/etc/passwd", {}, false, 404],
    ];
    for (const [name, path, init, remote, status] of cases) {
      await t.step(name, async () => {
        const res = await get(FILLED, path, init, remote);
        strictEqual(res.status, status);
        await res.body?.cancel();
      });
    }
  },
});

Deno.test({
  name: "spooledRuns() counts the runs waiting in the spool, and 0 without one",
  permissions: READ,
  fn() {
    strictEqual(spooledRuns(FILLED), 2);
    strictEqual(spooledRuns(NONE), 0);
  },
});

Deno.test({
  name: "LedgerCopy.read() counts each read's spool alone, and leaves the file as it was",
  permissions: READ,
  fn() {
    const copy = new LedgerCopy();
    const entry = (command: string) => ({
      kind: "measure.run",
      ts: Date.now(),
      data: { ...measurement({ family: command, command }) },
    });
    const commands = (store: Store | null) =>
      store!.db.prepare("SELECT command FROM runs ORDER BY command").all()
        .map((r) => String(r.command));
    const config = defaultConfig();
    try {
      const file = ["git log", `ls '<img src=x onerror="alert(1)">'`];
      deepStrictEqual(copy.read(storePath(FILLED), [entry("a")], config, commands), [
        "a",
        ...file,
      ]);
      // The same copy, another spool: the first read's row is gone.
      deepStrictEqual(copy.read(storePath(FILLED), [entry("b")], config, commands), [
        "b",
        ...file,
      ]);
      deepStrictEqual(copy.read(storePath(FILLED), [], config, commands), file);
      // No store yet: the spool alone, in memory; nothing is created.
      deepStrictEqual(copy.read(storePath(NONE), [entry("c")], config, commands), ["c"]);
      deepStrictEqual([...Deno.readDirSync(NONE)], []);
    } finally {
      copy.close();
    }
  },
});
