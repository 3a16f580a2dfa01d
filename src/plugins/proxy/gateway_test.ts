import { equal, match, notEqual, ok } from "node:assert/strict";
import {
  ANONYMOUS,
  CallerBound,
  CallerNamer,
  cleanCaller,
  loadSalt,
  OTHER_CALLERS,
  tokenMatches,
  tokenOf,
} from "./gateway.ts";

Deno.test("tokenMatches() accepts the token alone", async (t) => {
  const cases: [string | null, string, boolean][] = [
    ["s3cret", "s3cret", true],
    ["s3cre", "s3cret", false],
    ["s3cret!", "s3cret", false],
    ["S3cret", "s3cret", false],
    ["", "s3cret", false],
    [null, "s3cret", false],
    ["", "", false],
  ];
  for (const [given, token, want] of cases) {
    await t.step(`${JSON.stringify(given)} vs ${JSON.stringify(token)}`, () => {
      equal(tokenMatches(given, token), want);
    });
  }
});

Deno.test("tokenOf() reads x-rtok-token, and a bearer token only for /metrics", () => {
  equal(tokenOf(new Headers({ "x-rtok-token": " t1 " }), "/v1/messages"), "t1");
  const bearer = new Headers({ authorization: "Bearer t2" });
  equal(tokenOf(bearer, "/metrics"), "t2");
  // A provider's own bearer key is not the gateway's token.
  equal(tokenOf(bearer, "/v1/chat/completions"), null);
});

Deno.test("cleanCaller() keeps a caller to safe chars and 64 of them", () => {
  equal(cleanCaller(" alice@example.com "), "alice@example.com");
  equal(cleanCaller('bob "the" builder\n'), "bob__the__builder");
  equal(cleanCaller("x".repeat(100)).length, 64);
});

Deno.test({
  name: "CallerNamer.callerOf() names the header, else a salted key hash, else anonymous",
  permissions: { read: true, write: true },
  async fn() {
    const home = Deno.makeTempDirSync();
    try {
      const salt = loadSalt(home);
      equal(Deno.statSync(`${home}/proxy_salt`).mode! & 0o777, 0o600);
      equal(loadSalt(home).join(), salt.join(), "one salt per installation");
      const namer = new CallerNamer(salt);
      const url = new URL("http://gw/v1/messages");
      equal(await namer.callerOf(new Headers({ "x-rtok-caller": "alice" }), url), "alice");
      const a = await namer.callerOf(new Headers({ "x-api-key": "sk-ant-secret" }), url);
      match(a, /^key-[0-9a-f]{12}$/);
      ok(!a.includes("secret"));
      equal(
        await namer.callerOf(new Headers({ authorization: "Bearer sk-ant-secret" }), url),
        a,
        "the same key in another header is the same caller",
      );
      notEqual(await namer.callerOf(new Headers({ "x-api-key": "sk-other" }), url), a);
      const gemini = new URL("http://gw/v1beta/models/g:generateContent?key=sk-ant-secret");
      equal(await namer.callerOf(new Headers(), gemini), a);
      equal(await namer.callerOf(new Headers(), url), ANONYMOUS);
      // Another installation's salt gives the same key another name.
      const other = new CallerNamer(crypto.getRandomValues(new Uint8Array(32)));
      notEqual(await other.callerOf(new Headers({ "x-api-key": "sk-ant-secret" }), url), a);
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
});

Deno.test("CallerBound.label() gives the first N callers their own label, the rest other", () => {
  const b = new CallerBound(2);
  equal(b.label("a"), "a");
  equal(b.label("b"), "b");
  equal(b.label("c"), OTHER_CALLERS);
  equal(b.label("a"), "a");
});
