/**
 * The `inject` plugin (off by default): adds a terse-answer style and a lean-code style to
 * the system prompt of each model request the proxy forwards. `[plugins.inject]` sets
 * `terse` and `code` to off, lite, full or ultra (both default to full), and `holdout` the
 * share of sessions that get no style (default 0.1), so `rtok gain` can compare the output
 * tokens of both arms. Its code loads on the first request, never in any other surface.
 *
 * @module
 */

import type { Plugin } from "../../core/plugin.ts";
import { lazyImport } from "../../core/lazy.ts";
import { manifest } from "./manifest.ts";

/** The `inject` plugin. */
export const injectPlugin: Plugin = {
  manifest,
  async proxyFilter(req, ctx) {
    // Gemini's system prompt (`systemInstruction`) is not one it knows how to edit.
    if (req.api === "gemini") return null;
    const { injectStyle } = await lazyImport<typeof import("./inject.ts")>(
      new URL("./inject.ts", import.meta.url),
    );
    const { LEVELS, styleText } = await lazyImport<typeof import("./styles.ts")>(
      new URL("./styles.ts", import.meta.url),
    );
    const own = ctx.pluginConfig("inject");
    const level = (key: string) => {
      const v = own[key] ?? "full";
      if (typeof v !== "string" || !(LEVELS as readonly string[]).includes(v)) {
        throw new TypeError(
          `config [plugins.inject] ${key} = ${JSON.stringify(v)}: expected one of ${
            LEVELS.join(", ")
          }`,
        );
      }
      return v as (typeof LEVELS)[number];
    };
    const text = styleText(level("terse"), level("code"));
    if (!text) return null;
    const { armOf, holdoutShare, sessionKey } = await lazyImport<
      typeof import("./holdout.ts")
    >(new URL("./holdout.ts", import.meta.url));
    const key = sessionKey(req.api, req.body);
    // A request that names no session is styled and counted in neither arm.
    const arm = key === null ? null : armOf(key, holdoutShare(own));
    if (arm !== "holdout") {
      const changed = injectStyle(req.api, req.body, text);
      if (changed !== null) req.body = changed;
    }
    return arm === null
      ? null
      : { resultsSeen: 0, charsSeen: 0, charsSaved: 0, results: [], style: arm };
  },
};
