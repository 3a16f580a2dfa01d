import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import {
  buildLab,
  commitAll,
  drain,
  gitInit,
  ledger,
  measurement,
  pointerId,
  rtok,
  run,
  sha256,
  tempDir,
} from "./_helpers.ts";
import { VERSION } from "../src/surfaces/_help.ts";
import { Store } from "../src/core/store.ts";
import { insertRun } from "../src/plugins/measure/ledger.ts";
import { CHARS_PER_TOKEN } from "../src/core/tokens.ts";

Deno.test("rtok with no arguments or --help prints the command list", async () => {
  using tmp = tempDir();
  for (const args of [[], ["--help"]]) {
    const r = await rtok(tmp.path, args);
    strictEqual(r.code, 0);
    for (
      const word of ["rtok <tool> [args…]", "rtok gain", "rtok expand <id>", "git log", "tree"]
    ) {
      ok(r.out.includes(word), `${args.join(" ") || "(none)"} lists ${word}`);
    }
  }
});

Deno.test("rtok --version matches deno.json", async () => {
  using tmp = tempDir();
  const manifest = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  strictEqual(VERSION, manifest.version);
  strictEqual((await rtok(tmp.path, ["--version"])).out, `rtok ${manifest.version}\n`);
});

Deno.test("an unknown tool runs unchanged and is recorded as a passthrough", async () => {
  using tmp = tempDir();
  const r = await rtok(tmp.path, ["printf", "a%sb\\n", "-"]);
  strictEqual(r.out, "a-b\n");
  strictEqual(r.err, "");
  const rows = ledger(tmp.path);
  strictEqual(rows.length, 1);
  strictEqual(rows[0].family, "printf");
  strictEqual(rows[0].passthrough, "no filter");
  strictEqual(rows[0].raw_chars, 4);
  strictEqual(rows[0].emitted_chars, 4);
});

Deno.test("a git subcommand without a filter runs unchanged", async () => {
  using tmp = tempDir();
  await buildLab(`${tmp.path}/repo`);
  const raw = await run("git", ["rev-list", "--all"], { cwd: `${tmp.path}/repo` });
  const r = await rtok(`${tmp.path}/home`, ["git", "rev-list", "--all"], {
    cwd: `${tmp.path}/repo`,
  });
  strictEqual(r.out, raw.out);
  strictEqual(ledger(`${tmp.path}/home`)[0].family, "git rev-list");
});

Deno.test("a command that does not exist gives the shell's message and exit 127", async () => {
  using tmp = tempDir();
  const r = await rtok(tmp.path, ["rtok-no-such-tool", "x"]);
  strictEqual(r.code, 127);
  match(r.err, /rtok-no-such-tool: .*not found/);
  strictEqual(r.err.trimEnd().split("\n").length, 1);
  strictEqual(ledger(tmp.path)[0].exit_code, 127);
});

Deno.test("the tool's stdout, stderr and exit code arrive as if it ran alone", async () => {
  using tmp = tempDir();
  const script = "echo out; echo err >&2; exit 3";
  const raw = await run("sh", ["-c", script]);
  const r = await rtok(tmp.path, ["sh", "-c", script]);
  deepStrictEqual([r.code, r.out, r.err], [raw.code, raw.out, raw.err]);
});

Deno.test("a filtered tool's stderr and failing exit code arrive unchanged", async () => {
  using tmp = tempDir();
  const raw = await run("git", ["log"], { cwd: tmp.path });
  const r = await rtok(`${tmp.path}/home`, ["git", "log"], { cwd: tmp.path });
  strictEqual(r.code, raw.code);
  ok(r.code !== 0);
  strictEqual(r.err, raw.err);
});

Deno.test("a signal that kills the tool kills rtok the same way", async () => {
  using tmp = tempDir();
  const r = await rtok(tmp.path, ["sh", "-c", "kill -TERM $$"]);
  strictEqual(r.signal, "SIGTERM");
  strictEqual(ledger(tmp.path)[0].exit_code, null);
});

Deno.test("stdin reaches the tool", async () => {
  using tmp = tempDir();
  const r = await rtok(tmp.path, ["cat"], { stdin: "piped through\n" });
  strictEqual(r.out, "piped through\n");
});

Deno.test("binary output from a filtered tool passes through byte for byte", async () => {
  using tmp = tempDir();
  const bytes = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
  await Deno.writeFile(`${tmp.path}/blob.bin`, bytes);
  const r = await rtok(`${tmp.path}/home`, ["cat", `${tmp.path}/blob.bin`]);
  strictEqual(await sha256(r.stdout), await sha256(bytes));
  const g = await rtok(`${tmp.path}/home`, ["grep", "-a", "", `${tmp.path}/blob.bin`]);
  const raw = await run("grep", ["-n", "-a", "", `${tmp.path}/blob.bin`]);
  strictEqual(await sha256(g.stdout), await sha256(raw.stdout));
  strictEqual(ledger(`${tmp.path}/home`).at(-1)!.passthrough, "binary output");
});

