/**
 * The `proxy` plugin: compresses the tool results of model requests `rtok proxy` forwards.
 * Its code loads on the first request, never in any other surface.
 *
 * @module
 */

import type { Plugin } from "../../core/plugin.ts";
import type { ToolResultCompressor } from "./compress.ts";
import { lazyImport } from "../../core/lazy.ts";
import { insertProxyRow } from "./ledger.ts";
import type { ProxyRow } from "./row.ts";
import { manifest } from "./manifest.ts";

let compressor: Promise<ToolResultCompressor> | null = null;

function load(): Promise<ToolResultCompressor> {
  return compressor ??= lazyImport<typeof import("./compress.ts")>(
    new URL("./compress.ts", import.meta.url),
  ).then((m: typeof import("./compress.ts")) => new m.ToolResultCompressor());
}

/** The `proxy` plugin. */
export const proxyPlugin: Plugin = {
  manifest,
  async proxyFilter(req, ctx) {
    return await (await load()).compress(req, ctx);
  },
  // Rows the proxy could not write when their requests finished (the store locked or
  // read-only) wait in the spool as `proxy.request` entries.
  ingest(entries, store) {
    for (const e of entries) {
      if (e.kind === "proxy.request") insertProxyRow(store.db, e.data as unknown as ProxyRow);
    }
  },
};
