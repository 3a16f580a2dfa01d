import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { defaultConfig } from "../../core/config.ts";
import { makeCtx, Registry } from "../../core/registry.ts";
import { Store, storePath } from "../../core/store.ts";
import { archiveDir, findArchived, readArchived, sha256Hex } from "./archive.ts";
import { archivePlugin } from "./mod.ts";

const META = { command: "Read src/big.ts", cwd: "/repo", exitCode: null, family: "Read" };

Deno.test({
  name: "archivePlugin.keepRaw() without a store writes the file and defers its index row",
  permissions: { read: true, write: true },
  async fn() {
    const home = Deno.makeTempDirSync();
    try {
      const config = defaultConfig();
      const registry = new Registry([archivePlugin], config);
      const raw = new TextEncoder().encode("line\n".repeat(2000));
      const hook = makeCtx(registry, { config, store: null, home });
      const id = await hook.keepRaw(raw, META);
      ok(id, registry.errors.map((e) => String(e.error)).join("; "));
      const sha = await sha256Hex(raw);
      strictEqual(id, sha.slice(0, id!.length));
      deepStrictEqual(Deno.readFileSync(`${archiveDir(home)}/${sha}`), raw);

      const store = Store.open(storePath(home));
      try {
        registry.drain(makeCtx(registry, { config, store, home }));
        strictEqual(registry.errors.length, 0, String(registry.errors[0]?.error));
        const row = findArchived(store, id!);
        strictEqual(row.command, "Read src/big.ts");
        strictEqual(row.family, "Read");
        strictEqual(row.size, raw.byteLength);
        deepStrictEqual(await readArchived(home, row), raw);
      } finally {
        store.close();
      }
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
});
