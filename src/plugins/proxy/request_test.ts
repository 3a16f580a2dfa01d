import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { type Config, DEFAULT_CONFIG } from "../../core/config.ts";
import type { Plugin } from "../../core/plugin.ts";
import { makeCtx, Registry } from "../../core/registry.ts";
import { BodyRequest } from "./request.ts";

const enc = new TextEncoder();
// Not UTF-8: reading it as text throws, so a test can tell whether anything decoded it.
const NOT_UTF8 = new Uint8Array([0x7b, 0xff, 0x7d]);

Deno.test("BodyRequest decodes its bytes only when body is read, and keeps both in step", async (t) => {
  await t.step("bytes are never decoded unless body is read", () => {
    const req = new BodyRequest("anthropic", NOT_UTF8);
    strictEqual(req.bytes, NOT_UTF8);
    strictEqual(req.encoded(), NOT_UTF8);
    throws(() => req.body, TypeError);
  });
  await t.step("body is the bytes decoded", () => {
    const bytes = enc.encode('{"x":"é🎉"}');
    const req = new BodyRequest("openai-chat", bytes);
    strictEqual(req.body, '{"x":"é🎉"}');
    strictEqual(req.bytes, bytes);
    strictEqual(req.encoded(), bytes);
  });
  await t.step("setting the same text keeps the bytes; another text replaces them", () => {
    const bytes = enc.encode('{"x":1}');
    const req = new BodyRequest("anthropic", bytes);
    const same = req.body;
    req.body = same;
    strictEqual(req.bytes, bytes);
    req.body = '{"x":"é"}';
    strictEqual(req.bytes, undefined);
    deepStrictEqual(req.encoded(), enc.encode('{"x":"é"}'));
  });
  await t.step("setting bytes replaces the text", () => {
    const req = new BodyRequest("anthropic", enc.encode("{}"));
    strictEqual(req.body, "{}");
    const next = enc.encode('{"y":"ü"}');
    req.bytes = next;
    strictEqual(req.body, '{"y":"ü"}');
    strictEqual(req.encoded(), next);
    req.bytes = undefined;
    strictEqual(req.bytes, undefined);
    strictEqual(req.body, '{"y":"ü"}');
  });
});

function config(): Config {
  return { ...structuredClone(DEFAULT_CONFIG) as Config, plugins: {} };
}

function plugin(id: string, proxyFilter: Plugin["proxyFilter"]): Plugin {
  return {
    manifest: { id, surfaces: ["proxy"], defaultOn: true, description: `${id} for tests` },
    proxyFilter,
  };
}

Deno.test("Registry.proxyFilter() undoes a byte plugin's change when it throws, without decoding the body", async () => {
  const registry = new Registry([
    plugin("bytes", (req) => {
      req.bytes = enc.encode("changed");
      throw new Error("boom");
    }),
    plugin("after", (req) => {
      strictEqual(req.bytes, NOT_UTF8);
      return Promise.resolve(null);
    }),
  ], config());
  const ctx = makeCtx(registry, { config: config(), store: null, home: "" });
  const req = new BodyRequest("anthropic", NOT_UTF8);
  await registry.proxyFilter(req, ctx);
  strictEqual(req.encoded(), NOT_UTF8);
  deepStrictEqual(registry.errors.map((e) => e.plugin), ["bytes"]);
});

Deno.test("Registry.proxyFilter() undoes a text plugin's change to a body held as bytes", async () => {
  const bytes = enc.encode('{"a":"é"}');
  const registry = new Registry([
    plugin("text", (req) => {
      req.body = "changed";
      throw new Error("boom");
    }),
  ], config());
  const ctx = makeCtx(registry, { config: config(), store: null, home: "" });
  const req = new BodyRequest("anthropic", bytes);
  await registry.proxyFilter(req, ctx);
  strictEqual(req.bytes, bytes);
  strictEqual(req.body, '{"a":"é"}');
});
