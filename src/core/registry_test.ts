import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { type Config, DEFAULT_CONFIG } from "./config.ts";
import type { Injection, Plugin, PreToolDecision } from "./plugin.ts";
import { KEEP_FOREIGN_MS, makeCtx, Registry } from "./registry.ts";
import { appendSpool, parseSpool, spoolPath } from "./spool.ts";
import { Store, storePath } from "./store.ts";
import { BUILTIN_PLUGINS } from "../plugins/mod.ts";
import { CATALOGUE } from "../plugins/catalogue.ts";

function config(plugins: Config["plugins"] = {}): Config {
  return { ...structuredClone(DEFAULT_CONFIG) as Config, plugins };
}

function plugin(id: string, methods: Partial<Plugin> = {}, defaultOn = true): Plugin {
  return {
    manifest: { id, surfaces: ["hook"], defaultOn, description: `${id} for tests` },
    ...methods,
  };
}

function ctxFor(registry: Registry) {
  return makeCtx(registry, { config: config(), store: null, home: "" });
}

const EV = { tool: "Bash", input: { command: "git log" }, cwd: "/" };
const SESSION = { event: "SessionStart" };

Deno.test("CATALOGUE lists exactly the built-in plugins, with their defaults, in order", () => {
  deepStrictEqual(
    BUILTIN_PLUGINS.map((p) => ({ id: p.manifest.id, defaultOn: p.manifest.defaultOn })),
    CATALOGUE.map((c) => ({ id: c.id, defaultOn: c.defaultOn })),
  );
});

Deno.test("Registry keeps plugins config enables, else their default, in the given order", () => {
  const plugins = [plugin("b"), plugin("a"), plugin("off", {}, false), plugin("c")];
  const r = new Registry(plugins, config({ c: { enabled: false }, off: { enabled: true } }), [
    "a",
    "b",
  ]);
  deepStrictEqual(r.enabled.map((p) => p.manifest.id), ["a", "b", "off"]);
  ok(r.has("off"));
  ok(!r.has("c"));
});

Deno.test("Registry.preTool(): the first deny wins over any rewrite", async () => {
  const rewrite = (cmd: string): Partial<Plugin> => ({
    preTool: (): PreToolDecision => ({ kind: "rewrite", input: { command: cmd }, reason: cmd }),
  });
  const r = new Registry([
    plugin("a", rewrite("rtok git log")),
    plugin("b", { preTool: () => ({ kind: "deny", reason: "first" }) }),
    plugin("c", { preTool: () => ({ kind: "deny", reason: "second" }) }),
  ], config());
  deepStrictEqual(await r.preTool(EV, ctxFor(r)), { kind: "deny", reason: "first" });
});

Deno.test("Registry.preTool(): the last rewrite wins; no opinion gives null", async () => {
  const rewrite = (cmd: string): Partial<Plugin> => ({
    preTool: (): PreToolDecision => ({ kind: "rewrite", input: { command: cmd }, reason: cmd }),
  });
  const r = new Registry([plugin("a", rewrite("one")), plugin("b", rewrite("two"))], config());
  deepStrictEqual(await r.preTool(EV, ctxFor(r)), {
    kind: "rewrite",
    input: { command: "two" },
    reason: "two",
  });
  const silent = new Registry([plugin("a", { preTool: () => null })], config());
  strictEqual(await silent.preTool(EV, ctxFor(silent)), null);
});

Deno.test("Registry isolates a plugin that throws: dropped for that event, error kept", async () => {
  const r = new Registry([
    plugin("bad", {
      preTool: () => {
        throw new Error("boom");
      },
    }),
    plugin("good", { preTool: () => ({ kind: "deny", reason: "still answers" }) }),
  ], config());
  deepStrictEqual(await r.preTool(EV, ctxFor(r)), { kind: "deny", reason: "still answers" });
  strictEqual(r.errors.length, 1);
  strictEqual(r.errors[0].plugin, "bad");
  strictEqual(r.errors[0].event, "preTool");
});

