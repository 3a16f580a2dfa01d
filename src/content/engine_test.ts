import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { readFixtures } from "../../tests/_fixtures.ts";
import type { CommandFilter } from "../core/filter.ts";
import { estimate } from "../core/tokens.ts";
import {
  CONTENT_MAX_CHARS,
  CONTENT_MIN_CHARS,
  type ContentResult,
  loadContentEngine,
  withPointer,
} from "./engine.ts";

const FIXTURES = new URL("../../tests/fixtures/", import.meta.url);
const engine = await loadContentEngine();
const read = { read: [FIXTURES] };

const fixtures = readFixtures;

// What the proxy sends: the text, then the pointer line when anything was cut.
const emitted = (r: ContentResult, id = "0123456789ab"): string => withPointer(r, id);

// A single-file grep never prints the file's name, so a fact naming it cannot be in the text;
// its count still must be.
const SOLE_FILE = /^(\d+ matches) in \S+$/;
const NAMES_THE_SOLE_FILE = new Set(["grep_one_file", "rg_one_file"]);

Deno.test(
  "ContentEngine.compress() keeps every fact of every fixture it compresses, and is smaller",
  {
    permissions: read,
  },
  async (t) => {
    let compressed = 0;
    const shapes = new Set<string>();
    for (const f of await fixtures()) {
      if (f.shaped.length < CONTENT_MIN_CHARS) continue;
      const r = engine.compress(f.shaped);
      if (!r) continue;
      compressed++;
      shapes.add(r.shape);
      await t.step(`${f.name} (${r.shape})`, () => {
        const out = emitted(r);
        ok(out.length < f.shaped.length, `${out.length} of ${f.shaped.length} chars`);
        ok(estimate(out, r.textClass) < estimate(f.shaped, r.textClass));
        for (const fact of f.meta.facts) {
          const sole = NAMES_THE_SOLE_FILE.has(f.name) ? SOLE_FILE.exec(fact) : null;
          const want = sole ? sole[1] : fact;
          ok(out.includes(want), `fact lost: ${JSON.stringify(want)}`);
        }
        // An exit code the text does not state (as such, or as TAP's `exitCode: N`) is invented.
        for (const m of out.matchAll(/exit code (\d+)|\(exit (\d+)\)/g)) {
          const stated = f.shaped.includes(m[0]) || f.shaped.includes(`exitCode: ${m[1] ?? m[2]}`);
          ok(stated, `invented "${m[0]}"`);
        }
      });
    }
    ok(compressed >= 70, `${compressed} fixtures compressed`);
    ok(shapes.size >= 24, `${shapes.size} shapes: ${[...shapes].join(", ")}`);
  },
);

Deno.test("ContentEngine.compress() compresses every fixture of a known shape over 500 chars", {
  permissions: read,
}, async (t) => {
  let checked = 0;
  for (const f of await fixtures()) {
    for (const [file, text] of [["raw", f.raw], ["shaped", f.shaped]] as const) {
      if (text.length < CONTENT_MIN_CHARS || (file === "raw" && f.raw === f.shaped)) continue;
      const shape = engine.detect(text);
      if (!shape?.family) continue;
      checked++;
      await t.step(`${f.name} ${file}.out (${shape.name})`, () => {
        const r = engine.compress(text);
        strictEqual(r?.shape, shape.name);
        ok(emitted(r).length < text.length);
      });
    }
  }
  ok(checked >= 75, `${checked} outputs checked`);
});

Deno.test("ContentEngine.compress() leaves text that carries a pointer line alone", {
  permissions: read,
}, async (t) => {
  let lossy = 0;
  for (const f of await fixtures()) {
    const r = f.shaped.length >= CONTENT_MIN_CHARS ? engine.compress(f.shaped) : null;
    if (!r || r.cut.length === 0) continue;
    lossy++;
    await t.step(f.name, () => {
      strictEqual(engine.compress(emitted(r, "a1b2c3d4e5f6")), null);
    });
  }
  ok(lossy >= 50, `${lossy} lossy fixtures`);
});

