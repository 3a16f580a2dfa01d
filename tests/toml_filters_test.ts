/**
 * Declarative filters through the real CLI: where filters come from and in which order,
 * trust, bad files, the time limit on a user's patterns, stderr filtering, and
 * `rtok filters list|show|verify`.
 */

import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { type Ran, rtok, tempDir } from "./_helpers.ts";

/** A project dir with a Makefile, and an empty RTOK_HOME. */
function world(): { home: string; cwd: string } & Disposable {
  const home = Deno.makeTempDirSync({ prefix: "rtok-home-" });
  const cwd = Deno.makeTempDirSync({ prefix: "rtok-proj-" });
  const chatter = Array.from(
    { length: 6 },
    (_, i) => `\t@echo "make[1]: Entering directory '/work/a/rather/long/path/to/subdir${i}'"`,
  ).join("\n");
  Deno.writeTextFileSync(
    `${cwd}/Makefile`,
    `all:\n\t@echo "project: the project filter keeps this line"\n` +
      `\t@echo "user: the user filter keeps this line"\n${chatter}\n`,
  );
  return {
    home,
    cwd,
    [Symbol.dispose]() {
      Deno.removeSync(home, { recursive: true });
      Deno.removeSync(cwd, { recursive: true });
    },
  };
}

const keepFilter = (name: string, prefix: string, extra = "") =>
  `[[filter]]\nname = "${name}"\nmatch = '^make(\\s|$)'\n${extra}steps = [{ keep = ['^${prefix}:'] }]\n`;

function lines(r: Ran): string[] {
  return r.out.trimEnd().split("\n");
}

const POINTER =
  /^\[rtok: cut (\d+) lines?(?: at lines [\d–, ]+)?; raw: rtok expand ([0-9a-f]{12})\]$/;

Deno.test("filters come from a trusted project file, then the user's, then the built-ins, then none", async (t) => {
  using w = world();
  const run = (args: string[]) => rtok(w.home, args, { cwd: w.cwd });
  await t.step("built-in make.toml: directory chatter dropped", async () => {
    const r = await run(["make"]);
    strictEqual(r.code, 0, r.err);
    deepStrictEqual(lines(r).slice(0, 2), [
      "project: the project filter keeps this line",
      "user: the user filter keeps this line",
    ]);
    match(lines(r)[2], POINTER);
    strictEqual(lines(r).length, 3);
  });
  await t.step("the user's file comes before the built-in", async () => {
    Deno.writeTextFileSync(`${w.home}/filters.toml`, keepFilter("make", "user"));
    const r = await run(["make"]);
    strictEqual(lines(r)[0], "user: the user filter keeps this line");
    match(lines(r)[1], POINTER);
    strictEqual(r.err, "");
  });
  await t.step("an untrusted project file is not used, and says so once", async () => {
    Deno.mkdirSync(`${w.cwd}/.rtok`);
    Deno.writeTextFileSync(`${w.cwd}/.rtok/filters.toml`, keepFilter("make", "project"));
    const r = await run(["make"]);
    strictEqual(lines(r)[0], "user: the user filter keeps this line");
    strictEqual(
      r.err,
      "rtok: .rtok/filters.toml is not trusted (read it, then run rtok trust); its filters are not used\n",
    );
  });
  await t.step("rtok trust pins it; then it comes first", async () => {
    const trusted = await run(["trust"]);
    strictEqual(trusted.code, 0, trusted.err);
    match(trusted.out, /^trusted .*\/\.rtok\/filters\.toml\nsha256 [0-9a-f]{64}\nfilters: make\n/);
    const r = await run(["make"]);
    strictEqual(lines(r)[0], "project: the project filter keeps this line");
    strictEqual(r.err, "");
  });
  await t.step("a changed file is untrusted again", async () => {
    Deno.writeTextFileSync(`${w.cwd}/.rtok/filters.toml`, keepFilter("make", "project") + "\n");
    const r = await run(["make"]);
    strictEqual(lines(r)[0], "user: the user filter keeps this line");
    match(r.err, /is not trusted/);
  });
  await t.step("rtok untrust removes the pin", async () => {
    strictEqual((await run(["trust"])).code, 0);
    strictEqual(lines(await run(["make"]))[0], "project: the project filter keeps this line");
    const u = await run(["untrust"]);
    strictEqual(u.code, 0, u.err);
    match(u.out, /^untrusted /);
    strictEqual(lines(await run(["make"]))[0], "user: the user filter keeps this line");
    match((await run(["untrust"])).out, /was not trusted/);
  });
  await t.step("no file and no built-in: the output passes through", async () => {
    const r = await run(["printf", "a\\nb\\n"]);
    strictEqual(r.out, "a\nb\n");
    strictEqual(r.err, "");
  });
});

