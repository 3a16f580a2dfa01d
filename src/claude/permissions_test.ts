import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  type BashRule,
  firstCovering,
  NO_RULES,
  parseBashRule,
  readBashRules,
  ruleCovers,
  settingsFiles,
} from "./permissions.ts";

function rule(source: string): BashRule {
  const r = parseBashRule(source);
  ok(r, `parseBashRule(${JSON.stringify(source)}) gave null`);
  return r;
}

function tempDir(): { path: string } & Disposable {
  const path = Deno.makeTempDirSync({ prefix: "rtok-permissions-test-" });
  return { path, [Symbol.dispose]: () => Deno.removeSync(path, { recursive: true }) };
}

const FILES = { read: true, write: true } as const;

Deno.test("parseBashRule() reads Bash, Bash() and Bash(*) as every command", () => {
  deepStrictEqual(parseBashRule("Bash"), { kind: "all", source: "Bash" });
  deepStrictEqual(parseBashRule("Bash()"), { kind: "all", source: "Bash()" });
  deepStrictEqual(parseBashRule("Bash(*)"), { kind: "all", source: "Bash(*)" });
  deepStrictEqual(parseBashRule(" Bash "), { kind: "all", source: " Bash " });
});

Deno.test("parseBashRule() reads a trailing :* as a prefix rule, blanks squashed", () => {
  deepStrictEqual(parseBashRule("Bash(git log:*)"), {
    kind: "prefix",
    prefix: "git log",
    source: "Bash(git log:*)",
  });
  deepStrictEqual(parseBashRule("Bash(  git   log  :*)"), {
    kind: "prefix",
    prefix: "git log",
    source: "Bash(  git   log  :*)",
  });
});

Deno.test("parseBashRule() reads a body without * as an exact rule", () => {
  deepStrictEqual(parseBashRule("Bash(git status)"), {
    kind: "exact",
    command: "git status",
    source: "Bash(git status)",
  });
  deepStrictEqual(parseBashRule("Bash( npm   test )"), {
    kind: "exact",
    command: "npm test",
    source: "Bash( npm   test )",
  });
});

Deno.test("parseBashRule() reads a body with * as an anchored glob", () => {
  const r = rule("Bash(git * main)");
  strictEqual(r.kind, "glob");
  if (r.kind !== "glob") return;
  strictEqual(r.source, "Bash(git * main)");
  ok(r.pattern.test("git log main"));
  ok(r.pattern.test("git push origin main"));
  ok(!r.pattern.test("git log main2"));
  ok(!r.pattern.test("xgit log main"));
});

Deno.test("parseBashRule() escapes regex syntax in a glob", () => {
  const r = rule("Bash(ls a.b+(c)*)");
  if (r.kind !== "glob") throw new Error(`expected a glob, got ${r.kind}`);
  ok(r.pattern.test("ls a.b+(c)"));
  ok(r.pattern.test("ls a.b+(c) -la"));
  ok(!r.pattern.test("ls axb+(c)"));
  ok(!r.pattern.test("ls a.bb(c)"));
});

Deno.test("parseBashRule() gives null for rules about other tools", () => {
  for (const source of ["Read(./secrets)", "Bashful", "WebFetch", "Bash(x", "bash(ls)", ""]) {
    strictEqual(parseBashRule(source), null, source);
  }
});

Deno.test("ruleCovers() with an all rule covers every command", () => {
  ok(ruleCovers(rule("Bash"), "rm -rf /", false));
  ok(ruleCovers(rule("Bash(*)"), "anything at all", true));
});

Deno.test("ruleCovers() strictly reads a prefix rule as whole words", () => {
  const r = rule("Bash(git log:*)");
  ok(ruleCovers(r, "git log", false));
  ok(ruleCovers(r, "git log -5", false));
  ok(ruleCovers(r, "git   log   -5", false));
  ok(!ruleCovers(r, "git logx", false));
  ok(!ruleCovers(r, "git lo", false));
  ok(!ruleCovers(r, "FOO=1 git log", false));
});

