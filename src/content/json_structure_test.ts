import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { decode } from "@toon-format/toon";
import { prng } from "../../tests/_prng.ts";
import { estimate } from "../core/tokens.ts";
import { chooseJsonForm, compressJson, jsonTabular } from "./json_structure.ts";
import { ARRAY_HEAD, ARRAY_TAIL, compactJson } from "./json_text.ts";

// A number as written in its source, so `1.0` and `1` differ and no digit is lost.
class Num {
  constructor(readonly raw: string) {}
}

type Reviver = (key: string, value: unknown, context?: { source?: string }) => unknown;
const lexemes: Reviver = (_k, v, ctx) => typeof v === "number" ? new Num(ctx!.source!) : v;

// The input read independently of the code under test: JSON.parse, numbers as their source.
const parseExact = (json: string): unknown =>
  JSON.parse(json, lexemes as (k: string, v: unknown) => unknown);

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/;

function set(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

function scalar(s: string): unknown {
  if (s[0] === '"') return JSON.parse(s);
  if (s[0] === "{" || s[0] === "[") return parseExact(s);
  if (s === "true" || s === "false") return s === "true";
  if (s === "null") return null;
  if (JSON_NUMBER.test(s)) return new Num(s);
  return s;
}

// End of the JSON string whose quote is at `i`.
function stringEnd(s: string, i: number): number {
  let j = i + 1;
  while (s[j] !== '"') j += s[j] === "\\" ? 2 : 1;
  return j + 1;
}

// Cells as written: a quoted string, a JSON container, or bare text up to the next comma.
function splitCells(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= s.length) {
    const start = i;
    if (s[i] === '"') i = stringEnd(s, i);
    else if (s[i] === "[" || s[i] === "{") {
      let depth = 0;
      do {
        if (s[i] === '"') {
          i = stringEnd(s, i);
          continue;
        }
        if (s[i] === "[" || s[i] === "{") depth++;
        if (s[i] === "]" || s[i] === "}") depth--;
        i++;
      } while (depth > 0);
    } else while (i < s.length && s[i] !== ",") i++;
    out.push(s.slice(start, i));
    strictEqual(s[i] === "," || i === s.length, true, `cell ends at ${i} of ${s}`);
    i++;
  }
  return out;
}

