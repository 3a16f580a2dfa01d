/**
 * The `archive` plugin: keeps the raw bytes behind every lossy output.
 *
 * @module
 */

import type { Ctx, Plugin, RawMeta } from "../../core/plugin.ts";

type Archive = typeof import("./archive.ts");
let archive: Promise<Archive> | null = null;

// The archive's code loads on first use, or earlier through `prepare` while a tool runs.
function loadArchive(): Promise<Archive> {
  return archive ??= import("./archive.ts");
}

/** The `archive` plugin. */
export const archivePlugin: Plugin = {
  manifest: {
    id: "archive",
    surfaces: ["cli", "hook", "mcp", "proxy"],
    defaultOn: true,
    description: "Keeps every cut output's raw bytes for `rtok expand`, bounded in age and size.",
  },
  async prepare(): Promise<void> {
    await loadArchive();
  },
  async keepRaw(raw: Uint8Array, meta: RawMeta, ctx: Ctx): Promise<string> {
    if (!ctx.store) throw new Error("the store is not available");
    return (await loadArchive()).keepRaw(ctx.store, ctx.home, raw, meta, ctx.config.archive);
  },
};