Deno.test("ContentEngine.compress() passes through a pointer line from a command's stderr", () => {
  const log = Array.from({ length: 300 }, (_, i) => `step ${i}: copying chunk ${i}`).join("\n");
  ok(engine.compress(log) !== null, "compresses without the pointer line");
  const withStderr = log + "\n[rtok: cut 12 lines; raw: rtok expand 0a1b2c3d4e5f]\nmore output\n";
  strictEqual(engine.compress(withStderr), null);
});

// `[` + spaces + `1]`: valid JSON of exactly `n` chars that compacts to `[1]`.
const padded = (n: number): string => "[" + " ".repeat(n - 3) + "1]";

Deno.test("ContentEngine.compress() passes through text under 500 chars", () => {
  strictEqual(engine.compress(padded(CONTENT_MIN_CHARS - 1)), null);
  strictEqual(engine.compress(padded(CONTENT_MIN_CHARS))?.text, "[1]");
});

Deno.test("ContentEngine.compress() passes through text over 10 MiB", () => {
  strictEqual(CONTENT_MAX_CHARS, 10 * 1024 * 1024);
  strictEqual(engine.compress(padded(CONTENT_MAX_CHARS))?.text, "[1]");
  strictEqual(engine.compress(padded(CONTENT_MAX_CHARS + 1)), null);
});

Deno.test("ContentEngine.compress() reads JSON by its structure, keeping every number's and string's text", () => {
  const items = Array.from({ length: 12 }, (_, i) => `    {"id": ${i}, "name": "item ${i}"}`);
  const pretty = [
    "{",
    '  "big": 12345678901234567890123,',
    '  "negZero": -0,',
    '  "float": 1.0,',
    '  "exp": 1E+2,',
    '  "escaped": "a  b\\" c\\u0041",',
    '  "items": [',
    items.join(",\n"),
    "  ]",
    "}",
    "",
  ].join("\n");
  ok(pretty.length >= CONTENT_MIN_CHARS);
  const r = engine.compress(pretty);
  strictEqual(r?.shape, "json");
  deepStrictEqual(r?.cut, []);
  // Strings by their value (escapes may be decoded), numbers as written.
  for (const lexeme of ["12345678901234567890123", "-0", "1.0", "1E+2", 'a  b" cA']) {
    ok(r.text.includes(lexeme), `${lexeme} as written, in:\n${r.text}`);
  }
  for (const key of ["big", "negZero", "float", "exp", "escaped", "items", "id", "name"]) {
    ok(r.text.includes(key), `key ${key}`);
  }
  for (let i = 0; i < 12; i++) ok(r.text.includes(`item ${i}`), `item ${i}`);
});

Deno.test("ContentEngine.compress() passes through JSON that is already compact", () => {
  const compact = JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ id: i })));
  strictEqual(engine.compress(compact), null);
});

Deno.test("ContentEngine.compress() cuts the long uniform arrays of huge JSON, naming every cut id", () => {
  const n = 1000;
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `rec_${(i * 7919) % 100003}`,
    name: `row ${i} with a description long enough to matter`,
    ok: i % 2 === 0,
  }));
  const pretty = JSON.stringify({ total: n, rows }, null, 2);
  const r = engine.compress(pretty);
  ok(r);
  strictEqual(r.shape, "json");
  // Every id is named, so no line with a name or a path is hidden: no span to point at.
  deepStrictEqual(r.cut.length, 1);
  match(r.cut[0], /^[\d,]+ items of 1 array$/);
  ok(r.text.length < pretty.length / 4, `${r.text.length} of ${pretty.length}`);
  for (const row of rows) ok(r.text.includes(row.id), `${row.id} named`);
  ok(r.text.includes(rows[0].name) && r.text.includes(rows[n - 1].name), "head and tail whole");
});

Deno.test("ContentEngine.compress() keeps every item of a huge JSON array of mixed kinds", () => {
  const mixed = Array.from({ length: 3000 }, (_, i) => i % 2 ? { id: i } : `s${i}`);
  const pretty = JSON.stringify(mixed, null, 2);
  const r = engine.compress(pretty);
  ok(r);
  deepStrictEqual(r.cut, []);
  deepStrictEqual(JSON.parse(r.text), mixed);
});

