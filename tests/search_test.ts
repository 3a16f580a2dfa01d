import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { buildLab, pointerId, rtok, tempDir } from "./_helpers.ts";

Deno.test("rtok search finds what a cut output said, in this project, with its id and lines", async () => {
  using dir = tempDir();
  const home = `${dir.path}/home`;
  const lab = `${dir.path}/lab`;
  await buildLab(lab);
  const ran = await rtok(home, ["git", "log"], { cwd: lab });
  const id = pointerId(ran.out)!;
  ok(id, ran.out);

  const text = await rtok(home, ["search", "Grace"], { cwd: lab });
  strictEqual(text.code, 0, text.err);
  match(text.out, new RegExp(`^1 archived output in ${lab} mentions "Grace", newest first:\n`));
  match(
    text.out,
    new RegExp(`\n${id}  \\d+ s ago  exit 0  git log\n  \\d+:\\s+Co-authored-by: Grace`),
  );

  const json = await rtok(home, ["search", "signed", "off", "--format", "json"], { cwd: lab });
  const r = JSON.parse(json.out) as { matchedAs: string; hits: { id: string }[] };
  deepStrictEqual([r.matchedAs, r.hits.map((h) => h.id)], ["fts", [id]]);

  // Another directory sees nothing unless it asks for every project.
  const other = await rtok(home, ["search", "Grace"], { cwd: dir.path + "/home" });
  strictEqual(other.code, 1);
  match(other.out, /No archived output in .* mentions "Grace"/);
  const all = await rtok(home, ["search", "Grace", "--all-projects"], { cwd: dir.path });
  strictEqual(all.code, 0);
  match(all.out, /in all projects/);
});

Deno.test("rtok search reads a query with FTS5 syntax errors as plain words", async (t) => {
  using dir = tempDir();
  const home = `${dir.path}/home`;
  const lab = `${dir.path}/lab`;
  await buildLab(lab);
  await rtok(home, ["git", "log"], { cwd: lab });
  for (const q of ["Grace (", "Co-authored-by", "grace:x", '"Grace']) {
    await t.step(q, async () => {
      const r = await rtok(home, ["search", q, "--format", "json"], { cwd: lab });
      strictEqual(r.err, "");
      const s = JSON.parse(r.out) as { matchedAs: string; hits: unknown[] };
      strictEqual(s.matchedAs, "words");
      strictEqual(s.hits.length, q === "grace:x" ? 0 : 1);
    });
  }
});

Deno.test("rtok search names what is wrong with its arguments", async () => {
  using dir = tempDir();
  const none = await rtok(dir.path, ["search"]);
  strictEqual(none.code, 1);
  match(none.err, /expected a query: rtok search <query>/);
  const bad = await rtok(dir.path, ["search", "x", "--limit", "0"]);
  match(bad.err, /--limit "0": expected a whole number/);
  const help = await rtok(dir.path, ["search", "--help"]);
  match(help.out, /--all-projects/);
});