Deno.test("Registry.postTool() concatenates contexts under the budget; the first output wins", async () => {
  const asked: string[] = [];
  const r = new Registry([
    plugin("a", { postTool: () => (asked.push("a"), { context: "alpha" }) }),
    plugin("b", {
      postTool: () => (asked.push("b"), { context: "beta", output: { stdout: "x" } }),
    }),
    plugin("c", { postTool: () => (asked.push("c"), { output: { stdout: "y" } }) }),
  ], config());
  const ev = { ...EV, output: {} };
  deepStrictEqual(await r.postTool(ev, ctxFor(r), 100), {
    context: "alpha\nbeta",
    output: { stdout: "x" },
  });
  deepStrictEqual(asked, ["a", "b"], "no plugin after the replacement is asked");
  deepStrictEqual(await r.postTool(ev, ctxFor(r), 7), {
    context: "alpha\nb",
    output: { stdout: "x" },
  });
  const none = new Registry([plugin("a", { postTool: () => null })], config());
  strictEqual(await none.postTool(ev, ctxFor(none), 100), null);
});

Deno.test("Registry.postTool() awaits each plugin, keeps the first text, and isolates one that throws", async () => {
  const r = new Registry([
    plugin("bad", { postTool: () => Promise.reject(new Error("broken")) }),
    plugin("a", { postTool: () => Promise.resolve({ text: "first" }) }),
    plugin("c", { postTool: async () => ({ text: await Promise.resolve("second") }) }),
  ], config());
  const ev = { ...EV, output: {} };
  deepStrictEqual(await r.postTool(ev, ctxFor(r), 100), { text: "first" });
  strictEqual(r.errors.length, 1);
  strictEqual(r.errors[0].plugin, "bad");
  strictEqual(r.errors[0].event, "postTool");
});

Deno.test("Registry.postTool() asks no plugin after one that keeps the output as it is", async () => {
  const r = new Registry([
    plugin("a", { postTool: () => ({ context: "ctx" }) }),
    plugin("keeper", { postTool: () => ({ keep: true }) }),
    plugin("c", { postTool: () => ({ text: "cut" }) }),
  ], config());
  const ev = { ...EV, output: {} };
  deepStrictEqual(await r.postTool(ev, ctxFor(r), 100), { context: "ctx" });
  const alone = new Registry([plugin("keeper", { postTool: () => ({ keep: true }) })], config());
  strictEqual(await alone.postTool(ev, ctxFor(alone), 100), null);
});

Deno.test("Registry.inject() emits by priority while the budget lasts", () => {
  const inj = (text: string, priority: number): Partial<Plugin> => ({
    sessionStart: (): Injection => ({ text, priority }),
  });
  const r = new Registry([
    plugin("low", inj("low priority text", 1)),
    plugin("high", inj("high", 9)),
    plugin("mid", inj("middle", 5)),
  ], config());
  strictEqual(r.inject("sessionStart", SESSION, ctxFor(r), 100), "high\nmiddle\nlow priority text");
  strictEqual(r.inject("sessionStart", SESSION, ctxFor(r), 12), "high\nmiddle");
  strictEqual(r.inject("sessionStart", SESSION, ctxFor(r), 3), null);
});

Deno.test("makeCtx() routes record() to every plugin that persists measurements", async () => {
  const seen: string[] = [];
  const r = new Registry([
    plugin("a", { onMeasurement: (m) => void seen.push(`a:${m.family}`) }),
    plugin("b", { onMeasurement: (m) => void seen.push(`b:${m.family}`) }),
  ], config());
  await ctxFor(r).record({
    surface: "cli",
    plugin: "cmd",
    family: "git log",
    command: "git log",
    rtokCommand: "rtok git log",
    project: "/",
    session: null,
    turn: null,
    rawChars: 10,
    emittedChars: 5,
    textClass: "log",
    stage: "filter",
    lossy: false,
    archiveId: null,
    exitCode: 0,
    elapsedMs: 1,
    passthrough: null,
  });
  deepStrictEqual(seen, ["a:git log", "b:git log"]);
});

