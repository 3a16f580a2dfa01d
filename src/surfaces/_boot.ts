/**
 * What every CLI surface starts from: home, config, registry, store, plugin context. Any of
 * them failing costs one line on stderr, never the user's command.
 *
 * @module
 */

import { type Config, defaultConfig, loadConfig, rtokHome } from "../core/config.ts";
import type { Ctx, Plugin, RawMeta } from "../core/plugin.ts";
import { makeCtx, Registry } from "../core/registry.ts";
import { DISPATCH_ORDER } from "../plugins/catalogue.ts";
import type { Store } from "../core/store.ts";
import { warn } from "./_io.ts";
import { lazyImport } from "../core/lazy.ts";
import type { Keeper } from "../pipeline/deliver.ts";
import type { RunEnv } from "../pipeline/run.ts";

/** The loaded state of one invocation. */
export interface Boot {
  /** `$RTOK_HOME`, or `null` when it cannot be found. */
  readonly home: string | null;
  /** The effective config (the defaults when the file is bad). */
  readonly config: Config;
  /** The enabled plugins. */
  readonly registry: Registry;
}

/**
 * Finds home and loads config (a bad config is reported and the defaults are used), then
 * builds the registry over `plugins` in catalogue order.
 */
export async function boot(plugins?: readonly Plugin[]): Promise<Boot> {
  plugins ??= await builtinPlugins();
  let home: string | null = null;
  let config = defaultConfig();
  try {
    home = rtokHome();
    config = await loadConfig(home);
  } catch (e) {
    warn(`${(e as Error).message}; using the defaults (fix it, or see "rtok config")`);
  }
  const registry = new Registry(plugins, config, DISPATCH_ORDER);
  return { home, config, registry };
}

let _builtin: readonly Plugin[] | null = null;

/**
 * Every built-in plugin, loaded on first use: a command run boots with fewer, and loads them
 * only when it drains the spool.
 */
export async function builtinPlugins(): Promise<readonly Plugin[]> {
  return _builtin ??= (await lazyImport<typeof import("../plugins/mod.ts")>(
    new URL("../plugins/mod.ts", import.meta.url),
  )).BUILTIN_PLUGINS;
}

/**
 * Opens the store, or reports why not and returns `null`. A store that is not a database is
 * moved aside and a new one started, said in one line. `node:sqlite` loads here, not at
 * start-up, so a surface can start its real work first.
 */
export async function openStore(b: Boot): Promise<Store | null> {
  if (b.home === null) return null;
  try {
    const { Store, storePath } = await lazyImport<typeof import("../core/store.ts")>(
      new URL("../core/store.ts", import.meta.url),
    );
    const store = Store.open(storePath(b.home), { heal: true });
    if (store.healed !== null) {
      warn(
        `the store "${store.path}" was not a database; moved it to "${store.healed}" ` +
          "and started a new one",
      );
    }
    return store;
  } catch (e) {
    warn((e as Error).message);
    return null;
  }
}

/** The plugin context for this invocation. */
export function context(b: Boot, store: Store | null): Ctx {
  return makeCtx(b.registry, { config: b.config, store, home: b.home ?? "" });
}

/**
 * The archive of a surface that holds no store: each keep opens it (only a cut needs it), keeps
 * through the context's archive, and closes it. With `explain`, a keep that fails says why in
 * one line (a store that cannot be opened said so already).
 */
export function archiveKeeper(b: Boot, explain: boolean): Keeper {
  return {
    async keep(raw: Uint8Array, meta: RawMeta): Promise<string | null> {
      const store = await openStore(b);
      if (store === null) return null;
      const ctx = context(b, store);
      let kept: string | null;
      try {
        kept = await ctx.archive.keep(raw, meta);
      } finally {
        store.close();
      }
      if (kept === null && explain) {
        const why = b.registry.errors.splice(0).map((e) => (e.error as Error)?.message ?? e.error);
        const reason = why.length > 0 ? why.join("; ") : ctx.archive.unavailable ?? "none said why";
        warn(`the raw output could not be archived (${reason}), so it is printed whole`);
      }
      return kept;
    },
  };
}

/** What the run pipeline needs of this invocation: its registry, config, context and archive. */
export function runEnv(b: Boot): RunEnv {
  return {
    registry: b.registry,
    home: b.home,
    config: b.config,
    ctx: context(b, null),
    keeper: archiveKeeper(b, true),
    warn,
    reportErrors: () => reportPluginErrors(b),
  };
}

/**
 * Moves the spool's rows into `store`; a failure costs one line, and the rows stay spooled.
 * Every built-in plugin applies its own rows, whichever plugins this run was booted with: the
 * spool also holds what the hook and the other surfaces deferred.
 */
export async function drain(b: Boot, store: Store): Promise<void> {
  const own = new Set(b.registry.enabled.map((p) => p.manifest.id));
  const all = await builtinPlugins();
  const registry = new Registry(
    [...b.registry.enabled, ...all.filter((p) => !own.has(p.manifest.id))],
    b.config,
    DISPATCH_ORDER,
  );
  try {
    registry.drain(makeCtx(registry, { config: b.config, store, home: b.home ?? "" }));
  } catch (e) {
    warn(`runs not yet in the ledger could not be added: ${(e as Error).message}`);
  }
  b.registry.errors.push(...registry.errors);
  reportPluginErrors(b);
}

/** Reports plugin errors the registry caught (one line each) and forgets them. */
export function reportPluginErrors(b: Boot): void {
  for (const e of b.registry.errors.splice(0)) {
    const message = e.error instanceof Error ? e.error.message : String(e.error);
    warn(`${message} (plugin ${e.plugin}, ${e.event})`);
  }
}