Deno.test("ContentEngine.compress() keeps head, tail and error lines of long text of no shape", () => {
  const lines = Array.from({ length: 500 }, (_, i) => `[worker] copied chunk ${i} of 500`);
  lines[250] = "Error: disk full while writing chunk 250";
  lines[300] = "Traceback (most recent call last):";
  const r = engine.compress(lines.join("\n") + "\n");
  ok(r);
  strictEqual(r.shape, "text");
  const out = r.text.split("\n");
  strictEqual(out[0], lines[0]);
  strictEqual(out[59], lines[59]);
  strictEqual(out[60], "… 398 lines cut; 2 error lines among them kept …");
  deepStrictEqual(out.slice(61, 63), [lines[250], lines[300]]);
  deepStrictEqual(out.slice(63, -1), lines.slice(460));
  // Raw lines 61–460 were cut (the two error lines among them kept), and the pointer says so.
  deepStrictEqual(r.cut, ["398 middle lines", "at lines 61–460"]);
});

Deno.test("ContentEngine.compress() trims a huge single line around its middle", () => {
  const line = "var a=" + "x".repeat(50_000) + ";end()";
  const r = engine.compress(line);
  ok(r);
  ok(r.text.startsWith("var a=xxx"));
  ok(r.text.endsWith("x;end()"));
  ok(r.text.length < 2_000);
  deepStrictEqual(r.cut, [`${line.length - 1_300} chars of 1 long line`]);
});

const throwing: CommandFilter = {
  name: "git log",
  textClass: "log",
  filter() {
    throw new TypeError("cannot read this log");
  },
};

Deno.test("ContentEngine.compress() falls back to head and tail when the shape's filter throws", {
  permissions: read,
}, async () => {
  const byName = new Map((await fixtures()).map((f) => [f.name, f]));
  const long = byName.get("git_log_history")!.shaped;
  const withThrowing = engine.withFilters({ "git log": throwing });
  const r = withThrowing.compress(long);
  strictEqual(r?.shape, "text");
  ok(r.text.includes("… "), r.text.slice(0, 200));
  // Too short for the fallback to cut anything: it passes through.
  strictEqual(withThrowing.compress(byName.get("git_log_lab")!.shaped), null);
});

Deno.test("ContentEngine.compress() passes through what a filter does not make smaller", {
  permissions: read,
}, async () => {
  const byName = new Map((await fixtures()).map((f) => [f.name, f]));
  const same: CommandFilter = {
    name: "git log",
    textClass: "log",
    filter: (raw) => ({ text: raw.slice(0, -40), cut: ["1 line"] }),
  };
  const text = byName.get("git_log_lab")!.shaped;
  ok(engine.compress(text) !== null);
  strictEqual(engine.withFilters({ "git log": same }).compress(text), null);
});

Deno.test("ContentEngine.compress() keeps the line that says what to do from the middle of a long build", () => {
  // A docker compose build whose one actionable line sits among hundreds of progress lines.
  const lines: string[] = [];
  for (let i = 0; i < 160; i++) {
    lines.push(`#${8 + (i % 4)} ${(i * 0.37).toFixed(3)} fetching layer ${i}`);
  }
  lines.push(
    "#12 [builder 6/9] RUN npx prisma generate",
    "#12 14.92 Prisma failed to detect the libssl/openssl version to use, and may not work as expected.",
    "#12 14.93 Please manually install OpenSSL and try installing Prisma again.",
  );
  for (let i = 0; i < 160; i++) lines.push(`#13 ${(20 + i * 0.2).toFixed(3)} copying file ${i}`);
  lines.push("#14 DONE 48.3s");
  const raw = lines.join("\n") + "\n";
  const r = engine.compress(raw);
  ok(r);
  ok(
    r.text.includes("#12 14.93 Please manually install OpenSSL and try installing Prisma again."),
    r.text,
  );
  ok(r.text.includes("Prisma failed to detect the libssl/openssl version to use"), r.text);
  ok(r.text.length < raw.length / 2);
});
