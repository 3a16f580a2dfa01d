import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { Store, storePath } from "../../core/store.ts";
import { keepRaw } from "./archive.ts";
import {
  humanAge,
  indexArchive,
  matchingLines,
  plainWords,
  queryTerms,
  searchArchive,
} from "./search.ts";

const perms = { read: true, write: true } as const;
const LIMITS = { maxAgeDays: 30, maxTotalMb: 256 };
const bytes = (text: string) => new TextEncoder().encode(text);

function setup(): { home: string; store: Store } & Disposable {
  const home = Deno.makeTempDirSync();
  const store = Store.open(storePath(home));
  return {
    home,
    store,
    [Symbol.dispose]() {
      store.close();
      Deno.removeSync(home, { recursive: true });
    },
  };
}

async function keep(s: { home: string; store: Store }, text: string, cwd: string, at: number) {
  return await keepRaw(
    s.store,
    s.home,
    bytes(text),
    { command: `cmd ${at}`, cwd, exitCode: 0, family: "git log" },
    LIMITS,
    at,
  );
}

Deno.test({
  name: "searchArchive() finds the outputs that mention a name, newest first, with their lines",
  permissions: perms,
  async fn() {
    using s = setup();
    const now = Date.now();
    const older = await keep(s, "a\nparseConfig failed\nb\n", "/repo", now - 3_600_000);
    const newer = await keep(s, "x\ncalls parseConfig here\n", "/repo/sub", now - 60_000);
    await keep(s, "nothing relevant\n", "/repo", now);
    const r = await searchArchive(s.store, s.home, "parseConfig", {
      project: "/repo",
      limit: 10,
      now,
    });
    strictEqual(r.matchedAs, "fts");
    strictEqual(r.indexed, 3);
    deepStrictEqual(r.hits.map((h) => h.id), [newer, older]);
    deepStrictEqual(r.hits[1].lines, [{ n: 2, text: "parseConfig failed" }]);
    strictEqual(r.hits[0].age, "1 min");
    strictEqual(r.hits[1].command, `cmd ${now - 3_600_000}`);
  },
});

Deno.test({
  name: "searchArchive() keeps to the project's directory and below unless told otherwise",
  permissions: perms,
  async fn() {
    using s = setup();
    const mine = await keep(s, "token here\n", "/work/app", 1);
    const other = await keep(s, "token there\n", "/work/app-other", 2);
    const scoped = await searchArchive(s.store, s.home, "token", {
      project: "/work/app",
      limit: 5,
    });
    deepStrictEqual(scoped.hits.map((h) => h.id), [mine]);
    const all = await searchArchive(s.store, s.home, "token", { project: null, limit: 5 });
    deepStrictEqual(all.hits.map((h) => h.id), [other, mine]);
  },
});

Deno.test({
  name: "searchArchive() searches an invalid FTS5 query as its plain words",
  permissions: perms,
  async fn(t) {
    using s = setup();
    const id = await keep(s, "error in foo-bar: AND then (x\n", "/r", 1);
    for (const q of ["foo-bar", '"unterminated foo', "AND", "(x", "foo:bar", "x)"]) {
      await t.step(q, async () => {
        const r = await searchArchive(s.store, s.home, q, { project: null, limit: 5 });
        strictEqual(r.matchedAs, "words");
        deepStrictEqual(r.hits.map((h) => h.id), q === '"unterminated foo' ? [] : [id]);
      });
    }
    await rejects(
      searchArchive(s.store, s.home, "  ", { project: null, limit: 5 }),
      /expected a search query/,
    );
  },
});

Deno.test({
  name: "indexArchive() indexes each output once and drops what retention removed",
  permissions: perms,
  async fn() {
    using s = setup();
    const day = 86_400_000;
    await keep(s, "old output\n", "/r", 0);
    strictEqual(await indexArchive(s.store, s.home), 1);
    strictEqual(await indexArchive(s.store, s.home), 0);
    // Keeping a new output 31 days later expires the old one.
    await keep(s, "new output\n", "/r", 31 * day);
    strictEqual(await indexArchive(s.store, s.home), 1);
    const r = await searchArchive(s.store, s.home, "output", { project: null, limit: 5 });
    strictEqual(r.hits.length, 1);
    const rows = s.store.db.prepare("SELECT count(*) AS n FROM archive_text").get() as {
      n: number;
    };
    strictEqual(Number(rows.n), 1);
  },
});

Deno.test({
  name: "indexArchive() marks a binary output and never offers it as a hit",
  permissions: perms,
  async fn() {
    using s = setup();
    await keepRaw(s.store, s.home, new Uint8Array([0x61, 0, 0x62]), {
      command: "cat bin",
      cwd: "/r",
      exitCode: 0,
      family: "cat",
    }, LIMITS);
    strictEqual(await indexArchive(s.store, s.home), 1);
    strictEqual(
      (await searchArchive(s.store, s.home, "a", { project: null, limit: 5 })).hits.length,
      0,
    );
  },
});

Deno.test("plainWords() quotes each word and drops bare punctuation", () => {
  strictEqual(plainWords('foo-bar "x ( y'), '"foo-bar" """x" "y"');
  strictEqual(plainWords("() *"), "");
});

Deno.test("queryTerms() drops operators and splits at underscores as the index does", () => {
  deepStrictEqual(queryTerms("parse_args OR tok* NOT x"), [
    { word: "parse", prefix: false },
    { word: "args", prefix: false },
    { word: "tok", prefix: true },
    { word: "x", prefix: false },
  ]);
});

Deno.test("matchingLines() matches whole words, or word starts for a prefix", () => {
  const body = "login ok\nlog line\nblog\nTOKENS\n";
  deepStrictEqual(matchingLines(body, [{ word: "log", prefix: false }]).map((l) => l.n), [2]);
  deepStrictEqual(matchingLines(body, [{ word: "log", prefix: true }]).map((l) => l.n), [1, 2]);
  deepStrictEqual(matchingLines(body, [{ word: "tokens", prefix: false }]).map((l) => l.n), [4]);
  ok(matchingLines("x".repeat(500), [{ word: "x", prefix: true }])[0].text.endsWith("…"));
});

Deno.test("humanAge() picks the largest whole unit", () => {
  deepStrictEqual([0, 59_000, 60_000, 7_200_000, 3 * 86_400_000].map(humanAge), [
    "0 s",
    "59 s",
    "1 min",
    "2 h",
    "3 d",
  ]);
});

Deno.test("matchingLines() ranks a line with more of the query's words first", () => {
  const body = "Date: Dec 3\nchange 3: tweak parser 3\nparser notes\nchange 30: tweak parser 30\n";
  const terms = [
    { word: "tweak", prefix: false },
    { word: "parser", prefix: false },
    { word: "3", prefix: false },
  ];
  deepStrictEqual(matchingLines(body, terms).map((l) => l.n), [2, 4, 1, 3]);
});
