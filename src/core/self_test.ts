import { equal, notEqual } from "node:assert/strict";
import { rtokInvocation } from "./self.ts";

Deno.test({
  name: "rtokInvocation() keeps its answer for a PATH and sees rtok leave it at the next call",
  permissions: { read: true, write: true, env: true },
  fn() {
    const bin = Deno.makeTempDirSync();
    try {
      const home = Deno.makeTempDirSync({ dir: bin });
      Deno.writeTextFileSync(`${bin}/rtok`, "#!/bin/sh\n", { mode: 0o755 });
      const probe = { path: `/nonexistent:${bin}`, home };
      equal(rtokInvocation(probe), "rtok");
      equal(rtokInvocation(probe), "rtok");
      Deno.removeSync(`${bin}/rtok`);
      const after = rtokInvocation(probe);
      notEqual(after, "rtok");
      // A launcher that `deno install` wrote is found when PATH has no rtok.
      Deno.mkdirSync(`${home}/.deno/bin`, { recursive: true });
      Deno.writeTextFileSync(`${home}/.deno/bin/rtok`, "#!/bin/sh\n", { mode: 0o755 });
      const other = { path: `/also-nonexistent:${bin}`, home };
      equal(rtokInvocation(other), `${home}/.deno/bin/rtok`);
    } finally {
      Deno.removeSync(bin, { recursive: true });
    }
  },
});