Deno.test("ruleCovers() loosely reads a prefix rule as a bare string prefix", () => {
  const r = rule("Bash(git lo:*)");
  ok(ruleCovers(r, "git log", true));
  ok(!ruleCovers(r, "git log", false));
  ok(!ruleCovers(r, "git status", true));
});

Deno.test("ruleCovers() strictly reads an exact rule as the command alone", () => {
  const r = rule("Bash(git status)");
  ok(ruleCovers(r, "git status", false));
  ok(ruleCovers(r, " git  status ", false));
  ok(!ruleCovers(r, "git status -s", false));
  ok(!ruleCovers(r, "git statusx", false));
});

Deno.test("ruleCovers() loosely reads an exact rule as a prefix of whole words", () => {
  const r = rule("Bash(git status)");
  ok(ruleCovers(r, "git status", true));
  ok(ruleCovers(r, "git status -s", true));
  ok(!ruleCovers(r, "git statusx", true));
});

Deno.test("ruleCovers() strictly matches a glob rule on the whole command", () => {
  const r = rule("Bash(git * main)");
  ok(ruleCovers(r, "git branch -D main", false));
  ok(ruleCovers(r, "git  diff   main", false));
  ok(!ruleCovers(r, "git branch -D dev", false));
});

Deno.test("ruleCovers() loosely lets a trailing ' *' glob match the bare command", () => {
  const r = rule("Bash(git log *)");
  ok(!ruleCovers(r, "git log", false));
  ok(ruleCovers(r, "git log", true));
  ok(ruleCovers(r, "git log -1", false));
  ok(!ruleCovers(r, "git logx", true));
  const inner = rule("Bash(git * main)");
  ok(!ruleCovers(inner, "git main", true));
});

Deno.test("firstCovering() gives the first rule covering any form, or null", () => {
  const rules = [rule("Bash(npm:*)"), rule("Bash(git push:*)"), rule("Bash(git:*)")];
  strictEqual(firstCovering(rules, ["FOO=1 git push", "git push"], false)?.source, rules[1].source);
  strictEqual(firstCovering(rules, ["git log"], false)?.source, "Bash(git:*)");
  strictEqual(firstCovering(rules, ["ls"], false), null);
  strictEqual(firstCovering([], ["ls"], true), null);
  strictEqual(firstCovering(rules, ["gitx"], false), null);
  strictEqual(firstCovering(rules, ["gitx"], true)?.source, "Bash(git:*)");
});

Deno.test("settingsFiles() lists user, project, local and managed settings in order", () => {
  deepStrictEqual(settingsFiles({ userDir: "/h/.claude", projectDir: "/p" }), [
    "/h/.claude/settings.json",
    "/p/.claude/settings.json",
    "/p/.claude/settings.local.json",
    "/etc/claude-code/managed-settings.json",
  ]);
  deepStrictEqual(settingsFiles({ userDir: null, projectDir: null }), [
    "/etc/claude-code/managed-settings.json",
  ]);
});

Deno.test({
  name: "readBashRules() treats missing files as having no rules",
  permissions: FILES,
  fn() {
    using tmp = tempDir();
    deepStrictEqual(readBashRules([]), NO_RULES);
    deepStrictEqual(readBashRules([`${tmp.path}/nope.json`, `${tmp.path}/no/dir.json`]), {
      allow: [],
      ask: [],
      deny: [],
    });
  },
});

Deno.test({
  name: "readBashRules() treats a path through a regular file as missing",
  permissions: FILES,
  fn() {
    using tmp = tempDir();
    Deno.writeTextFileSync(`${tmp.path}/file`, "x");
    deepStrictEqual(readBashRules([`${tmp.path}/file/settings.json`]), NO_RULES);
  },
});

