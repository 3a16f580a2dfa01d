import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import {
  loadSource,
  matchSourceFilter,
  projectFilterFile,
  UNTRUSTED_WARNING,
  userFilterFile,
} from "./sources.ts";
import { trust } from "./trust.ts";

const filterFile = (name: string, pattern = "^make(\\s|$)") =>
  `[[filter]]\nname = "${name}"\nmatch = '${pattern}'\nsteps = [{ strip = ['^#'] }]\n`;

function world(): { home: string; cwd: string } & Disposable {
  const home = Deno.makeTempDirSync();
  const cwd = Deno.makeTempDirSync();
  Deno.mkdirSync(`${cwd}/.rtok`);
  return {
    home,
    cwd,
    [Symbol.dispose]() {
      Deno.removeSync(home, { recursive: true });
      Deno.removeSync(cwd, { recursive: true });
    },
  };
}

Deno.test("no filter files: no match, no warning, nothing written", async () => {
  using w = world();
  deepStrictEqual(await matchSourceFilter(["make"], w.cwd, w.home), { match: null, warnings: [] });
  deepStrictEqual([...Deno.readDirSync(w.home)], []);
});

Deno.test("the order: a trusted project file, then the user's file", async (t) => {
  using w = world();
  const project = projectFilterFile(w.cwd);
  Deno.writeTextFileSync(userFilterFile(w.home), filterFile("user-make"));
  Deno.writeTextFileSync(project, filterFile("project-make"));
  const name = async (argv: string[]) => {
    const a = await matchSourceFilter(argv, w.cwd, w.home);
    a.match?.filter.release?.();
    return { name: a.match?.filter.name ?? null, warnings: a.warnings };
  };
  await t.step("untrusted: the user's filter, and one warning", async () => {
    deepStrictEqual(await name(["make", "-j4"]), {
      name: "user-make",
      warnings: [UNTRUSTED_WARNING],
    });
  });
  await t.step("untrusted, and no filter for this command: no warning", async () => {
    deepStrictEqual(await name(["df"]), { name: null, warnings: [] });
  });
  await t.step("trusted: the project's filter", async () => {
    await trust(w.home, project, Deno.readTextFileSync(project));
    deepStrictEqual(await name(["/usr/bin/make"]), { name: "project-make", warnings: [] });
  });
  await t.step("changed after trust: untrusted again", async () => {
    Deno.writeTextFileSync(project, filterFile("project-make") + "# edited\n");
    deepStrictEqual(await name(["make"]), { name: "user-make", warnings: [UNTRUSTED_WARNING] });
  });
});

Deno.test("a match splits argv at the tool and runs in a Worker", async () => {
  using w = world();
  Deno.writeTextFileSync(userFilterFile(w.home), filterFile("make"));
  const { match: m } = await matchSourceFilter(["make", "-C", "x"], w.cwd, w.home);
  deepStrictEqual(m && { prefix: m.prefix, args: m.args }, { prefix: ["make"], args: ["-C", "x"] });
  ok(m!.filter.filterWithin, "a user's filter runs with a time limit");
  deepStrictEqual(
    await m!.filter.filterWithin!("# a\nb\n", { args: [], shaped: false, exitCode: 0 }, 5000),
    { text: "b\n", cut: ["1 line"] },
  );
  m!.filter.release?.();
});

Deno.test("a file that does not parse is skipped with one line naming file and line", async () => {
  using w = world();
  Deno.writeTextFileSync(userFilterFile(w.home), filterFile("make") + "stepz = 1\n");
  const a = await matchSourceFilter(["make"], w.cwd, w.home);
  strictEqual(a.match, null);
  strictEqual(a.warnings.length, 1);
  match(
    a.warnings[0],
    /^Cannot read filters ".*filters\.toml": line 5: filter "make": unknown key "stepz"; .*; its filters are not used$/,
  );
});

Deno.test("a parsed file is cached by content and read back from the cache", async () => {
  using w = world();
  const file = userFilterFile(w.home);
  Deno.writeTextFileSync(file, filterFile("make"));
  const first = await loadSource("user", file, w.home);
  strictEqual(first?.defs[0].name, "make");
  const [cache] = [...Deno.readDirSync(`${w.home}/cache`)].map((e) => `${w.home}/cache/${e.name}`);
  // Rename the cached filter: a second load that reads the cache shows the new name.
  const c = JSON.parse(Deno.readTextFileSync(cache));
  c.defs[0].name = "from-cache";
  Deno.writeTextFileSync(cache, JSON.stringify(c));
  strictEqual((await loadSource("user", file, w.home))?.defs[0].name, "from-cache");
  // A changed file is parsed again.
  Deno.writeTextFileSync(file, filterFile("make2"));
  strictEqual((await loadSource("user", file, w.home))?.defs[0].name, "make2");
});
