import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { buildLab, pointerId, rtok, run, sha256, tempDir } from "./_helpers.ts";

const HEALED =
  /^rtok: the store "(.+\/rtok\.db)" was not a database; moved it to "(.+\/rtok\.db\.damaged-\d{8}T\d{6}Z)" and started a new one$/;

async function _files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of Deno.readDirSync(dir)) {
    out.set(e.name, await sha256(Deno.readFileSync(`${dir}/${e.name}`)));
  }
  return out;
}

Deno.test("rtok git log over a store of random bytes heals it and filters, archives and records the run", async () => {
  using tmp = tempDir();
  const repo = `${tmp.path}/filter-lab`;
  const home = `${tmp.path}/home`;
  await buildLab(repo);
  const before = await rtok(home, ["git", "log", "-11"], { cwd: repo });
  const earlier = pointerId(before.out);
  ok(earlier, `the first run is cut:\n${before.out}`);
  const archived = await _files(`${home}/archive`);

  const noise = crypto.getRandomValues(new Uint8Array(16384));
  Deno.writeFileSync(`${home}/rtok.db`, noise);
  const r = await rtok(home, ["git", "log"], { cwd: repo });
  strictEqual(r.code, 0, r.err);
  const lines = r.err.trimEnd().split("\n");
  strictEqual(lines.length, 1, `one line on stderr:\n${r.err}`);
  const [, store, moved] = HEALED.exec(lines[0]) ?? [];
  ok(moved, lines[0]);
  strictEqual(store, `${home}/rtok.db`);
  deepStrictEqual(Deno.readFileSync(moved), noise, "the damaged file is moved, not changed");
  const id = pointerId(r.out);
  ok(id, `the healed run is cut with a pointer:\n${r.out}`);
  ok(r.out.includes("fix: stop the tokenizer from splitting emoji into surrogate halves"));

  const expanded = await rtok(home, ["expand", id!], { cwd: repo });
  strictEqual(expanded.code, 0, expanded.err);
  strictEqual(expanded.err, "", "the new store needs no healing");
  const raw = await run("git", ["log"], { cwd: repo });
  strictEqual(await sha256(expanded.stdout), await sha256(raw.stdout));

  const after = await _files(`${home}/archive`);
  for (const [name, sum] of archived) {
    strictEqual(after.get(name), sum, `archive file ${name} kept`);
  }
  const old = await rtok(home, ["expand", earlier!], { cwd: repo });
  strictEqual(old.code, 0, old.err);
  const rawOld = await run("git", ["log", "-11"], { cwd: repo });
  strictEqual(await sha256(old.stdout), await sha256(rawOld.stdout), "an earlier id still expands");

  const gain = await rtok(home, ["gain"], { cwd: repo });
  strictEqual(gain.code, 0, gain.err);
  match(gain.out, /^git log +\d+ /m);
  match(gain.out, /cut and archived/);

  const doctor = await rtok(home, ["doctor"], { cwd: repo });
  ok(doctor.out.includes(`"${moved}" was moved aside`), doctor.out);
});

Deno.test("rtok git log over a store it cannot move aside prints git's output whole and says why in one line", async () => {
  using tmp = tempDir();
  const repo = `${tmp.path}/filter-lab`;
  const home = `${tmp.path}/home`;
  await buildLab(repo);
  Deno.mkdirSync(home);
  const noise = crypto.getRandomValues(new Uint8Array(4096));
  Deno.writeFileSync(`${home}/rtok.db`, noise);
  // A lock a dead process left that cannot be taken over: the move never starts.
  Deno.mkdirSync(`${home}/rtok.db.lock/held`, { recursive: true });
  const old = new Date(Date.now() - 600_000);
  Deno.utimeSync(`${home}/rtok.db.lock`, old, old);

  for (const args of [["log"], ["log", "--no-such-option"]]) {
    const raw = await run("git", args, { cwd: repo });
    const r = await rtok(home, ["git", ...args], { cwd: repo });
    strictEqual(r.code, raw.code, "the exit code is git's");
    strictEqual(await sha256(r.stdout), await sha256(raw.stdout), "stdout is git's, whole");
    const ours = r.err.split("\n").filter((l) => l.startsWith("rtok: "));
    ok(ours.length <= 1, r.err);
    if (raw.code === 0) {
      strictEqual(ours.length, 1, r.err);
      match(
        ours[0],
        /could not be moved aside .*; move it yourself \(rtok starts a new one\) or set RTOK_HOME$/,
      );
    }
  }
  deepStrictEqual(Deno.readFileSync(`${home}/rtok.db`), noise, "nothing was moved or written");
  ok(![...Deno.readDirSync(home)].some((e) => e.name.includes(".damaged-")));
});
