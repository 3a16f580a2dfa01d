import { strictEqual } from "node:assert/strict";
import { archiveIdOfPath } from "./read_watch.ts";

const SHA = "0123456789ab" + "c".repeat(52);

Deno.test("archiveIdOfPath() names the archive id of a file in the archive, however spelled", async (t) => {
  const cases: [string, unknown, string | null][] = [
    ["absolute", `/home/u/.rtok/archive/${SHA}`, "0123456789ab"],
    ["doubled slashes and dots", `/home/u//.rtok/./archive/${SHA}`, "0123456789ab"],
    ["relative to the cwd", `../.rtok/archive/${SHA}`, "0123456789ab"],
    ["another directory", `/home/u/other/archive/${SHA}`, null],
    ["not a sha256 name", "/home/u/.rtok/archive/notes.txt", null],
    ["a temp file beside it", `/home/u/.rtok/archive/${SHA}.123.tmp`, null],
    ["not a string", 42, null],
  ];
  for (const [name, path, expected] of cases) {
    await t.step(
      name,
      () => strictEqual(archiveIdOfPath(path, "/home/u/.rtok", "/home/u/src"), expected),
    );
  }
});

Deno.test({
  name: "archiveIdOfPath() matches through a symlinked home",
  permissions: { read: true, write: true },
  fn() {
    const dir = Deno.makeTempDirSync();
    try {
      Deno.mkdirSync(`${dir}/real/archive`, { recursive: true });
      Deno.symlinkSync(`${dir}/real`, `${dir}/link`);
      strictEqual(
        archiveIdOfPath(`${dir}/real/archive/${SHA}`, `${dir}/link`, "/"),
        "0123456789ab",
      );
      strictEqual(archiveIdOfPath(`${dir}/real/archive/${SHA}`, `${dir}/elsewhere`, "/"), null);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