Deno.test("rtok trust refuses a missing or invalid file, naming the line", async () => {
  using w = world();
  const none = await rtok(w.home, ["trust"], { cwd: w.cwd });
  strictEqual(none.code, 1);
  match(none.err, /^rtok: Cannot trust \.rtok\/filters\.toml: there is none in /);
  Deno.mkdirSync(`${w.cwd}/.rtok`);
  Deno.writeTextFileSync(`${w.cwd}/.rtok/filters.toml`, keepFilter("make", "x") + "stepz = 1\n");
  const bad = await rtok(w.home, ["trust"], { cwd: w.cwd });
  strictEqual(bad.code, 1);
  strictEqual(
    bad.err,
    'rtok: Cannot read filters ".rtok/filters.toml": line 5: filter "make": unknown key "stepz"; ' +
      "expected one of name, match, description, text_class, stderr, pipe_safe, steps, test\n",
  );
  let pinned = false;
  try {
    pinned = Deno.readTextFileSync(`${w.home}/trust.json`).includes("filters.toml");
  } catch { /* no table: nothing pinned */ }
  strictEqual(pinned, false);
  strictEqual((await rtok(w.home, ["trust", "extra"], { cwd: w.cwd })).code, 1);
});

Deno.test("a bad user file is skipped with one stderr line; the built-ins still filter", async () => {
  using w = world();
  Deno.writeTextFileSync(
    `${w.home}/filters.toml`,
    "[[filter]]\nname = \"make\"\nmatch = 'make'\n",
  );
  const r = await rtok(w.home, ["make"], { cwd: w.cwd });
  strictEqual(r.code, 0);
  const err = r.err.trimEnd().split("\n");
  strictEqual(err.length, 1, r.err);
  match(
    err[0],
    /^rtok: Cannot read filters ".*\/filters\.toml": line 3: filter "make": match 'make' is not anchored: .*; its filters are not used$/,
  );
  strictEqual(lines(r).length, 3, "the built-in make filter ran");
  match(lines(r)[2], POINTER);
});

Deno.test("a catastrophic user pattern is abandoned at the limit: raw output, exit code kept, failure recorded", async () => {
  using w = world();
  Deno.writeTextFileSync(`${w.home}/config.toml`, "[cmd]\nfilter_timeout_ms = 400\n");
  Deno.writeTextFileSync(
    `${w.home}/filters.toml`,
    "[[filter]]\nname = \"slow\"\nmatch = '^sh(\\s|$)'\nsteps = [{ strip = ['(a+)+$'] }]\n",
  );
  const text = "a".repeat(40) + "b\nsecond line\n";
  const started = performance.now();
  const r = await rtok(w.home, ["sh", "-c", `printf '${text.replaceAll("\n", "\\n")}'; exit 3`], {
    cwd: w.cwd,
  });
  const took = performance.now() - started;
  strictEqual(r.out, text);
  strictEqual(r.code, 3);
  strictEqual(r.err, "");
  // The limit, plus rtok's own start-up and the Worker's; far below the minutes the pattern needs.
  ok(took < 400 + 3000, `took ${Math.round(took)} ms`);
  const failures = await rtok(w.home, ["gain", "--failures", "--format", "json"]);
  const list = JSON.parse(failures.out) as { family: string; error: string; fallbackOk: boolean }[];
  strictEqual(list.length, 1, failures.out);
  strictEqual(list[0].family, "slow");
  match(
    list[0].error,
    /^filter "slow" took longer than 400 ms; the raw output went out unfiltered$/,
  );
  strictEqual(list[0].fallbackOk, true);
});

Deno.test("stderr = true filters the tool's stderr too, archived apart; the default leaves it alone", async (t) => {
  using w = world();
  const noise = Array.from(
    { length: 8 },
    (_, i) => `# progress ${i} of a long and noisy operation`,
  );
  const script = `echo out-kept; ${noise.map((n) => `echo '${n}' >&2`).join("; ")}; ` +
    "echo err-kept >&2; exit 1";
  const filter = (stderr: boolean) =>
    `[[filter]]\nname = "noisy"\nmatch = '^sh(\\s|$)'\nstderr = ${stderr}\n` +
    "steps = [{ strip = ['^# progress'] }]\n";
  await t.step("stderr = true", async () => {
    Deno.writeTextFileSync(`${w.home}/filters.toml`, filter(true));
    const r = await rtok(w.home, ["sh", "-c", script], { cwd: w.cwd });
    strictEqual(r.code, 1);
    strictEqual(r.out, "out-kept\n");
    const err = r.err.trimEnd().split("\n");
    strictEqual(err[0], "err-kept");
    const m = POINTER.exec(err[1]);
    ok(m, r.err);
    strictEqual(m[1], "8");
    const raw = await rtok(w.home, ["expand", m[2]]);
    strictEqual(
      raw.out,
      [...noise, "err-kept"].join("\n") + "\n",
      "the archive holds stderr's exact bytes",
    );
  });
  await t.step("stderr = false", async () => {
    Deno.writeTextFileSync(`${w.home}/filters.toml`, filter(false));
    const r = await rtok(w.home, ["sh", "-c", script], { cwd: w.cwd });
    strictEqual(r.code, 1);
    strictEqual(r.out, "out-kept\n");
    strictEqual(r.err, [...noise, "err-kept"].join("\n") + "\n");
  });
});

