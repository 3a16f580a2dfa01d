import { match, ok, strictEqual } from "node:assert/strict";
import { ledger, pointerId, RTOK_PERMS, run, tempDir } from "./_helpers.ts";

const EXAMPLE = new URL("../examples/hello_plugin.ts", import.meta.url).pathname;
const THROWING = new URL("./_throwing_filter.ts", import.meta.url).pathname;

Deno.test("examples/hello_plugin.ts filters through its own plugin and records the run", async () => {
  using tmp = tempDir();
  const r = await run(Deno.execPath(), ["run", ...RTOK_PERMS, EXAMPLE, "seq", "1", "100"], {
    env: { RTOK_HOME: tmp.path },
  });
  strictEqual(r.code, 0, r.err);
  match(
    r.out,
    /^1\n2\n3\n… 94 more …\n98\n99\n100\n\[rtok: cut 94 numbers; raw: rtok expand [0-9a-f]{12}\]\n$/,
  );
  const rows = ledger(tmp.path);
  strictEqual(rows.length, 1);
  strictEqual(rows[0].family, "seq");
  strictEqual((rows[0] as unknown as { plugin: string }).plugin, "hello");
  strictEqual(rows[0].archive_id, pointerId(r.out));
  strictEqual(rows[0].lossy, 1);
});

Deno.test("a filter that throws: the raw output arrives and the failure is recorded", async () => {
  using tmp = tempDir();
  const raw = await run("seq", ["1", "50"]);
  const r = await run(Deno.execPath(), ["run", ...RTOK_PERMS, THROWING, "seq", "1", "50"], {
    env: { RTOK_HOME: tmp.path },
  });
  strictEqual(r.code, 0);
  strictEqual(r.out, raw.out);
  strictEqual(r.err, "");
  const rows = ledger(tmp.path);
  strictEqual(rows[0].passthrough, "filter failed (see rtok gain --failures)");
  const failures = await run(Deno.execPath(), [
    "run",
    ...RTOK_PERMS,
    new URL("../cli.ts", import.meta.url).pathname,
    "gain",
    "--failures",
    "--format",
    "json",
  ], { env: { RTOK_HOME: tmp.path } });
  const list = JSON.parse(failures.out);
  strictEqual(list.length, 1);
  strictEqual(list[0].family, "seq");
  ok(list[0].error.includes("the parser met something new"), list[0].error);
  strictEqual(list[0].fallbackOk, true);
});
