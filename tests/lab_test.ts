import { ok, strictEqual } from "node:assert/strict";
import { buildLab, pointerId, rtok, run, sh, sha256, tempDir } from "./_helpers.ts";

Deno.test("rtok git log on the seed's lab stays under 900 chars and keeps what matters", async () => {
  using tmp = tempDir();
  const repo = `${tmp.path}/filter-lab`;
  await buildLab(repo);
  const raw = await sh("git", ["log"], repo);
  strictEqual(raw.length, 2387, "the lab is the seed's lab");

  const r = await rtok(`${tmp.path}/home`, ["git", "log"], { cwd: repo });
  strictEqual(r.code, 0, r.err);
  ok(r.out.length <= 900, `${r.out.length} chars:\n${r.out}`);

  const subjects = (await sh("git", ["log", "-10", "--format=%s"], repo)).trimEnd().split("\n");
  strictEqual(subjects.length, 10);
  for (const s of subjects) ok(r.out.includes(s + "\n"), `subject kept whole: ${s}`);
  for (const h of (await sh("git", ["log", "-10", "--format=%h"], repo)).trimEnd().split("\n")) {
    ok(r.out.includes(h), `hash ${h}`);
  }
  for (
    const line of [
      "The old code indexed by UTF-16 code unit, so any astral-plane character",
      "was cut in half and produced two replacement glyphs downstream.",
      "This switches the whole pipeline to char indices.",
    ]
  ) ok(r.out.includes(line), `body line: ${line}`);
  ok(!r.out.includes("Signed-off-by"), "trailers dropped");
  ok(!r.out.includes("Co-authored-by"), "trailers dropped");
  ok(r.out.includes("Ada <ada@lab.dev>"), "who");
  ok(r.out.includes("2026-07-02 23:32"), "when");
  ok(!r.out.includes("feature 3 to"), "older commits are cut, not shown");
  ok(r.out.includes("3 older commits"), "and the cut is named");
});

Deno.test("rtok expand returns bytes whose sha256 equals the raw output's", async () => {
  using tmp = tempDir();
  const repo = `${tmp.path}/filter-lab`;
  const home = `${tmp.path}/home`;
  await buildLab(repo);
  const r = await rtok(home, ["git", "log"], { cwd: repo });
  const id = pointerId(r.out);
  ok(id, `a pointer line ends the output:\n${r.out}`);
  const expanded = await rtok(home, ["expand", id!], { cwd: repo });
  strictEqual(expanded.code, 0, expanded.err);
  // Fewer commits than stage 1 asks for, so the raw output is plain `git log`'s, byte for byte.
  const raw = await run("git", ["log"], { cwd: repo });
  strictEqual(await sha256(expanded.stdout), await sha256(raw.stdout));
});
