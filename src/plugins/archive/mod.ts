/**
 * The `archive` plugin: keeps the raw bytes behind every lossy output.
 *
 * @module
 */

import type { Ctx, Plugin, RawMeta } from "../../core/plugin.ts";
import { keepRaw } from "./archive.ts";

/** The `archive` plugin. */
export const archivePlugin: Plugin = {
  manifest: {
    id: "archive",
    surfaces: ["cli", "hook", "mcp", "proxy"],
    defaultOn: true,
    description: "Keeps every cut output's raw bytes for `rtok expand`, bounded in age and size.",
  },
  keepRaw(raw: Uint8Array, meta: RawMeta, ctx: Ctx): Promise<string> {
    if (!ctx.store) return Promise.reject(new Error("the store is not available"));
    return keepRaw(ctx.store, ctx.home, raw, meta, ctx.config.archive);
  },
};