// A header's column paths: dotted segments, each bare or a JSON string.
function columns(s: string): string[][] {
  const cols: string[][] = [[]];
  let i = 0;
  while (i < s.length) {
    const seg = cols[cols.length - 1];
    if (s[i] === '"') {
      const end = stringEnd(s, i);
      seg.push(JSON.parse(s.slice(i, end)));
      i = end;
    } else {
      const m = /^[^.,"]+/.exec(s.slice(i))!;
      seg.push(m[0]);
      i += m[0].length;
    }
    if (s[i] === ",") cols.push([]);
    i++;
  }
  return cols;
}

/** The tabular form read back: the value, and the `… cut` lines it holds. */
function decodeTabular(text: string): { value: unknown; cuts: string[] } {
  const lines = text.split("\n");
  const cuts: string[] = [];
  let i = 0;
  const indent = (l: string) => l.length - l.trimStart().length;
  const at = (ind: number) => i < lines.length && indent(lines[i]) === ind;
  const isMember = (c: string) =>
    c[0] === '"' ? ":[".includes(c[stringEnd(c, 0)]) : /^[\w$@][\w$@.\/-]*[:[]/.test(c);

  function block(ind: number): Record<string, unknown> {
    const o: Record<string, unknown> = {};
    while (at(ind) && !lines[i].startsWith("- ", ind) && !lines[i].startsWith("…", ind)) {
      const content = lines[i++].slice(ind);
      const end = content[0] === '"' ? stringEnd(content, 0) : /^[^:[]+/.exec(content)![0].length;
      const key = content[0] === '"' ? JSON.parse(content.slice(0, end)) : content.slice(0, end);
      set(o, key, rest(content.slice(end), ind));
    }
    return o;
  }

  function rest(r: string, ind: number): unknown {
    if (r === ":") return block(ind + 2);
    if (r.startsWith(": ")) return scalar(r.slice(2));
    const m = /^\[(\d+)\](?:\{(.*)\})?:(?: (.*))?$/.exec(r);
    ok(m, `not a header: ${r}`);
    const n = Number(m[1]);
    let items: unknown[];
    let cut = false;
    if (m[3] !== undefined) {
      const cells = splitCells(m[3]);
      cut = cells.some((c) => c.startsWith("…"));
      if (cut) cuts.push(cells.find((c) => c.startsWith("…"))!);
      items = cells.filter((c) => !c.startsWith("…")).map(scalar);
    } else if (m[2] !== undefined) {
      const cols = columns(m[2]);
      items = [];
      while (at(ind + 2)) {
        const row = lines[i++].slice(ind + 2);
        if (row.startsWith("…")) {
          cuts.push(row);
          cut = true;
          continue;
        }
        const o: Record<string, unknown> = {};
        splitCells(row).forEach((cell, c) => {
          if (cell === "") return;
          let target = o;
          for (const seg of cols[c].slice(0, -1)) {
            if (!Object.hasOwn(target, seg)) set(target, seg, {});
            target = target[seg] as Record<string, unknown>;
          }
          set(target, cols[c].at(-1)!, scalar(cell));
        });
        items.push(o);
      }
    } else {
      items = [];
      while (at(ind + 2)) {
        if (lines[i].startsWith("…", ind + 2)) {
          cuts.push(lines[i++].slice(ind + 2));
          cut = true;
          continue;
        }
        items.push(item(ind + 2));
      }
    }
    if (!cut) strictEqual(items.length, n, `[${n}] holds ${items.length}`);
    return items;
  }

  function item(ind: number): unknown {
    ok(lines[i].startsWith("- ", ind), lines[i]);
    lines[i] = " ".repeat(ind + 2) + lines[i].slice(ind + 2);
    const content = lines[i].slice(ind + 2);
    if (content.startsWith("[") && content !== "[]") {
      return rest(lines[i++].slice(ind + 2), ind + 2);
    }
    if (isMember(content)) return block(ind + 2);
    i++;
    return scalar(content);
  }

  const value = text.startsWith("[") ? rest(lines[i++], 0) : block(0);
  strictEqual(i, lines.length, `line ${i + 1} not read: ${lines[i]}`);
  return { value, cuts };
}

// What the agent reads back from a chosen form (TOON numbers as plain numbers).
function readBack(form: string, text: string): unknown {
  if (form === "tabular") return decodeTabular(text).value;
  if (form === "toon") return decode(text);
  return parseExact(text);
}

const WEIRD_STRINGS = [
  "",
  " leading space",
  "trailing space ",
  "a, b",
  '"quoted"',
  'inner "quotes"',
  "12",
  "-3.5e2",
  "1.2.3",
  "true",
  "null",
  "[not an array]",
  "{not an object}",
  "… starts with an ellipsis",
  "error: looks like a key",
  "key[3]: looks like an array",
  "10..12",
  "line\nbreak",
  "tab\there",
  "é ünïcode 🎉",
  "back\\slash",
  "- dash",
  "x",
];

function realisticIssues(n: number, seed: number): unknown[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const logins = ["octocat", "hubot", "monalisa", "defunkt", "mojombo", "pjhyett"];
  return Array.from({ length: n }, (_, i) => {
    const login = pick(logins);
    return {
      id: 2_000_000_000 + i * 7,
      number: 4000 - i,
      title: `${pick(["Fix", "Add", "Remove", "Refactor"])} ${
        pick(["parser", "cache", "CLI flags", "docs, again"])
      } (#${100 + i})`,
      state: pick(["open", "closed"]),
      locked: false,
      user: { login, id: 1000 + logins.indexOf(login), site_admin: false },
      labels: rand() < 0.5 ? [] : [{ name: pick(["bug", "enhancement"]), color: "d73a4a" }],
      comments: Math.floor(rand() * 20),
      created_at: `2024-0${1 + (i % 9)}-1${i % 10}T12:00:00Z`,
      score: Math.round(rand() * 1000) / 10,
      html_url: `https://github.com/acme/widgets/issues/${4000 - i}`,
    };
  });
}

Deno.test("jsonTabular() reads back to the input exactly: every key, string and number", async (t) => {
  const cases: Record<string, string> = {
    "table with nested objects and arrays": JSON.stringify(
      { total: 25, items: realisticIssues(25, 1) },
      null,
      2,
    ),
    "rows that differ in a key": JSON.stringify([
      { id: 1, name: "a", extra: { deep: [1, 2] } },
      { id: 2, name: "b" },
      { id: 3, name: "c", extra: null },
    ]),
    "strings of every awkward kind, as values, cells and items": JSON.stringify({
      values: Object.fromEntries(WEIRD_STRINGS.map((s, i) => [`k${i}`, s])),
      cells: WEIRD_STRINGS.map((s, i) => ({ i, s })),
      inline: WEIRD_STRINGS,
      items: [...WEIRD_STRINGS, { o: 1 }, [1, [2]], [], {}],
    }),
    "keys that are not plain words": JSON.stringify({
      "a b": 1,
      "a.b": { "c.d": 2 },
      "": 3,
      "x:y": [{ "p.q": 1, "r,s": 2 }, { "p.q": 3, "r,s": 4 }],
      "@types/node": "^20.0.0",
      "200": "OK",
      "-flag": true,
      "__proto__": { polluted: true },
    }),
    "numbers as written": '{"a": 1.0, "b": -0, "c": 1E+2, "d": 12345678901234567890123, ' +
      '"e": [1.50, 2e-7, 0.1], "f": [{"v": 1.0}, {"v": 100000000000000000001}]}',
    "escapes in strings": '{"s": "\\u0041\\/\\"x\\"", "t": ["\\u00e9", "a\\nb"]}',
    "a root array of arrays": "[[1, 2], [3, [4, 5]], [], [{}]]",
    "a root array of scalars": '[1, "two", true, null, 3.0]',
    "duplicate keys (the last wins, as JSON.parse)": '{"a": 1, "a": 2, "rows": [{"x": 1}]}',
    "empty containers": '{"o": {}, "a": [], "n": [[], {}], "t": [{"a": {}}, {"a": {}}]}',
    "CRLF layout": '{\r\n  "a": [\r\n    {"id": 1},\r\n    {"id": 2}\r\n  ]\r\n}\r\n',
  };
  for (const [name, text] of Object.entries(cases)) {
    await t.step(name, () => {
      const tabular = jsonTabular(text);
      ok(tabular !== null);
      const back = decodeTabular(tabular);
      deepStrictEqual(back.cuts, []);
      deepStrictEqual(back.value, parseExact(text));
    });
  }
});

Deno.test("chooseJsonForm() keeps every value in whichever form it picks", async (t) => {
  const cases: Record<string, string> = {
    "issues": JSON.stringify(realisticIssues(40, 2), null, 2),
    "flags keyed by name": JSON.stringify(
      {
        flags: Object.fromEntries(
          Array.from({ length: 30 }, (_, i) => [`flag_${i}`, { on: i % 2 === 0, pct: i * 5 }]),
        ),
      },
      null,
      2,
    ),
    "deeply nested config": JSON.stringify(
      { a: { b: { c: { d: { e: { f: [1, 2, 3] } } } } } },
      null,
      2,
    ),
  };
  for (const [name, text] of Object.entries(cases)) {
    await t.step(name, () => {
      const r = chooseJsonForm(text);
      ok(r);
      deepStrictEqual(r.cut, []);
      // TOON reads numbers back as numbers; these inputs hold none a double would change.
      const want = r.form === "toon" ? JSON.parse(text) : parseExact(text);
      deepStrictEqual(readBack(r.form, r.text), want);
      strictEqual(r.text.length, Math.min(...Object.values(r.sizes)));
    });
  }
});

Deno.test("chooseJsonForm() picks TOON where it is shorter and the tabular form where it is", () => {
  // Objects keyed by name: TOON's keyed table writes each key once, the tabular form once per line.
  const flags = JSON.stringify(
    {
      flags: Object.fromEntries(
        Array.from(
          { length: 40 },
          (_, i) => [`flag_${i}`, { enabled: i % 2 === 0, owner: `team-${i % 4}` }],
        ),
      ),
    },
    null,
    2,
  );
  const keyed = chooseJsonForm(flags)!;
  strictEqual(keyed.form, "toon");
  ok(keyed.sizes.toon! < keyed.sizes.tabular!, JSON.stringify(keyed.sizes));
  ok(keyed.text.startsWith("flags[40:]{enabled,owner}:"), keyed.text.slice(0, 60));

  // Rows that differ in one key, with a nested user: TOON falls back to one item per row.
  const issues = realisticIssues(40, 3);
  (issues[7] as Record<string, unknown>).milestone = "v2";
  const mixed = chooseJsonForm(JSON.stringify(issues, null, 2))!;
  strictEqual(mixed.form, "tabular");
  ok(mixed.sizes.tabular! < mixed.sizes.toon!, JSON.stringify(mixed.sizes));
  ok(mixed.text.startsWith("[40]{id,number,title,state,locked,user.login,user.id,"));

  // Deep nesting with nothing tabular: compact JSON is shortest.
  const deep = JSON.stringify({ a: { b: { c: { d: { e: { f: { g: { h: [1, 2] } } } } } } } });
  strictEqual(chooseJsonForm(JSON.stringify(JSON.parse(deep), null, 2))!.form, "compact");
});

Deno.test("compressJson() keeps numbers exactly as written (1.0, -0, 1E+2, big integers)", () => {
  const rows = Array.from({ length: 12 }, (_, i) => `{"id": ${i}, "price": ${i}.50}`);
  const text = `{\n  "big": 12345678901234567890123,\n  "float": 1.0,\n  "negZero": -0,\n` +
    `  "exp": 1E+2,\n  "rows": [\n    ${rows.join(",\n    ")}\n  ]\n}\n`;
  const r = compressJson(text);
  ok(r);
  for (const lexeme of ["12345678901234567890123", "1.0", "-0", "1E+2", "0.50", "11.50"]) {
    ok(
      new RegExp(`(^|[\\s:,\\[])${lexeme.replace(/[.+]/g, "\\$&")}($|[\\s,\\]])`, "m").test(r.text),
      lexeme,
    );
  }
});

function idsOfCutLine(line: string): string[] {
  const list = /; [^;:]+: (.*)$/.exec(line)![1];
  return splitCells(list).flatMap((cell) => {
    const range = /^(-?\d+)\.\.(-?\d+)$/.exec(cell);
    if (!range) return [String(scalar(cell) instanceof Num ? cell : scalar(cell))];
    const out: string[] = [];
    for (let v = Number(range[1]); v <= Number(range[2]); v++) out.push(String(v));
    return out;
  });
}

Deno.test("compressJson() cuts a huge uniform array to head and tail and keeps every id", async (t) => {
  const n = 1855;
  await t.step("integer ids (a run of them as a..b)", () => {
    const rows = Array.from(
      { length: n },
      (_, i) => ({ id: 10 + i, name: `row ${i}`, ok: !!(i % 2) }),
    );
    const r = compressJson(JSON.stringify({ total: n, rows }, null, 2));
    ok(r);
    deepStrictEqual(r.cut, ["1,840 items of 1 array"]);
    const back = decodeTabular(r.text);
    const kept = (back.value as { rows: { id: Num }[] }).rows;
    strictEqual(kept.length, ARRAY_HEAD + ARRAY_TAIL);
    strictEqual(back.cuts.length, 1);
    ok(back.cuts[0].startsWith("… 1,840 items cut; id: "), back.cuts[0]);
    const ids = [...kept.map((row) => row.id.raw), ...idsOfCutLine(back.cuts[0])];
    deepStrictEqual(ids.sort(), rows.map((row) => String(row.id)).sort());
    // The kept rows are the input's first and last, every value as it was.
    const exact = parseExact(JSON.stringify(rows)) as unknown[];
    deepStrictEqual(kept, [...exact.slice(0, ARRAY_HEAD), ...exact.slice(-ARRAY_TAIL)]);
  });
  await t.step("uuid ids, a key only cut rows have named", () => {
    const rand = prng(7);
    const hex = (k: number) =>
      Array.from({ length: k }, () => Math.floor(rand() * 16).toString(16)).join("");
    const rows = Array.from({ length: n }, (_, i) => ({
      uuid: `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`,
      seq: i,
      ...(i === 900 ? { retired_at: "2024-05-01" } : {}),
    }));
    const r = compressJson(JSON.stringify(rows));
    ok(r);
    const back = decodeTabular(r.text);
    ok(back.cuts[0].includes("(they also have keys retired_at)"), back.cuts[0]);
    const kept = (back.value as { uuid: string }[]).map((row) => row.uuid);
    const ids = [
      ...kept.slice(0, ARRAY_HEAD),
      ...idsOfCutLine(back.cuts[0]),
      ...kept.slice(-ARRAY_TAIL),
    ];
    deepStrictEqual(ids, rows.map((row) => row.uuid));
  });
  await t.step("foreign-key ids when there is no id (the first *_id key)", () => {
    const rows = Array.from({ length: n }, (_, i) => ({ order_id: `ORD-${i}`, user_id: i % 7 }));
    const r = compressJson(JSON.stringify({ orders: rows }, null, 1))!;
    const back = decodeTabular(r.text);
    ok(back.cuts[0].includes("; order_id: ORD-10,ORD-11,"), back.cuts[0].slice(0, 80));
    const kept = (back.value as { orders: { order_id: string }[] }).orders.map((o) => o.order_id);
    deepStrictEqual(
      [...kept, ...idsOfCutLine(back.cuts[0])].sort(),
      rows.map((o) => o.order_id).sort(),
    );
  });
});

Deno.test("compressJson() keeps whole an array whose ids a cut row lacks, and an array of ids", () => {
  const rows = Array.from({ length: 3000 }, (_, i) => (i === 1500 ? { n: i } : { id: i, n: i }));
  const r = compressJson(JSON.stringify({ rows }, null, 2));
  ok(r);
  deepStrictEqual(r.cut, []);
  deepStrictEqual(readBack(chooseJsonForm(JSON.stringify({ rows }, null, 2))!.form, r.text), {
    ...parseExact(JSON.stringify({ rows })) as object,
  });
  const ids = Array.from({ length: 6000 }, (_, i) => i * 3);
  const idsDoc = JSON.stringify({ member_ids: ids, tags: ids.map((i) => `t${i}`) }, null, 2);
  const cut = compressJson(idsDoc)!;
  deepStrictEqual(cut.cut, ["5,985 items of 1 array"]);
  const back = decodeTabular(cut.text).value as { member_ids: Num[] };
  deepStrictEqual(back.member_ids.map((v) => Number(v.raw)), ids);
});

Deno.test("compressJson() is strictly smaller on realistic tool output, in chars and tokens", async (t) => {
  const cases: Record<string, string> = {
    "issues list, pretty": JSON.stringify(realisticIssues(60, 4), null, 2),
    "issues list, 2,000 of them": JSON.stringify(realisticIssues(2000, 5), null, 2),
    "search results with nested hits": JSON.stringify(
      {
        took: 12,
        hits: {
          total: { value: 200, relation: "eq" },
          hits: realisticIssues(200, 6).map((doc, i) => ({ _id: `doc-${i}`, _score: 1.5, doc })),
        },
      },
      null,
      2,
    ),
  };
  for (const [name, text] of Object.entries(cases)) {
    await t.step(name, () => {
      const r = compressJson(text);
      ok(r);
      ok(r.text.length < text.length);
      ok(estimate(r.text, "json") < estimate(text, "json"));
      ok(r.text.length < compactJson(text).length, "beats compact JSON too");
    });
  }
});

Deno.test("compressJson() returns null for what it cannot help, and never throws", async (t) => {
  const cases: Record<string, string> = {
    "empty": "",
    "blank": "  \n",
    "invalid JSON": '{"a": 1,',
    "a scalar": "42",
    "a string": '"just text"',
    "already compact and tiny": "[1,2,3]",
    "not JSON at all": "hello world",
    "nested deeper than the stack": "[".repeat(200_000) + "]".repeat(200_000),
    "a BOM before the document": '\ufeff{"a": [1, 2]}',
  };
  for (const [name, text] of Object.entries(cases)) {
    await t.step(name, () => strictEqual(compressJson(text), null));
  }
  await t.step("a huge single-line string value is kept whole", () => {
    const big = "x".repeat(500_000);
    const r = compressJson(JSON.stringify({ blob: big }, null, 2));
    ok(r === null || r.text.includes(big));
  });
});

Deno.test("compressJson() names one cut for one long array of rows", () => {
  const text = JSON.stringify({ rows: realisticIssues(1500, 8) }, null, 2);
  const a = compressJson(text);
  ok(a && a.cut.length === 1);
});