Deno.test("Registry.keepRaw() falls through a failing archive and reports null", async () => {
  const r = new Registry([
    plugin("broken", { keepRaw: () => Promise.reject(new Error("disk full")) }),
  ], config());
  const id = await r.keepRaw(new Uint8Array([1]), {
    command: "x",
    cwd: "/",
    exitCode: 0,
    family: "x",
  }, ctxFor(r));
  strictEqual(id, null);
  strictEqual(r.errors[0].event, "keepRaw");
});

Deno.test({
  name: "Registry.drain(): a known plugin applies its rows, a disabled one's are dropped, " +
    "another program's stay spooled for a week",
  permissions: { read: true, write: true },
  fn() {
    const home = Deno.makeTempDirSync();
    const got: string[] = [];
    const plugin = (id: string, defaultOn: boolean): Plugin => ({
      manifest: { id, surfaces: ["cli"], defaultOn, description: id },
      ingest: (entries) => got.push(...entries.map((e) => e.kind)),
    });
    const now = Date.now();
    appendSpool(home, [
      { kind: "mine.a", ts: now, data: {} },
      { kind: "off.b", ts: now, data: {} },
      { kind: "theirs.c", ts: now, data: {} },
      { kind: "theirs.old", ts: now - KEEP_FOREIGN_MS - 1000, data: {} },
    ]);
    const store = Store.open(storePath(home));
    try {
      const registry = new Registry([plugin("mine", true), plugin("off", false)], DEFAULT_CONFIG);
      const drained = registry.drain(makeCtx(registry, { config: DEFAULT_CONFIG, store, home }));
      deepStrictEqual(got, ["mine.a"]);
      strictEqual(drained.entries, 3);
      deepStrictEqual(
        parseSpool(Deno.readTextFileSync(spoolPath(home))).entries.map((e) => e.kind),
        [
          "theirs.c",
        ],
      );
      // The program whose plugin it is drains it.
      const theirs = new Registry([plugin("theirs", true)], DEFAULT_CONFIG);
      theirs.drain(makeCtx(theirs, { config: DEFAULT_CONFIG, store, home }));
      deepStrictEqual(got, ["mine.a", "theirs.c"]);
    } finally {
      store.close();
      Deno.removeSync(home, { recursive: true });
    }
  },
});

Deno.test("makeCtx(): the context's archive keeps through the enabled plugin, its ledger records", async () => {
  const rows: string[] = [];
  const r = new Registry([
    plugin("keeps", { keepRaw: () => Promise.resolve("abc123abc123") }),
    plugin("off", { keepRaw: () => Promise.resolve("000000000000") }, false),
    plugin("ledger", { onMeasurement: (m) => void rows.push(m.family) }),
  ], config());
  const ctx = ctxFor(r);
  strictEqual(ctx.archive.unavailable, null);
  const meta = { command: "x", cwd: "/", exitCode: 0, family: "x" };
  strictEqual(await ctx.archive.keep(new Uint8Array([1]), meta), "abc123abc123");
  strictEqual(await ctx.keepRaw(new Uint8Array([1]), meta), "abc123abc123");
  await ctx.ledger.record({ family: "git log" } as Parameters<typeof ctx.record>[0]);
  deepStrictEqual(rows, ["git log"]);
});

Deno.test("makeCtx(): with no enabled plugin keeping bytes, the archive keeps nothing and says why", async () => {
  const r = new Registry([
    plugin("off", { keepRaw: () => Promise.resolve("000000000000") }, false),
  ], config());
  const ctx = ctxFor(r);
  ok(ctx.archive.unavailable?.includes("enable the archive plugin"));
  strictEqual(
    await ctx.archive.keep(new Uint8Array([1]), {
      command: "x",
      cwd: "/",
      exitCode: 0,
      family: "x",
    }),
    null,
  );
  strictEqual(r.errors.length, 0);
});
