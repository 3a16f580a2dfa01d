import { strictEqual } from "node:assert/strict";
import type { Ctx, ProxyRequest } from "../../core/plugin.ts";
import { injectPlugin } from "./mod.ts";

Deno.test("injectPlugin.proxyFilter() leaves a Gemini request as it came", async () => {
  const body = '{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}';
  const req: ProxyRequest = { api: "gemini", body };
  // Full styles: an Anthropic body would get them.
  const ctx = { pluginConfig: () => ({ terse: "full", code: "full" }) } as unknown as Ctx;
  strictEqual(await injectPlugin.proxyFilter!(req, ctx), null);
  strictEqual(req.body, body);
  const anthropic: ProxyRequest = { api: "anthropic", body: '{"messages":[]}' };
  await injectPlugin.proxyFilter!(anthropic, ctx);
  strictEqual(anthropic.body.includes('"system"'), true, "the same ctx styles an Anthropic body");
});
