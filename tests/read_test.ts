import { match, ok, strictEqual } from "node:assert/strict";
import { ledger, pointerId, rtok, run, sha256, tempDir } from "./_helpers.ts";

function log(): { text: string; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  for (let i = 1; i <= 700; i++) {
    const level = i % 123 === 0 ? "ERROR" : i % 77 === 0 ? "WARN" : "INFO";
    const line = `2026-12-04 08:${String(i % 60).padStart(2, "0")}:01 ${level} worker ${
      i % 9
    } job ${i}`;
    if (level !== "INFO") errors.push(line);
    lines.push(line);
  }
  return { text: lines.join("\n") + "\n", errors };
}

Deno.test("rtok cat of one long log keeps every WARN and ERROR line whole, and expand gives the file", async () => {
  using tmp = tempDir();
  const home = `${tmp.path}/home`;
  const { text, errors } = log();
  Deno.writeTextFileSync(`${tmp.path}/server.log`, text);
  const r = await rtok(home, ["cat", "server.log"], { cwd: tmp.path });
  strictEqual(r.code, 0, r.err);
  for (const line of errors) ok(r.out.includes(line), line);
  const first = text.slice(0, text.indexOf("\n"));
  strictEqual(r.out.split(first).length - 1, 1, "the first line once, not twice");
  ok(r.out.length < text.length / 4, `${r.out.length} of ${text.length}`);
  const id = pointerId(r.out);
  ok(id, r.out.slice(-200));
  const back = await rtok(home, ["expand", id!], { cwd: tmp.path });
  strictEqual(await sha256(back.stdout), await sha256(new TextEncoder().encode(text)));
  strictEqual(ledger(home).at(-1)?.family, "cat");
});

Deno.test("rtok cat with an option, of two files, or of a short file is cat's own output", async (t) => {
  using tmp = tempDir();
  const home = `${tmp.path}/home`;
  Deno.writeTextFileSync(`${tmp.path}/a.log`, log().text);
  Deno.writeTextFileSync(`${tmp.path}/b.txt`, "short\n");
  for (const args of [["-n", "a.log"], ["a.log", "b.txt"], ["b.txt"]]) {
    await t.step(args.join(" "), async () => {
      const direct = await run("cat", args, { cwd: tmp.path });
      const r = await rtok(home, ["cat", ...args], { cwd: tmp.path });
      strictEqual(r.code, direct.code);
      strictEqual(await sha256(r.stdout), await sha256(direct.stdout));
    });
  }
});

Deno.test("rtok read gives exact numbered lines, and one line for a file it cannot read", async (t) => {
  using tmp = tempDir();
  const home = `${tmp.path}/home`;
  const { text } = log();
  Deno.writeTextFileSync(`${tmp.path}/server.log`, text);
  Deno.writeFileSync(`${tmp.path}/blob.bin`, new Uint8Array([0, 1, 2, 255]));
  await t.step("--lines A:B", async () => {
    const r = await rtok(home, ["read", "server.log", "--lines", "122:124"], { cwd: tmp.path });
    const want = text.split("\n").slice(121, 124).map((l, i) => `${122 + i}\t${l}`).join("\n");
    strictEqual(r.out, want + "\n");
  });
  await t.step("--outline of a short file still views it", async () => {
    Deno.writeTextFileSync(
      `${tmp.path}/mod.py`,
      Array.from({ length: 12 }, (_, i) => `def step_${i}(x):\n    y = x + ${i}\n    return y\n`)
        .join("\n"),
    );
    const r = await rtok(home, ["read", "mod.py", "--outline"], { cwd: tmp.path });
    strictEqual(r.code, 0, r.err);
    for (let i = 0; i < 12; i++) {
      ok(r.out.includes(`function step_${i} L${1 + i * 4}-${3 + i * 4}`), r.out);
    }
  });
  const bad: [string[], RegExp][] = [
    [["read", "missing.txt"], /^rtok: Cannot read "missing\.txt": /],
    [["read", "blob.bin"], /^rtok: "blob\.bin" is not UTF-8 text; rtok reads text files only$/],
    [["read"], /^rtok: expected one file: rtok read FILE/],
    [["read", "server.log", "--outline", "--lines", "1:2"], /give one$/],
  ];
  for (const [args, message] of bad) {
    await t.step(args.join(" "), async () => {
      const r = await rtok(home, args, { cwd: tmp.path });
      strictEqual(r.code, 1);
      strictEqual(r.err.trimEnd().split("\n").length, 1, r.err);
      match(r.err.trimEnd(), message);
    });
  }
});
