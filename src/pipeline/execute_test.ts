import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { heldText, runCapped, toolArgv } from "./execute.ts";

Deno.test("toolArgv() starts git directly and other tools through sh by their typed name", () => {
  deepStrictEqual(toolArgv("git", ["log"]), ["git", "log"]);
  deepStrictEqual(toolArgv("ls", ["-l"]), ["/bin/sh", "-c", 'exec "$0" "$@"', "ls", "-l"]);
});

Deno.test("heldText() counts the bytes a capped stream did not keep", () => {
  const bytes = new TextEncoder().encode("abc");
  strictEqual(heldText(bytes, 0), "abc");
  strictEqual(heldText(bytes, 7), "abc\n[rtok: 7 more bytes were not kept]\n");
});

Deno.test("runCapped() runs in the directory given and stops a run at its time limit", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rtok-exec-" });
  try {
    const done = await runCapped(["/bin/sh", "-c", "pwd; echo err >&2; exit 3"], dir, 10_000);
    strictEqual(new TextDecoder().decode(done.stdout), `${await Deno.realPath(dir)}\n`);
    strictEqual(new TextDecoder().decode(done.stderr), "err\n");
    strictEqual(done.code, 3);
    const slow = await runCapped(["/bin/sh", "-c", "sleep 5"], dir, 200);
    strictEqual(slow.timedOut, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
