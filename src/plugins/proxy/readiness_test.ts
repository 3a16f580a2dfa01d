import { deepEqual, equal, match } from "node:assert/strict";
import { reachable, readinessChecker } from "./readiness.ts";

Deno.test({
  name: "readinessChecker() is ready when the store and every upstream answer, not once stopping",
  permissions: { net: ["127.0.0.1"] },
  async fn() {
    using open = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const up = `http://127.0.0.1:${(open.addr as Deno.NetAddr).port}`;
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const down = `http://127.0.0.1:${(closed.addr as Deno.NetAddr).port}`;
    closed.close();
    let store = "ok";
    let stopping = false;
    const check = readinessChecker({
      upstreams: { anthropic: up },
      store: () => store,
      stopping: () => stopping,
      keepMs: 0,
    });
    deepEqual(await check(), { ready: true, checks: { store: "ok", upstream_anthropic: "ok" } });
    store = "ok, spooling (database is locked)";
    equal((await check()).ready, true, "rows still kept, in the spool");
    store = "read-only file system";
    equal((await check()).ready, false);
    store = "ok";
    const two = readinessChecker({
      upstreams: { anthropic: up, openai: down },
      store: () => store,
      stopping: () => stopping,
      keepMs: 0,
    });
    const r = await two();
    equal(r.ready, false);
    match(r.checks.upstream_openai, /unreachable/);
    stopping = true;
    deepEqual(await check(), { ready: false, checks: { shutdown: "in progress" } });
  },
});

Deno.test({
  name: "reachable() says why a URL cannot be reached",
  permissions: { net: ["127.0.0.1"] },
  async fn() {
    match(await reachable("not a url", 100), /^not a URL/);
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (l.addr as Deno.NetAddr).port;
    l.close();
    match(await reachable(`http://127.0.0.1:${port}`, 500), /^127\.0\.0\.1:\d+ unreachable: /);
  },
});