Deno.test("machine formats the caller asked for pass through unfiltered", async (t) => {
  using tmp = tempDir();
  const repo = `${tmp.path}/repo`;
  await buildLab(repo);
  await Deno.writeTextFile(`${repo}/app.py`, "changed\n");
  await Deno.writeTextFile(`${repo}/new.txt`, "new\n");
  const cases = [
    ["git", "status", "--porcelain"],
    ["git", "status", "-z"],
    ["git", "log", "--oneline"],
    ["git", "log", "--format=%h %s"],
    ["git", "log", "-p", "-2"],
    ["git", "log", "--numstat", "-3"],
    ["git", "diff", "--name-only"],
    ["git", "diff", "--stat"],
  ];
  for (const argv of cases) {
    await t.step(argv.join(" "), async () => {
      const raw = await run(argv[0], argv.slice(1), { cwd: repo });
      const r = await rtok(`${tmp.path}/home`, argv, { cwd: repo });
      strictEqual(r.out, raw.out);
      ok(ledger(`${tmp.path}/home`).at(-1)!.passthrough, "recorded as a passthrough");
    });
  }
});

Deno.test("rtok expand selects lines by range, pattern, head and tail", async () => {
  using tmp = tempDir();
  const home = `${tmp.path}/home`;
  const lines = Array.from({ length: 300 }, (_, i) => `def handler_${i}(): return parse(x)`);
  await Deno.writeTextFile(`${tmp.path}/h.py`, lines.join("\n") + "\n");
  const r = await rtok(home, ["grep", "parse", `${tmp.path}/h.py`]);
  const id = pointerId(r.out);
  ok(id, r.out);
  const get = async (...args: string[]) => (await rtok(home, ["expand", id!, ...args])).out;
  strictEqual(
    await get("--head", "2"),
    "1:def handler_0(): return parse(x)\n2:def handler_1(): return parse(x)\n",
  );
  strictEqual(await get("--tail", "1"), "300:def handler_299(): return parse(x)\n");
  strictEqual(
    await get("--lines", "10:11"),
    "10:def handler_9(): return parse(x)\n11:def handler_10(): return parse(x)\n",
  );
  strictEqual(
    await get("--grep", "handler_29[0-9]\\b", "--head", "2"),
    "291:291:def handler_290(): return parse(x)\n292:292:def handler_291(): return parse(x)\n",
  );
  const bad = await rtok(home, ["expand", id!, "--lines", "5:2"]);
  strictEqual(bad.code, 1);
  match(bad.err, /^rtok: --lines "5:2": expected A:B/);
});

Deno.test("rtok expand names an unknown id in one line and exits 1", async () => {
  using tmp = tempDir();
  const r = await rtok(tmp.path, ["expand", "abcdef123456"]);
  strictEqual(r.code, 1);
  strictEqual(
    r.err,
    `rtok: No archived output with id "abcdef123456": it never existed or retention removed it; run the command again\n`,
  );
});

Deno.test("a bad config costs one line on stderr; the command still runs", async () => {
  using tmp = tempDir();
  await Deno.writeTextFile(`${tmp.path}/config.toml`, '[archive]\nmax_total_mb = "lots"\n');
  const r = await rtok(tmp.path, ["echo", "still here"]);
  strictEqual(r.out, "still here\n");
  strictEqual(r.code, 0);
  strictEqual(r.err.trimEnd().split("\n").length, 1);
  match(
    r.err,
    /^rtok: Cannot read config ".*config.toml": line 2: \[archive\] max_total_mb: expected a number/,
  );
  const c = await rtok(tmp.path, ["config"]);
  strictEqual(c.code, 1);
  match(c.out, /problem: Cannot read config/);
});

Deno.test("an unwritable RTOK_HOME costs one line; the command still runs", async () => {
  using tmp = tempDir();
  // A path under a regular file: not even root can create it.
  await Deno.writeTextFile(`${tmp.path}/file`, "");
  const r = await rtok(`${tmp.path}/file/home`, ["echo", "ran"]);
  strictEqual(r.out, "ran\n");
  strictEqual(r.code, 0);
  strictEqual(r.err.trimEnd().split("\n").length, 1);
  match(
    r.err,
    /^rtok: Cannot record in ".*\/file\/home\/spool.jsonl": .*set RTOK_HOME to one that is \(plugin measure, onMeasurement\)\n$/,
  );
});

