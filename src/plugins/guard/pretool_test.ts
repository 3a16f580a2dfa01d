import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { defaultConfig } from "../../core/config.ts";
import type { Ctx, PreToolDecision } from "../../core/plugin.ts";
import { makeCtx, Registry } from "../../core/registry.ts";
import { parseSpool, spoolPath } from "../../core/spool.ts";
import { rewriteLine } from "../../rewrite/host.ts";
import { guardShellCall } from "./pretool.ts";
import { lastFile, stoppedRules } from "./state.ts";
import { Store, storePath } from "../../core/store.ts";
import { markIndexed } from "../graph/marker.ts";

// A project with every directory a search should not walk, a long file, a wide one, a short one.
function project(dir: string): void {
  const put = (path: string, text: string) => {
    Deno.mkdirSync(`${dir}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    Deno.writeTextFileSync(`${dir}/${path}`, text);
  };
  put("node_modules/pkg/index.js", "const needle = 1;\n");
  put(".git/config", "[core] needle\n");
  put("dist/app.js", "needle();\n");
  put("target/debug/out.txt", "needle\n");
  put("src/a.ts", "export const needle = 1;\n");
  put("src/b.ts", "export const other = 2;\n");
  put("lib/x.ts", "export const x = 'needle';\n");
  put("big.ts", Array.from({ length: 400 }, (_, i) => `export const v${i} = ${i};`).join("\n"));
  put("wide.txt", "w".repeat(20_000) + "\n");
  put("small.ts", Array.from({ length: 10 }, (_, i) => `const s${i} = ${i};`).join("\n") + "\n");
}

interface World {
  readonly home: string;
  readonly dir: string;
  readonly env: Record<string, string>;
  ctx(session: string | null, guard?: Record<string, unknown>): Ctx;
  spool(): { kind: string; data: Record<string, unknown> }[];
  ask(line: string, session: string | null, env?: Record<string, string>): Promise<
    PreToolDecision | null
  >;
}

function world(root: string): World {
  const home = `${root}/home`;
  const dir = `${root}/proj`;
  Deno.mkdirSync(home, { recursive: true });
  project(dir);
  const env = { PATH: Deno.env.get("PATH") ?? "", HOME: home };
  const w: World = {
    home,
    dir: Deno.realPathSync(dir),
    env,
    ctx(session, guard) {
      const config = defaultConfig();
      // cat-large is off by default; the table tests every rule.
      config.plugins.guard = guard ?? { "cat-large": true };
      return makeCtx(new Registry([], config), { config, store: null, home, session });
    },
    spool() {
      let text = "";
      try {
        text = Deno.readTextFileSync(spoolPath(home));
      } catch { /* none yet */ }
      return parseSpool(text).entries.map((e) => ({ kind: e.kind, data: e.data }));
    },
    ask(line, session, more = {}) {
      return guardShellCall(
        { tool: "Bash", input: { command: line }, cwd: w.dir, env: { ...env, ...more } },
        w.ctx(session),
      );
    },
  };
  return w;
}

type Expect =
  | { readonly line: string; readonly none: true; readonly allow?: readonly string[] }
  | {
    readonly line: string;
    readonly rule: string;
    /** The cheaper line, before its rtok form. */
    readonly to: string;
    readonly allow?: readonly string[];
  }
  | {
    readonly line: string;
    readonly rule: string;
    readonly reason: string;
    readonly allow?: readonly string[];
  };

const PRUNE_ALL =
  "\\( -type d \\( -name node_modules -o -name .git -o -name dist -o -name target \\) \\) -prune -o";
const EXCL =
  "--exclude-dir=node_modules --exclude-dir=.git --exclude-dir=dist --exclude-dir=target";

const TABLE: readonly Expect[] = [
  // Ordinary commands: untouched.
  { line: "git status", none: true },
  { line: "git log --oneline -5", none: true },
  { line: "git diff", none: true },
  { line: "ls -la", none: true },
  { line: "ls src", none: true },
  { line: "ls -R src", none: true },
  { line: "cat small.ts", none: true },
  { line: "cat src/a.ts src/b.ts", none: true },
  { line: "wc -l big.ts", none: true },
  { line: "head -100 big.ts", none: true },
  { line: "grep needle src/a.ts", none: true },
  { line: "grep -n needle small.ts", none: true },
  { line: "grep -r needle src", none: true },
  { line: "grep -rn needle lib", none: true },
  { line: "cd src && grep -r needle .", none: true },
  { line: "rg needle", none: true },
  { line: "git grep needle", none: true },
  { line: "find src -name '*.ts'", none: true },
  { line: "find lib -type f", none: true },
  { line: "npm test", none: true },
  { line: "deno test -A", none: true },
  { line: "cargo build", none: true },
  { line: "echo hello", none: true },
  { line: "cp a b", none: true },
  { line: "mv a b", none: true },
  { line: "rm -rf build", none: true },
  { line: "mkdir -p out", none: true },
  { line: "chmod -R 755 bin", none: true },
  { line: "tar -tvf x.tar", none: true },
  { line: "tar -czf x.tgz src", none: true },
  { line: "rsync -avn src/ dst/", none: true },
  { line: "rsync -av --dry-run src/ dst/", none: true },
  // Output that never reaches the agent whole: piped on, or sent away.
  { line: "cat big.ts | head -50", none: true },
  { line: "cat big.ts | grep v1", none: true },
  { line: "grep -r needle . | wc -l", none: true },
  { line: "find . -name '*.ts' | head", none: true },
  { line: "cat big.ts >/dev/null", none: true },
  // What the agent already chose: its own exclusions, a vendor directory named, a prune.
  { line: "grep -r --exclude-dir=node_modules needle .", none: true },
  { line: "grep -r needle node_modules/pkg", none: true },
  { line: "find node_modules -name index.js", none: true },
  { line: "find . -path ./node_modules -prune -o -name '*.js' -print", none: true },
  { line: "find . -maxdepth 1", none: true },
  { line: "find / -maxdepth 1 -name etc", none: true },
  { line: "find . -name '*.tmp' -delete", none: true },
  { line: "tree -L 2", none: true },
  { line: "tree -I node_modules", none: true },
  { line: "tree src", none: true },
  // Words the shell decides, another user, unreadable lines: no opinion.
  { line: "cat $FILE", none: true },
  { line: "grep -r needle *.ts", none: true },
  { line: "sudo cat big.ts", none: true },
  { line: "cat $(ls big.ts)", none: true },
  { line: "RTOK_DISABLED=1 grep -r needle .", none: true },
  // Wasteful and rewritten: the same facts, cheaper.
  { line: "grep -r needle .", rule: "grep-vendor", to: `grep ${EXCL} -r needle .` },
  { line: "grep -rn needle", rule: "grep-vendor", to: `grep ${EXCL} -rn needle` },
  { line: "grep -R -i needle .", rule: "grep-vendor", to: `grep ${EXCL} -R -i needle .` },
  { line: "egrep -r 'a|b' .", rule: "grep-vendor", to: `egrep ${EXCL} -r 'a|b' .` },
  {
    line: "grep --recursive needle .",
    rule: "grep-vendor",
    to: `grep ${EXCL} --recursive needle .`,
  },
  {
    line: "grep -rl needle . 2>/dev/null",
    rule: "grep-vendor",
    to: `grep ${EXCL} -rl needle . 2>/dev/null`,
  },
  {
    line: "grep -r --include='*.ts' needle .",
    rule: "grep-vendor",
    to: `grep ${EXCL} -r --include='*.ts' needle .`,
  },
  {
    line: "git status && grep -r needle .",
    rule: "grep-vendor",
    to: `git status && grep ${EXCL} -r needle .`,
  },
  {
    line: "cd src && cd .. && grep -r -e needle",
    rule: "grep-vendor",
    to: `cd src && cd .. && grep ${EXCL} -r -e needle`,
  },
  {
    line: "grep -r needle . --exclude=*.md",
    rule: "grep-vendor",
    to: "grep -r needle . --exclude=*.md",
    // An unquoted glob is the shell's to expand: no opinion.
  },
  {
    line: "find . -name '*.js'",
    rule: "find-vendor",
    to: `find . ${PRUNE_ALL} \\( -name '*.js' \\) -print`,
  },
  {
    line: "find . -type f -exec wc -l {} +",
    rule: "find-vendor",
    to: `find . ${PRUNE_ALL} \\( -type f -exec wc -l {} + \\)`,
  },
  { line: "find", rule: "find-vendor", to: `find ${PRUNE_ALL} -print` },
  { line: "find .", rule: "find-vendor", to: `find . ${PRUNE_ALL} -print` },
  {
    line: "find . -maxdepth 3 -name '*.ts'",
    rule: "find-vendor",
    to: `find . -maxdepth 3 ${PRUNE_ALL} \\( -name '*.ts' \\) -print`,
  },
  {
    line: "find -L . -name x",
    rule: "find-vendor",
    to: `find -L . ${PRUNE_ALL} \\( -name x \\) -print`,
  },
  { line: "tree", rule: "tree-vendor", to: "tree -I 'node_modules|dist|target'" },
  { line: "tree -a", rule: "tree-vendor", to: "tree -I 'node_modules|.git|dist|target' -a" },
  { line: "cp -rv src out", rule: "verbose", to: "cp -r src out" },
  { line: "cp -v a b", rule: "verbose", to: "cp a b" },
  { line: "cp --verbose a b", rule: "verbose", to: "cp a b" },
  { line: "mv -v a b", rule: "verbose", to: "mv a b" },
  { line: "rm -rfv build", rule: "verbose", to: "rm -rf build" },
  { line: "mkdir -pv a/b", rule: "verbose", to: "mkdir -p a/b" },
  { line: "chmod -Rv 755 bin", rule: "verbose", to: "chmod -R 755 bin" },
  { line: "tar -xvf x.tar", rule: "verbose", to: "tar -xf x.tar" },
  { line: "tar xvzf x.tgz", rule: "verbose", to: "tar xzf x.tgz" },
  { line: "tar -czvf out.tgz src", rule: "verbose", to: "tar -czf out.tgz src" },
  { line: "rsync -avz --progress src/ dst/", rule: "verbose", to: "rsync -az src/ dst/" },
  // Wasteful and explained: the cheaper form gives fewer facts, so the agent chooses.
  { line: "cat big.ts", rule: "cat-large", reason: "big.ts is long (400 lines" },
  { line: "cat wide.txt", rule: "cat-large", reason: "wide.txt is long (1 lines, 20001 chars)" },
  { line: "cat -n big.ts", rule: "cat-large", reason: "big.ts is long" },
  { line: 'cat "big.ts"', rule: "cat-large", reason: "read big.ts" },
  { line: "cat small.ts big.ts", rule: "cat-large", reason: "these 2 files are long" },
  { line: "cat src/../big.ts", rule: "cat-large", reason: "Read tool with offset and limit" },
  { line: "find / -name passwd", rule: "root-search", reason: "`find /` walks the whole" },
  { line: "grep -r needle /", rule: "root-search", reason: "`grep -r` walks the whole" },
  // The user's rules name the command: theirs, untouched.
  { line: "cat big.ts", none: true, allow: ["Bash(cat:*)"] },
  { line: "cat big.ts", none: true, allow: ["Bash(cat big.ts)"] },
  { line: "grep -r needle .", none: true, allow: ["Bash(grep:*)"] },
  { line: "find . -name '*.js'", none: true, allow: ["Bash(find . -name *)"] },
  { line: "cp -v a b", none: true, allow: ["Bash(cp -v:*)"] },
  { line: "find / -name passwd", none: true, allow: ["Bash(find:*)"] },
  // A rule that names something else, or everything, names nothing here.
  { line: "cat big.ts", rule: "cat-large", reason: "big.ts is long", allow: ["Bash(git:*)"] },
  { line: "cat big.ts", rule: "cat-large", reason: "big.ts is long", allow: ["Bash"] },
  {
    line: "grep -r needle .",
    rule: "grep-vendor",
    to: `grep ${EXCL} -r needle .`,
    allow: ["Bash(*)"],
  },
];

Deno.test("guardShellCall: a table of commands, rewritten, explained, left alone", async (t) => {
  const root = Deno.makeTempDirSync({ prefix: "rtok-guard-table-" });
  try {
    const w = world(root);
    let n = 0;
    for (const row of TABLE) {
      const label = `${row.line}${row.allow ? ` (allow ${row.allow.join(", ")})` : ""}`;
      await t.step(label, async () => {
        const cfg = `${root}/cfg${n}`;
        const session = `table-${n++}`;
        Deno.mkdirSync(cfg);
        Deno.writeTextFileSync(
          `${cfg}/settings.json`,
          JSON.stringify({ permissions: { allow: row.allow ?? [] } }),
        );
        const more = { CLAUDE_CONFIG_DIR: cfg };
        const before = w.spool().length;
        const d = await w.ask(row.line, session, more);
        const rows = w.spool().slice(before).filter((e) => e.kind === "guard.intervention");
        if ("none" in row || ("to" in row && row.to === row.line)) {
          strictEqual(d, null);
          strictEqual(rows.length, 0);
          return;
        }
        ok(d, "an intervention");
        strictEqual(rows.length, 1);
        strictEqual(rows[0].data.rule, row.rule);
        strictEqual(rows[0].data.command, row.line);
        strictEqual(rows[0].data.project, w.dir);
        if ("reason" in row) {
          strictEqual(d.kind, "deny");
          strictEqual(rows[0].data.action, "reason");
          ok(d.reason.includes(row.reason), d.reason);
          ok(d.reason.startsWith("rtok guard: "), d.reason);
          return;
        }
        strictEqual(d.kind, "rewrite");
        if (d.kind !== "rewrite") return;
        strictEqual(rows[0].data.action, "rewrite");
        // The final command: the cheaper line in its rtok form where cmd would rewrite it.
        const after = rewriteLine(row.to, { ...w.env, ...more }, w.dir);
        const rtok = after.verdict === "allow" || after.verdict === "ask";
        strictEqual(d.input.command, rtok ? after.command : row.to);
        strictEqual(d.allow, after.verdict === "allow");
        ok(d.reason.startsWith("rtok guard: "), d.reason);
      });
    }
    ok(TABLE.length >= 60, `${TABLE.length} rows`);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("guardShellCall: the same command re-issued is a false block, and the rule stops", async (t) => {
  const root = Deno.makeTempDirSync({ prefix: "rtok-guard-fb-" });
  try {
    const w = world(root);
    await t.step("the first cat of a long file is explained", async () => {
      const d = await w.ask("cat big.ts", "s1");
      strictEqual(d?.kind, "deny");
      ok(Deno.statSync(lastFile(w.home, "s1")).isFile);
    });
    await t.step(
      "re-issued at once, it goes through and is recorded as a false block",
      async () => {
        const d = await w.ask("cat  big.ts", "s1");
        strictEqual(d, null);
        const fb = w.spool().filter((e) => e.kind === "guard.false_block");
        deepStrictEqual(fb.map((e) => e.data), [
          { session: "s1", command: "cat big.ts", rule: "cat-large", project: w.dir },
        ]);
        deepStrictEqual([...await stoppedRules(w.home, w.dir)], ["cat-large"]);
      },
    );
    await t.step("the rule no longer acts in that project, in any session", async () => {
      strictEqual(await w.ask("cat big.ts", "s2"), null);
      strictEqual(await w.ask("cat wide.txt", "s3"), null);
    });
    await t.step("the other rules still do", async () => {
      strictEqual((await w.ask("grep -r needle .", "s2"))?.kind, "rewrite");
    });
    await t.step("another command next is no false block: the rule stays on", async () => {
      strictEqual((await w.ask("find . -name '*.js'", "s4"))?.kind, "rewrite");
      strictEqual(await w.ask("git status", "s4"), null);
      strictEqual((await w.ask("find . -name '*.js'", "s4"))?.kind, "rewrite");
      deepStrictEqual([...await stoppedRules(w.home, w.dir)], ["cat-large"]);
    });
    await t.step("without a session there is nothing to compare: it always acts", async () => {
      strictEqual((await w.ask("tree", null))?.kind, "rewrite");
      strictEqual((await w.ask("tree", null))?.kind, "rewrite");
    });
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("guardShellCall: config and the environment turn it off", async (t) => {
  const root = Deno.makeTempDirSync({ prefix: "rtok-guard-off-" });
  try {
    const w = world(root);
    const call = (line: string, guard?: Record<string, unknown>, env = {}) =>
      guardShellCall(
        { tool: "Bash", input: { command: line }, cwd: w.dir, env: { ...w.env, ...env } },
        w.ctx(null, guard),
      );
    await t.step("a rule set to false is never applied; the others are", async () => {
      strictEqual(await call("cat big.ts", { "cat-large": false }), null);
      strictEqual((await call("grep -r needle .", { "cat-large": false }))?.kind, "rewrite");
      strictEqual((await call("cat big.ts", { "cat-large": true }))?.kind, "deny");
    });
    await t.step(
      "cat-large is off unless turned on: a long cat becomes its view later",
      async () => {
        strictEqual(await call("cat big.ts", {}), null);
        strictEqual((await call("grep -r needle .", {}))?.kind, "rewrite", "the others are on");
      },
    );
    await t.step("read_lines raises the bar for cat", async () => {
      strictEqual(
        await call("cat big.ts", { "cat-large": true, read_lines: 1000, read_chars: 100_000 }),
        null,
      );
    });
    await t.step("RTOK_DISABLED silences it", async () => {
      strictEqual(await call("cat big.ts", { "cat-large": true }, { RTOK_DISABLED: "1" }), null);
    });
    await t.step("a bad table throws, naming the key", async () => {
      for (const bad of [{ "cat-large": "no" }, { off: ["cat-large"] }, { read_lines: 0 }]) {
        let message = "";
        try {
          await call("cat big.ts", bad);
        } catch (e) {
          message = (e as Error).message;
        }
        ok(message.startsWith("[plugins.guard]"), message);
      }
    });
    await t.step(
      "in a resident server watching the call, the plain cheaper line goes out",
      async () => {
        const d = await guardShellCall(
          {
            tool: "Bash",
            input: { command: "grep -r needle ." },
            cwd: w.dir,
            env: w.env,
            resident: true,
            callId: "toolu_9",
          },
          w.ctx(null),
        );
        strictEqual(d?.kind, "rewrite");
        if (d?.kind === "rewrite") strictEqual(d.input.command, `grep ${EXCL} -r needle .`);
      },
    );
    await t.step("a deny rule of the user's is left to Claude Code", async () => {
      const cfg = `${root}/deny`;
      Deno.mkdirSync(cfg);
      Deno.writeTextFileSync(
        `${cfg}/settings.json`,
        JSON.stringify({ permissions: { deny: ["Bash(cat:*)", "Bash(grep:*)"] } }),
      );
      strictEqual(await call("cat big.ts", undefined, { CLAUDE_CONFIG_DIR: cfg }), null);
      strictEqual(await call("grep -r needle .", undefined, { CLAUDE_CONFIG_DIR: cfg }), null);
    });
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("guardShellCall() names rtok where NAME and its answer's size for a definition search, only where an index holds the name", async (t) => {
  const root = Deno.makeTempDirSync({ prefix: "rtok-guard-where-" });
  try {
    const w = world(root);
    Deno.mkdirSync(`${w.dir}/.git/objects`, { recursive: true });
    const ask = (line: string, guard?: Record<string, unknown>) =>
      guardShellCall(
        { tool: "Bash", input: { command: line }, cwd: w.dir, env: w.env },
        w.ctx(null, guard),
      );
    await t.step("no index for the project: no opinion (the vendor rule still acts)", async () => {
      const d = await ask("grep -rn 'function needle' src");
      strictEqual(d, null);
    });
    // An index as the graph plugin leaves it: two definitions of `needle`, and the marker.
    const store = Store.open(storePath(w.home));
    store.write((db) => {
      db.exec(`INSERT INTO graph_projects (id, root, updated) VALUES (1, '${w.dir}', 0)`);
      db.exec(
        "INSERT INTO graph_files (id, project_id, path, mtime, size, language) " +
          "VALUES (1, 1, 'src/a.ts', 0, 0, 'typescript')",
      );
      db.exec(
        "INSERT INTO graph_defs (file_id, name, kind, scope, start_line, end_line) VALUES " +
          "(1, 'needle', 'const', '', 1, 1), (1, 'needle', 'function', '', 3, 5)",
      );
    });
    store.close();
    await markIndexed(w.home, w.dir);
    await t.step("a name the index defines: a reason with the answer's size", async () => {
      const d = await ask("grep -rn 'function needle' src");
      strictEqual(d?.kind, "deny");
      if (d?.kind === "deny") {
        ok(d.reason.includes("where needle` answers in 2 lines"), d.reason);
        ok(d.reason.includes(`symbol index of ${w.dir}`), d.reason);
      }
      const rg = await ask("rg 'class needle'");
      strictEqual(rg?.kind, "deny");
    });
    await t.step("it comes before the vendor rule for the same line", async () => {
      const d = await ask("grep -rn 'def needle' .");
      strictEqual(d?.kind, "deny");
    });
    await t.step("a name the index does not define: no opinion", async () => {
      strictEqual(await ask("rg 'class Missing'"), null);
    });
    await t.step("off in config: no opinion", async () => {
      strictEqual(await ask("rg 'class needle'", { "grep-definition": false }), null);
    });
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
