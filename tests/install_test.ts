import { match, ok, strictEqual } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { RTOK_PERMISSIONS } from "../scripts/permissions.ts";
import { isExecutable, onPath } from "../src/core/self.ts";
import { buildLab, denoDir, type Ran, run, sh, tempDir } from "./_helpers.ts";

const REPO = fileURLToPath(new URL("../", import.meta.url));
const DENO = Deno.execPath();

/**
 * A PATH as on a machine where Deno comes only through npx: node, npm, npx and git (by links,
 * as their own directory may hold a deno too), then /usr/bin and /bin where they hold none.
 */
function pathWithoutDeno(dir: string): string {
  const tools = `${dir}/tools`;
  Deno.mkdirSync(tools);
  const live = Deno.env.get("PATH") ?? "";
  for (const name of ["node", "npm", "npx", "git"]) {
    const found = onPath(name, live);
    if (found) Deno.symlinkSync(`${found}/${name}`, `${tools}/${name}`);
  }
  const path = [tools, ...["/usr/bin", "/bin"].filter((d) => !isExecutable(`${d}/deno`))]
    .join(":");
  strictEqual(onPath("deno", path), null, `a deno is on ${path}`);
  ok(onPath("git", path), `no git on ${path}`);
  return path;
}

/** A sandbox: a temp HOME, install root, RTOK_HOME and the lab repository. */
async function sandbox() {
  const dir = tempDir("rtok-install-");
  const home = `${dir.path}/home`;
  const root = `${dir.path}/root`;
  const lab = `${dir.path}/lab`;
  Deno.mkdirSync(home);
  await buildLab(lab);
  // The test's Deno cache, so neither the install nor rtok fetches npm packages anew.
  const base = { HOME: home, DENO_DIR: await denoDir(), RTOK_HOME: `${dir.path}/rtok` };
  return {
    dir,
    lab,
    launcher: `${root}/bin/rtok`,
    /** `deno task install`, run by this test's Deno with `PATH`. */
    install: (PATH: string): Promise<Ran> =>
      run(DENO, ["task", "--config", `${REPO}deno.json`, "install"], {
        cwd: REPO,
        env: { ...base, PATH, DENO_INSTALL_ROOT: root },
      }),
    /** The installed `rtok args…` in the lab, with `PATH`. */
    rtok: (PATH: string, args: string[]): Promise<Ran> =>
      run(`${root}/bin/rtok`, args, { cwd: lab, env: { ...base, PATH } }),
    [Symbol.dispose]: () => dir[Symbol.dispose](),
  };
}

/** The install task's own lines on stderr (deno task echoes the task first). */
function installLines(r: Ran): string[] {
  return r.err.split("\n").filter((l) => l.startsWith("install:"));
}

/** Asserts `r` is rtok's filtered `git log -3` of `lab`, and clean on stderr. */
async function assertFilteredLog(r: Ran, lab: string): Promise<void> {
  strictEqual(r.code, 0, r.out + r.err);
  const hashes = (await sh("git", ["log", "-3", "--format=%h"], lab)).trim().split("\n");
  const subjects = (await sh("git", ["log", "-3", "--format=%s"], lab)).trim().split("\n");
  strictEqual(hashes.length, 3);
  for (const [i, hash] of hashes.entries()) {
    match(r.out, new RegExp(`^${hash}[0-9a-f]* ${RegExp.escape(subjects[i])}$`, "m"));
  }
  ok(!r.out.includes("feature 10 "), `more than 3 commits:\n${r.out}`);
  ok(!/not found/i.test(r.err), r.err);
  ok(!/config file/i.test(r.err), r.err);
}

Deno.test({
  name: "deno task install with no deno on PATH makes a launcher that names its Deno and runs",
  async fn(t) {
    using box = await sandbox();
    const PATH = pathWithoutDeno(box.dir.path);
    const r = await box.install(PATH);
    strictEqual(r.code, 0, r.out + r.err);

    await t.step("the install says in one line which Deno binary rtok runs on", () => {
      const lines = installLines(r);
      strictEqual(lines.length, 1, r.err);
      ok(lines[0].includes(DENO), lines[0]);
      match(lines[0], /npm install -g deno@\d+\.\d+\.\d+, then deno task install again/);
      ok(!/config file/i.test(r.err), r.err);
      match(r.out, new RegExp(`^installed rtok: ${RegExp.escape(box.launcher)}$`, "m"));
    });

    await t.step("the launcher runs that binary with rtok's permissions", () => {
      const text = Deno.readTextFileSync(box.launcher);
      const exec = text.split("\n").find((l) => l.startsWith("DENO_NO_UPDATE_CHECK=1 exec "));
      const run = "DENO_NO_UPDATE_CHECK=1 exec ";
      ok(exec?.startsWith(`${run}${DENO} run `) || exec?.startsWith(`${run}'${DENO}' run `), text);
      const words = exec!.split(" ");
      for (const flag of RTOK_PERMISSIONS) ok(words.includes(flag), `${flag} in ${exec}`);
    });

    await t.step("the installed rtok git log -3 prints the filtered log", async () => {
      await assertFilteredLog(await box.rtok(PATH, ["git", "log", "-3"]), box.lab);
    });

    await t.step("rtok init hooks the launcher in, and doctor sees the hook answer", async () => {
      const init = await box.rtok(PATH, ["init"]);
      strictEqual(init.code, 0, init.out + init.err);
      match(init.out, /^rtok serve answers on 127\.0\.0\.1:\d+$/m, "init starts the server");
      const doctor = await box.rtok(PATH, ["doctor"]);
      match(doctor.out, /^ok +hook answers +"git status" → /m, doctor.out + doctor.err);
      match(doctor.out, /^ok +serve +rtok serve answers on /m);
      const off = await box.rtok(PATH, ["init", "--uninstall"]);
      match(off.out, /^stopped rtok serve \(pid \d+\)$/m, "an uninstall leaves no server");
      match(
        doctor.out,
        new RegExp(`^(ok|warn) +deno +Deno .*, binary ${RegExp.escape(DENO)}`, "m"),
      );
    });
  },
});

Deno.test({
  name: "deno task install keeps deno's own launcher when the deno on PATH is the installing one",
  async fn() {
    using box = await sandbox();
    const bare = pathWithoutDeno(box.dir.path);
    // First without a deno on PATH (the launcher names its binary), then again with one.
    strictEqual((await box.install(bare)).code, 0);
    ok(Deno.readTextFileSync(box.launcher).includes(DENO));
    const denoBin = `${box.dir.path}/deno-bin`;
    Deno.mkdirSync(denoBin);
    Deno.symlinkSync(DENO, `${denoBin}/deno`);
    const PATH = `${denoBin}:${bare}`;
    const r = await box.install(PATH);
    strictEqual(r.code, 0, r.out + r.err);
    strictEqual(installLines(r).length, 0, r.err);
    const text = Deno.readTextFileSync(box.launcher);
    ok(!text.includes(DENO), text);
    match(text, /^exec deno run /m);
    await assertFilteredLog(await box.rtok(PATH, ["git", "log", "-3"]), box.lab);
  },
});
