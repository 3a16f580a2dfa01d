import { ok, strictEqual, throws } from "node:assert/strict";
import { canonicalJson, hostHome, jsonErrorLine, originalBackup, runsRtokHook } from "./shared.ts";

Deno.test("jsonErrorLine() names the line where a text stops being JSON", async (t) => {
  const cases: [string, string, number | null][] = [
    ["valid", '{"a": 1}', null],
    ["a value missing", '{\n "a": 1,\n "b": \n}\n', 4],
    ["a comma missing", '{\n "a": 1\n "b": 2\n}', 3],
    ["a bare word", '{\n  "a": 1,\n  "b": tru\n}\n', 3],
    ["cut short", '{\n "a": [1,\n', 3],
  ];
  for (const [name, text, line] of cases) {
    await t.step(name, () => strictEqual(jsonErrorLine(text), line));
  }
});

Deno.test("canonicalJson() sorts every object's keys and drops spaces", () => {
  strictEqual(canonicalJson({ b: [1, { d: 1, c: 2 }], a: "x" }), '{"a":"x","b":[1,{"c":2,"d":1}]}');
});

Deno.test("originalBackup() finds the newest backup whose JSON is the one asked for", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/settings.json`;
    Deno.writeTextFileSync(`${path}.rtok-backup-20261201T000000`, '{"a": 1}\n');
    Deno.writeTextFileSync(`${path}.rtok-backup-20261202T000000`, '{ "a" :  1 }\n');
    Deno.writeTextFileSync(`${path}.rtok-backup-20261203T000000`, '{"a": 2}\n');
    strictEqual(await originalBackup(path, { a: 1 }), '{ "a" :  1 }\n', "its bytes, the newest");
    strictEqual(await originalBackup(path, { a: 3 }), null);
    ok((await originalBackup(`${dir}/none/x.json`, {})) === null, "no folder: none");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("runsRtokHook() knows rtok's hook for one host: by name, by path, through cli.ts or the script", async (t) => {
  const cases: [string, string, boolean][] = [
    ["rtok hook codex", "codex", true],
    ["/opt/bin/rtok hook codex", "codex", true],
    ["'/x y/rtok' hook codex", "codex", true],
    ["deno run -A /r/cli.ts hook codex", "codex", true],
    ["bash /h/.rtok/rtok_hook.sh hook codex", "codex", true],
    ["sh '/my h/rtok_hook.sh' hook gemini", "gemini", true],
    ["sh /h/rtok_hook.sh hook gemini", "codex", false],
    ["sh /h/my_rtok_hook.sh hook codex", "codex", false],
    ["rtok hook claude", "codex", false],
    ["rtok hook codexx", "codex", false],
    ["myrtok hook codex", "codex", false],
  ];
  for (const [command, host, want] of cases) {
    await t.step(command, () => strictEqual(runsRtokHook(command, host), want));
  }
});

Deno.test("hostHome() takes the host's variable, else ~/<dir>, else says which are missing", () => {
  strictEqual(hostHome({ CODEX_HOME: "/c/", HOME: "/h" }, "CODEX_HOME", ".codex", "Codex"), "/c");
  strictEqual(hostHome({ HOME: "/h" }, "CODEX_HOME", ".codex", "Codex"), "/h/.codex");
  throws(
    () => hostHome({}, "CODEX_HOME", ".codex", "Codex"),
    /cannot find Codex's home: neither CODEX_HOME nor HOME is set/,
  );
});