Deno.test("rtok gain totals runs per command, token-weighted, in text, json and csv", async () => {
  using tmp = tempDir();
  const repo = `${tmp.path}/repo`;
  const home = `${tmp.path}/home`;
  await buildLab(repo);
  await rtok(home, ["git", "log"], { cwd: repo });
  await rtok(home, ["git", "log"], { cwd: repo });
  await rtok(home, ["echo", "hi"], { cwd: repo });
  const rows = ledger(home);
  const raw = rows.reduce((n, r) => n + Math.ceil(r.raw_chars / CHARS_PER_TOKEN.log), 0);
  const json = JSON.parse((await rtok(home, ["gain", "--format", "json"], { cwd: repo })).out);
  strictEqual(json.runs, 3);
  strictEqual(json.filtered, 2);
  strictEqual(json.passedThrough, 1);
  strictEqual(json.commands[0].command, "git log");
  strictEqual(json.commands[0].runs, 2);
  ok(Math.abs(json.rawTokens - raw) <= 3, `${json.rawTokens} vs ${raw}`);
  strictEqual(json.savedPct, Math.round((json.savedTokens / json.rawTokens) * 1000) / 10);
  const text = (await rtok(home, ["gain"], { cwd: repo })).out;
  match(text, /^rtok gain · all projects · estimated tokens/);
  match(text, /\ngit log +2 /);
  const csv = (await rtok(home, ["gain", "--format", "csv"], { cwd: repo })).out.split("\n");
  strictEqual(
    csv[0],
    "command,runs,rawTokens,emittedTokens,savedTokens,savedPct,elapsedMs," +
      "lossyRuns,expands,expandRatePct,tooAggressive",
  );
  ok(csv[1].startsWith("git log,2,"));
  ok(csv[1].endsWith(",2,0,0,false"), csv[1]);
});

Deno.test("rtok gain --project counts only the current directory's subtree", async () => {
  using tmp = tempDir();
  const home = `${tmp.path}/home`;
  for (const d of ["p_1", "p_1/sub", "p_10", "p%2"]) {
    await Deno.mkdir(`${tmp.path}/${d}`, { recursive: true });
  }
  for (const d of ["p_1", "p_1/sub", "p_10", "p%2"]) {
    await rtok(home, ["echo", d], { cwd: `${tmp.path}/${d}` });
  }
  const json = async (cwd: string) =>
    JSON.parse((await rtok(home, ["gain", "--project", "--format", "json"], { cwd })).out);
  strictEqual((await json(`${tmp.path}/p_1`)).runs, 2);
  strictEqual((await json(`${tmp.path}/p_10`)).runs, 1);
  strictEqual((await json(`${tmp.path}/p%2`)).runs, 1);
  strictEqual((await json(tmp.path)).runs, 4);
});

Deno.test("rtok gain --history, --daily, --weekly, --monthly and --failures report", async (t) => {
  using tmp = tempDir();
  await rtok(tmp.path, ["echo", "one"]);
  await rtok(tmp.path, ["echo", "two"]);
  await t.step("history, newest first", async () => {
    const rows = JSON.parse((await rtok(tmp.path, ["gain", "--history", "--format", "json"])).out);
    deepStrictEqual(rows.map((r: { command: string }) => r.command), ["echo two", "echo one"]);
  });
  for (const period of ["--daily", "--weekly", "--monthly"]) {
    await t.step(period, async () => {
      const rows = JSON.parse((await rtok(tmp.path, ["gain", period, "--format", "json"])).out);
      strictEqual(rows.length, 1);
      strictEqual(rows[0].runs, 2);
    });
  }
  await t.step(
    "exit: a hook's run has none of its own, a command killed shows signal",
    async () => {
      drain(tmp.path);
      const store = Store.open(`${tmp.path}/rtok.db`);
      insertRun(store, measurement({ surface: "hook", command: "Grep foo", exitCode: null }), 90);
      insertRun(store, measurement({ command: "sleep 9", exitCode: null }), 90);
      store.close();
      const text = (await rtok(tmp.path, ["gain", "--history"])).out;
      const exit = (command: string) =>
        text.split("\n").find((l) => l.includes(command))?.trim().split(/\s+/).at(-1);
      strictEqual(exit("Grep foo"), "-", text);
      strictEqual(exit("sleep 9"), "signal", text);
      strictEqual(exit("echo one"), "0", text);
    },
  );
  await t.step("failures, none yet", async () => {
    strictEqual(
      (await rtok(tmp.path, ["gain", "--failures"])).out,
      "No filter failures recorded.\n",
    );
  });
  await t.step("a bad flag is one clear line", async () => {
    const r = await rtok(tmp.path, ["gain", "--format", "xml"]);
    strictEqual(r.code, 1);
    strictEqual(r.err, `rtok: --format "xml": expected text, json or csv\n`);
  });
});

Deno.test("ledger rows past the retention window are swept on write", async () => {
  using tmp = tempDir();
  await rtok(tmp.path, ["echo", "old"]);
  drain(tmp.path);
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(`${tmp.path}/rtok.db`);
  db.prepare("UPDATE runs SET ts = ?").run(Date.now() - 91 * 86_400_000);
  db.close();
  await rtok(tmp.path, ["echo", "new"]);
  deepStrictEqual(ledger(tmp.path).map((r) => r.command), ["echo new"]);
});

Deno.test("a lossless reformat has no pointer line and keeps nothing in the archive", async () => {
  using tmp = tempDir();
  const repo = `${tmp.path}/repo`;
  await gitInit(repo);
  await Deno.writeTextFile(`${repo}/a.txt`, "a\n");
  await commitAll(repo, "first");
  const r = await rtok(`${tmp.path}/home`, ["git", "log"], { cwd: repo });
  strictEqual(pointerId(r.out), null, r.out);
  const row = ledger(`${tmp.path}/home`)[0];
  strictEqual(row.lossy, 0);
  strictEqual(row.stage, "shape+filter");
  strictEqual(row.archive_id, null);
});
