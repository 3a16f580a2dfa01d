/**
 * The catalogue: every built-in plugin, in dispatch order, as its manifest and a loader. It is
 * the one list a new plugin is added to; the registry's order, the plugins a surface loads
 * (`BUILTIN_PLUGINS`, the hook's, a command run's) and `rtok config`'s list are read from it.
 * A surface loads only the plugins whose manifest names it, so the hook loads no filter module
 * and a command run none of the hook's plugins.
 *
 * @module
 */

import type { Manifest, Plugin, Surface } from "../core/plugin.ts";
import { lazyImport } from "../core/lazy.ts";
import { manifest as archive } from "./archive/manifest.ts";
import { manifest as cmd } from "./cmd/manifest.ts";
import { manifest as graph } from "./graph/manifest.ts";
import { manifest as guard } from "./guard/manifest.ts";
import { manifest as inject } from "./inject/manifest.ts";
import { manifest as measure } from "./measure/manifest.ts";
import { manifest as memory } from "./memory/manifest.ts";
import { manifest as posttool } from "./posttool/manifest.ts";
import { manifest as proxy } from "./proxy/manifest.ts";

/** One built-in plugin: what it is, and how a surface loads it. */
export interface BuiltinEntry {
  /** Its manifest, read without loading the plugin. */
  readonly manifest: Manifest;
  /** Loads the plugin; `surface` may pick a lighter form serving only that surface's events. */
  load(surface?: Surface): Promise<Plugin>;
}

/** One plugin id and whether it runs when config is silent. */
export interface CatalogueEntry {
  /** The plugin id. */
  readonly id: string;
  /** Its default state. */
  readonly defaultOn: boolean;
}

// By computed specifier: a module loads only when a surface asks for its plugin.
const _load = <M>(path: string, pick: (m: M) => Plugin) => (): Promise<Plugin> =>
  lazyImport<M>(new URL(path, import.meta.url)).then(pick);

type _Cmd = typeof import("./cmd/mod.ts");
type _CmdRewrite = typeof import("./cmd/rewrite_plugin.ts");

/** Every built-in plugin, in dispatch order. */
export const BUILTINS: readonly BuiltinEntry[] = [
  {
    manifest: measure,
    load: _load<typeof import("./measure/mod.ts")>("./measure/mod.ts", (m) => m.measurePlugin),
  },
  {
    manifest: cmd,
    // The hook only rewrites: its form loads no filter module until a command needs one.
    load: (surface) =>
      surface === "hook"
        ? _load<_CmdRewrite>("./cmd/rewrite_plugin.ts", (m) => m.cmdRewritePlugin)()
        : _load<_Cmd>("./cmd/mod.ts", (m) => m.cmdPlugin)(),
  },
  {
    manifest: guard,
    load: _load<typeof import("./guard/mod.ts")>("./guard/mod.ts", (m) => m.guardPlugin),
  },
  {
    manifest: archive,
    load: _load<typeof import("./archive/mod.ts")>("./archive/mod.ts", (m) => m.archivePlugin),
  },
  {
    manifest: proxy,
    load: _load<typeof import("./proxy/mod.ts")>("./proxy/mod.ts", (m) => m.proxyPlugin),
  },
  {
    manifest: posttool,
    load: _load<typeof import("./posttool/mod.ts")>("./posttool/mod.ts", (m) => m.posttoolPlugin),
  },
  {
    manifest: inject,
    load: _load<typeof import("./inject/mod.ts")>("./inject/mod.ts", (m) => m.injectPlugin),
  },
  {
    manifest: graph,
    load: _load<typeof import("./graph/mod.ts")>("./graph/mod.ts", (m) => m.graphPlugin),
  },
  {
    manifest: memory,
    load: _load<typeof import("./memory/mod.ts")>("./memory/mod.ts", (m) => m.memoryPlugin),
  },
];

/** Every built-in plugin id with its default state, in dispatch order. */
export const CATALOGUE: readonly CatalogueEntry[] = BUILTINS.map(({ manifest: m }) => ({
  id: m.id,
  defaultOn: m.defaultOn,
}));

/** The built-in plugin ids in dispatch order: the order a registry is given. */
export const DISPATCH_ORDER: readonly string[] = CATALOGUE.map((c) => c.id);

/**
 * Loads the built-in plugins whose manifest names `surface` (every one when it is absent), in
 * dispatch order, all at once.
 */
export function loadBuiltins(surface?: Surface): Promise<Plugin[]> {
  const wanted = surface === undefined
    ? BUILTINS
    : BUILTINS.filter((b) => b.manifest.surfaces.includes(surface));
  return Promise.all(wanted.map((b) => b.load(surface)));
}