Deno.test("rtok filters list, show and verify", async (t) => {
  using tmp = tempDir();
  using w = world();
  const run = (args: string[]) => rtok(w.home, args, { cwd: w.cwd });
  await t.step("verify passes on the built-ins", async () => {
    const r = await rtok(tmp.path, ["filters", "verify"], { cwd: w.cwd });
    strictEqual(r.code, 0, r.out + r.err);
    match(r.out, /^ok +make +filters\/make\.toml +\d+ tests$/m);
    match(r.out, /^ok +df +filters\/df\.toml +\d+ tests$/m);
    match(r.out, /\nverify: \d+ tests of \d+ filters: all passed\n$/);
  });
  Deno.writeTextFileSync(
    `${w.home}/filters.toml`,
    keepFilter("make", "user") +
      '\n[[filter.test]]\nname = "broken on purpose"\ninput = "user: a\\nb\\n"\nexpected = "user: a\\nb\\n"\n',
  );
  await t.step("list shows every source, file, test count, and what is shadowed", async () => {
    const r = await run(["filters", "list"]);
    strictEqual(r.code, 0, r.err);
    match(r.out, /^family +source +file +tests$/m);
    match(r.out, /^make +user +\S+\/filters\.toml +1$/m);
    match(r.out, /^make +builtin-toml +filters\/make\.toml +\d+ +shadowed by user make$/m);
    match(r.out, /^df +builtin-toml +filters\/df\.toml +\d+$/m);
    match(r.out, /^git log +builtin +filters\/git_log\.ts +-$/m);
  });
  await t.step("show prints where a filter comes from and its definition", async () => {
    const make = await run(["filters", "show", "make"]);
    strictEqual(make.code, 0, make.err);
    match(make.out, /^make: user filter\nfile: \S+\/filters\.toml, line 1\npattern: \^make/);
    match(make.out, /^also: builtin-toml filters\/make\.toml \(shadowed\)$/m);
    match(make.out, /^\[\[filter\]\]\nname = "make"$/m);
    const df = await run(["filters", "show", "df"]);
    match(df.out, /^df: builtin-toml filter\nfile: filters\/df\.toml, line \d+/);
    match(df.out, /\[\[filter\.test\]\]/);
    const log = await run(["filters", "show", "git log"]);
    strictEqual(
      log.out,
      "git log: built-in hand-written filter\nmodule: filters/git_log.ts\ntext class: log\n",
    );
    const none = await run(["filters", "show", "nope"]);
    strictEqual(none.code, 1);
    match(none.err, /no filter named "nope"/);
  });
  await t.step("verify fails on a broken user filter, with a diff", async () => {
    const r = await run(["filters", "verify"]);
    strictEqual(r.code, 1, r.out);
    match(r.out, /^FAIL +make +\S+\/filters\.toml +1 test$/m);
    match(
      r.out,
      /^FAIL make: "broken on purpose" \(\S+\/filters\.toml:\d+\)\n--- expected\n\+\+\+ actual\n@@ -1,2 \+1 @@\n user: a\n-b$/m,
    );
    match(r.out, /\nverify: \d+ tests of \d+ filters: 1 failed\n$/);
    const only = await run(["filters", "verify", "df"]);
    strictEqual(only.code, 0, only.out);
    match(only.out, /verify: 3 tests of 1 filter: all passed/);
  });
  await t.step("a user file that does not parse fails verify and shows in list", async () => {
    Deno.writeTextFileSync(`${w.home}/filters.toml`, "[[filter]]\nnam = 1\n");
    const v = await run(["filters", "verify"]);
    strictEqual(v.code, 1);
    match(v.out, /line 2: filter #1: unknown key "nam"/);
    match(
      (await run(["filters", "list"])).out,
      /^\(none\) +user +\S+ +- +error: Cannot read filters/m,
    );
  });
});