Deno.test({
  name: "readBashRules() reads allow, ask and deny from every file, in order",
  permissions: FILES,
  fn() {
    using tmp = tempDir();
    const a = `${tmp.path}/a.json`;
    const b = `${tmp.path}/b.json`;
    Deno.writeTextFileSync(
      a,
      JSON.stringify({
        permissions: {
          allow: ["Bash(git log:*)", "Bash(ls)"],
          ask: ["Bash(git push:*)"],
          deny: ["Bash(rm *)"],
        },
      }),
    );
    Deno.writeTextFileSync(b, JSON.stringify({ permissions: { allow: ["Bash"] } }));
    const rules = readBashRules([a, `${tmp.path}/missing.json`, b]);
    deepStrictEqual(rules.allow.map((r) => [r.kind, r.source]), [
      ["prefix", "Bash(git log:*)"],
      ["exact", "Bash(ls)"],
      ["all", "Bash"],
    ]);
    deepStrictEqual(rules.ask.map((r) => r.source), ["Bash(git push:*)"]);
    deepStrictEqual(rules.deny.map((r) => [r.kind, r.source]), [["glob", "Bash(rm *)"]]);
  },
});

Deno.test({
  name: "readBashRules() ignores rules for other tools and entries that are not strings",
  permissions: FILES,
  fn() {
    using tmp = tempDir();
    const f = `${tmp.path}/settings.json`;
    Deno.writeTextFileSync(
      f,
      JSON.stringify({
        permissions: {
          allow: ["Read(./src/**)", "WebFetch(domain:x.dev)", 42, null, { a: 1 }, "Bash(ls:*)"],
          deny: ["Edit(.env)"],
        },
      }),
    );
    const rules = readBashRules([f]);
    deepStrictEqual(rules.allow.map((r) => r.source), ["Bash(ls:*)"]);
    deepStrictEqual(rules.ask, []);
    deepStrictEqual(rules.deny, []);
  },
});

Deno.test({
  name: "readBashRules() reads a file without permissions, or with null ones, as no rules",
  permissions: FILES,
  fn() {
    using tmp = tempDir();
    const files = ["{}", '{"permissions": null}', '{"model": "x"}', "null", '{"permissions": {}}']
      .map((text, i) => {
        const f = `${tmp.path}/s${i}.json`;
        Deno.writeTextFileSync(f, text);
        return f;
      });
    deepStrictEqual(readBashRules(files), NO_RULES);
  },
});

Deno.test({
  name: "readBashRules() throws a SyntaxError naming a file that is not JSON",
  permissions: FILES,
  fn() {
    using tmp = tempDir();
    const f = `${tmp.path}/settings.json`;
    Deno.writeTextFileSync(f, '{"permissions": {"allow": ["Bash"],}');
    throws(() => readBashRules([f]), (e: unknown) => {
      ok(e instanceof SyntaxError, String(e));
      ok(e.message.includes(`"${f}"`), e.message);
      return true;
    });
  },
});

Deno.test({
  name: "readBashRules() throws a TypeError when permissions is not an object",
  permissions: FILES,
  fn() {
    using tmp = tempDir();
    const f = `${tmp.path}/settings.json`;
    Deno.writeTextFileSync(f, '{"permissions": "Bash"}');
    throws(() => readBashRules([f]), (e: unknown) => {
      ok(e instanceof TypeError, String(e));
      ok(e.message.includes(f) && e.message.includes('"permissions" is not an object'), e.message);
      return true;
    });
  },
});

Deno.test({
  name: "readBashRules() throws a TypeError when a permissions list is not a list",
  permissions: FILES,
  fn() {
    using tmp = tempDir();
    for (const key of ["allow", "ask", "deny"]) {
      const f = `${tmp.path}/${key}.json`;
      Deno.writeTextFileSync(f, JSON.stringify({ permissions: { [key]: "Bash(ls:*)" } }));
      throws(() => readBashRules([f]), (e: unknown) => {
        ok(e instanceof TypeError, String(e));
        ok(e.message.includes(f), e.message);
        ok(e.message.includes(`"permissions.${key}" is not a list`), e.message);
        return true;
      });
    }
  },
});

Deno.test({
  name: "readBashRules() throws on a file after reading the good ones before it",
  permissions: FILES,
  fn() {
    using tmp = tempDir();
    const good = `${tmp.path}/good.json`;
    const bad = `${tmp.path}/bad.json`;
    Deno.writeTextFileSync(good, '{"permissions": {"allow": ["Bash"]}}');
    Deno.writeTextFileSync(bad, "not json");
    throws(() => readBashRules([good, bad]), SyntaxError);
  },
});
